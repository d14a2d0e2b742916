package dev.parquetconnect.connect;

import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import org.apache.kafka.connect.data.Schema;

/** A FLOAT64 leaf: the common case, with no switch on the kind. */
final class Float64LeafShredder extends LeafShredder {
  Float64LeafShredder(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
    super(ConnectTypes.Kind.FLOAT64, leaf, schema, column, false); // no timestamps here
    exactClass = Double.class;
  }

  @Override
  void check(Object v) {
    if (!(v instanceof Double)) {
      throw BadValue.wrongClass(v, schema);
    }
  }

  @Override
  void write(Object v, int rep) {
    column.writeDouble((Double) v, rep, def);
  }
}
