package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** A group as a Struct of the fields its Connect schema names. */
final class StructReader extends FieldReader {
  private final Schema schema;
  private final Field[] fields;
  final FieldReader[] readers;
  private final SkipReader unused;

  StructReader(Schema schema, Field[] fields, FieldReader[] readers, SkipReader unused) {
    this.schema = schema;
    this.fields = fields;
    this.readers = readers;
    this.unused = unused;
  }

  @Override
  Object read() throws IOException, ParquetException {
    Struct struct = new Struct(schema);
    FieldReader[] r = readers;
    for (int i = 0; i < r.length; i++) {
      Object v = r[i].read();
      if (v != null) {
        StructValues.put(struct, fields[i], v);
      }
    }
    unused.skip();
    return struct;
  }
}
