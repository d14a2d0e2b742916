package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.LocalStore;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task's bookkeeping over a local store with a stand-in record format. */
final class SinkTaskTest {
  static final String TOPIC = "orders";

  @TempDir Path dir;
  Store store;
  ManualClock clock = new ManualClock();
  LinesFormat format = new LinesFormat();
  SimulatedConnect connect = new SimulatedConnect();

  @BeforeEach
  void openStore() throws IOException {
    store = new LocalStore(dir);
  }

  @AfterEach
  void closeStore() throws IOException {
    store.close();
  }

  Map<String, String> props(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "conn");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "10");
    props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "10000");
    props.put(ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG, "0");
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  static SinkRecord record(int partition, long offset, Object value) {
    return new SinkRecord(
        TOPIC,
        partition,
        Schema.STRING_SCHEMA,
        "k" + offset,
        Schema.OPTIONAL_STRING_SCHEMA,
        value,
        offset,
        1_700_000_000_000L + offset * 1000,
        TimestampType.CREATE_TIME);
  }

  ParquetSinkTask newTask(CrashPoints crashPoints) {
    return new ParquetSinkTask(
        c -> format, c -> Stores.open(c.storeUrl(), c.storeSettings()), clock, crashPoints);
  }

  void fill(int partitions, int perPartition) {
    for (int p = 0; p < partitions; p++) {
      for (long o = 0; o < perPartition; o++) {
        connect.append(record(p, o, "v" + o));
      }
    }
  }

  void drain(int batch) {
    for (int i = 0; i < 10_000 && connect.step(batch); i++) {
      connect.commitOffsets();
    }
    connect.commitOffsets();
  }

  @Test
  void commitsEachFlushSizeAndReportsOnlyCommittedOffsets() throws IOException {
    fill(2, 25);
    connect.start(() -> newTask(CrashPoints.NONE), props(), false);
    drain(7);
    Map<String, Integer> counts = SimulatedConnect.offsetCounts(store, "topics");
    assertEquals(40, counts.size(), "two commits of 10 per partition; 5 records stay open");
    assertTrue(counts.values().stream().allMatch(c -> c == 1));
    assertEquals(
        Map.of(new TopicPartition(TOPIC, 0), 20L, new TopicPartition(TOPIC, 1), 20L),
        connect.committed());
    assertTrue(
        store.exists(
            "topics/orders/partition=0/"
                + "orders+0+00000000000000000000+00000000000000000009.parquet"));
    assertTrue(
        store.exists(
            "topics/orders/partition=1/"
                + "orders+1+00000000000000000010+00000000000000000019.parquet"));
    assertFalse(
        store.exists("topics/orders/partition=0/orders+0+00000000000000000000.parquet"),
        "the provisional name (first offset only) is never committed");
    assertTrue(store.exists("topics/_markers/conn/orders/0/00000000000000000010-0.intent"));
    assertTrue(store.exists("topics/_markers/conn/orders/0/00000000000000000010-0.outcome"));
  }

  @Test
  void aNewInstanceResumesAfterTheLastCommitWhateverKafkaCommitted() throws IOException {
    fill(1, 35);
    connect.start(() -> newTask(CrashPoints.NONE), props(), false);
    drain(5);
    // Kafka's committed offset is reset behind the store's: the store wins.
    connect.committed().put(new TopicPartition(TOPIC, 0), 3L);
    connect.crash();
    connect.start(() -> newTask(CrashPoints.NONE), props(), false);
    drain(5);
    Map<String, Integer> counts = SimulatedConnect.offsetCounts(store, "topics");
    assertEquals(30, counts.size());
    assertTrue(counts.values().stream().allMatch(c -> c == 1), counts.toString());
  }

  @Test
  void aCrashAtAnyPointLosesAndDuplicatesNothing() throws IOException {
    for (String point :
        List.of(
            "put", "before-intent", "after-intent", "mid-commit", "before-done", "after-done")) {
      for (int hit = 1; hit <= 3; hit++) {
        Path sub = dir.resolve(point + "-" + hit);
        try (Store local = new LocalStore(sub)) {
          SimulatedConnect sim = new SimulatedConnect();
          for (int p = 0; p < 2; p++) {
            for (long o = 0; o < 45; o++) {
              SinkRecord r = record(p, o, "v" + o);
              r.headers().addString("h", "h" + (o % 3));
              sim.append(r);
            }
          }
          Map<String, String> props =
              props(
                  ParquetSinkConfig.STORE_URL_CONFIG,
                  sub.toUri().toString(),
                  ParquetSinkConfig.PARTITIONER_CONFIG,
                  "header");
          props.put(ParquetSinkConfig.PARTITION_HEADERS_CONFIG, "h");
          int crashAt = hit;
          int[] seen = {0};
          CrashPoints crash =
              at -> {
                if (at.equals(point) && ++seen[0] == crashAt) {
                  throw new SimulatedCrash(at);
                }
              };
          sim.start(() -> newTask(crash), props, false);
          try {
            for (int i = 0; i < 1000 && sim.step(4); i++) {
              sim.commitOffsets();
            }
          } catch (SimulatedCrash expected) {
            sim.crash();
          }
          assertTrue(seen[0] >= crashAt, point + " reached " + crashAt + " times");
          // A restart takes a while: the crashed instance's files are older than the cut-off.
          clock.advance(60_000);
          sim.start(() -> newTask(CrashPoints.NONE), props, false);
          for (int i = 0; i < 1000 && sim.step(4); i++) {
            sim.commitOffsets();
            // An unfinished commit of the crashed instance is rolled back after the timeout.
            clock.advance(1000);
          }
          sim.commitOffsets();
          sim.stop();
          String round = point + " #" + hit;
          Map<String, Integer> counts = SimulatedConnect.offsetCounts(local, "topics");
          assertEquals(
              80,
              counts.size(),
              round
                  + ": the open commit of offsets 40-44 is "
                  + "discarded when the task stops; "
                  + counts.keySet());
          counts.forEach(
              (offset, count) ->
                  assertEquals(1, count, round + ": " + offset + " appears " + count + " times"));
          assertEquals(List.of(), SimulatedConnect.temporaryFiles(sub), round);
        }
      }
    }
  }

  @Test
  void badRecordsFailTheTaskNamingWhereWithoutTolerance() {
    connect.append(record(0, 0, "good"));
    connect.append(record(0, 1, "bad"));
    connect.start(() -> newTask(CrashPoints.NONE), props(), false);
    ConnectException e = assertThrows(ConnectException.class, () -> connect.step(10));
    assertTrue(e.getMessage().contains("topic orders partition 0 offset 1"), e.getMessage());
    assertTrue(e.getMessage().contains("field 'value'"), e.getMessage());
  }

  @Test
  void badRecordsGoToTheDeadLetterQueueWithToleranceAndNothingElseIsLost() throws IOException {
    for (long o = 0; o < 20; o++) {
      connect.append(record(0, o, o % 7 == 3 ? "bad" : "v" + o));
    }
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all"),
        true);
    drain(6);
    assertEquals(
        List.of(3L, 10L, 17L),
        connect.context().deadLettered.stream().map(SinkRecord::kafkaOffset).toList());
    Map<String, Integer> counts = SimulatedConnect.offsetCounts(store, "topics");
    assertEquals(17, counts.size(), counts.keySet().toString());
    assertFalse(counts.containsKey("orders-0@3"));
    assertEquals(
        20L,
        connect.committed().get(new TopicPartition(TOPIC, 0)),
        "dead-lettered records count toward flush.size and the committed offset");
  }

  @Test
  void aRecordNoFileCanTakeIsABadRecordNotACommit() throws IOException {
    connect.append(record(0, 0, "a"));
    connect.append(record(0, 1, "conflict"));
    connect.append(record(0, 2, "c"));
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(
            ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all",
            ParquetSinkConfig.FLUSH_SIZE_CONFIG, "3"),
        true);
    drain(10);
    assertEquals(
        List.of(1L), connect.context().deadLettered.stream().map(SinkRecord::kafkaOffset).toList());
    assertEquals(1, SimulatedConnect.committedFiles(store, "topics").size(), "one commit");
  }

  @Test
  void tombstonesFailIgnoreOrWriteAsConfigured() throws IOException {
    connect.append(record(0, 0, "a"));
    connect.append(record(0, 1, null));
    connect.append(record(0, 2, "c"));
    connect.start(() -> newTask(CrashPoints.NONE), props(), false);
    ConnectException e = assertThrows(ConnectException.class, () -> connect.step(10));
    assertTrue(
        e.getMessage().contains("offset 1") && e.getMessage().contains("tombstone"),
        e.getMessage());
    connect.crash();

    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(
            ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG, "ignore",
            ParquetSinkConfig.FLUSH_SIZE_CONFIG, "3"),
        false);
    drain(10);
    assertEquals(
        Map.of("orders-0@0", 1, "orders-0@2", 1), SimulatedConnect.offsetCounts(store, "topics"));
    assertEquals(3L, connect.committed().get(new TopicPartition(TOPIC, 0)));
  }

  @Test
  void tombstonesCanBeWrittenAsRows(@TempDir Path other) throws IOException {
    connect.append(record(0, 0, "a"));
    connect.append(record(0, 1, null));
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(
            ParquetSinkConfig.STORE_URL_CONFIG, other.toUri().toString(),
            ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG, "write",
            ParquetSinkConfig.FLUSH_SIZE_CONFIG, "2"),
        false);
    drain(10);
    try (Store written = new LocalStore(other)) {
      assertEquals(
          Map.of("orders-0@0", 1, "orders-0@1", 1),
          SimulatedConnect.offsetCounts(written, "topics"));
    }
  }

  @Test
  void aSchemaChangeStartsNewFiles() throws IOException {
    connect.append(record(0, 0, "a"));
    connect.append(record(0, 1, "b"));
    connect.append(new SinkRecord(TOPIC, 0, null, null, Schema.INT64_SCHEMA, 5L, 2));
    connect.append(record(0, 3, "d"));
    connect.start(() -> newTask(CrashPoints.NONE), props(), false);
    drain(10);
    Map<String, List<LinesFormat.Line>> files = SimulatedConnect.committedFiles(store, "topics");
    assertEquals(
        2,
        files.size(),
        "offsets 0-1 committed when offset 2 changed the schema, "
            + "2 when 3 changed it back: "
            + files.keySet());
    assertEquals(3L, connect.committed().get(new TopicPartition(TOPIC, 0)));
  }

  @Test
  void scheduledRotationCommitsQuietPartitionsByTheWallClock() throws IOException {
    fill(1, 3);
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000"),
        false);
    drain(10);
    assertEquals(Map.of(), SimulatedConnect.offsetCounts(store, "topics"));
    clock.advance(60_000);
    connect.step(10);
    connect.commitOffsets();
    assertEquals(3, SimulatedConnect.offsetCounts(store, "topics").size());
    assertEquals(3L, connect.committed().get(new TopicPartition(TOPIC, 0)));
  }

  /**
   * Connect's next put comes when records arrive or its offset flush is due (a minute by default):
   * with files open, the task asks for the poll to end at the schedule's boundary instead, so a
   * quiet partition's records are committed in time.
   */
  @Test
  void openFilesAskConnectToCallBackAtTheScheduleBoundary() throws IOException {
    fill(1, 3);
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000"),
        false);
    clock.advance(Math.floorMod(1000 - clock.wallMillis(), 60_000L));
    connect.context().timeout = -1;
    drain(10);
    assertEquals(59_000, connect.context().timeout, "ms until the boundary after the first record");
    clock.advance(20_000);
    connect.context().timeout = -1;
    connect.step(1);
    assertEquals(39_000, connect.context().timeout);
    clock.advance(39_000);
    connect.context().timeout = -1;
    connect.step(1);
    assertEquals(1, SimulatedConnect.committedFiles(store, "topics").size());
    assertEquals(-1, connect.context().timeout, "nothing open, nothing to wait for");
  }

  @Test
  void aScheduleBoundaryCommitsBeforeTheNextBatchIsWritten() throws IOException {
    fill(1, 2);
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000"),
        false);
    clock.advance(Math.floorMod(1000 - clock.wallMillis(), 60_000L));
    connect.step(1);
    clock.advance(60_000);
    // Offset 1 is read after the boundary that commits offset 0's file: it is not in that file.
    connect.step(1);
    connect.commitOffsets();
    assertEquals(
        Map.of(
            "topics/orders/partition=0/"
                + "orders+0+00000000000000000000+00000000000000000000.parquet",
            1),
        SimulatedConnect.committedFiles(store, "topics").entrySet().stream()
            .collect(
                java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().size())));
    assertEquals(1L, connect.committed().get(new TopicPartition(TOPIC, 0)));
  }

  @Test
  void rotateIntervalCommitsByRecordTime() throws IOException {
    fill(1, 10);
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(ParquetSinkConfig.ROTATE_INTERVAL_MS_CONFIG, "3000"),
        false);
    drain(10);
    // Records are 1 s apart: offsets 0-2, 3-5 and 6-8 commit when 3, 6 and 9 arrive.
    assertEquals(3, SimulatedConnect.committedFiles(store, "topics").size());
    assertEquals(9L, connect.committed().get(new TopicPartition(TOPIC, 0)));
  }

  @Test
  void manyOpenFilesStayWithinTheBufferBudget() throws IOException {
    // 200 directories, each file claiming 256 KiB besides its rows, under an 8 MiB budget.
    format = new LinesFormat(256 * 1024);
    for (long o = 0; o < 2000; o++) {
      SinkRecord r = record(0, o, "value-" + o + "-" + "x".repeat(200));
      r.headers().addString("h", "h" + (o % 200));
      connect.append(r);
    }
    connect.start(
        () -> newTask(CrashPoints.NONE),
        props(
            ParquetSinkConfig.FLUSH_SIZE_CONFIG, "100000",
            ParquetSinkConfig.PARTITIONER_CONFIG, "header",
            ParquetSinkConfig.PARTITION_HEADERS_CONFIG, "h",
            ParquetSinkConfig.BUFFER_MAX_BYTES_CONFIG, Long.toString(8L << 20)),
        false);
    long peak = 0;
    while (connect.step(50)) {
      peak = Math.max(peak, connect.task().bufferedBytes());
      connect.commitOffsets();
    }
    assertTrue(peak < 8L << 20, "peak " + peak);
    assertTrue(format.flushes.get() > 0, "row groups were written early");
    assertTrue(
        connect.committed().get(new TopicPartition(TOPIC, 0)) > 0,
        "the per-file overhead alone passes the budget: commits freed it");
    clock.advance(1);
    connect.stop();
    assertEquals(List.of(), SimulatedConnect.temporaryFiles(dir));
  }

  /** The death of a task instance: an Error, which no error handling of the sink catches. */
  static final class SimulatedCrash extends Error {
    SimulatedCrash(String point) {
      super("simulated crash at " + point);
    }
  }
}
