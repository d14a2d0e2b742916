package dev.parquetconnect.source;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.connect.RestoredRecord;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.util.Map;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Rows of a file our sink wrote back into the records it consumed ({@link ParquetToConnect}):
 * key and value with the Connect schemas the sink stored in the file's metadata, headers with
 * theirs, topic, partition, offset and timestamp from the {@code __kafka_*} columns. Built once
 * per file.
 */
final class ReplayRowMapper {
  private final ParquetToConnect restore;
  private final PartitionChooser partitions;
  private final String fallbackTopic;
  private final int offsetIndex;

  private ReplayRowMapper(ParquetToConnect restore, int offsetIndex, String fallbackTopic,
      PartitionChooser partitions) {
    this.restore = restore;
    this.offsetIndex = offsetIndex;
    this.fallbackTopic = fallbackTopic;
    this.partitions = partitions;
  }

  /**
   * The mapper for a file of this schema and footer metadata.
   *
   * @param fallbackTopic the topic of the file's name, for files without {@code __kafka_topic}
   * @throws DataException when the file was not written by our sink with its metadata columns
   */
  static ReplayRowMapper of(MessageType schema, Map<String, String> keyValueMetadata,
      String fallbackTopic, PartitionChooser partitions) {
    ParquetToConnect restore = ParquetToConnect.of(schema, keyValueMetadata);
    int offsetIndex = schema.root().fieldIndex(FileLayout.OFFSET_COLUMN);
    if (!restore.sinkFile() || offsetIndex < 0) {
      throw new DataException("not a file of our sink with store.kafka.metadata=true (no "
          + (restore.sinkFile() ? FileLayout.OFFSET_COLUMN + " column" : FileLayout.LAYOUT_KEY
          + " metadata") + "); read it in generic mode");
    }
    return new ReplayRowMapper(restore, offsetIndex, fallbackTopic, partitions);
  }

  /** The original Kafka offset of a row, read without converting the row. */
  long kafkaOffset(Row row) {
    Object v = row.get(offsetIndex);
    if (v == null) {
      throw new DataException("a row without " + FileLayout.OFFSET_COLUMN);
    }
    return (Long) v;
  }

  SourceRecord toRecord(Row row, Map<String, ?> sourcePartition, Map<String, ?> sourceOffset) {
    RestoredRecord r = restore.convert(row);
    String topic = r.topic() != null ? r.topic() : fallbackTopic;
    return new SourceRecord(sourcePartition, sourceOffset, topic,
        partitions.choose(r.partition(), r.key()), r.keySchema(), r.key(), r.valueSchema(),
        r.value(), r.timestamp(), r.headers());
  }
}
