package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code pq audit iceberg://namespace.table} over tables the sink wrote in table mode (Iceberg's
 * REST catalog in-process): a clean table is complete (exit 0) with its offsets, files, rows and
 * timestamps; a data file committed twice is a duplicate and a data file removed from the table a
 * gap, each named (exit 1); an older snapshot is audited as it was.
 */
final class TableAuditTest {
  private static final Logger LOG = LoggerFactory.getLogger(TableAuditTest.class);
  private static final int PARTITIONS = 2;
  private static final int PER_COMMIT = 50;
  private static final int COMMITS = 3;
  private static final long BASE_TIME = 1_700_000_000_000L;
  private static final Schema VALUE =
      SchemaBuilder.struct().name("Order").field("id", Schema.INT64_SCHEMA).build();

  @TempDir static Path dir;
  private static IcebergFixture rest;
  private static Catalog catalog;
  private static Path storeConfig;

  @BeforeAll
  static void writeTables() throws Exception {
    rest = IcebergFixture.restOnLocalDisk(dir);
    catalog = rest.catalog();
    Path store = Files.createDirectories(dir.resolve("store"));
    Map<String, String> props = new HashMap<>();
    props.put("name", "audit-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, store.toUri().toString());
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "10000");
    rest.tableMode(props);
    List<String> topics = List.of("clean", "twice", "holes");
    List<TopicPartition> partitions = new ArrayList<>();
    for (String topic : topics) {
      for (int p = 0; p < PARTITIONS; p++) {
        partitions.add(new TopicPartition(topic, p));
      }
    }
    try (SinkTaskHarness sink = new SinkTaskHarness(props, partitions)) {
      for (int c = 0; c < COMMITS; c++) {
        List<SinkRecord> batch = new ArrayList<>();
        for (TopicPartition tp : partitions) {
          for (long o = (long) c * PER_COMMIT; o < (c + 1L) * PER_COMMIT; o++) {
            batch.add(
                new SinkRecord(
                    tp.topic(),
                    tp.partition(),
                    null,
                    null,
                    VALUE,
                    new Struct(VALUE).put("id", o),
                    o,
                    BASE_TIME + o,
                    TimestampType.CREATE_TIME));
          }
        }
        sink.put(batch);
        sink.commitOpenFiles(10_000);
      }
    }
    Properties settings = new Properties();
    settings.setProperty("store.url", store.toUri().toString());
    settings.setProperty(IcebergConfig.CATALOG_URI_CONFIG, rest.uri());
    storeConfig = dir.resolve("table.properties");
    try (Writer out = Files.newBufferedWriter(storeConfig)) {
      settings.store(out, null);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (rest != null) {
      rest.close();
    }
  }

  @Test
  void aCleanTableIsComplete() {
    PqRun run = audit("iceberg://lake.clean", "--from", "clean:0:0,clean:1:0");
    LOG.info("pq audit of a clean table:\n{}", run.out());
    assertEquals(0, run.exit(), run.out() + run.describe());
    String last = PER_COMMIT * COMMITS - 1 + "";
    for (int p = 0; p < PARTITIONS; p++) {
      assertTrue(
          run.out()
              .contains("clean partition " + p + ": offsets 0-" + last + ", 3 files, 150 rows"),
          run.out());
    }
    PqRun json = audit("iceberg://lake.clean", "--json");
    assertEquals(0, json.exit(), json.describe());
    assertTrue(json.out().contains("\"firstTimestamp\":" + BASE_TIME), json.out());
    assertTrue(
        json.out().contains("\"lastTimestamp\":" + (BASE_TIME + PER_COMMIT * COMMITS - 1)),
        "timestamps in milliseconds, the table's microseconds converted: " + json.out());
  }

  @Test
  void aDataFileCommittedTwiceIsADuplicate() {
    Table table = catalog.loadTable(TableIdentifier.of("lake", "twice"));
    DataFile again = dataFiles(table).get(0);
    table.newAppend().appendFile(again).commit();
    PqRun run = audit("iceberg://lake.twice");
    LOG.info("pq audit of a table with a file committed twice:\n{}", run.out());
    assertEquals(1, run.exit(), run.out() + run.describe());
    String name = again.location().substring(again.location().lastIndexOf('/') + 1);
    assertTrue(run.out().contains("DUPLICATE offsets"), run.out());
    assertTrue(run.out().lines().anyMatch(l -> l.contains("DUPLICATE") && l.contains(name)));
  }

  @Test
  void aDataFileRemovedFromTheTableIsAGapAndAnOlderSnapshotHasNone() {
    Table table = catalog.loadTable(TableIdentifier.of("lake", "holes"));
    long before = table.currentSnapshot().snapshotId();
    DataFile middle = null;
    for (DataFile f : dataFiles(table)) {
      if (f.location().contains("+0+00000000000000000050+")) {
        middle = f;
      }
    }
    table.newDelete().deleteFile(middle).commit();
    PqRun run = audit("iceberg://lake.holes");
    LOG.info("pq audit of a table with a file removed:\n{}", run.out());
    assertEquals(1, run.exit(), run.out() + run.describe());
    assertTrue(run.out().contains("GAP offsets 50-99"), run.out());
    PqRun older = audit("iceberg://lake.holes@" + before);
    assertEquals(0, older.exit(), older.out() + older.describe());
  }

  @Test
  void aMissingTableOrSnapshotIsAClearError() {
    PqRun run = audit("iceberg://lake.holes@42");
    assertEquals(1, run.exit(), run.describe());
    assertTrue(run.err().contains("no snapshot 42"), run.err());
  }

  private static PqRun audit(String url, String... more) {
    List<String> args =
        new ArrayList<>(List.of("audit", url, "--store-config", storeConfig.toString()));
    args.addAll(List.of(more));
    return PqRun.run(args.toArray(String[]::new));
  }

  private static List<DataFile> dataFiles(Table table) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> files.add(t.file()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return files;
  }
}
