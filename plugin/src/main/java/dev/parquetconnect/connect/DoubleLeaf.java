package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.IOException;

/** DOUBLE to Double. */
final class DoubleLeaf extends Leaf {
  DoubleLeaf(
      RecordScope scope, PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
    super(scope, leaf, def, rep, column, DOUBLE, path);
  }

  @Override
  Object read() throws IOException, ParquetException {
    ColumnCursor c = column;
    int d = c.def();
    if (d == def) {
      Double v = c.doubles[c.valueIndex];
      c.advance();
      return v;
    }
    return absent(c, d);
  }
}
