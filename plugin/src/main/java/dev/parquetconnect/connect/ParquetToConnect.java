package dev.parquetconnect.connect;

import dev.parquetconnect.format.encoding.Dictionary;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;

/**
 * The mapping of Parquet rows back to Connect records, for the source. The source reads with {@link
 * ConnectRecordReader}, which compiles this mapping into readers of the column batches (the tests
 * hold it to an oracle that applies the same mapping to the generic {@code Row}s of the format
 * layer's row reader).
 *
 * <p><b>Files our sink wrote</b> (key/value metadata {@code parquetconnect.layout}): the key and
 * value schemas are the ones the sink saw, rebuilt from {@code connect.key.schema} and {@code
 * connect.value.schema}, and values come back with the same Java classes, so a record goes out the
 * way it came in; topic, partition, offset, timestamp, key and headers come from the {@code
 * __kafka_*} columns. Schemaless data is replayed schemaless: structs become maps again (with the
 * fields a record lacked, which the file stores as null, left out), so JsonConverter writes the
 * same JSON; a field the file has no column for (one that was only ever null when it was written)
 * is null in every record, so it is left out as well. A null that had a default comes back as the
 * default, which is also what Connect's converters would have serialised.
 *
 * <p><b>Other files</b>: every top-level column is a field of a struct value, mapped by type:
 *
 * <table>
 *   <caption>Parquet to Connect</caption>
 *   <tr><th>Parquet</th><th>Connect</th></tr>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td></tr>
 *   <tr><td>INT32, INTEGER(32, signed)</td><td>INT32</td></tr>
 *   <tr><td>INTEGER(8|16, signed)</td><td>INT8, INT16</td></tr>
 *   <tr><td>INTEGER(8|16|32, unsigned)</td><td>INT16, INT32, INT64 (widened)</td></tr>
 *   <tr><td>INT64, INTEGER(64, signed)</td><td>INT64</td></tr>
 *   <tr><td>INTEGER(64, unsigned)</td><td>Decimal scale 0, precision 20</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>FLOAT32, FLOAT64</td></tr>
 *   <tr><td>FLOAT16</td><td>FLOAT32 (exact)</td></tr>
 *   <tr><td>DECIMAL(p, s) on any physical type</td><td>Decimal(s), {@code
 *       connect.decimal.precision} = p</td></tr>
 *   <tr><td>STRING, ENUM, JSON</td><td>STRING</td></tr>
 *   <tr><td>UUID</td><td>STRING (the canonical 36-character form)</td></tr>
 *   <tr><td>BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, BSON, INTERVAL, geospatial</td><td>BYTES</td></tr>
 *   <tr><td>DATE</td><td>Date</td></tr>
 *   <tr><td>TIME(MILLIS|MICROS|NANOS)</td><td>Time, truncated to milliseconds</td></tr>
 *   <tr><td>TIMESTAMP(MILLIS|MICROS|NANOS), UTC or local</td><td>Timestamp, truncated to
 *       milliseconds (floor; a local timestamp is read as if UTC)</td></tr>
 *   <tr><td>INT96</td><td>Timestamp (Impala/Spark layout), truncated to milliseconds</td></tr>
 *   <tr><td>LIST, a repeated field</td><td>ARRAY</td></tr>
 *   <tr><td>MAP</td><td>MAP (a MAP without values: ARRAY of its keys)</td></tr>
 *   <tr><td>group (incl. VARIANT)</td><td>STRUCT</td></tr>
 * </table>
 *
 * An OPTIONAL field is an optional schema; struct schemas of other files have no names. An
 * unrecognised annotation falls back to the physical type.
 *
 * <p>One instance per file and thread: it caches the header schemas the file repeats.
 */
public final class ParquetToConnect {
  private static final int MAX_CACHED_HEADER_SCHEMAS = 16;

  private final MessageType parquetSchema;
  private final boolean sinkFile;
  private final Schema valueSchema;
  private final boolean valueSchemaless;
  private final Schema keySchema;
  private final boolean keySchemaless;

  /** The top-level field of a non-struct value; -1 when the value is the root's fields. */
  private final int valueIndex;

  /** Whether the records have a key to convert (of {@link #storedKeySchema()}). */
  private final boolean keyConverted;

  private final int topicIndex;
  private final int partitionIndex;
  private final int offsetIndex;
  private final int timestampIndex;
  private final int keyIndex;
  private final int headersIndex;
  private final int tombstoneIndex;

  /**
   * Header schemas with the JSON bytes they were read from: a file repeats a handful of header
   * schemas on every row, and decoding and parsing the JSON each time cost more than the rest of
   * the header. Searched by content, newest first; bounded: a file whose headers carry more
   * distinct schemas parses the others each time.
   */
  private final byte[][] headerSchemaJson = new byte[MAX_CACHED_HEADER_SCHEMAS][];

  private final Schema[] headerSchemaCache = new Schema[MAX_CACHED_HEADER_SCHEMAS];
  private int cachedHeaderSchemas;

  private ParquetToConnect(MessageType parquetSchema, Map<String, String> metadata) {
    this.parquetSchema = parquetSchema;
    GroupNode root = parquetSchema.root();
    this.sinkFile = metadata.containsKey(FileLayout.LAYOUT_KEY);
    if (!sinkFile) {
      this.valueSchema = foreignSchema(root, false);
      this.valueSchemaless = false;
      checkShape(root, valueSchema, "");
      this.valueIndex = -1;
      this.keySchema = null;
      this.keySchemaless = false;
      this.keyConverted = false;
      this.topicIndex = this.partitionIndex = this.offsetIndex = this.timestampIndex = -1;
      this.keyIndex = this.headersIndex = this.tombstoneIndex = -1;
      return;
    }
    String valueJson = metadata.get(FileLayout.VALUE_SCHEMA_KEY);
    this.valueSchema = valueJson == null ? null : readSchema(valueJson, "value");
    this.valueSchemaless = "true".equals(metadata.get(FileLayout.VALUE_SCHEMALESS_KEY));
    this.topicIndex = root.fieldIndex(FileLayout.TOPIC_COLUMN);
    this.partitionIndex = root.fieldIndex(FileLayout.PARTITION_COLUMN);
    this.offsetIndex = root.fieldIndex(FileLayout.OFFSET_COLUMN);
    this.timestampIndex = root.fieldIndex(FileLayout.TIMESTAMP_COLUMN);
    this.headersIndex = root.fieldIndex(FileLayout.HEADERS_COLUMN);
    this.tombstoneIndex = root.fieldIndex(FileLayout.TOMBSTONE_COLUMN);
    this.keyIndex = root.fieldIndex(FileLayout.KEY_COLUMN);
    String keyJson = metadata.get(FileLayout.KEY_SCHEMA_KEY);
    this.keySchema = keyJson == null || keyIndex < 0 ? null : readSchema(keyJson, "key");
    this.keySchemaless = "true".equals(metadata.get(FileLayout.KEY_SCHEMALESS_KEY));
    this.keyConverted = keySchema != null;
    if (keyConverted) {
      checkShape(root.field(keyIndex), keySchema, FileLayout.KEY_COLUMN);
    }
    if (valueSchema == null) {
      this.valueIndex = -1;
    } else if (valueSchema.type() == Schema.Type.STRUCT) {
      checkShape(root, valueSchema, "");
      this.valueIndex = -1;
    } else {
      this.valueIndex = root.fieldIndex(FileLayout.VALUE_COLUMN);
      if (valueIndex < 0) {
        throw new DataException(
            "the file has a value schema but no column " + FileLayout.VALUE_COLUMN);
      }
      checkShape(root.field(valueIndex), valueSchema, FileLayout.VALUE_COLUMN);
    }
  }

  /**
   * The converter for a file of this schema and footer key/value metadata. Throws {@link
   * DataException} when the metadata of a sink-written file is malformed or does not match the
   * Parquet schema.
   */
  public static ParquetToConnect of(MessageType schema, Map<String, String> keyValueMetadata) {
    return new ParquetToConnect(schema, keyValueMetadata == null ? Map.of() : keyValueMetadata);
  }

  /** The footer's key/value list as a map (a later duplicate key wins, as in parquet-java). */
  public static Map<String, String> keyValueMap(List<KeyValue> keyValues) {
    if (keyValues == null) {
      return Collections.emptyMap();
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (KeyValue kv : keyValues) {
      map.put(kv.key(), kv.value());
    }
    return map;
  }

  private static Schema readSchema(String json, String what) {
    try {
      return ConnectSchemaJson.read(json);
    } catch (RuntimeException e) {
      throw new DataException(
          "the file's " + what + " schema metadata is malformed: " + e.getMessage(), e);
    }
  }

  /** Whether our sink wrote the file (its records are restored exactly). */
  public boolean sinkFile() {
    return sinkFile;
  }

  public MessageType parquetSchema() {
    return parquetSchema;
  }

  /** The value schema of the records (null for schemaless values or no value columns). */
  public Schema valueSchema() {
    return valueSchemaless ? null : valueSchema;
  }

  /** The key schema of the records (null for schemaless or absent keys). */
  public Schema keySchema() {
    return keySchemaless ? null : keySchema;
  }

  /** The schema the value's columns were stored with (for schemaless data: the inferred one). */
  public Schema storedValueSchema() {
    return valueSchema;
  }

  // Where the parts of a record are, for ConnectRecordReader (-1: no such column).

  int topicIndex() {
    return topicIndex;
  }

  int partitionIndex() {
    return partitionIndex;
  }

  int offsetIndex() {
    return offsetIndex;
  }

  int timestampIndex() {
    return timestampIndex;
  }

  int tombstoneIndex() {
    return tombstoneIndex;
  }

  int headersIndex() {
    return headersIndex;
  }

  int keyIndex() {
    return keyIndex;
  }

  /** The top-level field of a non-struct value; -1 when the value is the root's fields. */
  int valueIndex() {
    return valueIndex;
  }

  /** Whether the records have a key to convert (of {@link #storedKeySchema()}). */
  boolean keyConverted() {
    return keyConverted;
  }

  /** The schema the key's column was stored with. */
  Schema storedKeySchema() {
    return keySchema;
  }

  boolean keySchemaless() {
    return keySchemaless;
  }

  boolean valueSchemaless() {
    return valueSchemaless;
  }

  /**
   * Adds one {@code __kafka_headers} entry to {@code headers}: its key, its schema's JSON at {@code
   * schemaJson[schemaOff, schemaOff + schemaLen)} and its value's bytes at {@code bytes[valueOff,
   * valueOff + valueLen)} (a length of -1: null). Only the value is copied; STRING values are
   * decoded through {@code strings} when given, or, when {@code dictionary} is given (the value is
   * its entry {@code entry}), are the dictionary's shared string.
   *
   * <p>{@code previous}, when given, is the header added before at this position of the list (the
   * one added is returned): a STRING or BYTES header with the same key is made from it with {@code
   * Header.with}, and one with the same key, schema and (decoded once) value is that header again,
   * since Connect's check of such a value against its schema cannot fail (a STRING schema holds a
   * String, a BYTES schema a byte[]). Other values are checked as ever. With {@code strings} given,
   * returns the header added, else null.
   */
  Header addHeader(
      ConnectHeaders headers,
      String key,
      byte[] schemaJson,
      int schemaOff,
      int schemaLen,
      byte[] bytes,
      int valueOff,
      int valueLen,
      Dictionary dictionary,
      int entry,
      Utf8Strings strings,
      Header previous) {
    if (key == null) {
      // The key column may be OPTIONAL in a file (our sink writes it REQUIRED, but the reader
      // accepts either, and a damaged footer can say so), and Connect refuses a null header key
      // with a NullPointerException: an unchecked exception out of the file's bytes. Refused
      // here as a value the file's schema does not describe, like a null entry.
      throw new DataException(
          "a header without key in " + FileLayout.HEADERS_COLUMN + ": Connect headers need one");
    }
    Schema schema = schemaLen < 0 ? null : headerSchema(schemaJson, schemaOff, schemaLen, key);
    Object value = null;
    if (valueLen >= 0) {
      ConnectTypes.Kind kind = schema == null ? null : ConnectTypes.kind(schema);
      if (kind == ConnectTypes.Kind.STRING) {
        value =
            dictionary != null
                ? dictionary.stringAt(entry)
                : strings != null
                    ? strings.decode(bytes, valueOff, valueLen)
                    : new String(bytes, valueOff, valueLen, StandardCharsets.UTF_8);
      } else if (kind == ConnectTypes.Kind.BYTES) {
        value = Arrays.copyOfRange(bytes, valueOff, valueOff + valueLen);
      } else {
        try {
          value =
              ConnectValueJson.fromJson(
                  schema,
                  Json.parse(new String(bytes, valueOff, valueLen, StandardCharsets.UTF_8)));
        } catch (RuntimeException e) {
          throw new DataException("header " + key + ": malformed value: " + e.getMessage(), e);
        }
      }
      if (previous != null
          && key != null
          && key.equals(previous.key())
          && (value instanceof String || value instanceof byte[])) {
        Header header =
            previous.schema() == schema && previous.value() == value
                ? previous
                : previous.with(schema, value);
        headers.add(header);
        return header;
      }
    }
    headers.add(key, value, schema);
    return strings == null ? null : headers.lastWithName(key);
  }

  private Schema headerSchema(byte[] json, int off, int len, String key) {
    for (int i = cachedHeaderSchemas - 1; i >= 0; i--) {
      byte[] cached = headerSchemaJson[i];
      if (cached.length == len && Arrays.equals(cached, 0, len, json, off, off + len)) {
        return headerSchemaCache[i];
      }
    }
    Schema schema = readSchema(new String(json, off, len, StandardCharsets.UTF_8), "header " + key);
    if (cachedHeaderSchemas < MAX_CACHED_HEADER_SCHEMAS) {
      headerSchemaJson[cachedHeaderSchemas] = Arrays.copyOfRange(json, off, off + len);
      headerSchemaCache[cachedHeaderSchemas++] = schema;
    }
    return schema;
  }

  /** A value of an inferred schema as the plain Java a schemaless converter produced. */
  static Object toSchemaless(Object value) {
    if (value instanceof Struct struct) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Field f : struct.schema().fields()) {
        Object v = struct.get(f);
        if (v != null) {
          map.put(f.name(), toSchemaless(v));
        }
      }
      return map;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object e : list) {
        out.add(toSchemaless(e));
      }
      return out;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(toSchemaless(e.getKey()), toSchemaless(e.getValue()));
      }
      return out;
    }
    return value;
  }

  // ---- Parquet schema -> Connect schema, for files of other writers

  /** The Connect schema a field of another writer's file maps to (see the class table). */
  public static Schema foreignSchema(SchemaNode node) {
    return foreignSchema(node, node.isOptional());
  }

  private static Schema foreignSchema(SchemaNode node, boolean optional) {
    SchemaBuilder builder;
    if (node.isRepeated()) {
      // A repeated field outside a LIST: a required list of required elements.
      return SchemaBuilder.array(
              foreignSchema(node.withRepetition(FieldRepetitionType.REQUIRED), false))
          .build();
    }
    if (node instanceof PrimitiveNode leaf) {
      builder = foreignPrimitive(leaf);
    } else {
      GroupNode group = (GroupNode) node;
      NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
      NestedTypes.MapShape map = list == null && group.isMap() ? NestedTypes.mapShape(group) : null;
      if (list != null) {
        SchemaNode element = list.element();
        boolean elementOptional = !list.twoLevel() && element.isOptional();
        builder =
            SchemaBuilder.array(
                foreignSchema(
                    element.withRepetition(
                        elementOptional
                            ? FieldRepetitionType.OPTIONAL
                            : FieldRepetitionType.REQUIRED),
                    elementOptional));
      } else if (map != null && map.value() != null) {
        builder =
            SchemaBuilder.map(
                foreignSchema(map.key().withRepetition(FieldRepetitionType.REQUIRED), false),
                foreignSchema(map.value(), map.value().isOptional()));
      } else if (map != null) {
        builder =
            SchemaBuilder.array(
                foreignSchema(map.key().withRepetition(FieldRepetitionType.REQUIRED), false));
      } else {
        builder = SchemaBuilder.struct();
        for (SchemaNode f : group.fields()) {
          builder.field(f.name(), foreignSchema(f));
        }
      }
    }
    if (optional) {
      builder.optional();
    }
    return builder.build();
  }

  private static SchemaBuilder foreignPrimitive(PrimitiveNode leaf) {
    LogicalType t = leaf.logicalType();
    if (t != null && !LogicalTypes.isApplicable(t, leaf.type(), leaf.typeLength())) {
      t = null; // an annotation that does not fit is ignored, as readers must
    }
    if (t instanceof LogicalType.DecimalType d) {
      return Decimal.builder(d.scale())
          .parameter(ConnectTypes.DECIMAL_PRECISION, Integer.toString(d.precision()));
    }
    switch (leaf.type()) {
      case BOOLEAN:
        return SchemaBuilder.bool();
      case INT32:
        if (t instanceof LogicalType.IntType i) {
          int bits = i.bitWidth();
          if (i.signed()) {
            return bits == 8
                ? SchemaBuilder.int8()
                : bits == 16 ? SchemaBuilder.int16() : SchemaBuilder.int32();
          }
          return bits == 8
              ? SchemaBuilder.int16()
              : bits == 16 ? SchemaBuilder.int32() : SchemaBuilder.int64();
        }
        if (t instanceof LogicalType.DateType) {
          return Date.builder();
        }
        if (t instanceof LogicalType.TimeType) {
          return Time.builder();
        }
        return SchemaBuilder.int32();
      case INT64:
        if (t instanceof LogicalType.IntType i && !i.signed()) {
          return Decimal.builder(0).parameter(ConnectTypes.DECIMAL_PRECISION, "20");
        }
        if (t instanceof LogicalType.TimestampType) {
          return Timestamp.builder();
        }
        if (t instanceof LogicalType.TimeType) {
          return Time.builder();
        }
        return SchemaBuilder.int64();
      case INT96:
        return Timestamp.builder();
      case FLOAT:
        return SchemaBuilder.float32();
      case DOUBLE:
        return SchemaBuilder.float64();
      case BYTE_ARRAY:
        if (t instanceof LogicalType.StringType
            || t instanceof LogicalType.EnumType
            || t instanceof LogicalType.JsonType) {
          return SchemaBuilder.string();
        }
        return SchemaBuilder.bytes();
      case FIXED_LEN_BYTE_ARRAY:
        if (t instanceof LogicalType.UuidType) {
          return SchemaBuilder.string();
        }
        if (t instanceof LogicalType.Float16Type) {
          return SchemaBuilder.float32();
        }
        return SchemaBuilder.bytes();
      default:
        throw new IllegalStateException("unhandled physical type " + leaf.type());
    }
  }

  // ---- the shapes a mapping converts (the readers of ConnectRecordReader follow them)

  /**
   * Checks that the values of {@code node} convert to values of {@code schema}: the metadata of a
   * sink-written file must describe its columns, and a file whose metadata does not is refused when
   * it is opened ({@link DataException} naming the field), not at its first record.
   */
  private static void checkShape(SchemaNode node, Schema schema, String path) {
    ConnectTypes.Kind kind = ConnectTypes.kind(schema);
    if (node.isRepeated()) {
      if (kind != ConnectTypes.Kind.ARRAY) {
        throw mismatch(path, node, schema);
      }
      checkShape(
          node.withRepetition(FieldRepetitionType.REQUIRED), schema.valueSchema(), path + "[]");
      return;
    }
    if (node instanceof PrimitiveNode leaf) {
      if (kind == ConnectTypes.Kind.DECIMAL) {
        DecimalLayout.connectScale(schema); // the file's metadata: checked
      }
      if (!fits(kind, leaf.type())) {
        throw mismatch(path, leaf, schema);
      }
      return;
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    NestedTypes.MapShape map = list == null && group.isMap() ? NestedTypes.mapShape(group) : null;
    switch (kind) {
      case ARRAY:
        if (list != null) {
          checkShape(listElement(list), schema.valueSchema(), path + "[]");
          return;
        }
        if (map != null && map.value() == null) {
          checkShape(map.key(), schema.valueSchema(), path + "{}");
          return;
        }
        throw mismatch(path, node, schema);
      case MAP:
        if (map != null && map.value() != null) {
          checkShape(map.key(), schema.keySchema(), path + "{key}");
          checkShape(map.value(), schema.valueSchema(), path + "{value}");
          return;
        }
        if (list != null
            && listElement(list) instanceof GroupNode entry
            && entry.fieldCount() == 2) {
          // A map with struct, array or map keys, stored as a list of {key, value} entries.
          checkShape(entry.field(0), schema.keySchema(), path + "{key}");
          checkShape(entry.field(1), schema.valueSchema(), path + "{value}");
          return;
        }
        throw mismatch(path, node, schema);
      case STRUCT:
        for (Field f : schema.fields()) {
          String at = path.isEmpty() ? f.name() : path + "." + f.name();
          if (!ConnectToParquet.hasColumns(f.schema())) {
            // Null in every record: not read (files of earlier versions have a STRING column of
            // nulls for it; the __empty of a struct left without columns may share its name).
            continue;
          }
          int index = group.fieldIndex(f.name());
          if (index < 0) {
            throw new DataException(
                "field " + at + " of the metadata schema has no Parquet column");
          }
          checkShape(group.field(index), f.schema(), at);
        }
        return;
      default:
        throw mismatch(path, node, schema);
    }
  }

  /** The element of a LIST as a non-repeated node (a two-level list's repeated field). */
  static SchemaNode listElement(NestedTypes.ListShape list) {
    SchemaNode element = list.element();
    return list.twoLevel() ? element.withRepetition(FieldRepetitionType.REQUIRED) : element;
  }

  static DataException mismatch(String path, SchemaNode node, Schema schema) {
    return new DataException(
        "field "
            + (path.isEmpty() ? "(the value)" : path)
            + ": the Parquet field "
            + node.name()
            + " cannot hold the metadata's "
            + ConnectTypes.describe(schema));
  }

  /** Whether a leaf of {@code physical} type holds values of a Connect {@code kind}. */
  static boolean fits(ConnectTypes.Kind kind, PhysicalType physical) {
    boolean binary =
        physical == PhysicalType.BYTE_ARRAY
            || physical == PhysicalType.FIXED_LEN_BYTE_ARRAY
            || physical == PhysicalType.INT96;
    return switch (kind) {
      case BOOLEAN -> physical == PhysicalType.BOOLEAN;
      case INT8, INT16, INT32, INT64 ->
          physical == PhysicalType.INT32 || physical == PhysicalType.INT64;
      case FLOAT32 ->
          physical == PhysicalType.FLOAT || physical == PhysicalType.FIXED_LEN_BYTE_ARRAY;
      case FLOAT64 -> physical == PhysicalType.DOUBLE || physical == PhysicalType.FLOAT;
      case STRING, BYTES -> binary;
      case DECIMAL ->
          physical != PhysicalType.BOOLEAN
              && physical != PhysicalType.FLOAT
              && physical != PhysicalType.DOUBLE
              && physical != PhysicalType.INT96;
      case DATE -> physical == PhysicalType.INT32;
      case TIME -> physical == PhysicalType.INT32 || physical == PhysicalType.INT64;
      case TIMESTAMP -> physical == PhysicalType.INT64 || physical == PhysicalType.INT96;
      default -> false;
    };
  }
}
