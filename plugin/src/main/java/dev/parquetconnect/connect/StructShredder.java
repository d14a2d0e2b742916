package dev.parquetconnect.connect;

import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/** A Struct: each field shredded by its child, in the layout's field order. */
final class StructShredder extends FieldShredder {
  private final Schema schema;
  private final Field[] fields;
  private final FieldShredder[] children;
  private Schema lastEqualSchema;

  StructShredder(Schema schema, Field[] fields, FieldShredder[] children) {
    this.schema = schema;
    this.fields = fields;
    this.children = children;
  }

  /** Struct.get(Field) reads by position: only a Struct of an equal schema is safe. */
  private void checkSchema(Schema actual) {
    if (actual != schema && actual != lastEqualSchema) {
      if (!actual.equals(schema)) {
        throw new BadValue(
            "a Struct of schema "
                + ConnectTypes.describe(actual)
                + " where the file has "
                + ConnectTypes.describe(schema));
      }
      lastEqualSchema = actual;
    }
  }

  @Override
  void check(Object value) {
    if (!(value instanceof Struct struct)) {
      throw BadValue.wrongClass(value, schema);
    }
    checkSchema(struct.schema());
    for (int i = 0; i < fields.length; i++) {
      FieldShredder child = children[i];
      try {
        child.checkField(struct.get(fields[i]));
      } catch (BadValue e) {
        throw e.under(child.name);
      }
    }
  }

  @Override
  void write(Object value, int rep) {
    if (!(value instanceof Struct struct)) {
      throw BadValue.wrongClass(value, schema);
    }
    checkSchema(struct.schema());
    if (fields.length == 0) {
      children[0].write(struct, rep);
      return;
    }
    for (int i = 0; i < fields.length; i++) {
      children[i].writeField(struct.get(fields[i]), rep);
    }
  }
}
