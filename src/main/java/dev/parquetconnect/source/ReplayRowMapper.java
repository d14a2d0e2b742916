package dev.parquetconnect.source;

import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Rows of a file our sink wrote back into the records it consumed: topic, partition, offset,
 * timestamp, key and headers from the {@code __kafka_*} columns, the value from the other
 * columns. Built once per file schema.
 */
final class ReplayRowMapper {
  static final String TOPIC_COLUMN = "__kafka_topic";
  static final String PARTITION_COLUMN = "__kafka_partition";
  static final String OFFSET_COLUMN = "__kafka_offset";
  static final String TIMESTAMP_COLUMN = "__kafka_timestamp";
  static final String KEY_COLUMN = "__kafka_key";
  static final String HEADERS_COLUMN = "__kafka_headers";
  static final String TOMBSTONE_COLUMN = "__kafka_tombstone";
  /** The column of a value that is not a struct, in files with the sink's layout metadata. */
  static final String VALUE_COLUMN = "value";
  static final String LAYOUT_KEY = "parquetconnect.layout";

  /** The Connect type of a header, from the start of its schema JSON. */
  private static final Pattern HEADER_TYPE = Pattern.compile("\"type\"\\s*:\\s*\"(\\w+)\"");
  private static final Pattern HEADER_OPTIONAL = Pattern.compile("\"optional\"\\s*:\\s*true");

  private final String fallbackTopic;
  private final PartitionChooser partitions;
  private final int topicIndex;
  private final int partitionIndex;
  private final int offsetIndex;
  private final int timestampIndex;
  private final int keyIndex;
  private final int headersIndex;
  private final int tombstoneIndex;
  private final ConnectMapping key;
  private final ConnectMapping.StructMapping structValue;
  private final ConnectMapping singleValue;
  private final int singleValueIndex;
  private final Schema valueSchema;

  private ReplayRowMapper(MessageType schema, Map<String, String> keyValueMetadata,
      String fallbackTopic, PartitionChooser partitions) {
    this.fallbackTopic = fallbackTopic;
    this.partitions = partitions;
    GroupNode root = schema.root();
    this.topicIndex = root.fieldIndex(TOPIC_COLUMN);
    this.partitionIndex = root.fieldIndex(PARTITION_COLUMN);
    this.offsetIndex = root.fieldIndex(OFFSET_COLUMN);
    this.timestampIndex = root.fieldIndex(TIMESTAMP_COLUMN);
    this.keyIndex = root.fieldIndex(KEY_COLUMN);
    this.headersIndex = root.fieldIndex(HEADERS_COLUMN);
    this.tombstoneIndex = root.fieldIndex(TOMBSTONE_COLUMN);
    if (offsetIndex < 0) {
      throw new DataException("the file has no " + OFFSET_COLUMN + " column: not written by "
          + "our sink with store.kafka.metadata=true (read it in generic mode)");
    }
    this.key = keyIndex < 0 ? null
        : ConnectMapping.of(root.field(keyIndex), KEY_COLUMN);
    List<Integer> valueFields = new ArrayList<>();
    for (int i = 0; i < root.fieldCount(); i++) {
      if (!root.field(i).name().startsWith("__kafka_")) {
        valueFields.add(i);
      }
    }
    boolean singleColumnValue = keyValueMetadata.containsKey(LAYOUT_KEY)
        && valueFields.size() == 1
        && root.field(valueFields.get(0)).name().equals(VALUE_COLUMN)
        && !isStructValue(keyValueMetadata);
    if (valueFields.isEmpty()) {
      this.structValue = null;
      this.singleValue = null;
      this.singleValueIndex = -1;
      this.valueSchema = null;
    } else if (singleColumnValue) {
      this.structValue = null;
      this.singleValueIndex = valueFields.get(0);
      this.singleValue = ConnectMapping.of(root.field(singleValueIndex), VALUE_COLUMN);
      this.valueSchema = singleValue.schema();
    } else {
      int[] indexes = valueFields.stream().mapToInt(Integer::intValue).toArray();
      // Tombstones replay as null values, which a required struct schema would refuse.
      this.structValue = ConnectMapping.structOf(root, indexes, null, tombstoneIndex >= 0);
      this.singleValue = null;
      this.singleValueIndex = -1;
      this.valueSchema = structValue.schema();
    }
  }

  /** Whether the sink recorded a struct value schema (its fields are then the columns). */
  private static boolean isStructValue(Map<String, String> keyValueMetadata) {
    String json = keyValueMetadata.get("connect.value.schema");
    if (json == null) {
      return false;
    }
    Matcher m = HEADER_TYPE.matcher(json);
    return m.find() && m.group(1).equals("struct");
  }

  static ReplayRowMapper of(MessageType schema, Map<String, String> keyValueMetadata,
      String fallbackTopic, PartitionChooser partitions) {
    return new ReplayRowMapper(schema, keyValueMetadata, fallbackTopic, partitions);
  }

  /** The original Kafka offset of a row. */
  long kafkaOffset(Row row) {
    Object v = row.get(offsetIndex);
    if (v == null) {
      throw new DataException("a row without " + OFFSET_COLUMN);
    }
    return (Long) v;
  }

  SourceRecord toRecord(Row row, Map<String, ?> sourcePartition, Map<String, ?> sourceOffset) {
    String topic = topicIndex < 0 ? fallbackTopic : utf8(row.get(topicIndex));
    Integer original = partitionIndex < 0 ? null : (Integer) row.get(partitionIndex);
    Long timestamp = timestampIndex < 0 ? null : (Long) row.get(timestampIndex);
    Object keyValue = key == null ? null : key.convert(row.get(keyIndex));
    Schema keySchema = key == null ? null : key.schema();
    Object value = null;
    boolean tombstone = tombstoneIndex >= 0 && Boolean.TRUE.equals(row.get(tombstoneIndex));
    if (!tombstone) {
      if (structValue != null) {
        value = structValue.convert(row);
      } else if (singleValue != null) {
        value = singleValue.convert(row.get(singleValueIndex));
      }
    }
    ConnectHeaders headers = new ConnectHeaders();
    if (headersIndex >= 0 && row.get(headersIndex) instanceof List<?> list) {
      for (Object h : list) {
        addHeader(headers, (Row) h);
      }
    }
    return new SourceRecord(sourcePartition, sourceOffset, topic,
        partitions.choose(original, keyValue), keySchema, keyValue, valueSchema, value,
        timestamp, headers);
  }

  /**
   * One entry of {@code __kafka_headers}: {@code {key, schema, value}} with the header's Connect
   * schema as JSON (null for a schemaless header) and its value as UTF-8 text for a STRING or
   * the bytes for anything else. STRING and BYTES headers come back typed; others (until the
   * Connect mapping package restores every schema from its JSON) as their stored bytes.
   */
  private static void addHeader(ConnectHeaders headers, Row h) {
    String key = utf8(h.get(0));
    String schemaJson = utf8(h.get(1));
    byte[] bytes = (byte[]) h.get(2);
    if (schemaJson == null) {
      headers.add(key, bytes, bytes == null ? Schema.OPTIONAL_BYTES_SCHEMA : null);
      return;
    }
    Matcher type = HEADER_TYPE.matcher(schemaJson);
    boolean optional = HEADER_OPTIONAL.matcher(schemaJson).find();
    String typeName = type.find() ? type.group(1) : "bytes";
    if (typeName.equals("string")) {
      headers.add(key, bytes == null ? null : new String(bytes, StandardCharsets.UTF_8),
          optional ? Schema.OPTIONAL_STRING_SCHEMA : Schema.STRING_SCHEMA);
    } else {
      headers.add(key, bytes, optional || bytes == null ? Schema.OPTIONAL_BYTES_SCHEMA
          : Schema.BYTES_SCHEMA);
    }
  }

  private static String utf8(Object bytes) {
    return bytes == null ? null : new String((byte[]) bytes, StandardCharsets.UTF_8);
  }
}
