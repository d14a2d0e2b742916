package dev.parquetconnect.it;

import dev.parquetconnect.sink.partition.PartitionColumn;
import dev.parquetconnect.sink.partition.Partitioner;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A partitioner as a user writes one: {@code parity=even|odd} by a whole-number field of a
 * schemaless value ({@code parity.field}, default {@code id}). {@link PluginIsolationIT} packs this
 * class alone into a jar of its own, installs that jar in the plugin's directory and names it in
 * {@code partitioner.class}: the worker must load it through the plugin's class loader, since it is
 * neither in our archive nor on the worker's classpath.
 */
public final class ParityPartitioner implements Partitioner {
  static final String FIELD_CONFIG = "parity.field";

  private String field = "id";

  @Override
  public void configure(Map<String, String> config) {
    field = config.getOrDefault(FIELD_CONFIG, field);
  }

  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    Object id = record.value() instanceof Map<?, ?> value ? value.get(field) : null;
    if (!(id instanceof Number number)) {
      throw new DataException(
          "ParityPartitioner: no whole-number field '"
              + field
              + "' in the value of "
              + record.topic()
              + "-"
              + record.kafkaPartition()
              + "@"
              + record.kafkaOffset());
    }
    return List.of(new PartitionColumn("parity", number.longValue() % 2 == 0 ? "even" : "odd"));
  }
}
