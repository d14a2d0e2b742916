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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The table commit's crash windows, in process: a task dies at a point of its commit (the first or
 * the second time it passes it), a new instance takes over later, and in the end the table holds
 * every offset exactly once, no data file is referenced twice, and no data file the table does not
 * reference is left (the orphan clean-up of recovery).
 */
final class IcebergCrashWindowsTest {
  private static final int PARTITIONS = 2;
  private static final int OFFSETS = 45;

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
        CrashPoints.AFTER_DONE
      })
  void everyOffsetOnceAndNoOrphanAfterACrashAt(String point) throws Exception {
    for (int hit = 1; hit <= 2; hit++) {
      Path sub = Files.createDirectories(dir.resolve(point + "-" + hit));
      SimulatedConnect sim = new SimulatedConnect();
      for (int p = 0; p < PARTITIONS; p++) {
        for (long o = 0; o < OFFSETS; o++) {
          sim.append(SinkTaskTest.record(p, o, "v" + o));
        }
      }
      Map<String, String> props = new HashMap<>();
      props.put("name", "crash");
      props.put(ParquetSinkConfig.STORE_URL_CONFIG, sub.resolve("store").toUri().toString());
      props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "10");
      props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "10000");
      props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
      props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "hadoop");
      props.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, sub.resolve("warehouse").toString());
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
        for (int i = 0; i < 1000 && sim.step(4); i++) {
          sim.commitOffsets();
        }
      } catch (SinkTaskTest.SimulatedCrash expected) {
        sim.crash();
      }
      String round = point + " #" + hit;
      assertTrue(seen[0] >= crashAt, round + " reached");
      // The new instance comes later than commit.timeout.ms: the crashed one's files are orphans.
      clock.advance(60_000);
      sim.start(() -> newTask(CrashPoints.NONE), props, false);
      for (int i = 0; i < 1000 && sim.step(4); i++) {
        sim.commitOffsets();
      }
      sim.commitOffsets();
      sim.stop();
      check(sub, round);
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
      // The last open commit (offsets 40-44) is discarded when the task stops.
      assertEquals(PARTITIONS * 40, counts.size(), round + ": " + counts.keySet());
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
    } finally {
      catalog.close();
    }
  }
}
