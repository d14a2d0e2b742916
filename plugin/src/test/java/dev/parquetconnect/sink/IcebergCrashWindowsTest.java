package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The table commit's crash windows, in process: a task dies at a point of its commit (the first or
 * the second time it passes it: writing, staging, or in its round of the table commit before or
 * after the catalog commit), a new instance takes over at once and writes everything, and, once
 * everything left is older than {@code commit.timeout.ms}, a third one recovers (the orphan
 * clean-up). In the end the table holds every offset exactly once, no data file is referenced
 * twice, no data file the table does not reference is left, and no staged descriptor either.
 */
final class IcebergCrashWindowsTest {
  private static final int PARTITIONS = 2;
  private static final int OFFSETS = 45;
  private static final long TIMEOUT_MS = 60_000;
  private static final long INTERVAL_MS = 500;
  private static final long STEP_MS = 120;

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock();

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        CrashPoints.PUT,
        CrashPoints.BEFORE_INTENT,
        CrashPoints.BEFORE_FILE,
        CrashPoints.MID_COMMIT,
        CrashPoints.BEFORE_DONE,
        CrashPoints.AFTER_DONE,
        CrashPoints.BEFORE_TABLE_COMMIT,
        CrashPoints.AFTER_TABLE_COMMIT
      })
  void everyOffsetOnceAndNoOrphanAfterACrashAt(String point) throws Exception {
    for (int hit = 1; hit <= 2; hit++) {
      Path sub = Files.createDirectories(dir.resolve(point + "-" + hit));
      SimulatedConnect sim = simulation();
      Map<String, String> props = props(sub);
      int crashAt = hit;
      int[] seen = {0};
      CrashPoints crash =
          at -> {
            if (at.equals(point) && ++seen[0] == crashAt) {
              throw new SinkTaskTest.SimulatedCrash(at);
            }
          };
      sim.start(() -> newTask(crash), props, false);
      try {
        run(sim);
      } catch (SinkTaskTest.SimulatedCrash expected) {
        sim.crash();
      }
      String round = point + " #" + hit;
      assertTrue(seen[0] >= crashAt, round + " reached");
      // The new instance takes over at once: what the crashed one staged is young, committed by
      // the new instance's recovery or rounds.
      sim.start(() -> newTask(CrashPoints.NONE), props, false);
      run(sim);
      sim.stop();
      // Later than commit.timeout.ms: whatever no snapshot references is an orphan now.
      age(sub.resolve("store"), 2 * TIMEOUT_MS);
      sim.start(() -> newTask(CrashPoints.NONE), props, false);
      sim.stop();
      check(sub, round);
    }
  }

  /**
   * A committer paused in its round after choosing its ranges, before its catalog commit, while a
   * new instance takes every partition over, writes everything and stops; it then comes back as a
   * zombie and goes on: its commit fails (the table moved), its later ranges are refused, and
   * nothing is in the table twice.
   */
  @Test
  void aPausedCommitterThatComesBackAsAZombieAddsNothing() throws Exception {
    Path sub = Files.createDirectories(dir.resolve("paused"));
    Map<String, String> props = props(sub);
    SimulatedConnect zombie = simulation();
    SimulatedConnect owner = simulation();
    boolean[] paused = {false};
    CrashPoints pause =
        at -> {
          if (at.equals(CrashPoints.BEFORE_TABLE_COMMIT) && !paused[0]) {
            paused[0] = true;
            owner.start(() -> newTask(CrashPoints.NONE), props, false);
            run(owner);
            owner.stop();
          }
        };
    zombie.start(() -> newTask(pause), props, false);
    run(zombie);
    zombie.stop();
    assertTrue(paused[0], "paused in its round");
    age(sub.resolve("store"), 2 * TIMEOUT_MS);
    SimulatedConnect last = simulation();
    last.start(() -> newTask(CrashPoints.NONE), props, false);
    last.stop();
    check(sub, "paused committer");
  }

  /**
   * A staged range withdrawn while its writer goes on (a zombie's or a crashed writer's clean-up
   * deleted its descriptor after a crash point): its writer's later ranges can never continue the
   * table's offset. The writer notices at its next round, withdraws its later ranges and rewinds to
   * the table's offset + 1, as a new owner would, with no restart and no rebalance: the withdrawn
   * offsets are in the table a few intervals later, long before half of {@code commit.timeout.ms}
   * (when an undecided range is given up anyway). {@code hit}: the withdrawal happens the hit-th
   * time a range is staged and takes the range of that partition with the smallest start still
   * staged (the first one: the table holds no offset of the partition yet; later ones: it does).
   */
  @ParameterizedTest(name = "withdrawn at staging #{0}")
  @ValueSource(ints = {1, 2, 4, 7})
  void aWithdrawnRangeIsWrittenAgainWithinAFewIntervals(int hit) throws Exception {
    Path sub = Files.createDirectories(dir.resolve("withdrawn-" + hit));
    Map<String, String> props = props(sub);
    SimulatedConnect sim = simulation();
    int[] seen = {0};
    long[] withdrawn = {-1, -1, -1};
    CrashPoints withdraw =
        at -> {
          if (at.equals(CrashPoints.AFTER_DONE) && ++seen[0] == hit) {
            try {
              long[] range = withdrawOldestStaged(sub.resolve("store"));
              withdrawn[0] = range[0];
              withdrawn[1] = range[1];
              withdrawn[2] = clock.wallMillis();
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
        };
    sim.start(() -> newTask(withdraw), props, false);
    TopicPartition victim = new TopicPartition(SinkTaskTest.TOPIC, 0);
    long healedAt = -1;
    for (int i = 0; i < 2000; i++) {
      sim.step(4);
      clock.advance(STEP_MS);
      sim.commitOffsets();
      if (withdrawn[2] >= 0) {
        victim = new TopicPartition(SinkTaskTest.TOPIC, (int) withdrawn[0]);
        Long reported = sim.committed().get(victim);
        if (healedAt < 0 && reported != null && reported > withdrawn[1]) {
          healedAt = clock.wallMillis();
        }
      }
      if (healedAt >= 0 && allCommitted(sim)) {
        break;
      }
    }
    assertTrue(withdrawn[2] >= 0, "a range was withdrawn");
    assertTrue(healedAt >= 0, "the withdrawn offsets of " + victim + " were committed again");
    long tookMs = healedAt - withdrawn[2];
    assertTrue(
        tookMs <= 8 * INTERVAL_MS,
        "healed " + tookMs + " ms after the withdrawal, not within a few intervals");
    assertTrue(allCommitted(sim), "every offset reported committed: " + sim.committed());
    sim.stop();
    age(sub.resolve("store"), 2 * TIMEOUT_MS);
    SimulatedConnect last = simulation();
    last.start(() -> newTask(CrashPoints.NONE), props, false);
    last.stop();
    check(sub, "withdrawn at staging #" + hit);
  }

  private static boolean allCommitted(SimulatedConnect sim) {
    for (int p = 0; p < PARTITIONS; p++) {
      Long offset = sim.committed().get(new TopicPartition(SinkTaskTest.TOPIC, p));
      if (offset == null || offset < OFFSETS) {
        return false;
      }
    }
    return true;
  }

  /**
   * Deletes the staged descriptor with the smallest start of partition 0 (else of any partition),
   * as a withdrawal does; returns {@code {partition, end}} of its range.
   */
  private static long[] withdrawOldestStaged(Path store) throws IOException {
    List<Path> staged;
    try (Stream<Path> files = Files.walk(store)) {
      staged =
          files
              .filter(f -> f.toString().contains("_staging") && f.toString().endsWith(".json"))
              .toList();
    }
    Path oldest = null;
    long[] best = null;
    for (Path f : staged) {
      // topic+partition+start+end-attempt.json
      String[] parts = f.getFileName().toString().split("\\+");
      long partition = Long.parseLong(parts[1]);
      long start = Long.parseLong(parts[2]);
      long end = Long.parseLong(parts[3].substring(0, parts[3].indexOf('-')));
      if (best == null || partition < best[0] || (partition == best[0] && start < best[1])) {
        best = new long[] {partition, start, end};
        oldest = f;
      }
    }
    assertTrue(oldest != null, "a staged descriptor to withdraw");
    Files.delete(oldest);
    return new long[] {best[0], best[2]};
  }

  private static SimulatedConnect simulation() {
    SimulatedConnect sim = new SimulatedConnect();
    for (int p = 0; p < PARTITIONS; p++) {
      for (long o = 0; o < OFFSETS; o++) {
        sim.append(SinkTaskTest.record(p, o, "v" + o));
      }
    }
    return sim;
  }

  private static Map<String, String> props(Path sub) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "crash");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, sub.resolve("store").toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "10");
    props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, Long.toString(TIMEOUT_MS));
    props.put(IcebergConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(INTERVAL_MS));
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "hadoop");
    props.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, sub.resolve("warehouse").toString());
    return props;
  }

  /**
   * Delivers everything, the clock moving on with each batch (so rounds of the table commit come
   * due), then lets the schedule commit the last open files.
   */
  private void run(SimulatedConnect sim) {
    for (int i = 0; i < 1000 && sim.step(4); i++) {
      clock.advance(STEP_MS);
      sim.commitOffsets();
    }
    for (int i = 0; i < 4; i++) {
      clock.advance(INTERVAL_MS);
      sim.step(4);
      sim.commitOffsets();
    }
  }

  /** Moves every file's modification time {@code ms} into the past. */
  private static void age(Path root, long ms) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(
            f, FileTime.fromMillis(Files.getLastModifiedTime(f).toMillis() - ms));
      }
    }
  }

  private ParquetSinkTask newTask(CrashPoints crashPoints) {
    return new ParquetSinkTask(
        ParquetFiles::writerFactory,
        c -> Stores.open(c.storeUrl(), c.storeSettings()),
        clock,
        crashPoints);
  }

  private static void check(Path sub, String round) throws IOException {
    HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), sub.resolve("warehouse").toString());
    try {
      Table table = catalog.loadTable(TableIdentifier.of("kafka", SinkTaskTest.TOPIC));
      Map<String, Integer> counts = new TreeMap<>();
      try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
        for (Record r : rows) {
          counts.merge(
              r.getField("__kafka_partition") + "/" + r.getField("__kafka_offset"),
              1,
              Integer::sum);
        }
      }
      assertEquals(PARTITIONS * OFFSETS, counts.size(), round + ": " + counts.keySet());
      counts.forEach(
          (offset, n) -> assertEquals(1, n, round + ": offset " + offset + " " + n + " times"));
      List<String> referenced = new ArrayList<>();
      try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
        tasks.forEach(t -> referenced.add(Path.of(URI.create(t.file().location())).toString()));
      }
      Set<String> distinct = new HashSet<>(referenced);
      assertEquals(referenced.size(), distinct.size(), round + ": a data file referenced twice");
      List<String> onDisk;
      try (Stream<Path> files = Files.walk(sub.resolve("store"))) {
        onDisk =
            files
                .filter(f -> f.toString().endsWith(".parquet"))
                .map(Path::toString)
                .sorted()
                .toList();
      }
      assertEquals(
          distinct.stream().sorted().toList(),
          onDisk,
          round + ": data files no snapshot references");
      assertEquals(List.of(), SimulatedConnect.temporaryFiles(sub.resolve("store")), round);
      try (Stream<Path> files = Files.walk(sub.resolve("store"))) {
        assertEquals(
            List.of(),
            files.filter(f -> f.toString().endsWith(".json")).toList(),
            round + ": staged descriptors left");
      }
    } finally {
      catalog.close();
    }
  }
}
