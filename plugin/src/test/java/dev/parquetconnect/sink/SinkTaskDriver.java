package dev.parquetconnect.sink;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.Store;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One sink task instance on partition 0 of {@link SinkTaskTest#TOPIC}, partitioned by the header
 * {@code h}, committing every 10 records, fed from a consumer position that follows the seeks the
 * task asks of Connect: the instance that the crash, fencing and upgrade tests start, crash and
 * start again over one store.
 */
final class SinkTaskDriver {
  static final TopicPartition TP = new TopicPartition(SinkTaskTest.TOPIC, 0);

  final ParquetSinkTask task;
  final TestContext context = new TestContext(false);
  private final LongFunction<SinkRecord> records;
  long position;

  /**
   * Starts the task and opens {@link #TP}, as Connect does after an assignment.
   *
   * @param extraProps connector properties beyond the ones every such test uses
   * @param records the record at each offset (with an {@code h} header)
   */
  SinkTaskDriver(
      Store store,
      SinkClock clock,
      LinesFormat format,
      CrashPoints crashPoints,
      long commitTimeoutMs,
      Map<String, String> extraProps,
      LongFunction<SinkRecord> records) {
    this.records = records;
    task = new ParquetSinkTask(c -> format, c -> store, clock, crashPoints);
    context.assignment.add(TP);
    task.initialize(context);
    Map<String, String> props = new HashMap<>();
    props.put("name", "conn");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, store.url());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "10");
    props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, Long.toString(commitTimeoutMs));
    props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "header");
    props.put(ParquetSinkConfig.PARTITION_HEADERS_CONFIG, "h");
    props.putAll(extraProps);
    task.start(props);
    task.open(List.of(TP));
    seek();
  }

  /**
   * Delivers the records from the consumer position up to {@code endExclusive}; none while paused.
   */
  void deliverUpTo(long endExclusive) {
    List<SinkRecord> batch = new ArrayList<>();
    if (!context.paused.contains(TP)) {
      for (long o = position; o < endExclusive; o++) {
        batch.add(records.apply(o));
      }
      position = Math.max(position, endExclusive);
    }
    task.put(batch);
    seek();
  }

  /** A seek the task asked for moves the consumer position, as Connect's consumer would. */
  private void seek() {
    Long to = context.takeSeeks().get(TP);
    if (to != null) {
      position = to;
    }
  }

  /** Crash points that crash the task at {@code name} and nowhere else. */
  static CrashPoints crashAt(String name) {
    return point -> {
      if (point.equals(name)) {
        throw new SinkTaskTest.SimulatedCrash(point);
      }
    };
  }
}
