package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.IOException;

/** BYTE_ARRAY to String. */
final class StringLeaf extends Leaf {
  StringLeaf(
      RecordScope scope, PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
    super(scope, leaf, def, rep, column, STRING, path);
  }

  @Override
  Object read() throws IOException, ParquetException {
    ColumnCursor c = column;
    int d = c.def();
    if (d == def) {
      String v = c.string(c.valueIndex, strings);
      c.advance();
      return v;
    }
    return absent(c, d);
  }
}
