package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.IOException;

/** Signed INT32 to Integer. */
final class IntLeaf extends Leaf {
  IntLeaf(
      RecordScope scope, PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
    super(scope, leaf, def, rep, column, INT32, path);
  }

  @Override
  Object read() throws IOException, ParquetException {
    ColumnCursor c = column;
    int d = c.def();
    if (d == def) {
      Integer v = c.ints[c.valueIndex];
      c.advance();
      return v;
    }
    return absent(c, d);
  }
}
