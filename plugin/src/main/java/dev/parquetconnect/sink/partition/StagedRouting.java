package dev.parquetconnect.sink.partition;

import dev.parquetconnect.connect.StagedRow;
import java.util.List;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A partitioner that reads the value but can also route a record whose raw JSON value was read
 * straight into a {@link StagedRow} ({@code input.format=json}), without the Connect value: the
 * sink then stages such records although {@link Partitioner#readsValue} is true.
 */
public interface StagedRouting {

  /**
   * The partition columns {@link Partitioner#partition} would give for {@code record} with the
   * value JsonConverter makes of the same JSON, computed from {@code row}; null when the row cannot
   * tell (the record then goes the way of a decoded record, which decides).
   *
   * @param record the record, its key decoded, its value still raw
   * @throws org.apache.kafka.connect.errors.DataException when the value does not fit (the decoded
   *     record's way names it)
   */
  List<PartitionColumn> partition(SinkRecord record, StagedRow row);
}
