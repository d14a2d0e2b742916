package dev.parquetconnect.sink;

import dev.parquetconnect.sink.partition.PartitionColumn;
import dev.parquetconnect.sink.partition.Partitioner;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/** A user's own partitioner, as a test of {@code partitioner.class=<class name>}. */
public final class TenantPartitioner implements Partitioner {
  private String prefix = "";

  @Override
  public void configure(Map<String, String> config) {
    prefix = config.getOrDefault("tenant.prefix", "");
  }

  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    return List.of(new PartitionColumn("tenant", prefix + record.key()));
  }
}
