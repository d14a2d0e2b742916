package dev.parquetconnect.connect;

import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import org.apache.kafka.connect.data.Schema;

/** A STRING leaf: the common case, with no switch on the kind. */
final class StringLeafShredder extends LeafShredder {
  StringLeafShredder(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
    super(ConnectTypes.Kind.STRING, leaf, schema, column, false); // no timestamps here
    exactClass = String.class;
  }

  @Override
  void check(Object v) {
    if (!(v instanceof String)) {
      throw BadValue.wrongClass(v, schema);
    }
  }

  @Override
  void write(Object v, int rep) {
    column.writeString((String) v, rep, def);
  }
}
