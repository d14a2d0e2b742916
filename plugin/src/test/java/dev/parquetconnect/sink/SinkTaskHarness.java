package dev.parquetconnect.sink;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.Stores;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The production sink task (Parquet files through {@link ParquetFiles}, the store of its {@code
 * store.url}) on a {@link ManualClock} and a {@link TestContext}, for tests of other packages that
 * archive records with the real task. {@link #commitOpenFiles} moves the clock past {@code
 * rotate.schedule.interval.ms} (which the properties must set), so every open file is committed and
 * everything put is in the store (in table mode: in the table, the staged ranges committed at
 * once), without waiting for the wall clock; {@link #stageOpenFiles} only moves the clock and puts,
 * as Connect would.
 */
public final class SinkTaskHarness implements AutoCloseable {
  private final ManualClock clock = new ManualClock();
  private final TestContext context;
  private final ParquetSinkTask task;
  private final List<TopicPartition> partitions;

  /** Starts the task with {@code props} and opens {@code partitions}, as Connect does. */
  public SinkTaskHarness(Map<String, String> props, Collection<TopicPartition> partitions) {
    this(props, partitions, false);
  }

  /**
   * As above; {@code withReporter}: the context offers an errant record reporter, so bad records go
   * to {@link #deadLettered} (with {@code errors.tolerance=all}) instead of failing the task.
   */
  public SinkTaskHarness(
      Map<String, String> props, Collection<TopicPartition> partitions, boolean withReporter) {
    this(props, partitions, withReporter, CrashPoints.NONE);
  }

  /** As above, stopping or pausing at the named points of the commit ({@code crashPoints}). */
  public SinkTaskHarness(
      Map<String, String> props,
      Collection<TopicPartition> partitions,
      boolean withReporter,
      CrashPoints crashPoints) {
    this.context = new TestContext(withReporter);
    this.partitions = List.copyOf(partitions);
    task =
        new ParquetSinkTask(
            ParquetFiles::writerFactory,
            config -> Stores.open(config.storeUrl(), config.storeSettings()),
            clock,
            crashPoints);
    context.assignment.addAll(this.partitions);
    task.initialize(context);
    task.start(props);
    task.open(this.partitions);
  }

  /** How many records {@code input.format=json} wrote from rows staged from their JSON. */
  public long jsonRecordsStaged() {
    return task.jsonRecordsStaged();
  }

  public void put(Collection<SinkRecord> records) {
    task.put(records);
  }

  /**
   * Puts {@code records} in order, in batches of 1 to {@code maxBatch} records drawn by {@code
   * random}.
   */
  public void putInRandomBatches(List<SinkRecord> records, Random random, int maxBatch) {
    for (int i = 0; i < records.size(); ) {
      int n = Math.min(records.size() - i, 1 + random.nextInt(maxBatch));
      task.put(new ArrayList<>(records.subList(i, i + n)));
      i += n;
    }
  }

  /** Moves the clock by {@code ms} and calls {@code put} without records, as Connect does. */
  public void commitOpenFiles(long ms) {
    clock.advance(ms);
    task.put(List.of());
    task.commitStagedNow();
  }

  /**
   * Moves the clock by {@code ms} and calls {@code put} without records: in table mode the open
   * files are staged, and committed by the round that is due, if any.
   */
  public void stageOpenFiles(long ms) {
    clock.advance(ms);
    task.put(List.of());
  }

  /** The task's (manual) wall clock. */
  public long wallMillis() {
    return clock.wallMillis();
  }

  /** Moves the task's clock by {@code ms} without calling the task. */
  public void advanceClock(long ms) {
    clock.advance(ms);
  }

  /** Sets both harnesses' clocks to the later of the two: tasks on one clock, as in production. */
  public static void alignClocks(SinkTaskHarness a, SinkTaskHarness b) {
    long lag = b.wallMillis() - a.wallMillis();
    if (lag > 0) {
      a.advanceClock(lag);
    } else {
      b.advanceClock(-lag);
    }
  }

  /** The offsets the task reports as committed ({@code preCommit}). */
  public Map<TopicPartition, Long> committed() {
    Map<TopicPartition, Long> out = new HashMap<>();
    task.preCommit(Map.of()).forEach((tp, o) -> out.put(tp, o.offset()));
    return out;
  }

  /** The partitions the task paused (a recovery that could not settle). */
  public Set<TopicPartition> paused() {
    return Set.copyOf(context.paused);
  }

  /** Records sent to the dead letter queue (none without a reporter). */
  public List<SinkRecord> deadLettered() {
    return List.copyOf(context.deadLettered);
  }

  /** The errors the dead-lettered records were reported with, in the same order. */
  public List<Throwable> deadLetterErrors() {
    return List.copyOf(context.deadLetterErrors);
  }

  /** Commits the task started for {@code reason} (a {@code commit(reason)} string). */
  public long rotations(String reason) {
    return task.metrics().rotations(SinkMetrics.Rotation.of(reason));
  }

  /** Schema changes the task's committed files took in place. */
  public long schemaChangesInPlace() {
    return task.metrics().schemaChangesInPlace();
  }

  /** The task's {@code commit-failures} metric. */
  public long commitFailures() {
    return task.metrics().commitFailures();
  }

  /** Files the task committed. */
  public long filesCommitted() {
    return task.metrics().filesCommitted();
  }

  @Override
  public void close() {
    try {
      task.close(partitions);
    } finally {
      task.stop();
    }
  }
}
