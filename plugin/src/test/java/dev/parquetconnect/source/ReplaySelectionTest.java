package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.source.SinkArchive.Original;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code replay.*} selection: time and offset ranges replay exactly the records inside them
 * (from inclusive, until exclusive), files outside an offset range are never opened, a restart
 * resumes exactly, original coordinates come as headers, and validate refuses what cannot work.
 */
final class ReplaySelectionTest {
  /** Files of 250 records, row groups of 50: 3 files per partition. */
  private static final int PER_FILE = 250;

  @TempDir Path root;

  /** Partitions 0 and 1 of {@code t}, each 3 files with full sink names; returns every record. */
  private List<Original> archive() throws Exception {
    List<Original> all = new ArrayList<>();
    for (int partition = 0; partition < 2; partition++) {
      for (int f = 0; f < 3; f++) {
        long first = (long) f * PER_FILE;
        List<Original> records = SinkArchive.records("t", partition, first, PER_FILE);
        SinkArchive.write(
            root.resolve(
                "topics/t/partition="
                    + partition
                    + "/"
                    + SinkArchive.fileName("t", partition, first, first + PER_FILE - 1, 0)),
            records,
            50);
        all.addAll(records);
      }
    }
    return all;
  }

  /** Replaces a file by bytes no reader accepts: reading it would fail the task. */
  private void spoil(int partition, int file) throws Exception {
    long first = (long) file * PER_FILE;
    Files.write(
        root.resolve(
            "topics/t/partition="
                + partition
                + "/"
                + SinkArchive.fileName("t", partition, first, first + PER_FILE - 1, 0)),
        new byte[] {'P', 'A', 'R', '1', 0, 0, 0, 0, 'P', 'A', 'R', '1'});
  }

  private static List<String> coordinates(List<SourceRecord> records) {
    return records.stream()
        .map(
            r ->
                r.topic()
                    + "-"
                    + r.kafkaPartition()
                    + "@"
                    + SourcePositions.longOf(
                        (Map<String, Object>) r.sourceOffset(), SourcePositions.OFFSET, -1))
        .collect(Collectors.toList());
  }

  private static List<String> coordinatesOf(List<Original> records) {
    return records.stream()
        .map(o -> o.topic() + "-" + o.partition() + "@" + o.offset())
        .collect(Collectors.toList());
  }

  /** Records as replayed: partitions one after the other, each in offset order. */
  private static List<SourceRecord> byPartition(List<SourceRecord> records) {
    List<SourceRecord> sorted = new ArrayList<>(records);
    sorted.sort(
        (a, b) -> {
          int c = Integer.compare(a.kafkaPartition(), b.kafkaPartition());
          return c != 0 ? c : 0; // a stable sort keeps each partition's replay order
        });
    return sorted;
  }

  @Test
  void offsetRangesReplayExactlyTheirOffsetsAndNeverOpenFilesOutsideThem() throws Exception {
    List<Original> all = archive();
    // Files outside the ranges are spoiled: opening one would fail the task.
    spoil(0, 0);
    spoil(1, 2);
    TaskDriver driver =
        new TaskDriver(
                ReplayModeTest.props(
                    root,
                    "replay.from.offset",
                    "t:0:260, t:1:0",
                    "replay.until.offset",
                    "t:0:610,t:1:499"))
            .start();
    List<SourceRecord> got = byPartition(driver.drain(3));
    driver.stop();
    List<Original> expected =
        all.stream()
            .filter(
                o -> o.partition() == 0 ? o.offset() >= 260 && o.offset() < 610 : o.offset() < 499)
            .collect(Collectors.toList());
    assertEquals(coordinatesOf(expected), coordinates(got));
    for (int i = 0; i < expected.size(); i++) {
      ReplayAssertions.assertReplayed(expected.get(i), got.get(i));
    }
  }

  @Test
  void aTimeRangeReplaysTheRecordsInsideItAndResumesExactlyAfterRestarts() throws Exception {
    List<Original> all = archive();
    long from = all.get(120).timestamp(); // partition 0, offset 120
    long until = all.get(PER_FILE * 3 + 400).timestamp(); // partition 1 begins after 750
    Map<String, String> props =
        ReplayModeTest.props(
            root,
            "replay.from.timestamp",
            java.time.Instant.ofEpochMilli(from).toString(),
            "replay.until.timestamp",
            Long.toString(until),
            "batch.size",
            "37");
    List<Original> expected =
        all.stream()
            .filter(o -> o.timestamp() >= from && o.timestamp() < until)
            .collect(Collectors.toList());
    assertEquals(630 + 400, expected.size());
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> got = new ArrayList<>();
    // Five crashes part-way: each drops what was polled since the last commit.
    for (int crash = 0; crash < 5; crash++) {
      for (int p = 0; p < 3; p++) {
        got.addAll(driver.poll(true));
      }
      driver.poll(false);
      driver = driver.restart();
    }
    got.addAll(driver.drain(3));
    driver.stop();
    got = byPartition(got);
    assertEquals(coordinatesOf(expected), coordinates(got), "each selected record once");
    for (int i = 0; i < expected.size(); i++) {
      ReplayAssertions.assertReplayed(expected.get(i), got.get(i));
    }
  }

  @Test
  void originalCoordinatesComeAsHeadersAfterTheRecordsOwn() throws Exception {
    List<Original> all = archive();
    TaskDriver driver =
        new TaskDriver(
                ReplayModeTest.props(
                    root, "replay.headers.original", "true", "replay.until.offset", "t:0:3"))
            .start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    SourceRecord first = got.get(0);
    Original o = all.get(0);
    List<Header> headers = new ArrayList<>();
    first.headers().forEach(headers::add);
    int own = o.headers().size();
    assertEquals(own + 4, headers.size());
    assertEquals("__original.topic", headers.get(own).key());
    assertEquals("t", headers.get(own).value());
    assertEquals("__original.partition", headers.get(own + 1).key());
    assertEquals(0, headers.get(own + 1).value());
    assertEquals("__original.offset", headers.get(own + 2).key());
    assertEquals(0L, headers.get(own + 2).value());
    assertEquals("__original.timestamp", headers.get(own + 3).key());
    assertEquals(o.timestamp(), headers.get(own + 3).value());
    assertEquals(3 + 3 * PER_FILE, got.size(), "partition 1 is not limited");
  }

  @Test
  void genericModeAppliesTheTimeRangeToTheRecordTimestamp() throws Exception {
    archive();
    TaskDriver driver =
        new TaskDriver(
                ReplayModeTest.props(
                    root,
                    "mode",
                    "generic",
                    "topic",
                    "out",
                    "timestamp.field",
                    "__kafka_timestamp",
                    "replay.from.timestamp",
                    Long.toString(1_700_000_000_000L + 700),
                    "replay.until.timestamp",
                    Long.toString(1_700_000_000_000L + 1_000_005)))
            .start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    assertEquals(50 + 5, got.size());
    for (SourceRecord r : got) {
      long t = r.timestamp();
      assertTrue(t >= 1_700_000_000_700L && t < 1_700_001_000_005L, "timestamp " + t + " in range");
    }
  }

  @Test
  void aFilterThatDoesNotFitAFileFailsTheTaskNamingTheFile() throws Exception {
    archive();
    TaskDriver driver =
        new TaskDriver(ReplayModeTest.props(root, "replay.filter", "no_such_column = 1")).start();
    ConnectException e = assertThrows(ConnectException.class, () -> driver.drain(3));
    driver.stop();
    assertTrue(e.getMessage().contains("replay.filter"), e.getMessage());
    assertTrue(
        e.getMessage().contains(SinkArchive.fileName("t", 0, 0, PER_FILE - 1, 0)), e.getMessage());
    assertTrue(e.getMessage().contains("no_such_column"), e.getMessage());
  }

  @Test
  void aFilterOnANestedColumnWithOriginalHeaders() throws Exception {
    List<Original> all = archive();
    TaskDriver driver =
        new TaskDriver(
                ReplayModeTest.props(
                    root,
                    "replay.filter",
                    "address.zip BETWEEN 10100 AND 10110 OR name = 'record-1000700'",
                    "replay.headers.original",
                    "true"))
            .start();
    List<SourceRecord> got = byPartition(driver.drain(3));
    driver.stop();
    List<Original> expected =
        all.stream()
            .filter(
                o ->
                    (o.id() % 11 != 0 && o.zip() >= 10100 && o.zip() <= 10110)
                        || o.name().equals("record-1000700"))
            .collect(Collectors.toList());
    assertEquals(coordinatesOf(expected), coordinates(got));
    for (int i = 0; i < expected.size(); i++) {
      ReplayAssertions.assertReplayed(expected.get(i), withoutOriginalHeaders(got.get(i)));
    }
  }

  /** The record without the four headers replay.headers.original adds. */
  private static SourceRecord withoutOriginalHeaders(SourceRecord r) {
    org.apache.kafka.connect.header.ConnectHeaders own =
        new org.apache.kafka.connect.header.ConnectHeaders();
    for (Header h : r.headers()) {
      if (!h.key().startsWith("__original.")) {
        own.add(h.key(), h.value(), h.schema());
      }
    }
    return r.newRecord(
        r.topic(),
        r.kafkaPartition(),
        r.keySchema(),
        r.key(),
        r.valueSchema(),
        r.value(),
        r.timestamp(),
        own);
  }

  private static List<String> errors(Config config, String key) {
    for (ConfigValue v : config.configValues()) {
      if (v.name().equals(key)) {
        return v.errorMessages();
      }
    }
    throw new AssertionError("no key " + key);
  }

  private Config validate(String... keyValues) {
    return ParquetSourceConfig.validate(ReplayModeTest.props(root, keyValues));
  }

  @Test
  void validateNamesWhatIsWrongWithASelection() {
    assertEquals(
        List.of(),
        errors(validate("replay.from.timestamp", "2026-11-24T00:00:00Z"), "replay.from.timestamp"));
    assertEquals(
        List.of(),
        errors(validate("replay.from.timestamp", "1700000000000"), "replay.from.timestamp"));
    assertTrue(
        errors(validate("replay.from.timestamp", "yesterday"), "replay.from.timestamp")
            .get(0)
            .contains("ISO-8601"));
    assertTrue(
        errors(validate("replay.from.offset", "t:0"), "replay.from.offset")
            .get(0)
            .contains("topic:partition:offset"));
    assertTrue(
        errors(validate("replay.until.offset", "t:0:5,t:0:6"), "replay.until.offset")
            .get(0)
            .contains("twice"));
    assertTrue(
        errors(
                validate("replay.from.timestamp", "2000", "replay.until.timestamp", "1000"),
                "replay.until.timestamp")
            .get(0)
            .contains("must lie after"));
    assertTrue(
        errors(
                validate("replay.from.offset", "t:0:9", "replay.until.offset", "t:0:9"),
                "replay.until.offset")
            .get(0)
            .contains("must lie after"));
    assertTrue(
        errors(
                validate("mode", "generic", "topic", "x", "replay.from.offset", "t:0:9"),
                "replay.from.offset")
            .get(0)
            .contains("replay mode only"));
    assertTrue(
        errors(validate("after.replay", "delete", "replay.until.timestamp", "1000"), "after.replay")
            .get(0)
            .contains("after.replay leave"));
    assertNull(ReplaySelectionConfig.timestamp(" "), "empty means no bound");
    assertEquals(1_700_000_000_000L, ReplaySelectionConfig.timestamp("2023-11-14T22:13:20Z"));
    assertEquals(1_700_000_000_000L, ReplaySelectionConfig.timestamp("2023-11-15T00:13:20+02:00"));
  }
}
