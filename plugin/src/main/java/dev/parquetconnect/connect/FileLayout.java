package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * The shape of one Parquet file of records: the Connect schemas of its keys and values, the
 * metadata columns, and the Parquet schema and key/value metadata they make.
 *
 * <p>Columns, in order: a struct value's fields (a value of any other type: one column {@code
 * value}); then, as {@link MappingOptions} asks, {@code __kafka_topic} (STRING), {@code
 * __kafka_partition} (INT32), {@code __kafka_offset} (INT64), {@code __kafka_timestamp} (OPTIONAL
 * TIMESTAMP(MILLIS, UTC)), {@code __kafka_key} (OPTIONAL, the key schema mapped like a value
 * field), {@code __kafka_headers} and {@code __kafka_tombstone}.
 *
 * <p>{@code __kafka_headers} is a LIST of {@code {key STRING, schema STRING, value BYTES}} in
 * header order (keys repeat as Kafka allows): {@code schema} is the header's Connect schema as JSON
 * ({@link ConnectSchemaJson}, null for a schemaless header) and {@code value} its value: the UTF-8
 * text of a STRING, the bytes of a BYTES, and the JSON of {@link ConnectValueJson} for anything
 * else, so key, schema and value come back exactly; plain STRING and BYTES headers stay readable to
 * SQL engines.
 *
 * <p>Key/value metadata: {@code connect.value.schema} and {@code connect.key.schema} (the schemas
 * as JSON), {@code connect.value.schemaless} / {@code connect.key.schemaless} ("true" when the
 * schema was inferred from schemaless data, which the source then replays as maps and lists again),
 * and {@code parquetconnect.layout} (the version of this layout).
 */
public final class FileLayout {
  public static final String TOPIC_COLUMN = "__kafka_topic";
  public static final String PARTITION_COLUMN = "__kafka_partition";
  public static final String OFFSET_COLUMN = "__kafka_offset";
  public static final String TIMESTAMP_COLUMN = "__kafka_timestamp";
  public static final String KEY_COLUMN = "__kafka_key";
  public static final String HEADERS_COLUMN = "__kafka_headers";
  public static final String TOMBSTONE_COLUMN = "__kafka_tombstone";

  /** The column of a value that is not a struct. */
  public static final String VALUE_COLUMN = "value";

  public static final String VALUE_SCHEMA_KEY = "connect.value.schema";
  public static final String KEY_SCHEMA_KEY = "connect.key.schema";
  public static final String VALUE_SCHEMALESS_KEY = "connect.value.schemaless";
  public static final String KEY_SCHEMALESS_KEY = "connect.key.schemaless";
  public static final String LAYOUT_KEY = "parquetconnect.layout";
  public static final String LAYOUT_VERSION = "1";

  /** The Parquet message name of every file. */
  static final String MESSAGE_NAME = "kafka_record";

  private final Schema keySchema;
  private final boolean keySchemaless;
  private final Schema valueSchema;
  private final boolean valueSchemaless;
  private final MappingOptions options;
  private final MessageType parquetSchema;
  private final Map<String, String> keyValueMetadata;

  private FileLayout(
      Schema keySchema,
      boolean keySchemaless,
      Schema valueSchema,
      boolean valueSchemaless,
      MappingOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    this.keySchema = options.kafkaKey() ? keySchema : null;
    this.keySchemaless = this.keySchema != null && keySchemaless;
    this.valueSchema = valueSchema;
    this.valueSchemaless = valueSchema != null && valueSchemaless;
    this.parquetSchema = buildSchema();
    Map<String, String> metadata = new LinkedHashMap<>();
    metadata.put(LAYOUT_KEY, LAYOUT_VERSION);
    if (this.valueSchema != null) {
      metadata.put(VALUE_SCHEMA_KEY, ConnectSchemaJson.write(this.valueSchema));
      if (this.valueSchemaless) {
        metadata.put(VALUE_SCHEMALESS_KEY, "true");
      }
    }
    if (this.keySchema != null) {
      metadata.put(KEY_SCHEMA_KEY, ConnectSchemaJson.write(this.keySchema));
      if (this.keySchemaless) {
        metadata.put(KEY_SCHEMALESS_KEY, "true");
      }
    }
    this.keyValueMetadata = Collections.unmodifiableMap(metadata);
  }

  /**
   * The layout for records with these schemas. A null value schema makes a file without value
   * columns (every value must be null); a null key schema one without {@code __kafka_key} (every
   * key must be null). Throws {@link DataException} when the schemas cannot be stored (a value
   * field named like a metadata column, a decimal without a scale).
   */
  public static FileLayout of(Schema keySchema, Schema valueSchema, MappingOptions options) {
    return new FileLayout(keySchema, false, valueSchema, false, options);
  }

  /**
   * As {@link #of(Schema, Schema, MappingOptions)}, marking the schemas that were inferred from
   * schemaless keys or values ({@link SchemaInference}).
   */
  public static FileLayout of(
      Schema keySchema,
      boolean keySchemaless,
      Schema valueSchema,
      boolean valueSchemaless,
      MappingOptions options) {
    return new FileLayout(keySchema, keySchemaless, valueSchema, valueSchemaless, options);
  }

  private MessageType buildSchema() {
    List<SchemaNode> fields = new ArrayList<>();
    if (valueSchema != null) {
      if (isStructValue()) {
        fields.addAll(ConnectToParquet.structFields(valueSchema, options.tombstones(), options));
      } else {
        fields.add(ConnectToParquet.node(VALUE_COLUMN, valueSchema, options.tombstones(), options));
      }
    }
    Set<String> names = new HashSet<>();
    for (SchemaNode f : fields) {
      names.add(f.name());
    }
    List<SchemaNode> metadata = new ArrayList<>();
    if (options.kafkaMetadata()) {
      metadata.add(
          PrimitiveNode.of(TOPIC_COLUMN, FieldRepetitionType.REQUIRED, PhysicalType.BYTE_ARRAY)
              .withLogicalType(LogicalType.STRING));
      metadata.add(
          PrimitiveNode.of(PARTITION_COLUMN, FieldRepetitionType.REQUIRED, PhysicalType.INT32));
      metadata.add(
          PrimitiveNode.of(OFFSET_COLUMN, FieldRepetitionType.REQUIRED, PhysicalType.INT64));
      metadata.add(
          PrimitiveNode.of(TIMESTAMP_COLUMN, FieldRepetitionType.OPTIONAL, PhysicalType.INT64)
              .withLogicalType(
                  new LogicalType.TimestampType(
                      true, options.kafkaTimestampMicros() ? TimeUnit.MICROS : TimeUnit.MILLIS)));
    }
    if (keySchema != null) {
      metadata.add(ConnectToParquet.node(KEY_COLUMN, keySchema, true, options));
    }
    if (options.kafkaHeaders()) {
      metadata.add(headersNode());
    }
    if (hasTombstoneColumn()) {
      metadata.add(
          PrimitiveNode.of(TOMBSTONE_COLUMN, FieldRepetitionType.REQUIRED, PhysicalType.BOOLEAN));
    }
    for (SchemaNode m : metadata) {
      if (!names.add(m.name())) {
        throw new DataException(
            "the value field "
                + m.name()
                + " has the name of a metadata column; rename it"
                + " (a ReplaceField transform) or disable the metadata columns");
      }
      fields.add(m);
    }
    if (fields.isEmpty()) {
      throw new DataException(
          "a file needs at least one column: no value schema and no metadata columns");
    }
    return new MessageType(MESSAGE_NAME, fields);
  }

  static GroupNode headersNode() {
    GroupNode header =
        GroupNode.of(
            "element",
            FieldRepetitionType.REQUIRED,
            List.of(
                PrimitiveNode.of("key", FieldRepetitionType.REQUIRED, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING),
                PrimitiveNode.of("schema", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING),
                PrimitiveNode.of("value", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)));
    return NestedTypes.list(HEADERS_COLUMN, FieldRepetitionType.REQUIRED, header);
  }

  /**
   * The layout of a file this sink wrote whose values were schemaless, from its footer's key/value
   * metadata, for {@code options}; null for any other file (values with schemas, a foreign file,
   * metadata that does not parse).
   */
  public static FileLayout ofSchemalessFooter(
      Map<String, String> metadata, MappingOptions options) {
    if (!"true".equals(metadata.get(VALUE_SCHEMALESS_KEY))
        || metadata.get(VALUE_SCHEMA_KEY) == null) {
      return null;
    }
    try {
      Schema value = ConnectSchemaJson.read(metadata.get(VALUE_SCHEMA_KEY));
      String keyJson = metadata.get(KEY_SCHEMA_KEY);
      Schema key = keyJson == null ? null : ConnectSchemaJson.read(keyJson);
      return of(key, "true".equals(metadata.get(KEY_SCHEMALESS_KEY)), value, true, options);
    } catch (RuntimeException malformed) {
      return null;
    }
  }

  /** The Connect schema of the keys ({@code __kafka_key}), or null when there is no such column. */
  public Schema keySchema() {
    return keySchema;
  }

  /** Whether the key schema was inferred from schemaless keys. */
  public boolean keySchemaless() {
    return keySchemaless;
  }

  /** The Connect schema of the values, or null when the file has no value columns. */
  public Schema valueSchema() {
    return valueSchema;
  }

  /** Whether the value schema was inferred from schemaless values. */
  public boolean valueSchemaless() {
    return valueSchemaless;
  }

  public MappingOptions options() {
    return options;
  }

  public MessageType parquetSchema() {
    return parquetSchema;
  }

  /** The entries for the file footer's key/value metadata. */
  public Map<String, String> keyValueMetadata() {
    return keyValueMetadata;
  }

  /** Whether the value's fields are the leading columns (else one column {@code value}). */
  public boolean isStructValue() {
    return valueSchema != null && valueSchema.type() == Schema.Type.STRUCT;
  }

  /** Whether {@code __kafka_tombstone} tells null values from structs of nulls. */
  public boolean hasTombstoneColumn() {
    return options.tombstones() && isStructValue();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FileLayout other
        && keySchemaless == other.keySchemaless
        && valueSchemaless == other.valueSchemaless
        && Objects.equals(keySchema, other.keySchema)
        && Objects.equals(valueSchema, other.valueSchema)
        && options.equals(other.options);
  }

  @Override
  public int hashCode() {
    return Objects.hash(keySchema, valueSchema, options);
  }

  @Override
  public String toString() {
    return "FileLayout{key "
        + ConnectTypes.describe(keySchema)
        + ", value "
        + ConnectTypes.describe(valueSchema)
        + ", "
        + options
        + "}";
  }
}
