package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * One Connect schema as one Parquet field, recursively:
 *
 * <ul>
 *   <li>INT8, INT16: INT32 annotated INTEGER(8|16, signed); INT32, INT64, FLOAT32 (FLOAT), FLOAT64
 *       (DOUBLE), BOOLEAN: the same physical type; STRING: BYTE_ARRAY (STRING), or (ENUM) for an
 *       Avro enum as Confluent's and Apicurio's converters mark it ({@link ConnectTypes#isEnum});
 *       BYTES: BYTE_ARRAY;
 *   <li>Decimal: DECIMAL on INT32, INT64 or FIXED_LEN_BYTE_ARRAY ({@link DecimalLayout}); Date:
 *       INT32 (DATE); Time: INT32 milliseconds of the day, plain (Spark 3.x and 4.0 refuse TIME
 *       columns) or, when {@link MappingOptions#timeLogicalType()}, TIME(MILLIS, UTC); Timestamp:
 *       INT64 (TIMESTAMP(unit, UTC)) in the configured unit;
 *   <li>ARRAY: the standard three-level LIST; MAP with primitive keys: the standard MAP (keys
 *       REQUIRED, so a null key is a bad record); MAP with struct, array or map keys, which Parquet
 *       MAP keys cannot be: a LIST of REQUIRED {@code element} groups {@code {key, value}}, in map
 *       order; the schema in the file metadata tells the source it was a map;
 *   <li>STRUCT: a group of its fields; a struct without fields gets one OPTIONAL BOOLEAN {@code
 *       __empty} that is always null, as Parquet groups need a field and the group's presence must
 *       still be recorded.
 * </ul>
 *
 * A struct field without {@link #hasColumns columns} (a schemaless key that was only ever null so
 * far, a list whose elements were, a map whose values were) is left out of its group; a struct left
 * with no field gets {@code __empty} as above.
 *
 * <p>A field is OPTIONAL when its Connect schema is optional (or the caller forces it), else
 * REQUIRED. Field names are kept as they are: Parquet allows any name.
 */
final class ConnectToParquet {
  /** The placeholder field of a struct without fields. */
  static final String EMPTY_STRUCT_FIELD = "__empty";

  private ConnectToParquet() {}

  /** {@code schema} as a field {@code name}: OPTIONAL if the schema is or {@code forceOptional}. */
  static SchemaNode node(
      String name, Schema schema, boolean forceOptional, MappingOptions options) {
    FieldRepetitionType repetition =
        schema.isOptional() || forceOptional
            ? FieldRepetitionType.OPTIONAL
            : FieldRepetitionType.REQUIRED;
    switch (ConnectTypes.kind(schema)) {
      case INT8:
        return PrimitiveNode.of(name, repetition, PhysicalType.INT32)
            .withLogicalType(new LogicalType.IntType((byte) 8, true));
      case INT16:
        return PrimitiveNode.of(name, repetition, PhysicalType.INT32)
            .withLogicalType(new LogicalType.IntType((byte) 16, true));
      case INT32:
        return PrimitiveNode.of(name, repetition, PhysicalType.INT32);
      case INT64:
        return PrimitiveNode.of(name, repetition, PhysicalType.INT64);
      case FLOAT32:
        return PrimitiveNode.of(name, repetition, PhysicalType.FLOAT);
      case FLOAT64:
        return PrimitiveNode.of(name, repetition, PhysicalType.DOUBLE);
      case BOOLEAN:
        return PrimitiveNode.of(name, repetition, PhysicalType.BOOLEAN);
      case STRING:
        return PrimitiveNode.of(name, repetition, PhysicalType.BYTE_ARRAY)
            .withLogicalType(ConnectTypes.isEnum(schema) ? LogicalType.ENUM : LogicalType.STRING);
      case BYTES:
        return PrimitiveNode.of(name, repetition, PhysicalType.BYTE_ARRAY);
      case DECIMAL:
        {
          DecimalLayout d = DecimalLayout.of(schema);
          PrimitiveNode base =
              d.type() == PhysicalType.FIXED_LEN_BYTE_ARRAY
                  ? PrimitiveNode.fixed(name, repetition, d.byteLength())
                  : PrimitiveNode.of(name, repetition, d.type());
          return base.withLogicalType(new LogicalType.DecimalType(d.scale(), d.precision()));
        }
      case DATE:
        return PrimitiveNode.of(name, repetition, PhysicalType.INT32)
            .withLogicalType(LogicalType.DATE);
      case TIME:
        PrimitiveNode millisOfDay = PrimitiveNode.of(name, repetition, PhysicalType.INT32);
        return options.timeLogicalType()
            ? millisOfDay.withLogicalType(new LogicalType.TimeType(true, TimeUnit.MILLIS))
            : millisOfDay;
      case TIMESTAMP:
        return PrimitiveNode.of(name, repetition, PhysicalType.INT64)
            .withLogicalType(new LogicalType.TimestampType(true, options.timestampUnit()));
      case ARRAY:
        return NestedTypes.list(
            name, repetition, node("element", schema.valueSchema(), false, options));
      case MAP:
        if (ConnectTypes.isPrimitiveKey(schema.keySchema())) {
          return NestedTypes.map(
              name,
              repetition,
              node("key", schema.keySchema(), false, options),
              node("value", schema.valueSchema(), false, options));
        }
        return NestedTypes.list(
            name,
            repetition,
            GroupNode.of(
                "element",
                FieldRepetitionType.REQUIRED,
                List.of(
                    node("key", schema.keySchema(), false, options),
                    node("value", schema.valueSchema(), false, options))));
      case STRUCT:
        return GroupNode.of(name, repetition, structFields(schema, false, options));
      default:
        throw new IllegalStateException("unhandled Connect type " + schema.type());
    }
  }

  /**
   * Whether values of {@code schema} are stored in columns of their own. Not so for a schemaless
   * field that had no value but null so far ({@link SchemaInference#UNKNOWN}), nor for a list whose
   * elements or a map whose values are such: any type written for them would be a guess, and a
   * later file that learned the real type would disagree with it, which engines merging a
   * directory's schemas (Spark's mergeSchema) refuse. A file without the column reads as null there
   * in every engine; the footer's Connect schema still names the field, so the sink's learned
   * schema and the source know it. Schemas with types of their own always have columns.
   */
  static boolean hasColumns(Schema schema) {
    if (SchemaInference.isUnknown(schema)) {
      return false;
    }
    return switch (schema.type()) {
      case ARRAY -> hasColumns(schema.valueSchema());
      case MAP -> hasColumns(schema.keySchema()) && hasColumns(schema.valueSchema());
      default -> true;
    };
  }

  /** The fields of {@code struct} that have {@link #hasColumns columns}, in order. */
  static List<Field> storedFields(Schema struct) {
    List<Field> stored = new ArrayList<>(struct.fields().size());
    for (Field f : struct.fields()) {
      if (hasColumns(f.schema())) {
        stored.add(f);
      }
    }
    return stored;
  }

  /** The fields of a struct's group (the placeholder when it has none). */
  static List<SchemaNode> structFields(
      Schema struct, boolean forceOptional, MappingOptions options) {
    List<SchemaNode> fields = new ArrayList<>(Math.max(1, struct.fields().size()));
    for (Field f : struct.fields()) {
      if (hasColumns(f.schema())) {
        fields.add(node(f.name(), f.schema(), forceOptional, options));
      }
    }
    if (fields.isEmpty()) {
      fields.add(
          PrimitiveNode.of(EMPTY_STRUCT_FIELD, FieldRepetitionType.OPTIONAL, PhysicalType.BOOLEAN));
    }
    return fields;
  }
}
