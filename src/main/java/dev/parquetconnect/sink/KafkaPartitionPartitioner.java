package dev.parquetconnect.sink;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/** The default: one directory per Kafka partition, {@code partition=<n>}. */
final class KafkaPartitionPartitioner implements Partitioner {
  static final String COLUMN = "partition";

  @Override
  public void configure(Map<String, String> config) {}

  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    return List.of(new PartitionColumn(COLUMN, Integer.toString(record.kafkaPartition())));
  }
}
