package dev.parquetconnect.connect;

import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import org.apache.kafka.connect.data.Schema;

/** An INT32 leaf: the common case, with no switch on the kind. */
final class Int32LeafShredder extends LeafShredder {
  Int32LeafShredder(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
    super(ConnectTypes.Kind.INT32, leaf, schema, column, false); // no timestamps here
    exactClass = Integer.class;
  }

  @Override
  void check(Object v) {
    if (!(v instanceof Integer)) {
      throw BadValue.wrongClass(v, schema);
    }
  }

  @Override
  void write(Object v, int rep) {
    column.writeInt((Integer) v, rep, def);
  }
}
