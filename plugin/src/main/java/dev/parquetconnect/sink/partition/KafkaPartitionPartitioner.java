package dev.parquetconnect.sink.partition;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/** The default: one directory per Kafka partition, {@code partition=<n>}. */
final class KafkaPartitionPartitioner implements Partitioner {
  static final String COLUMN = "partition";

  /** The columns of the last partition asked for: a task's records come in runs of one. */
  private int lastPartition = -1;

  private List<PartitionColumn> lastColumns;

  @Override
  public void configure(Map<String, String> config) {}

  @Override
  public boolean readsValue() {
    return false;
  }

  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    int partition = record.kafkaPartition();
    if (partition != lastPartition || lastColumns == null) {
      lastColumns = List.of(new PartitionColumn(COLUMN, Integer.toString(partition)));
      lastPartition = partition;
    }
    return lastColumns;
  }
}
