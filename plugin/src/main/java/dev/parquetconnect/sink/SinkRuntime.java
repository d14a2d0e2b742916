package dev.parquetconnect.sink;

import dev.parquetconnect.connect.json.JsonRecordDecoder;
import dev.parquetconnect.sink.ParquetSinkConfig.NullValueBehavior;
import dev.parquetconnect.sink.commit.CommitProtocol;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.partition.Partitioner;
import dev.parquetconnect.sink.partition.RecordTime;
import dev.parquetconnect.storage.Store;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * What every Kafka partition's writer of a task shares: the store, the naming, the commit protocol,
 * the record format, the partitioner, the rotation settings, the memory budget, error handling and
 * the clocks.
 *
 * @param commits opens the commit protocol of each Kafka partition
 * @param taskName {@code <connector>-<task number>}, for markers and logs
 * @param metrics the task's metrics (docs/operations.md)
 * @param jsonInput reads raw JSON records ({@code input.format=json}); null: taken as they come
 */
record SinkRuntime(
    Store store,
    SinkKeys keys,
    CommitProtocol.Factory commits,
    RecordWriterFactory writers,
    Partitioner partitioner,
    RecordTime recordTime,
    Rotation rotation,
    NullValueBehavior nullValues,
    long commitTimeoutMs,
    MemoryBudget budget,
    ErrantRecords errors,
    CrashPoints faults,
    SinkClock clock,
    SinkTaskContext context,
    String taskName,
    SinkMetrics metrics,
    JsonRecordDecoder jsonInput) {

  /** When a Kafka partition's open files are committed. */
  record Rotation(long flushSize, long fileMaxBytes, long intervalMs, long scheduleIntervalMs) {
    /** The first multiple of the schedule interval after {@code wallMillis}; MAX_VALUE if off. */
    long scheduleDeadline(long wallMillis) {
      if (scheduleIntervalMs <= 0) {
        return Long.MAX_VALUE;
      }
      return Math.floorDiv(wallMillis, scheduleIntervalMs) * scheduleIntervalMs
          + scheduleIntervalMs;
    }
  }
}
