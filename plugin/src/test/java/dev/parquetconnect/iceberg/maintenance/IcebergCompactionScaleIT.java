package dev.parquetconnect.iceberg.maintenance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.engines.EngineCanonical;
import dev.parquetconnect.engines.SparkOracle;
import dev.parquetconnect.engines.TrinoOracle;
import dev.parquetconnect.it.IcebergRestServer;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.commit.iceberg.IcebergCatalogs;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.sink.commit.iceberg.StoreFileIO;
import dev.parquetconnect.storage.S3ProxyServer;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table maintenance at the scale of continuous ingestion: many small commits (200; 2,000 with
 * {@code -Dcompaction.scale.commits=2000}) of the production sink task (in-process, {@link
 * SinkTaskHarness}) into a table of Iceberg's REST catalog server, while the task's own maintenance
 * thread compacts, expires snapshots and cleans orphans concurrently, once with a local warehouse
 * and once with an S3Proxy warehouse (data and metadata in the bucket, through {@link
 * StoreFileIO}). Each commit holds one Kafka partition's next range (the two partitions take
 * turns), so it is one sink commit whatever the commit protocol groups.
 *
 * <p>Afterwards, and after a last compaction run: every row once with its values through Iceberg's
 * generic reader and DuckDB; each Iceberg partition has at most ceil(its bytes / target) + 1 files;
 * compacted files have the footer schema of the sink's own files (parquet-java, with field ids) and
 * the same column types in DuckDB, Spark and Trino, and read equal in parquet-java, DuckDB, Spark's
 * and Trino's default readers.
 */
final class IcebergCompactionScaleIT {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCompactionScaleIT.class);
  private static final String TOPIC = "clicks";
  private static final long SCHEDULE_MS = 10_000;
  private static final long TARGET = 12 * 1024;

  /** How the REST server's StoreFileIO takes the store settings (StoreFileIO's own prefix). */
  private static final String STORE_PROPERTY_PREFIX = "parquet-connect.store.";

  /**
   * Sink commits, each one Kafka partition's next {@link ScaleRecords#PER_COMMIT} records: 200,
   * about 30 s of commits, are many rounds of the background compaction (every 500 ms) and expiry
   * (every second, snapshots older than 2 s) and a hundred snapshots per Kafka partition. The
   * issue's 2,000 do not fit the suite's time budget (docs/performance.md, "Maintenance at scale"):
   * {@code -Dcompaction.scale.commits=2000} runs them.
   */
  private static final int COMMITS = Integer.getInteger("compaction.scale.commits", 200);

  private static Path dir;
  private static S3ProxyServer s3;
  private static final Map<String, IcebergRestServer> REST = new HashMap<>();
  private static CompletableFuture<SparkOracle> spark;
  private static CompletableFuture<TrinoOracle> trino;

  @BeforeAll
  static void start() throws Exception {
    dir = Files.createTempDirectory("compaction-scale");
    // The engines start while the commits run: they are only asked at the end.
    spark =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return SparkOracle.start(SparkOracle.versions().get(0));
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    trino =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return TrinoOracle.start();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    s3 = new S3ProxyServer();
    REST.put(
        "local",
        IcebergRestServer.start(
            Files.createDirectories(dir.resolve("rest-local")),
            dir.resolve("warehouse").toString(),
            Map.of()));
    Map<String, String> backend = new HashMap<>();
    backend.put("io-impl", StoreFileIO.class.getName());
    storeSettings().forEach((k, v) -> backend.put(STORE_PROPERTY_PREFIX + k, v));
    REST.put(
        "s3",
        IcebergRestServer.start(
            Files.createDirectories(dir.resolve("rest-s3")),
            "s3://" + S3ProxyServer.BUCKET + "/warehouse",
            backend));
  }

  @AfterAll
  static void stop() throws Exception {
    for (IcebergRestServer rest : REST.values()) {
      rest.close();
    }
    if (s3 != null) {
      s3.close();
    }
    spark.thenAccept(SparkOracle::close).exceptionally(e -> null);
    trino.thenAccept(TrinoOracle::close).exceptionally(e -> null);
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    }
  }

  @ParameterizedTest(name = "{0} warehouse")
  @ValueSource(strings = {"local", "s3"})
  void manySmallCommitsWithMaintenanceRunningKeepEveryRowOnce(String warehouse) throws Exception {
    long began = System.nanoTime();
    long cpuBegan = cpuNanos();
    Map<String, String> props = props(warehouse);
    List<TopicPartition> partitions =
        List.of(new TopicPartition(TOPIC, 0), new TopicPartition(TOPIC, 1));
    long[] next = new long[ScaleRecords.KAFKA_PARTITIONS];
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      for (int c = 0; c < COMMITS; c++) {
        int p = c % ScaleRecords.KAFKA_PARTITIONS;
        task.put(ScaleRecords.sinkRecords(TOPIC, p, next[p], next[p] + ScaleRecords.PER_COMMIT));
        next[p] += ScaleRecords.PER_COMMIT;
        task.commitOpenFiles(SCHEDULE_MS);
        if ((c + 1) % 100 == 0) {
          LOG.info(
              "{}: {} commits in {} ms, {} ms of CPU",
              warehouse,
              c + 1,
              (System.nanoTime() - began) / 1_000_000,
              (cpuNanos() - cpuBegan) / 1_000_000);
        }
      }
    }
    long ingestMs = (System.nanoTime() - began) / 1_000_000;
    long ingestCpuMs = (cpuNanos() - cpuBegan) / 1_000_000;
    Catalog catalog = IcebergCatalogs.open(new ParquetSinkConfig(props).iceberg());
    try {
      Table table = catalog.loadTable(TableIdentifier.of("lake", TOPIC));
      int snapshots = 0;
      for (var s : table.snapshots()) {
        snapshots++;
      }
      int compactedInBackground = compactedFiles(table);
      LOG.info(
          "{}: {} commits in {} ms ({} ms of this JVM's CPU, {} commits per s) with maintenance"
              + " running: {} snapshots retained, {} compacted files from the background runs",
          warehouse,
          COMMITS,
          ingestMs,
          ingestCpuMs,
          COMMITS * 1000L / Math.max(1, ingestMs),
          snapshots,
          compactedInBackground);
      assertTrue(compactedInBackground > 0, "the task's maintenance compacted while it ingested");
      assertTrue(
          snapshots < COMMITS / 4, snapshots + " snapshots retained: expiry kept up with commits");

      ParquetSinkConfig config = new ParquetSinkConfig(props);
      try (Store store = Stores.open(config.storeUrl(), config.storeSettings())) {
        long t = System.nanoTime();
        CompactionResult last =
            new TableCompactor(store, CompactionPolicy.ofTarget(TARGET)).compact(table);
        LOG.info("{}: last run {} in {} ms", warehouse, last, (System.nanoTime() - t) / 1_000_000);
      }
      table.refresh();
      Map<String, String> expected = ScaleRecords.expectedRows(next);
      assertEquals(expected, icebergRows(table), "every row once with its values (Iceberg)");
      assertFilesPerPartition(table);
      Path copies = Files.createDirectories(dir.resolve("copies-" + warehouse));
      Map<String, Path> files = copyDataFiles(table, copies);
      assertEquals(expected, duckRows(files.values()), "every row once with its values (DuckDB)");

      // One more commit after a restart: the task resumes from the compacted, expired table, and
      // its file is a sink file to compare the compacted ones with.
      try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
        task.put(ScaleRecords.sinkRecords(TOPIC, 0, 0, next[0] + ScaleRecords.PER_COMMIT));
        task.commitOpenFiles(SCHEDULE_MS);
      }
      next[0] += ScaleRecords.PER_COMMIT;
      table.refresh();
      assertEquals(ScaleRecords.expectedRows(next), icebergRows(table), "resumed exactly");
      Map<String, Path> after = copyDataFiles(table, copies);
      Path small = null;
      List<Path> compacted = new ArrayList<>();
      for (Map.Entry<String, Path> e : after.entrySet()) {
        if (TableCompactor.fileName(e.getKey()).startsWith(TableCompactor.FILE_PREFIX)) {
          compacted.add(e.getValue());
        } else {
          small = e.getValue();
        }
      }
      assertNotNull(small, "the restart's sink file: " + after.keySet());
      assertFalse(compacted.isEmpty(), after.keySet().toString());
      checkCompactedFiles(warehouse, small, compacted);
      LOG.info(
          "{} warehouse: {} ms in all, {} ms of this JVM's CPU",
          warehouse,
          (System.nanoTime() - began) / 1_000_000,
          (cpuNanos() - cpuBegan) / 1_000_000);
    } finally {
      if (catalog instanceof Closeable c) {
        c.close();
      }
    }
  }

  /**
   * Compacted files against a sink file: the same footer schema (types, logical types, field ids)
   * in parquet-java, the same column types in DuckDB, Spark and Trino; the same rows in all four.
   */
  private static void checkCompactedFiles(String warehouse, Path small, List<Path> compacted)
      throws Exception {
    SparkOracle sparkOracle = spark.join();
    TrinoOracle trinoOracle = trino.join();
    SparkOracle.Answer sparkSmall = sparkOracle.read(small, SparkOracle.DEFAULTS);
    TrinoOracle.Answer trinoSmall = trinoOracle.read(small);
    assertFalse(sparkSmall.failed(), () -> "Spark: " + sparkSmall.error());
    assertFalse(trinoSmall.failed(), () -> "Trino: " + trinoSmall.error());
    // The largest compacted file of each Iceberg partition: rows of many commits and both Kafka
    // partitions, in several row groups' worth of pages.
    Map<Path, Path> largestByDir = new LinkedHashMap<>();
    for (Path f : compacted) {
      Path largest = largestByDir.get(f.getParent());
      if (largest == null || Files.size(f) > Files.size(largest)) {
        largestByDir.put(f.getParent(), f);
      }
    }
    Map<String, Integer> rowsChecked = new TreeMap<>();
    for (Path f : largestByDir.values()) {
      assertEquals(
          EngineCanonical.schemaOf(small), EngineCanonical.schemaOf(f), "footer schema of " + f);
      assertEquals(
          FileReadBack.duckTypes(small),
          FileReadBack.duckTypes(f),
          "DuckDB's column types of " + f);
      List<String> parquetJava = sorted(EngineCanonical.parquetJavaRows(f));
      SparkOracle.Answer s = sparkOracle.read(f, SparkOracle.DEFAULTS);
      assertFalse(s.failed(), () -> "Spark: " + s.error());
      assertEquals(sparkSmall.schema(), s.schema(), "Spark's column types of " + f);
      assertEquals(parquetJava, s.sortedRows(), "Spark " + sparkOracle.version() + " reads " + f);
      TrinoOracle.Answer t = trinoOracle.read(f);
      assertFalse(t.failed(), () -> "Trino: " + t.error());
      assertEquals(trinoSmall.schema(), t.schema(), "Trino's column types of " + f);
      assertEquals(parquetJava, sorted(t.rows()), "Trino " + TrinoOracle.version() + " reads " + f);
      assertEquals(
          FileReadBack.parquetJavaKeys(f, "qty"),
          FileReadBack.duckKeys(f, "qty"),
          "parquet-java and DuckDB read " + f);
      rowsChecked.put(f.getParent().getFileName() + "/" + f.getFileName(), parquetJava.size());
    }
    LOG.info(
        "{}: compacted files read equal in parquet-java, DuckDB, Spark {} and Trino {}: {}",
        warehouse,
        sparkOracle.version(),
        TrinoOracle.version(),
        rowsChecked);
  }

  private static void assertFilesPerPartition(Table table) throws IOException {
    Map<String, List<DataFile>> byPartition = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        byPartition
            .computeIfAbsent(
                table.spec().partitionToPath(task.file().partition()), k -> new ArrayList<>())
            .add(task.file());
      }
    }
    assertEquals(2, byPartition.size(), byPartition.keySet().toString());
    for (Map.Entry<String, List<DataFile>> e : byPartition.entrySet()) {
      long bytes = e.getValue().stream().mapToLong(DataFile::fileSizeInBytes).sum();
      long bound = (bytes + TARGET - 1) / TARGET + 1;
      LOG.info(
          "partition {}: {} files, {} bytes, at most {}",
          e.getKey(),
          e.getValue().size(),
          bytes,
          bound);
      assertTrue(
          e.getValue().size() <= bound,
          e.getKey() + ": " + e.getValue().size() + " files for " + bytes + " bytes");
    }
  }

  private static int compactedFiles(Table table) throws IOException {
    int n = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        if (TableCompactor.fileName(task.file().location())
            .startsWith(TableCompactor.FILE_PREFIX)) {
          n++;
        }
      }
    }
    return n;
  }

  /** The current snapshot's data files copied out of the warehouse's store, by location. */
  private static Map<String, Path> copyDataFiles(Table table, Path into) throws IOException {
    Map<String, Path> copies = new TreeMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String location = task.file().location();
        String partition = table.spec().partitionToPath(task.file().partition());
        Path copy =
            Files.createDirectories(into.resolve(partition))
                .resolve(TableCompactor.fileName(location));
        if (!Files.exists(copy)) {
          try (InputStream in = table.io().newInputFile(location).newStream()) {
            Files.copy(in, copy);
          }
        }
        copies.put(location, copy);
      }
    }
    return copies;
  }

  private static Map<String, String> icebergRows(Table table) throws IOException {
    Map<String, String> rows = new HashMap<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        String row = ScaleRecords.icebergRow(r);
        String key = row.substring(0, row.indexOf('|', row.indexOf('|') + 1));
        assertEquals(null, rows.put(key, row), "read twice: " + row);
      }
    }
    return rows;
  }

  private static Map<String, String> duckRows(Iterable<Path> files) throws Exception {
    Map<String, String> rows = new HashMap<>();
    String list =
        java.util.stream.StreamSupport.stream(files.spliterator(), false)
            .map(f -> "'" + f + "'")
            .collect(Collectors.joining(", "));
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement();
        ResultSet r = sql.executeQuery(ScaleRecords.DUCKDB_ROWS + "[" + list + "])")) {
      while (r.next()) {
        String row = ScaleRecords.duckRow(r);
        String key = row.substring(0, row.indexOf('|', row.indexOf('|') + 1));
        assertEquals(null, rows.put(key, row), "read twice: " + row);
      }
    }
    return rows;
  }

  private static List<String> sorted(List<String> rows) {
    List<String> sorted = new ArrayList<>(rows);
    sorted.sort(null);
    return sorted;
  }

  /**
   * The CPU time of this JVM (the sink, its maintenance, the catalog server, S3Proxy): on a loaded
   * machine, what the wall time would be near on an idle one.
   */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** S3Proxy's store settings as connector properties (secrets as their values). */
  private static Map<String, String> storeSettings() {
    return S3ProxyServer.settings(s3.endpoint()).entrySet().stream()
        .collect(
            Collectors.toMap(
                Map.Entry::getKey,
                e -> e.getValue() instanceof Secret s ? s.value() : e.getValue().toString()));
  }

  private static Map<String, String> props(String warehouse) throws IOException {
    Map<String, String> props = new HashMap<>();
    props.put("name", "scale-" + warehouse);
    if (warehouse.equals("s3")) {
      props.putAll(storeSettings());
      props.put(ParquetSinkConfig.STORE_URL_CONFIG, "s3://" + S3ProxyServer.BUCKET + "/data");
    } else {
      props.put(
          ParquetSinkConfig.STORE_URL_CONFIG,
          Files.createDirectories(dir.resolve("store")).toUri().toString());
    }
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(SCHEDULE_MS));
    props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "10000");
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "rest");
    props.put(IcebergConfig.CATALOG_URI_CONFIG, REST.get(warehouse).uri());
    props.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    props.put(IcebergConfig.PARTITION_SPEC_CONFIG, "region");
    // At a commit a second, the metadata log (100 entries by default, most of each metadata
    // file's bytes) and the metadata files themselves (never removed by default, nor by snapshot
    // expiry) are what grows: docs/iceberg.md, "Maintenance".
    props.put(IcebergConfig.TABLE_PROPERTIES_PREFIX + "write.metadata.previous-versions-max", "10");
    props.put(
        IcebergConfig.TABLE_PROPERTIES_PREFIX + "write.metadata.delete-after-commit.enabled",
        "true");
    props.put(MaintenanceConfig.COMPACTION_ENABLED_CONFIG, "true");
    props.put(MaintenanceConfig.COMPACTION_INTERVAL_MS_CONFIG, "500");
    props.put(MaintenanceConfig.COMPACTION_TARGET_FILE_BYTES_CONFIG, Long.toString(TARGET));
    props.put(MaintenanceConfig.COMPACTION_MIN_INPUT_FILES_CONFIG, "4");
    props.put(MaintenanceConfig.COMPACTION_MIN_AGE_MS_CONFIG, "0");
    props.put(MaintenanceConfig.COMPACTION_MAX_RUN_TIME_MS_CONFIG, "5000");
    props.put(MaintenanceConfig.SNAPSHOTS_EXPIRE_ENABLED_CONFIG, "true");
    props.put(MaintenanceConfig.SNAPSHOTS_MAX_AGE_MS_CONFIG, "2000");
    props.put(MaintenanceConfig.SNAPSHOTS_INTERVAL_MS_CONFIG, "1000");
    props.put(MaintenanceConfig.ORPHANS_ENABLED_CONFIG, "true");
    props.put(MaintenanceConfig.ORPHANS_MIN_AGE_MS_CONFIG, "10000");
    return props;
  }
}
