package dev.parquetconnect.source;

import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.schema.MessageType;
import java.util.Map;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Rows of a file our sink wrote back into the records it consumed ({@link ParquetToConnect}, read
 * by {@link ConnectRecordReader}): key and value with the Connect schemas the sink stored in the
 * file's metadata, headers with theirs, topic, partition, offset and timestamp from the {@code
 * __kafka_*} columns. Built once per file.
 */
final class ReplayRowMapper {
  private final ParquetToConnect restore;
  private final PartitionChooser partitions;
  private final String fallbackTopic;

  private ReplayRowMapper(
      ParquetToConnect restore, String fallbackTopic, PartitionChooser partitions) {
    this.restore = restore;
    this.fallbackTopic = fallbackTopic;
    this.partitions = partitions;
  }

  /**
   * The mapper for a file of this schema and footer metadata.
   *
   * @param fallbackTopic the topic of the file's name, for files without {@code __kafka_topic}
   * @throws DataException when the file was not written by our sink with its metadata columns
   */
  static ReplayRowMapper of(
      MessageType schema,
      Map<String, String> keyValueMetadata,
      String fallbackTopic,
      PartitionChooser partitions) {
    ParquetToConnect restore = ParquetToConnect.of(schema, keyValueMetadata);
    int offsetIndex = schema.root().fieldIndex(FileLayout.OFFSET_COLUMN);
    if (!restore.sinkFile() || offsetIndex < 0) {
      throw new DataException(
          "not a file of our sink with store.kafka.metadata=true (no "
              + (restore.sinkFile()
                  ? FileLayout.OFFSET_COLUMN + " column"
                  : FileLayout.LAYOUT_KEY + " metadata")
              + "); read it in generic mode");
    }
    return new ReplayRowMapper(restore, fallbackTopic, partitions);
  }

  /** The mapping the file's rows are read with. */
  ParquetToConnect mapping() {
    return restore;
  }

  /** The original Kafka offset of the row read last. */
  long kafkaOffset(ConnectRecordReader row) {
    if (!row.hasOffset()) {
      throw new DataException("a row without " + FileLayout.OFFSET_COLUMN);
    }
    return row.offsetValue();
  }

  /** The row read last as a record. */
  SourceRecord toRecord(
      ConnectRecordReader row, Map<String, ?> sourcePartition, Map<String, ?> sourceOffset) {
    String topic = row.topic() != null ? row.topic() : fallbackTopic;
    Object key = row.key();
    Object value = row.value();
    // A null key or a tombstone goes out without a schema. A file has one key and one value
    // schema, and a null fits any file, so a null's own schema is not stored: giving it the
    // file's schema made JsonConverter fail (a required schema) or write the text null or an
    // envelope (an optional one): no longer a null key or a tombstone. JsonConverter, Avro,
    // Protobuf and JSON Schema converters read nulls without schema, and Kafka's converters
    // write a null without schema as null; the optional schema a String, ByteArray or number
    // converter gave a null is what is not restored (docs/source.md, Records).
    return new SourceRecord(
        sourcePartition,
        sourceOffset,
        topic,
        partitions.choose(row.partition(), key),
        key == null ? null : restore.keySchema(),
        key,
        value == null ? null : restore.valueSchema(),
        value,
        row.timestamp(),
        row.headers());
  }
}
