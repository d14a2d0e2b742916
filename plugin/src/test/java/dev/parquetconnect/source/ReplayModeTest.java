package dev.parquetconnect.source;

import static dev.parquetconnect.source.ReplayAssertions.assertReplayed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.source.SinkArchive.Original;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay mode on archives laid out like our sink's: order per original partition, merged commits,
 * overlapping attempts, resuming mid-file, new files found later, task split, after-replay actions
 * and transaction boundaries.
 */
final class ReplayModeTest {
  @TempDir Path root;

  static Map<String, String> props(Path root, String... keyValues) {
    Map<String, String> p = new HashMap<>();
    p.put("name", "replay-test");
    p.put(ParquetSourceConfig.STORE_URL_CONFIG, root.toUri().toString());
    p.put(ParquetSourceConfig.DISCOVERY_INTERVAL_MS_CONFIG, "100");
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  /** Writes {@code files} consecutive files of {@code perFile} records for one partition. */
  private List<Original> archive(
      String topic, int partition, int files, int perFile, long rowGroupRows) throws Exception {
    List<Original> all = new ArrayList<>();
    for (int f = 0; f < files; f++) {
      List<Original> records = SinkArchive.records(topic, partition, (long) f * perFile, perFile);
      SinkArchive.write(
          root.resolve(
              "topics/"
                  + topic
                  + "/partition="
                  + partition
                  + "/"
                  + SinkArchive.fileName(
                      topic, partition, (long) f * perFile, (long) (f + 1) * perFile - 1, 0)),
          records,
          rowGroupRows);
      all.addAll(records);
    }
    return all;
  }

  private static Map<Integer, List<SourceRecord>> byPartition(List<SourceRecord> records) {
    Map<Integer, List<SourceRecord>> out = new HashMap<>();
    for (SourceRecord r : records) {
      out.computeIfAbsent(r.kafkaPartition(), p -> new ArrayList<>()).add(r);
    }
    return out;
  }

  private static void assertSameInOrder(List<Original> expected, List<SourceRecord> got) {
    assertEquals(expected.size(), got.size(), "record count");
    for (int i = 0; i < expected.size(); i++) {
      assertReplayed(expected.get(i), got.get(i));
    }
  }

  @Test
  void replaysEveryRecordOfEachPartitionInOffsetOrder() throws Exception {
    List<Original> p0 = archive("orders", 0, 3, 500, 128);
    List<Original> p1 = archive("orders", 1, 2, 700, 1000);
    TaskDriver driver = new TaskDriver(props(root, "batch.size", "333")).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    Map<Integer, List<SourceRecord>> parts = byPartition(got);
    assertSameInOrder(p0, parts.get(0));
    assertSameInOrder(p1, parts.get(1));
  }

  @Test
  void mergesTheFilesOfOneCommitAcrossDirectoriesByOffset() throws Exception {
    // A field partitioner spreads one commit (first offset 0) over two directories.
    List<Original> all = SinkArchive.records("t", 0, 0, 400);
    List<Original> even = new ArrayList<>();
    List<Original> odd = new ArrayList<>();
    for (Original o : all) {
      (o.offset() % 2 == 0 ? even : odd).add(o);
    }
    SinkArchive.write(
        root.resolve("topics/t/color=red/" + SinkArchive.fileName("t", 0, 0, 0)), even, 50);
    SinkArchive.write(
        root.resolve("topics/t/color=blue/" + SinkArchive.fileName("t", 0, 0, 0)), odd, 64);
    List<Original> next = SinkArchive.records("t", 0, 400, 100);
    SinkArchive.write(
        root.resolve("topics/t/color=red/" + SinkArchive.fileName("t", 0, 400, 0)), next, 1000);
    List<Original> expected = new ArrayList<>(all);
    expected.addAll(next);
    TaskDriver driver = new TaskDriver(props(root, "batch.size", "77")).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    assertSameInOrder(expected, got);
  }

  @Test
  void anAttemptRewrittenAfterARollbackSendsEachOffsetOnce() throws Exception {
    List<Original> firstAttempt = SinkArchive.records("t", 0, 0, 300);
    List<Original> secondAttempt = SinkArchive.records("t", 0, 0, 250);
    SinkArchive.write(
        root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 0, 0)), firstAttempt, 100);
    SinkArchive.write(
        root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 0, 1)), secondAttempt, 100);
    List<Original> after = SinkArchive.records("t", 0, 250, 100);
    SinkArchive.write(root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 250, 0)), after, 100);
    TaskDriver driver = new TaskDriver(props(root)).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    assertSameInOrder(SinkArchive.records("t", 0, 0, 350), got);
  }

  @Test
  void aFileOfALowerAttemptAtTheSameFirstOffsetIsNeverRead() throws Exception {
    // Attempt 0 was rolled back (it covered more offsets than attempt 1, which a wall-clock
    // rotation can cause) but a zombie's file of it is still there.
    Path rolledBack =
        SinkArchive.write(
            root.resolve("topics/t/a/" + SinkArchive.fileName("t", 0, 0, 299, 0)),
            SinkArchive.records("t", 0, 0, 300),
            100);
    SinkArchive.write(
        root.resolve("topics/t/b/" + SinkArchive.fileName("t", 0, 0, 149, 1)),
        SinkArchive.records("t", 0, 0, 150),
        100);
    SinkArchive.write(
        root.resolve("topics/t/a/" + SinkArchive.fileName("t", 0, 150, 349, 0)),
        SinkArchive.records("t", 0, 150, 200),
        100);
    TaskDriver driver = new TaskDriver(props(root)).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    assertSameInOrder(SinkArchive.records("t", 0, 0, 350), got);
    assertNoneFrom(rolledBack, got);
  }

  @Test
  void aFileOfAnAttemptTheSinksMarkersSayWasRolledBackIsNeverRead() throws Exception {
    // The sink rolled back attempt 0 at offset 0 and wrote offsets 0-49 again as attempt 1, all
    // of them skipped (no file); a zombie then published its file of attempt 0. Only the
    // markers tell.
    Path rolledBack =
        SinkArchive.write(
            root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 0, 99, 0)),
            SinkArchive.records("t", 0, 0, 100),
            100);
    SinkArchive.write(
        root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 50, 149, 0)),
        SinkArchive.records("t", 0, 50, 100),
        100);
    Path markers = root.resolve("topics/_markers/conn/t/0");
    Files.createDirectories(markers);
    Files.writeString(
        markers.resolve("00000000000000000000-0.outcome"),
        "version=1\nstart=0\nend=99\nattempt=0\noutcome=aborted\nwriter=w\n");
    Files.writeString(
        markers.resolve("00000000000000000000-1.outcome"),
        "version=1\nstart=0\nend=49\nattempt=1\noutcome=done\nwriter=w\n");
    TaskDriver driver = new TaskDriver(props(root)).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    assertSameInOrder(SinkArchive.records("t", 0, 50, 100), got);
    assertNoneFrom(rolledBack, got);
  }

  @Test
  void rolledBackAttemptsAreFoundInTheMarkerLayoutTheSinkWrites() throws Exception {
    // The real sink commits 0-9 and 10-19 (markers and all). Next to its markers an aborted
    // outcome is added for attempt 1 at offset 10, with a file of that attempt: were the marker
    // not found where the sink puts markers, that file would be read (it is the later attempt).
    TopicPartition tp = new TopicPartition("orders", 0);
    Map<String, String> props = new HashMap<>();
    props.put("name", "layout");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, root.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "10");
    List<SinkRecord> records = new ArrayList<>();
    for (long o = 0; o < 20; o++) {
      records.add(
          new SinkRecord(
              "orders", 0, null, null, Schema.INT64_SCHEMA, o, o, o, TimestampType.CREATE_TIME));
    }
    try (SinkTaskHarness sink = new SinkTaskHarness(props, List.of(tp))) {
      sink.put(records);
      assertEquals(Map.of(tp, 20L), sink.committed());
    }
    Path markers = root.resolve("topics/_markers/layout/orders/0");
    Path done = markers.resolve("00000000000000000010-0.outcome");
    assertTrue(Files.exists(done), "the sink's marker layout changed: update this test");
    Files.writeString(
        markers.resolve("00000000000000000010-1.outcome"),
        Files.readString(done)
            .replace("outcome=done", "outcome=aborted")
            .replace("attempt=0", "attempt=1"));
    Path committed;
    try (var files = Files.walk(root.resolve("topics/orders"))) {
      committed =
          files
              .filter(
                  f ->
                      f.getFileName()
                          .toString()
                          .equals("orders+0+00000000000000000010+00000000000000000019.parquet"))
              .findFirst()
              .orElseThrow();
    }
    Path rolledBack =
        committed.resolveSibling(
            "orders+0+00000000000000000010" + "+00000000000000000019-1.parquet");
    Files.copy(committed, rolledBack);
    TaskDriver driver = new TaskDriver(props(root)).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    assertEquals(20, got.size());
    for (int i = 0; i < 20; i++) {
      assertEquals((long) i, got.get(i).value());
    }
    assertNoneFrom(rolledBack, got);
  }

  private void assertNoneFrom(Path file, List<SourceRecord> got) {
    String key = root.relativize(file).toString();
    for (SourceRecord r : got) {
      assertFalse(
          key.equals(r.sourceOffset().get(SourcePositions.FILE)),
          "a record of the rolled-back file was sent: " + r.sourceOffset());
    }
  }

  @Test
  void namesWithTheLastOffsetAndFirstOffsetNamesOfEarlierVersionsReplayInOneOrder()
      throws Exception {
    // An upgraded sink: commits 0-99 and 100-249 (rolled back once, attempt 0 left behind by a
    // zombie) under the old names, then 250-399 and 400-449 (with its own rolled-back attempt)
    // under full names. The listing order ('+' sorts before '.') is not the replay order.
    List<Original> expected = SinkArchive.records("t", 0, 0, 450);
    SinkArchive.write(
        root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 0, 0)),
        SinkArchive.records("t", 0, 0, 100),
        64);
    SinkArchive.write(
        root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 100, 0)),
        SinkArchive.records("t", 0, 100, 120),
        64);
    SinkArchive.write(
        root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 100, 1)),
        SinkArchive.records("t", 0, 100, 150),
        64);
    SinkArchive.write(
        root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 250, 399, 0)),
        SinkArchive.records("t", 0, 250, 150),
        64);
    SinkArchive.write(
        root.resolve("topics/t/x=1/" + SinkArchive.fileName("t", 0, 400, 439, 0)),
        SinkArchive.records("t", 0, 400, 40),
        64);
    SinkArchive.write(
        root.resolve("topics/t/x=1/" + SinkArchive.fileName("t", 0, 400, 449, 1)),
        SinkArchive.records("t", 0, 400, 50),
        64);
    TaskDriver driver = new TaskDriver(props(root, "batch.size", "70")).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    assertSameInOrder(expected, got);
  }

  @Test
  void aRestartResumesMidFileWithoutResendingOrLosing() throws Exception {
    List<Original> expected = archive("t", 0, 2, 1000, 100);
    TaskDriver driver = new TaskDriver(props(root, "batch.size", "130")).start();
    List<SourceRecord> delivered = new ArrayList<>();
    for (int crash = 0; crash < 5; crash++) {
      delivered.addAll(driver.poll(true));
      delivered.addAll(driver.poll(true));
      driver.poll(false); // polled, never committed: lost with the crash, sent again
      driver = driver.restart();
    }
    delivered.addAll(driver.drain(3));
    driver.stop();
    assertSameInOrder(expected, delivered);
  }

  @Test
  void keepsDiscoveringFilesThatAppearLater() throws Exception {
    List<Original> first = archive("t", 0, 1, 200, 100);
    TaskDriver driver = new TaskDriver(props(root)).start();
    List<SourceRecord> got = new ArrayList<>(driver.drain(2));
    List<Original> later = SinkArchive.records("t", 0, 200, 50);
    SinkArchive.write(root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 200, 0)), later, 100);
    got.addAll(driver.drain(5));
    driver.stop();
    List<Original> expected = new ArrayList<>(first);
    expected.addAll(later);
    assertSameInOrder(expected, got);
  }

  @Test
  void tasksSplitTheOriginalPartitionsWithoutOverlap() throws Exception {
    Map<Integer, List<Original>> expected = new HashMap<>();
    for (int p = 0; p < 6; p++) {
      expected.put(p, archive("t", p, 2, 50, 100));
    }
    Map<Integer, Integer> owner = new HashMap<>();
    List<SourceRecord> all = new ArrayList<>();
    for (int task = 0; task < 3; task++) {
      TaskDriver driver =
          new TaskDriver(
                  props(
                      root,
                      ParquetSourceConfig.TASK_INDEX_CONFIG,
                      Integer.toString(task),
                      ParquetSourceConfig.TASK_COUNT_CONFIG,
                      "3"))
              .start();
      List<SourceRecord> got = driver.drain(2);
      driver.stop();
      for (SourceRecord r : got) {
        Integer before = owner.put(r.kafkaPartition(), task);
        assertTrue(
            before == null || before == task,
            "partition " + r.kafkaPartition() + " read by tasks " + before + " and " + task);
      }
      all.addAll(got);
    }
    Map<Integer, List<SourceRecord>> parts = byPartition(all);
    for (int p = 0; p < 6; p++) {
      assertSameInOrder(expected.get(p), parts.get(p));
    }
  }

  @Test
  void aChangedTaskCountResumesEveryPartitionFromItsCommittedOffset() throws Exception {
    Map<Integer, List<Original>> expected = new HashMap<>();
    for (int p = 0; p < 4; p++) {
      expected.put(p, archive("t", p, 2, 150, 100));
    }
    TaskDriver single = new TaskDriver(props(root, "batch.size", "250")).start();
    List<SourceRecord> all = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      all.addAll(single.poll(true));
    }
    single.stop();
    for (int task = 0; task < 2; task++) {
      TaskDriver driver =
          new TaskDriver(
              props(
                  root,
                  ParquetSourceConfig.TASK_INDEX_CONFIG,
                  Integer.toString(task),
                  ParquetSourceConfig.TASK_COUNT_CONFIG,
                  "2"));
      driver.committed.putAll(single.committed);
      all.addAll(driver.start().drain(2));
      driver.stop();
    }
    Map<Integer, List<SourceRecord>> parts = byPartition(all);
    for (int p = 0; p < 4; p++) {
      assertSameInOrder(expected.get(p), parts.get(p));
    }
  }

  @Test
  void skipsMarkersHiddenFilesAndNamesThatAreNotTheSinks() throws Exception {
    List<Original> expected = archive("t", 0, 1, 20, 100);
    Path markers = root.resolve("topics/_markers/conn/t/0");
    Files.createDirectories(markers);
    Files.writeString(markers.resolve("00000000000000000000-0.intent"), "topic=t");
    SinkArchive.write(
        root.resolve("topics/t/_tmp/" + SinkArchive.fileName("t", 0, 20, 0)),
        SinkArchive.records("t", 0, 20, 5),
        10);
    SinkArchive.write(
        root.resolve("topics/t/other.parquet"), SinkArchive.records("t", 0, 90, 5), 10);
    TaskDriver driver = new TaskDriver(props(root)).start();
    List<SourceRecord> got = driver.drain(2);
    driver.stop();
    assertSameInOrder(expected, got);
  }

  @Test
  void deletesOrMovesAFileOnlyOnceItsRecordsAreAcknowledged() throws Exception {
    archive("t", 0, 2, 100, 100);
    Path first = root.resolve("topics/t/partition=0/" + SinkArchive.fileName("t", 0, 0, 99, 0));
    Path second = root.resolve("topics/t/partition=0/" + SinkArchive.fileName("t", 0, 100, 199, 0));
    TaskDriver driver =
        new TaskDriver(
                props(
                    root,
                    "after.replay",
                    "move",
                    "after.replay.move.prefix",
                    "done",
                    "batch.size",
                    "100"))
            .start();
    List<SourceRecord> firstFile = driver.poll(false);
    assertEquals(100, firstFile.size());
    driver.drain(3); // acknowledges the second file's records, not the first's
    assertTrue(Files.exists(first), "records not acknowledged yet: the file stays");
    assertFalse(Files.exists(second), "every record of the second file was acknowledged");
    assertTrue(
        Files.exists(
            root.resolve("done/t/partition=0/" + SinkArchive.fileName("t", 0, 100, 199, 0))));
    driver.acknowledge(firstFile);
    driver.drain(1);
    assertFalse(Files.exists(first));
    assertTrue(
        Files.exists(root.resolve("done/t/partition=0/" + SinkArchive.fileName("t", 0, 0, 99, 0))));
    driver.stop();
  }

  @Test
  void endsATransactionAfterEachFileWhenTheWorkerLetsItDefineThem() throws Exception {
    archive("t", 0, 3, 40, 100);
    TaskDriver driver = new TaskDriver(props(root, "transaction.unit", "file"), true).start();
    List<SourceRecord> got = driver.drain(2);
    driver.stop();
    assertEquals(120, got.size());
    assertEquals(3, driver.transactionCommits.size(), driver.transactionCommits.toString());
    Set<Long> lastOffsets = new HashSet<>();
    for (String c : driver.transactionCommits) {
      assertTrue(c.startsWith("record "), c);
      lastOffsets.add(Long.parseLong(c.replaceAll(".*offset=(\\d+).*", "$1")));
    }
    assertEquals(Set.of(39L, 79L, 119L), lastOffsets);

    TaskDriver perBatch =
        new TaskDriver(props(root, "transaction.unit", "batch", "batch.size", "50"), true);
    perBatch.committed.clear();
    perBatch.start();
    assertEquals(120, perBatch.drain(2).size());
    perBatch.stop();
    assertEquals(List.of("batch", "batch", "batch"), perBatch.transactionCommits);
  }

  /**
   * The minimal case behind the null rule: a partition whose first record has a key and a value
   * with schemas, then a record with a null key and a tombstone as JsonConverter and the Avro,
   * Protobuf and JSON Schema converters make them (no schemas). Replayed with the file's schemas
   * (required STRING key, required struct value), the null key and the tombstone failed
   * JsonConverter (null for a required schema), and with optional schemas would have become the
   * text {@code null} or an envelope: no longer a null key, no longer a tombstone. They must come
   * back as nulls without schema, which every converter writes as null.
   */
  @Test
  void nullKeysAndTombstonesStayNullsOnTheWire() throws Exception {
    Schema value =
        SchemaBuilder.struct().name("com.example.V").field("id", Schema.INT64_SCHEMA).build();
    TopicPartition tp = new TopicPartition("orders", 0);
    List<SinkRecord> records =
        List.of(
            new SinkRecord(
                "orders",
                0,
                Schema.STRING_SCHEMA,
                "a",
                value,
                new Struct(value).put("id", 1L),
                0,
                1L,
                TimestampType.CREATE_TIME),
            new SinkRecord("orders", 0, null, null, null, null, 1, 2L, TimestampType.CREATE_TIME));
    Map<String, String> props = new HashMap<>();
    props.put("name", "nulls");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, root.toUri().toString());
    props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    props.put(ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG, "write");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "3600000");
    try (SinkTaskHarness sink = new SinkTaskHarness(props, List.of(tp))) {
      sink.put(records);
      sink.commitOpenFiles(3_600_001L);
      assertEquals(Map.of(tp, 2L), sink.committed());
    }
    TaskDriver driver = new TaskDriver(ReplayModeTest.props(root)).start();
    List<SourceRecord> replayed = driver.drain(3);
    driver.stop();
    assertEquals(2, replayed.size());
    SourceRecord nulls = replayed.get(1);
    for (boolean schemas : new boolean[] {true, false}) {
      JsonConverter json = new JsonConverter();
      json.configure(Map.of("schemas.enable", Boolean.toString(schemas)), false);
      assertEquals(
          null,
          json.fromConnectData("orders", nulls.keySchema(), nulls.key()),
          "a null key stays null, schemas.enable=" + schemas);
      assertEquals(
          null,
          json.fromConnectData("orders", nulls.valueSchema(), nulls.value()),
          "a tombstone stays a tombstone, schemas.enable=" + schemas);
    }
    assertEquals(null, nulls.keySchema());
    assertEquals(null, nulls.valueSchema());
    assertEquals(Schema.STRING_SCHEMA, replayed.get(0).keySchema());
    assertEquals(value, replayed.get(0).valueSchema());
  }
}
