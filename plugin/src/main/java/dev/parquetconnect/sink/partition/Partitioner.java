package dev.parquetconnect.sink.partition;

import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Decides the partition directory of a record. The built-in ones are chosen with {@code
 * partitioner.class} = {@code kafka}, {@code field}, {@code time} or {@code header}; a user's own
 * is named by its class, which needs a public no-argument constructor.
 *
 * <p>A partitioner returns raw names and values; the sink encodes them into Hive-style segments
 * ({@code name=value/}) itself. Two calls with equal records must return equal columns: the
 * exactly-once protocol commits files per Kafka partition and relies on nothing else, but readers
 * expect a record to land in one directory.
 *
 * <p>One instance serves one task, from one thread.
 */
public interface Partitioner {

  /**
   * Called once before use with the connector's configuration (every key as a string, including
   * keys the sink does not know, so a partitioner may define its own).
   */
  void configure(Map<String, String> config);

  /**
   * The partition columns of {@code record}, outermost directory first; an empty list writes the
   * record directly under its topic's directory.
   *
   * @throws org.apache.kafka.connect.errors.DataException if the record lacks what the partitioner
   *     needs (the record goes to the dead letter queue or fails the task, per {@code
   *     errors.tolerance})
   */
  List<PartitionColumn> partition(SinkRecord record);

  /**
   * Whether {@link #partition} may look at the record's value. The sink reads raw JSON values
   * straight into its columns only under a partitioner that does not ({@code input.format=json}); a
   * user's own is assumed to.
   */
  default boolean readsValue() {
    return true;
  }
}
