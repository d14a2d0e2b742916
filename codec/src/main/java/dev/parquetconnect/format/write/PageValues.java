package dev.parquetconnect.format.write;

import dev.parquetconnect.format.encoding.ValuesEncoder;

/** Hands a page's buffered values to an encoder, in one batch call of the column's type. */
final class PageValues {
  private PageValues() {}

  static void writeTo(PageBuffer page, ValuesEncoder encoder) {
    writeTo(page, 0, page.values, encoder);
  }

  /** Values {@code from .. from + n - 1} of the page. */
  static void writeTo(PageBuffer page, int from, int n, ValuesEncoder encoder) {
    if (n == 0) {
      return;
    }
    switch (page.type) {
      case BOOLEAN -> encoder.writeBooleans(page.booleans, from, n);
      case INT32 -> encoder.writeInts(page.ints, from, n);
      case INT64 -> encoder.writeLongs(page.longs, from, n);
      case FLOAT -> encoder.writeFloats(page.floats, from, n);
      case DOUBLE -> encoder.writeDoubles(page.doubles, from, n);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> encoder.writeBinaries(page.binaries, from, n);
    }
  }
}
