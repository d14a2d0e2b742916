package dev.parquetconnect.connect;

import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import org.apache.kafka.connect.data.Schema;

/** An INT64 leaf: the common case, with no switch on the kind. */
final class Int64LeafShredder extends LeafShredder {
  Int64LeafShredder(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
    super(ConnectTypes.Kind.INT64, leaf, schema, column, false); // no timestamps here
    exactClass = Long.class;
  }

  @Override
  void check(Object v) {
    if (!(v instanceof Long)) {
      throw BadValue.wrongClass(v, schema);
    }
  }

  @Override
  void write(Object v, int rep) {
    column.writeLong((Long) v, rep, def);
  }
}
