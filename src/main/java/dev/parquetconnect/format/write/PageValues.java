package dev.parquetconnect.format.write;

import dev.parquetconnect.format.encoding.ValuesEncoder;

/** Hands a page's buffered values to an encoder, in one batch call of the column's type. */
final class PageValues {
  private PageValues() {}

  static void writeTo(PageBuffer page, ValuesEncoder encoder) {
    int n = page.values;
    if (n == 0) {
      return;
    }
    switch (page.type) {
      case BOOLEAN -> encoder.writeBooleans(page.booleans, 0, n);
      case INT32 -> encoder.writeInts(page.ints, 0, n);
      case INT64 -> encoder.writeLongs(page.longs, 0, n);
      case FLOAT -> encoder.writeFloats(page.floats, 0, n);
      case DOUBLE -> encoder.writeDoubles(page.doubles, 0, n);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> encoder.writeBinaries(page.binaries, 0, n);
    }
  }
}
