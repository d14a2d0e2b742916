package dev.parquetconnect.connect;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * Connect schemas and values exactly as Confluent's AvroConverter ({@code
 * io.confluent.connect.avro.AvroData}, schema-registry 8.x) builds them from one Avro schema, and
 * as Apicurio's AvroConverter builds them (its {@code AvroData} is a copy of Confluent's: the same
 * names and parameters). Two configurations: the defaults ({@code connect.meta.data=true}, {@code
 * enhanced.avro.schema.support=false}, {@code generalized.sum.type.support=false}, {@code
 * discard.type.doc.default=false}) and the one Confluent's Protobuf converter shares for sum types
 * ({@code generalized.sum.type.support=true}, {@code discard.type.doc.default=true}).
 *
 * <p>The facts, from AvroData's {@code toConnectSchema}: an Avro enum becomes a STRING named by the
 * enum's full name with the parameter {@code io.confluent.connect.avro.Enum} = full name and one
 * {@code io.confluent.connect.avro.Enum.SYMBOL} = SYMBOL per symbol (generalized: {@code
 * org.apache.kafka.connect.data.Enum} and the symbol's index), its doc in {@code
 * io.confluent.connect.avro.enum.doc.NAME} and its default in {@code
 * io.confluent.connect.avro.enum.default.NAME}; a union other than {@code [null, X]} becomes a
 * STRUCT named {@code io.confluent.connect.avro.Union} (optional when it has a null branch) with
 * one optional field per non-null branch, named after the branch's type ({@code string}, {@code
 * long}) or, for a record, enum or fixed, its simple name (generalized: a struct named {@code
 * connect_union_N} with the parameter {@code org.apache.kafka.connect.data.Union} = that name and
 * fields {@code connect_union_field_I}, I the branch's index counting the null branch); {@code
 * [null, X]} is X made optional; a record's doc goes to {@code
 * io.confluent.connect.avro.record.doc} and each field's doc to {@code
 * io.confluent.connect.avro.field.doc.FIELD} (with {@code discard.type.doc.default}: the schema's
 * doc and {@code connect.record.doc}); a field with a default gets it as the schema's default and
 * the flag {@code io.confluent.connect.avro.field.default} = true; a decimal's precision other than
 * 64 goes to {@code connect.decimal.precision}, a fixed's size to {@code connect.fixed.size}; the
 * value schema gets the registry's version.
 *
 * <pre>{@code
 * {"type": "record", "name": "Order", "namespace": "com.example", "doc": "An order",
 *  "fields": [
 *   {"name": "id", "type": "long"},
 *   {"name": "status", "doc": "Where it is", "default": "NEW", "type": {"type": "enum",
 *     "name": "Status", "doc": "Order states", "symbols": ["NEW", "PAID", "SHIPPED"],
 *     "default": "NEW"}},
 *   {"name": "payment", "default": null, "type": ["null", "string", {"type": "record",
 *     "name": "Card", "fields": [{"name": "number", "type": "string"},
 *     {"name": "expiry", "type": ["null", {"type": "int", "logicalType": "date"}],
 *      "default": null}]}, "long"]},
 *   {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10,
 *     "scale": 2}},
 *   {"name": "exact", "type": {"type": "fixed", "name": "Exact", "size": 13,
 *     "logicalType": "decimal", "precision": 30, "scale": 6}},
 *   {"name": "note", "type": ["null", "string"], "default": null},
 *   {"name": "address", "default": null, "type": ["null", {"type": "record",
 *     "name": "Address", "fields": [{"name": "city", "type": "string", "default": "Berlin"},
 *     {"name": "zip", "type": ["null", "int"], "default": null}]}]},
 *   {"name": "tags", "type": {"type": "array", "items": {"type": "enum", "name": "Tag",
 *     "symbols": ["GIFT", "EXPRESS"]}}},
 *   {"name": "retries", "type": "int", "default": 3}]}
 * }</pre>
 */
final class AvroShapedSchemas {
  static final String NAMESPACE = "io.confluent.connect.avro";
  static final String ENUM = NAMESPACE + ".Enum";
  static final String UNION = NAMESPACE + ".Union";
  static final String GENERALIZED_ENUM = "org.apache.kafka.connect.data.Enum";
  static final String GENERALIZED_UNION = "org.apache.kafka.connect.data.Union";
  static final String FIELD_DEFAULT = NAMESPACE + ".field.default";
  static final String REGISTRY_VERSION = "3";

  private final boolean generalized;
  final Schema status;
  final Schema card;
  final Schema payment;
  final Schema address;
  final Schema tag;
  final Schema order;

  private AvroShapedSchemas(boolean generalized) {
    this.generalized = generalized;
    status = statusSchema();
    card =
        SchemaBuilder.struct()
            .name("com.example.Card")
            .optional()
            .field("number", Schema.STRING_SCHEMA)
            .field("expiry", Date.builder().optional().build())
            .build();
    SchemaBuilder union =
        SchemaBuilder.struct().name(generalized ? "connect_union_0" : UNION).optional();
    if (generalized) {
      union.parameter(GENERALIZED_UNION, "connect_union_0");
    } else {
      union.parameter(FIELD_DEFAULT, "true");
    }
    payment =
        union
            .field(unionField(1, "string"), Schema.OPTIONAL_STRING_SCHEMA)
            .field(unionField(2, "Card"), card)
            .field(unionField(3, "long"), Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    SchemaBuilder city = SchemaBuilder.string().defaultValue("Berlin");
    if (!generalized) {
      city.parameter(FIELD_DEFAULT, "true");
    }
    address =
        SchemaBuilder.struct()
            .name("com.example.Address")
            .optional()
            .field("city", city.build())
            .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
            .build();
    tag = enumSchema("com.example.Tag", List.of("GIFT", "EXPRESS")).build();
    SchemaBuilder retries = SchemaBuilder.int32().defaultValue(3);
    if (!generalized) {
      retries.parameter(FIELD_DEFAULT, "true");
    }
    SchemaBuilder value = SchemaBuilder.struct().name("com.example.Order");
    if (generalized) {
      value.doc("An order").parameter("connect.record.doc", "An order");
    } else {
      value
          .parameter(NAMESPACE + ".record.doc", "An order")
          .parameter(NAMESPACE + ".field.doc.status", "Where it is");
    }
    order =
        value
            .version(Integer.parseInt(REGISTRY_VERSION))
            .field("id", Schema.INT64_SCHEMA)
            .field("status", status)
            .field("payment", payment)
            .field(
                "amount", Decimal.builder(2).parameter("connect.decimal.precision", "10").build())
            .field(
                "exact",
                Decimal.builder(6)
                    .parameter("connect.decimal.precision", "30")
                    .parameter("connect.fixed.size", "13")
                    .build())
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .field("address", address)
            .field("tags", SchemaBuilder.array(tag).build())
            .field("retries", retries.build())
            .build();
  }

  /** As Confluent's and Apicurio's AvroConverter build them by default. */
  static AvroShapedSchemas defaults() {
    return new AvroShapedSchemas(false);
  }

  /** With {@code generalized.sum.type.support} and {@code discard.type.doc.default}. */
  static AvroShapedSchemas generalizedSumTypes() {
    return new AvroShapedSchemas(true);
  }

  private Schema statusSchema() {
    SchemaBuilder b = enumSchema("com.example.Status", List.of("NEW", "PAID", "SHIPPED"));
    if (generalized) {
      // discard.type.doc.default: the field's doc becomes the schema's, the enum's own doc a
      // parameter; no enum default parameter and no default flag.
      b.doc("Where it is")
          .parameter("connect.enum.doc", "Order states")
          .parameter("connect.record.doc", "Order states");
    } else {
      b.parameter(NAMESPACE + ".enum.doc.Status", "Order states")
          .parameter(NAMESPACE + ".enum.default.Status", "NEW")
          .parameter(FIELD_DEFAULT, "true");
    }
    return b.defaultValue("NEW").build();
  }

  private SchemaBuilder enumSchema(String fullName, List<String> symbols) {
    SchemaBuilder b = SchemaBuilder.string().name(fullName);
    String parameter = generalized ? GENERALIZED_ENUM : ENUM;
    b.parameter(parameter, fullName);
    for (int i = 0; i < symbols.size(); i++) {
      b.parameter(
          parameter + "." + symbols.get(i), generalized ? String.valueOf(i) : symbols.get(i));
    }
    return b;
  }

  /** The union field of the branch at {@code index} (the null branch is index 0). */
  String unionField(int index, String avroName) {
    return generalized ? "connect_union_field_" + index : avroName;
  }

  /** {@code count} orders: every union branch, nulls and defaults, every enum symbol. */
  List<Struct> orders(int count) {
    List<String> statuses = List.of("NEW", "PAID", "SHIPPED");
    List<Struct> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Struct value = new Struct(order);
      value.put("id", (long) i);
      value.put("status", statuses.get(i % 3));
      switch (i % 4) {
        case 0 -> value.put("payment", null);
        case 1 -> value.put("payment", new Struct(payment).put(unionField(1, "string"), "cash"));
        case 2 -> {
          Struct c = new Struct(card).put("number", "4111-" + i);
          if (i % 3 == 0) {
            c.put("expiry", new java.util.Date(86_400_000L * (19_000 + i)));
          }
          value.put("payment", new Struct(payment).put(unionField(2, "Card"), c));
        }
        default ->
            value.put("payment", new Struct(payment).put(unionField(3, "long"), 1_000_000L + i));
      }
      value.put("amount", BigDecimal.valueOf(i * 1234L - 5000, 2));
      value.put(
          "exact",
          new BigDecimal("123456789012345678901234.5").add(BigDecimal.valueOf(i)).setScale(6));
      if (i % 5 != 0) {
        value.put("note", "note " + i);
      }
      if (i % 3 != 0) {
        Struct a = new Struct(address).put("city", i % 2 == 0 ? "Paris" : "Berlin");
        if (i % 4 != 0) {
          a.put("zip", 10_000 + i);
        }
        value.put("address", a);
      }
      value.put("tags", i % 2 == 0 ? List.of("GIFT") : List.of("GIFT", "EXPRESS"));
      value.put("retries", i % 7);
      out.add(value);
    }
    return out;
  }
}
