package dev.parquetconnect.iceberg.maintenance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction inside the sink, on Iceberg's REST catalog with a local warehouse: many small commits
 * by the production task (in-process, three Kafka partitions, two Iceberg partitions) while its
 * maintenance thread compacts and expires snapshots in the background, then a last compaction run.
 * Every row is in the table exactly once as Iceberg's generic reader and DuckDB read it; each
 * partition has at most ceil(its bytes / target) + 1 files; a compacted file has the footer schema
 * (types, logical types, field ids) of the sink's own files and reads the same in parquet-java and
 * DuckDB, with the same DuckDB column types; a restart after compaction and expiry resumes exactly
 * where the table says.
 */
final class IcebergCompactionIT {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCompactionIT.class);
  private static final String TOPIC = "events";
  private static final int PARTITIONS = 3;
  private static final long SCHEDULE_MS = 10_000;
  private static final long TARGET = 12 * 1024;
  private static final int RECORDS_PER_COMMIT = 4;

  /** Rounds of one commit per Kafka partition. */
  private static final int ROUNDS = Integer.getInteger("compaction.rounds", 40);

  private static final Schema VALUE =
      SchemaBuilder.struct()
          .name("Event")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("region", Schema.STRING_SCHEMA)
          .field("at", Timestamp.SCHEMA)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .field("note", Schema.STRING_SCHEMA)
          .build();

  @TempDir static Path dir;
  private static IcebergFixture rest;
  private static Catalog catalog;

  @BeforeAll
  static void startRestCatalog() throws Exception {
    rest = IcebergFixture.restOnLocalDisk(dir);
    catalog = rest.catalog();
  }

  @AfterAll
  static void stop() throws Exception {
    if (rest != null) {
      rest.close();
    }
  }

  @Test
  void manySmallCommitsCompactedInTheBackgroundKeepEveryRowOnce() throws Exception {
    Map<String, String> props = props();
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition(TOPIC, p));
    }
    long began = System.nanoTime();
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      for (int round = 0; round < ROUNDS; round++) {
        task.put(records(round * RECORDS_PER_COMMIT, (round + 1) * RECORDS_PER_COMMIT));
        task.commitOpenFiles(SCHEDULE_MS);
      }
    }
    long ingestMs = (System.nanoTime() - began) / 1_000_000;
    long offsets = (long) ROUNDS * RECORDS_PER_COMMIT;
    Table table = catalog.loadTable(TableIdentifier.of("lake", TOPIC));
    int compactedInBackground = countCompacted(table);
    LOG.info(
        "{} commits ({} rounds) in {} ms; {} compacted files from the background runs",
        ROUNDS * PARTITIONS,
        ROUNDS,
        ingestMs,
        compactedInBackground);
    assertTrue(compactedInBackground > 0, "the task's maintenance compacted while it ingested");

    ParquetSinkConfig config = new ParquetSinkConfig(props);
    try (Store store = Stores.open(config.storeUrl(), config.storeSettings())) {
      long t = System.nanoTime();
      CompactionResult last =
          new TableCompactor(store, CompactionPolicy.ofTarget(TARGET)).compact(table);
      LOG.info("last run: {} in {} ms", last, (System.nanoTime() - t) / 1_000_000);
    }
    table.refresh();
    assertEquals(expectedRows(offsets), rows(table), "every row once (Iceberg's reader)");
    Map<String, List<DataFile>> byPartition = filesByPartition(table);
    assertEquals(2, byPartition.size(), byPartition.keySet().toString());
    int compactedFiles = 0;
    for (Map.Entry<String, List<DataFile>> e : byPartition.entrySet()) {
      long bytes = e.getValue().stream().mapToLong(DataFile::fileSizeInBytes).sum();
      long bound = (bytes + TARGET - 1) / TARGET + 1;
      LOG.info("partition {}: {} files, {} bytes", e.getKey(), e.getValue().size(), bytes);
      assertTrue(
          e.getValue().size() <= bound,
          e.getKey() + ": " + e.getValue().size() + " files for " + bytes + " bytes");
      compactedFiles += e.getValue().size();
    }
    assertTrue(compactedFiles > 2, "compacted files closed at the target: " + byPartition);
    List<Path> files = dataFiles(table);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement()) {
      ResultSet r =
          sql.executeQuery(
              "SELECT count(*), count(DISTINCT (__kafka_partition, __kafka_offset)), sum(id)"
                  + " FROM read_parquet(["
                  + files.stream().map(f -> "'" + f + "'").collect(Collectors.joining(", "))
                  + "])");
      r.next();
      long n = offsets * PARTITIONS;
      assertEquals(n, r.getLong(1), "DuckDB rows");
      assertEquals(n, r.getLong(2), "DuckDB distinct (partition, offset)");
      assertEquals(n * (n - 1) / 2, r.getLong(3), "DuckDB sum(id)");
    }

    // A restart: Connect delivers again from offset 0; the table says where to resume, though
    // the snapshots that committed the early ranges are expired and their files compacted.
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      task.put(records(0, offsets + RECORDS_PER_COMMIT));
      task.commitOpenFiles(SCHEDULE_MS);
    }
    table.refresh();
    assertEquals(
        expectedRows(offsets + RECORDS_PER_COMMIT),
        rows(table),
        "resumed exactly after compaction");

    Path compacted = null;
    Path small = null;
    for (Path f : dataFiles(table)) {
      if (f.getFileName().toString().startsWith(TableCompactor.FILE_PREFIX)) {
        compacted = compacted == null ? f : compacted;
      } else {
        small = f;
      }
    }
    assertTrue(compacted != null && small != null, dataFiles(table).toString());
    assertEquals(
        FileReadBack.parquetJavaSchema(small),
        FileReadBack.parquetJavaSchema(compacted),
        "footer schemas with field ids");
    assertEquals(
        FileReadBack.duckTypes(small), FileReadBack.duckTypes(compacted), "DuckDB's column types");
    assertEquals(
        FileReadBack.parquetJavaKeys(compacted),
        FileReadBack.duckKeys(compacted),
        "parquet-java and DuckDB");
    LOG.info(
        "compacted {} checked against {}: {} rows",
        compacted.getFileName(),
        small.getFileName(),
        FileReadBack.duckKeys(compacted).size());
  }

  private static Map<String, String> props() throws Exception {
    Map<String, String> props =
        rest.localSinkOnRest(dir.resolve("sink"), "compacting", SCHEDULE_MS);
    props.put(IcebergConfig.PARTITION_SPEC_CONFIG, "region");
    props.put(MaintenanceConfig.COMPACTION_ENABLED_CONFIG, "true");
    props.put(MaintenanceConfig.COMPACTION_INTERVAL_MS_CONFIG, "300");
    props.put(MaintenanceConfig.COMPACTION_TARGET_FILE_BYTES_CONFIG, Long.toString(TARGET));
    props.put(MaintenanceConfig.COMPACTION_MIN_INPUT_FILES_CONFIG, "4");
    props.put(MaintenanceConfig.COMPACTION_MIN_AGE_MS_CONFIG, "0");
    props.put(MaintenanceConfig.SNAPSHOTS_EXPIRE_ENABLED_CONFIG, "true");
    props.put(MaintenanceConfig.SNAPSHOTS_MAX_AGE_MS_CONFIG, "2000");
    props.put(MaintenanceConfig.SNAPSHOTS_INTERVAL_MS_CONFIG, "700");
    return props;
  }

  private static List<SinkRecord> records(long from, long to) {
    return IcebergFixture.records(TOPIC, PARTITIONS, from, to, VALUE, IcebergCompactionIT::value);
  }

  /** The value of id {@code id}. */
  private static Struct value(long id) {
    return new Struct(VALUE)
        .put("id", id)
        .put("name", id % 7 == 0 ? null : "name-" + id)
        .put("amount", id / 4.0)
        .put("region", id % 2 == 0 ? "eu" : "us")
        .put("at", new Date(1_700_000_000_000L + id * 1000))
        .put("tags", id % 5 == 0 ? null : List.of("t" + id % 3, "u" + id % 4))
        .put("note", note(id));
  }

  /**
   * 128 characters that compress little, so the files' data outweighs their footers and the
   * compacted files of a partition reach the target several times.
   */
  private static String note(long id) {
    StringBuilder note = new StringBuilder();
    long x = id * 0x9E3779B97F4A7C15L + 1;
    while (note.length() < 128) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      note.append(Long.toHexString(x));
    }
    return note.substring(0, 128);
  }

  /** {@code [id, name, amount, offset, partition]} of each row, with how often it occurs. */
  private static Map<List<Object>, Integer> rows(Table table) throws Exception {
    Map<List<Object>, Integer> rows = new HashMap<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        rows.merge(
            row(
                (Long) r.getField("id"),
                (String) r.getField("name"),
                (Double) r.getField("amount"),
                (Long) r.getField("__kafka_offset"),
                ((Number) r.getField("__kafka_partition")).longValue()),
            1,
            Integer::sum);
      }
    }
    return rows;
  }

  private static Map<List<Object>, Integer> expectedRows(long offsets) {
    Map<List<Object>, Integer> rows = new HashMap<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (long o = 0; o < offsets; o++) {
        long id = o * PARTITIONS + p;
        rows.put(row(id, id % 7 == 0 ? null : "name-" + id, id / 4.0, o, p), 1);
      }
    }
    return rows;
  }

  private static List<Object> row(long id, String name, double amount, long offset, long p) {
    List<Object> row = new ArrayList<>();
    row.add(id);
    row.add(name);
    row.add(amount);
    row.add(offset);
    row.add(p);
    return row;
  }

  private static int countCompacted(Table table) throws Exception {
    int n = 0;
    for (Path f : dataFiles(table)) {
      if (f.getFileName().toString().startsWith(TableCompactor.FILE_PREFIX)) {
        n++;
      }
    }
    return n;
  }

  private static Map<String, List<DataFile>> filesByPartition(Table table) throws Exception {
    Map<String, List<DataFile>> files = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files
            .computeIfAbsent(
                table.spec().partitionToPath(task.file().partition()), k -> new ArrayList<>())
            .add(task.file());
      }
    }
    return files;
  }

  private static List<Path> dataFiles(Table table) throws Exception {
    List<Path> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(Path.of(URI.create(task.file().location())));
      }
    }
    files.sort(null);
    return files;
  }
}
