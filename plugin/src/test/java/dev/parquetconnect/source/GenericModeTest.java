package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.source.SinkArchive.Original;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generic mode (any file, each row a record of one topic) and the corrupt-file policy: the good
 * files all arrive, the corrupt one fails the task with file and position or is skipped, reported
 * and quarantined, and a restart never reads it again.
 */
final class GenericModeTest {
  @TempDir Path root;

  private Map<String, String> props(String... keyValues) {
    Map<String, String> p = ReplayModeTest.props(root, "mode", "generic", "topic", "rows");
    for (int i = 0; i < keyValues.length; i += 2) {
      p.put(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  private Path file(String key, int from, int count) throws Exception {
    return SinkArchive.write(root.resolve(key), SinkArchive.records("t", 0, from, count), 64);
  }

  @Test
  void eachRowIsARecordWithKeyFromFieldsAndTimestampFromAFieldOrTheFile() throws Exception {
    Path a = file("data/a.parquet", 0, 150);
    file("data/b.parquet", 150, 150);
    Files.setLastModifiedTime(a, FileTime.fromMillis(1_600_000_000_000L));
    TaskDriver driver = new TaskDriver(props("topics.dir", "data", "key.fields", "id")).start();
    List<SourceRecord> got = driver.drain(2);
    driver.stop();
    assertEquals(300, got.size());
    for (int i = 0; i < got.size(); i++) {
      SourceRecord r = got.get(i);
      assertEquals("rows", r.topic());
      assertNull(r.kafkaPartition());
      Struct value = (Struct) r.value();
      assertEquals((long) i, value.getInt64("id"), "rows in key order, then row order");
      assertEquals(value.get("id"), r.key());
      assertEquals("t", value.getString("__kafka_topic"), "every column is a field");
    }
    assertEquals(1_600_000_000_000L, got.get(0).timestamp(), "the file's modification time");

    TaskDriver byField =
        new TaskDriver(
                props(
                    "topics.dir",
                    "data",
                    "key.fields",
                    "id,name",
                    "timestamp.field",
                    "__kafka_timestamp",
                    "partition.mode",
                    "key.hash",
                    "partition.count",
                    "4"))
            .start();
    List<SourceRecord> again = byField.drain(2);
    byField.stop();
    Set<Integer> partitions = new HashSet<>();
    for (SourceRecord r : again) {
      Struct key = (Struct) r.key();
      Struct value = (Struct) r.value();
      assertEquals(value.get("name"), key.get("name"));
      assertEquals(1_700_000_000_000L + value.getInt64("id"), r.timestamp());
      partitions.add(r.kafkaPartition());
    }
    assertEquals(Set.of(0, 1, 2, 3), partitions, "key hashes spread over the partitions");
  }

  @Test
  void resumesAFileWhereTheCommittedPositionSaysAndNeverRereadsAFinishedOne() throws Exception {
    file("data/a.parquet", 0, 500);
    file("data/b.parquet", 500, 100);
    TaskDriver driver = new TaskDriver(props("topics.dir", "data", "batch.size", "90")).start();
    List<SourceRecord> delivered = new ArrayList<>(driver.poll(true));
    driver.poll(false);
    driver = driver.restart();
    delivered.addAll(driver.drain(2));
    driver = driver.restart();
    delivered.addAll(driver.drain(2));
    driver.stop();
    assertEquals(600, delivered.size());
    for (int i = 0; i < delivered.size(); i++) {
      assertEquals((long) i, ((Struct) delivered.get(i).value()).getInt64("id"));
    }
  }

  @Test
  void tasksSplitTheFilesWithoutOverlap() throws Exception {
    for (int f = 0; f < 12; f++) {
      file("data/f" + f + ".parquet", f * 10, 10);
    }
    Set<Long> ids = new HashSet<>();
    Map<String, Integer> owner = new java.util.HashMap<>();
    for (int task = 0; task < 3; task++) {
      TaskDriver driver =
          new TaskDriver(
                  props(
                      "topics.dir",
                      "data",
                      ParquetSourceConfig.TASK_INDEX_CONFIG,
                      Integer.toString(task),
                      ParquetSourceConfig.TASK_COUNT_CONFIG,
                      "3"))
              .start();
      for (SourceRecord r : driver.drain(2)) {
        assertTrue(ids.add(((Struct) r.value()).getInt64("id")), "a row sent twice");
        String file = (String) r.sourcePartition().get("file");
        Integer before = owner.put(file, task);
        assertTrue(before == null || before == task, file + " read by two tasks");
      }
      driver.stop();
    }
    assertEquals(120, ids.size());
    assertTrue(new HashSet<>(owner.values()).size() > 1, "the files spread over the tasks");
  }

  @Test
  void aCorruptFileFailsTheTaskNamingFileAndPosition() throws Exception {
    file("data/a.parquet", 0, 100);
    Path bad = file("data/b.parquet", 100, 100);
    corruptMiddle(bad);
    TaskDriver driver = new TaskDriver(props("topics.dir", "data")).start();
    ConnectException e = assertThrows(ConnectException.class, () -> driver.drain(2));
    driver.stop();
    assertTrue(e.getMessage().contains("data/b.parquet"), e.getMessage());
    assertTrue(e.getMessage().contains("row group"), e.getMessage());
  }

  @Test
  void aCorruptFileIsSkippedReportedAndQuarantinedWhileTheGoodOnesAllArrive() throws Exception {
    file("data/a.parquet", 0, 100);
    Path bad = file("data/b.parquet", 100, 100);
    file("data/c.parquet", 200, 100);
    Files.write(root.resolve("data/d.parquet"), new byte[] {'P', 'A', 'R', '1', 0, 0});
    corruptMiddle(bad);
    Map<String, String> skip =
        props(
            "topics.dir",
            "data",
            "errors.on.corrupt.file",
            "skip",
            "errors.topic",
            "bad-files",
            "errors.quarantine.prefix",
            "quarantine");
    TaskDriver driver = new TaskDriver(skip).start();
    List<SourceRecord> got = driver.drain(3);
    List<Long> ids = new ArrayList<>();
    List<String> reported = new ArrayList<>();
    for (SourceRecord r : got) {
      if (r.topic().equals("bad-files")) {
        reported.add((String) r.key());
        Struct report = (Struct) r.value();
        assertFalse(report.getString("error").isEmpty());
      } else {
        ids.add(((Struct) r.value()).getInt64("id"));
      }
    }
    assertEquals(List.of("data/b.parquet", "data/d.parquet"), reported);
    for (long id = 0; id < 100; id++) {
      assertTrue(ids.contains(id) && ids.contains(id + 200), "good record " + id);
    }
    assertFalse(Files.exists(bad));
    assertTrue(Files.exists(root.resolve("quarantine/b.parquet")));
    assertTrue(Files.exists(root.resolve("quarantine/d.parquet")));
    // A restart never reads the skipped files again.
    driver = driver.restart();
    assertEquals(List.of(), driver.drain(2));
    driver.stop();
  }

  @Test
  void aReplayedArchiveWithACorruptFileSendsTheOthersInOrder() throws Exception {
    List<Original> first = SinkArchive.records("t", 0, 0, 100);
    SinkArchive.write(root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 0, 0)), first, 30);
    Path bad =
        SinkArchive.write(
            root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 100, 0)),
            SinkArchive.records("t", 0, 100, 100),
            30);
    List<Original> third = SinkArchive.records("t", 0, 200, 100);
    SinkArchive.write(root.resolve("topics/t/" + SinkArchive.fileName("t", 0, 200, 0)), third, 30);
    corruptFooter(bad);
    TaskDriver driver =
        new TaskDriver(
                ReplayModeTest.props(
                    root, "errors.on.corrupt.file", "skip", "errors.topic", "bad-files"))
            .start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    List<Original> expected = new ArrayList<>(first);
    expected.addAll(third);
    List<SourceRecord> replayed = new ArrayList<>();
    List<SourceRecord> reports = new ArrayList<>();
    for (SourceRecord r : got) {
      (r.topic().equals("bad-files") ? reports : replayed).add(r);
    }
    assertEquals(1, reports.size());
    assertEquals(expected.size(), replayed.size());
    for (int i = 0; i < expected.size(); i++) {
      ReplayAssertions.assertReplayed(expected.get(i), replayed.get(i));
    }
  }

  /** Overwrites bytes in the middle of the file: a page that no longer decodes. */
  static void corruptMiddle(Path file) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    for (int i = bytes.length / 3; i < bytes.length / 3 + 64; i++) {
      bytes[i] = (byte) 0xA5;
    }
    Files.write(file, bytes);
  }

  /** Breaks the footer length: the file cannot even be opened. */
  static void corruptFooter(Path file) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 8] = (byte) 0xFF;
    bytes[bytes.length - 7] = (byte) 0xFF;
    bytes[bytes.length - 6] = (byte) 0xFF;
    Files.write(file, bytes);
  }
}
