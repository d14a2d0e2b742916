package dev.parquetconnect.bench.sink;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalTypes;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecordBuilder;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Connect data to Avro the way the peers' sinks do it before {@code AvroParquetWriter} (Confluent's
 * S3 and HDFS sinks and Aiven's use Confluent's {@code AvroData}; this is our own code following
 * the same rules, since AvroData is not on Maven Central):
 *
 * <ul>
 *   <li>the Avro schema is derived once per Connect schema and cached; the cache is keyed by the
 *       Connect schema's equality, as AvroData's is, so each record's schema is hashed (a plain
 *       HashMap here, where AvroData uses a bounded concurrent one);
 *   <li>a struct becomes a record named after the Connect schema, an optional field a union {@code
 *       [null, T]} with default null;
 *   <li>Decimal becomes bytes with logical type decimal (precision from {@code
 *       connect.decimal.precision}, else 64), Timestamp a long with timestamp-millis, arrays Avro
 *       arrays, maps with string keys Avro maps;
 *   <li>values are converted field by field: a struct (after checking that its schema equals the
 *       expected one) through a {@code GenericRecordBuilder}, fields set by name, into a new {@code
 *       GenericData.Record}; new lists and hash maps; decimals to their unscaled big-endian bytes,
 *       dates to millis.
 * </ul>
 */
final class ConnectToAvro {
  private static final String DEFAULT_NAMESPACE = "io.confluent.connect.avro";
  private final Map<Schema, org.apache.avro.Schema> cache = new HashMap<>();

  /** The Avro schema of a Connect schema, derived on first use. */
  org.apache.avro.Schema avroSchema(Schema schema) {
    org.apache.avro.Schema cached = cache.get(schema);
    if (cached == null) {
      cached = toAvro(schema, true);
      cache.put(schema, cached);
    }
    return cached;
  }

  /** A Connect value of {@code schema} as the Avro datum of {@link #avroSchema}. */
  Object toAvroValue(Schema schema, Object value) {
    return convert(schema, avroSchema(schema), value);
  }

  private static org.apache.avro.Schema toAvro(Schema schema, boolean top) {
    org.apache.avro.Schema base =
        switch (schema.type()) {
          case INT8, INT16, INT32 -> org.apache.avro.Schema.create(org.apache.avro.Schema.Type.INT);
          case INT64 -> {
            org.apache.avro.Schema longSchema =
                org.apache.avro.Schema.create(org.apache.avro.Schema.Type.LONG);
            yield Timestamp.LOGICAL_NAME.equals(schema.name())
                ? LogicalTypes.timestampMillis().addToSchema(longSchema)
                : longSchema;
          }
          case FLOAT32 -> org.apache.avro.Schema.create(org.apache.avro.Schema.Type.FLOAT);
          case FLOAT64 -> org.apache.avro.Schema.create(org.apache.avro.Schema.Type.DOUBLE);
          case BOOLEAN -> org.apache.avro.Schema.create(org.apache.avro.Schema.Type.BOOLEAN);
          case STRING -> org.apache.avro.Schema.create(org.apache.avro.Schema.Type.STRING);
          case BYTES -> {
            org.apache.avro.Schema bytes =
                org.apache.avro.Schema.create(org.apache.avro.Schema.Type.BYTES);
            if (Decimal.LOGICAL_NAME.equals(schema.name())) {
              String precision = schema.parameters().get("connect.decimal.precision");
              int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
              yield LogicalTypes.decimal(
                      precision == null ? 64 : Integer.parseInt(precision), scale)
                  .addToSchema(bytes);
            }
            yield bytes;
          }
          case ARRAY -> org.apache.avro.Schema.createArray(toAvro(schema.valueSchema(), false));
          case MAP -> {
            if (schema.keySchema().type() != Schema.Type.STRING) {
              throw new IllegalArgumentException(
                  "the benchmark converts maps with string keys only");
            }
            yield org.apache.avro.Schema.createMap(toAvro(schema.valueSchema(), false));
          }
          case STRUCT -> {
            String fullName =
                schema.name() == null ? DEFAULT_NAMESPACE + ".ConnectDefault" : schema.name();
            int dot = fullName.lastIndexOf('.');
            SchemaBuilder.FieldAssembler<org.apache.avro.Schema> fields =
                SchemaBuilder.record(fullName.substring(dot + 1))
                    .namespace(dot < 0 ? null : fullName.substring(0, dot))
                    .fields();
            for (Field field : schema.fields()) {
              org.apache.avro.Schema fieldSchema = toAvro(field.schema(), false);
              if (field.schema().isOptional()) {
                fields = fields.name(field.name()).type(fieldSchema).withDefault(null);
              } else {
                fields = fields.name(field.name()).type(fieldSchema).noDefault();
              }
            }
            yield fields.endRecord();
          }
        };
    if (schema.isOptional() && !top) {
      return org.apache.avro.Schema.createUnion(
          org.apache.avro.Schema.create(org.apache.avro.Schema.Type.NULL), base);
    }
    return base;
  }

  /** The non-null branch of an optional field's union. */
  private static org.apache.avro.Schema nonNull(org.apache.avro.Schema avro) {
    if (avro.getType() != org.apache.avro.Schema.Type.UNION) {
      return avro;
    }
    for (org.apache.avro.Schema branch : avro.getTypes()) {
      if (branch.getType() != org.apache.avro.Schema.Type.NULL) {
        return branch;
      }
    }
    throw new IllegalArgumentException("a union of nulls: " + avro);
  }

  private static Object convert(Schema schema, org.apache.avro.Schema avro, Object value) {
    if (value == null) {
      if (!schema.isOptional()) {
        throw new IllegalArgumentException("null for the required " + schema);
      }
      return null;
    }
    avro = nonNull(avro);
    switch (schema.type()) {
      case INT8 -> {
        return ((Byte) value).intValue();
      }
      case INT16 -> {
        return ((Short) value).intValue();
      }
      case INT64 -> {
        return Timestamp.LOGICAL_NAME.equals(schema.name())
            ? Timestamp.fromLogical(schema, (Date) value)
            : value;
      }
      case BYTES -> {
        if (Decimal.LOGICAL_NAME.equals(schema.name())) {
          return ByteBuffer.wrap(Decimal.fromLogical(schema, (BigDecimal) value));
        }
        return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
      }
      case ARRAY -> {
        Collection<?> items = (Collection<?>) value;
        org.apache.avro.Schema elementAvro = avro.getElementType();
        List<Object> out = new ArrayList<>(items.size());
        for (Object item : items) {
          out.add(convert(schema.valueSchema(), elementAvro, item));
        }
        return out;
      }
      case MAP -> {
        Map<?, ?> entries = (Map<?, ?>) value;
        org.apache.avro.Schema valueAvro = avro.getValueType();
        Map<String, Object> out = new HashMap<>(entries.size() * 2);
        for (Map.Entry<?, ?> e : entries.entrySet()) {
          out.put((String) e.getKey(), convert(schema.valueSchema(), valueAvro, e.getValue()));
        }
        return out;
      }
      case STRUCT -> {
        Struct struct = (Struct) value;
        if (!struct.schema().equals(schema)) {
          throw new IllegalArgumentException("a Struct of another schema");
        }
        GenericRecordBuilder record = new GenericRecordBuilder(avro);
        for (Field field : schema.fields()) {
          org.apache.avro.Schema.Field avroField = avro.getField(field.name());
          record.set(field.name(), convert(field.schema(), avroField.schema(), struct.get(field)));
        }
        return record.build();
      }
      default -> {
        return value;
      }
    }
  }
}
