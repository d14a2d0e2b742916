package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.IOException;

/** INT64 to Long. */
final class LongLeaf extends Leaf {
  LongLeaf(
      RecordScope scope, PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
    super(scope, leaf, def, rep, column, INT64, path);
  }

  @Override
  Object read() throws IOException, ParquetException {
    ColumnCursor c = column;
    int d = c.def();
    if (d == def) {
      Long v = c.longs[c.valueIndex];
      c.advance();
      return v;
    }
    return absent(c, d);
  }
}
