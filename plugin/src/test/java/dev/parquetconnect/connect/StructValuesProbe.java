package dev.parquetconnect.connect;

import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Run by {@link StructValuesIT} in a child JVM on one Kafka release's jars: whether {@link
 * StructValues} writes into that release's {@code Struct} directly, and whether a value written
 * that way is the one {@code Struct.get} returns and {@code validate()} accepts. Prints one line,
 * {@code direct=<bool> visible=<bool> api=<jar of Struct>}; exits 0 only when both hold.
 */
final class StructValuesProbe {
  private StructValuesProbe() {}

  public static void main(String[] args) {
    Schema schema =
        SchemaBuilder.struct()
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Struct struct = new Struct(schema);
    Field id = schema.field("id");
    Field name = schema.field("name");
    StructValues.put(struct, id, 42L);
    StructValues.put(struct, name, "x");
    boolean visible;
    try {
      struct.validate();
      visible =
          Long.valueOf(42L).equals(struct.get(id))
              && "x".equals(struct.get(name))
              && struct.equals(new Struct(schema).put(id, 42L).put(name, "x"));
    } catch (RuntimeException e) {
      visible = false;
    }
    boolean direct = StructValues.direct();
    System.out.println(
        "direct="
            + direct
            + " visible="
            + visible
            + " api="
            + Struct.class.getProtectionDomain().getCodeSource().getLocation());
    System.exit(direct && visible ? 0 : 1);
  }
}
