package dev.parquetconnect.connect;

import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import org.apache.kafka.connect.data.Schema;

/** A BOOLEAN leaf: the common case, with no switch on the kind. */
final class BooleanLeafShredder extends LeafShredder {
  BooleanLeafShredder(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
    super(ConnectTypes.Kind.BOOLEAN, leaf, schema, column, false); // no timestamps here
    exactClass = Boolean.class;
  }

  @Override
  void check(Object v) {
    if (!(v instanceof Boolean)) {
      throw BadValue.wrongClass(v, schema);
    }
  }

  @Override
  void write(Object v, int rep) {
    column.writeBoolean((Boolean) v, rep, def);
  }
}
