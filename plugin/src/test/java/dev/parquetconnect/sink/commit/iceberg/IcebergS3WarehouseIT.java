package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.it.IcebergRestServer;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.storage.S3ProxyServer;
import dev.parquetconnect.storage.Secret;
import java.io.Closeable;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warehouses on S3 (S3Proxy on 127.0.0.1): {@link StoreFileIO} keeps Iceberg's contract on S3, and
 * the production task commits into a table of Iceberg's REST catalog server and of a JDBC catalog
 * (SQLite) whose metadata and data live in the bucket, written through our S3 store with one set of
 * credentials. Iceberg's generic reader reads every row once; DuckDB reads the current snapshot's
 * data files (copied out of the bucket: DuckDB's httpfs cannot be had here) equal.
 */
final class IcebergS3WarehouseIT {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergS3WarehouseIT.class);
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 2;
  private static final int OFFSETS = 60;
  private static final long SCHEDULE_MS = 10_000;
  private static final Schema VALUE = IcebergFixture.ORDER_VALUE;

  @TempDir static Path dir;
  private static S3ProxyServer s3;
  private static IcebergRestServer rest;
  private static final List<Catalog> CATALOGS = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyServer();
    Map<String, String> backend = new HashMap<>();
    backend.put("io-impl", StoreFileIO.class.getName());
    storeSettings().forEach((k, v) -> backend.put(StoreFileIO.STORE_PROPERTY_PREFIX + k, v));
    rest =
        IcebergRestServer.start(
            Files.createDirectories(dir.resolve("rest")),
            "s3://" + S3ProxyServer.BUCKET + "/rest-warehouse",
            backend);
  }

  @AfterAll
  static void stop() throws Exception {
    for (Catalog catalog : CATALOGS) {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
    if (rest != null) {
      rest.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void fileIoContractOnS3() throws Exception {
    try (StoreFileIO io = new StoreFileIO()) {
      Map<String, String> props = new HashMap<>();
      storeSettings().forEach((k, v) -> props.put(StoreFileIO.STORE_PROPERTY_PREFIX + k, v));
      io.initialize(props);
      FileIOContract.check(io, "s3://" + S3ProxyServer.BUCKET + "/fileio");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"rest", "jdbc"})
  void everyRowOnceInATableOnS3(String catalogType) throws Exception {
    long started = System.nanoTime();
    Map<String, String> props = props(catalogType);
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition(TOPIC, p));
    }
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      task.put(records(0, OFFSETS / 2));
      task.commitOpenFiles(SCHEDULE_MS);
      task.put(records(OFFSETS / 2, OFFSETS));
      task.commitOpenFiles(SCHEDULE_MS);
    }
    Catalog catalog = IcebergCatalogs.open(new ParquetSinkConfig(props).iceberg());
    CATALOGS.add(catalog);
    Table table = catalog.loadTable(TableIdentifier.of("lake", TOPIC));
    String bucket = "s3://" + S3ProxyServer.BUCKET + "/";
    assertTrue(table.location().startsWith(bucket), table.location());
    assertTrue(
        table.currentSnapshot().manifestListLocation().startsWith(bucket),
        table.currentSnapshot().manifestListLocation());

    Map<List<Long>, Integer> seen = new TreeMap<>(ROW_ORDER);
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        long partition = ((Number) r.getField("__kafka_partition")).longValue();
        long offset = (Long) r.getField("__kafka_offset");
        long id = (Long) r.getField("id");
        assertEquals(offset * PARTITIONS + partition, id, "id of " + partition + "/" + offset);
        assertEquals(id % 7 == 0 ? null : "name-" + id, r.getField("name"));
        assertEquals(id / 4.0, r.getField("amount"));
        seen.merge(List.of(partition, offset), 1, Integer::sum);
      }
    }
    assertEquals(PARTITIONS * OFFSETS, seen.size(), "every offset");
    assertTrue(seen.values().stream().allMatch(n -> n == 1), "every offset once");

    // DuckDB over the current snapshot's data files, copied out of the bucket through the FileIO.
    Path copies = Files.createDirectories(dir.resolve("duck-" + catalogType));
    List<String> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask t : tasks) {
        String location = t.file().location();
        assertTrue(location.startsWith(bucket), location);
        Path copy = copies.resolve(files.size() + ".parquet");
        try (InputStream in = table.io().newInputFile(location).newStream()) {
          Files.copy(in, copy);
        }
        files.add("'" + copy + "'");
      }
    }
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement()) {
      ResultSet r =
          sql.executeQuery(
              "SELECT count(*), count(DISTINCT (__kafka_partition, __kafka_offset)), sum(id),"
                  + " count(name), sum(amount) FROM read_parquet(["
                  + String.join(", ", files)
                  + "])");
      r.next();
      long n = (long) PARTITIONS * OFFSETS;
      assertEquals(n, r.getLong(1));
      assertEquals(n, r.getLong(2));
      assertEquals(n * (n - 1) / 2, r.getLong(3));
      assertEquals(n - (n + 6) / 7, r.getLong(4));
      assertEquals(n * (n - 1) / 2 / 4.0, r.getDouble(5), 1e-9);
    }
    LOG.info(
        "{} on S3: {} rows once in {} data files, {} ms",
        catalogType,
        seen.size(),
        files.size(),
        (System.nanoTime() - started) / 1_000_000);
  }

  private static final java.util.Comparator<List<Long>> ROW_ORDER =
      java.util.Comparator.<List<Long>, Long>comparing(l -> l.get(0)).thenComparing(l -> l.get(1));

  /** S3Proxy's store settings as connector properties (secrets as their values). */
  private static Map<String, String> storeSettings() {
    return S3ProxyServer.settings(s3.endpoint()).entrySet().stream()
        .collect(
            Collectors.toMap(
                Map.Entry::getKey,
                e -> e.getValue() instanceof Secret s ? s.value() : e.getValue().toString()));
  }

  private static Map<String, String> props(String catalogType) {
    Map<String, String> props = new HashMap<>(storeSettings());
    props.put("name", "s3-" + catalogType);
    props.put(
        ParquetSinkConfig.STORE_URL_CONFIG,
        "s3://" + S3ProxyServer.BUCKET + "/data-" + catalogType);
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(SCHEDULE_MS));
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, catalogType);
    props.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    if (catalogType.equals("jdbc")) {
      props.put(IcebergConfig.CATALOG_URI_CONFIG, "jdbc:sqlite:" + dir.resolve("jdbc-catalog.db"));
      props.put(
          IcebergConfig.CATALOG_WAREHOUSE_CONFIG,
          "s3://" + S3ProxyServer.BUCKET + "/jdbc-warehouse");
      props.put("iceberg.catalog.jdbc.schema-version", "V1");
    } else {
      props.put(IcebergConfig.CATALOG_URI_CONFIG, rest.uri());
    }
    return props;
  }

  private static List<SinkRecord> records(long from, long to) {
    return IcebergFixture.records(TOPIC, PARTITIONS, from, to, VALUE, IcebergFixture::order);
  }
}
