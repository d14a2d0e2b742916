package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.Await;
import dev.parquetconnect.it.IcebergWorkerHarness;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table mode on a real Connect worker (the plugin archive, as in production): nested records
 * through JsonConverter into an Iceberg table of Iceberg's REST catalog (in-process on 127.0.0.1)
 * and of a Hadoop catalog on local disk, read back by Iceberg's generic reader, every row equal to
 * what was produced and every offset once, the partition spec as configured (or derived from the
 * field partitioner), a filtered scan planning only the matching partition's files, and a restart
 * of the connector resuming from the table exactly once. Three tasks over six partitions make at
 * most one snapshot per table and commit interval.
 */
final class IcebergSinkIT {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergSinkIT.class);
  private static final int PARTITIONS = 3;
  private static final int REGIONS = 3;
  private static final int RECORDS = 600;

  private static IcebergWorkerHarness harness;

  @BeforeAll
  static void start() throws Exception {
    harness = IcebergWorkerHarness.start("IcebergSinkIT");
  }

  @AfterAll
  static void stop() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"rest", "hadoop"})
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyRowOnceThroughAWorkerAndARestart(String catalogType) throws Exception {
    long started = System.nanoTime();
    String topic = "orders-" + catalogType;
    String connector = "iceberg-" + catalogType;
    harness.broker().createTopic(topic, PARTITIONS);
    produce(topic, 0, RECORDS / 2);
    Map<String, String> config = connectorConfig(catalogType, topic);
    harness.worker().putConnectorConfig(connector, config);
    harness.worker().awaitConnectorRunning(connector, 1, Duration.ofMinutes(2));
    Catalog catalog = catalog(config);
    try {
      TableIdentifier id = TableIdentifier.of("lake", topic);
      awaitOffsets(catalog, id, connector, topic, RECORDS / 2);
      // A restart of connector and task: they resume where the table says.
      harness.worker().send("POST", "/connectors/" + connector + "/restart?includeTasks=true", "");
      produce(topic, RECORDS / 2, RECORDS);
      harness.worker().awaitConnectorRunning(connector, 1, Duration.ofMinutes(2));
      awaitOffsets(catalog, id, connector, topic, RECORDS);
      harness.worker().deleteConnector(connector);
      Table table = catalog.loadTable(id);
      assertEquals(expectedRows(), rows(table), catalogType);
      assertEquals("[1000: region: identity(2)]", table.spec().fields().toString(), "the spec");
      List<String> all = planned(table, Expressions.alwaysTrue());
      List<String> eu = planned(table, Expressions.equal("region", "eu"));
      assertTrue(
          !eu.isEmpty()
              && eu.size() < all.size()
              && eu.stream().allMatch(f -> f.contains("region=eu")),
          "region = eu plans " + eu + " of " + all);
      LOG.info(
          "{}: {} rows once, {} snapshots, filter plans {} of {} files, {} s",
          catalogType,
          RECORDS,
          count(table.snapshots()),
          eu.size(),
          all.size(),
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    } finally {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
  }

  /**
   * {@code tasks.max=3} over 6 partitions, records arriving over several commit intervals: the
   * table gets at most one snapshot per interval (the round of the interval's boundary, whichever
   * task commits it), every offset once, and no snapshot but the sink's.
   */
  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void threeTasksMakeAtMostOneSnapshotPerInterval() throws Exception {
    long started = System.nanoTime();
    int partitions = 6;
    int batches = 3;
    int perBatch = 120;
    long intervalMs = 3000;
    String topic = "spread";
    String connector = "iceberg-spread";
    harness.broker().createTopic(topic, partitions);
    Map<String, String> config = connectorConfig("rest", topic);
    config.put("tasks.max", "3");
    config.put(IcebergConfig.COMMIT_INTERVAL_MS_CONFIG, Long.toString(intervalMs));
    harness.worker().putConnectorConfig(connector, config);
    harness.worker().awaitConnectorRunning(connector, 3, Duration.ofMinutes(2));
    Catalog catalog = catalog(config);
    try {
      for (int b = 0; b < batches; b++) {
        List<JsonRecord> records = new ArrayList<>();
        for (long i = (long) b * perBatch; i < (long) (b + 1) * perBatch; i++) {
          records.add(SinkIts.order(i, (int) (i % partitions), REGIONS));
        }
        KafkaRecords.produce(
            harness.broker().bootstrapServers(), topic, records, Duration.ofMinutes(1));
        if (b < batches - 1) {
          Thread.sleep(intervalMs);
        }
      }
      TableIdentifier id = TableIdentifier.of("lake", topic);
      long total = (long) batches * perBatch;
      Await.until(
          "the table to hold " + total + " records of " + topic,
          Duration.ofMinutes(1),
          () -> {
            if (!catalog.tableExists(id)) {
              return false;
            }
            Snapshot current = catalog.loadTable(id).currentSnapshot();
            for (int p = 0; p < partitions && current != null; p++) {
              String value =
                  current
                      .summary()
                      .get("parquet-connect.offset." + connector + "/" + topic + "/" + p);
              if (value == null || Long.parseLong(value) < total / partitions - 1) {
                return false;
              }
            }
            return current != null;
          });
      harness.worker().deleteConnector(connector);
      Table table = catalog.loadTable(id);
      Map<String, Integer> offsets = new TreeMap<>();
      try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
        for (Record r : read) {
          offsets.merge(
              r.getField("__kafka_partition") + "/" + r.getField("__kafka_offset"),
              1,
              Integer::sum);
        }
      }
      assertEquals(total, offsets.size(), "every offset");
      offsets.forEach((offset, n) -> assertEquals(1, n, "offset " + offset + " once"));
      // Each snapshot of the schedule names its interval; a round outside it (a task letting
      // partitions go, a recovery finding staged ranges of a dead owner) names none.
      Map<String, Integer> byInterval = new TreeMap<>();
      int snapshots = 0;
      int outside = 0;
      for (Snapshot s : table.snapshots()) {
        snapshots++;
        assertTrue(
            s.summary().keySet().stream().anyMatch(k -> k.startsWith("parquet-connect.offset.")),
            "a snapshot that is not the sink's: " + s.summary());
        String interval = s.summary().get("parquet-connect.interval");
        if (interval == null) {
          outside++;
        } else {
          byInterval.merge(interval, 1, Integer::sum);
        }
      }
      LOG.info(
          "3 tasks, {} partitions: {} snapshots, by interval {}, {} outside the schedule, {} s",
          partitions,
          snapshots,
          byInterval,
          outside,
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
      byInterval.forEach(
          (interval, n) -> assertEquals(1, n, "snapshots of one interval: " + byInterval));
      assertTrue(outside <= 1, outside + " snapshots outside the schedule");
    } finally {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
  }

  private static Map<String, String> connectorConfig(String catalogType, String topic) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", ParquetSinkConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put(
        ParquetSinkConfig.STORE_URL_CONFIG,
        harness.workDir().resolve("lake-" + catalogType).toUri().toString());
    config.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    config.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
    config.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "20000");
    config.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    config.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    config.put(IcebergConfig.COMMIT_INTERVAL_MS_CONFIG, "2000");
    config.put(IcebergConfig.CATALOG_TYPE_CONFIG, catalogType);
    if (catalogType.equals("rest")) {
      config.put(IcebergConfig.CATALOG_URI_CONFIG, harness.iceberg().uri());
      config.put(IcebergConfig.PARTITION_SPEC_CONFIG, "identity(region)");
    } else {
      config.put(
          IcebergConfig.CATALOG_WAREHOUSE_CONFIG,
          harness.workDir().resolve("hadoop-warehouse").toString());
      config.put(ParquetSinkConfig.PARTITIONER_CONFIG, "field");
      config.put(ParquetSinkConfig.PARTITION_FIELDS_CONFIG, SinkIts.REGIONS_FIELD);
    }
    return config;
  }

  private static Catalog catalog(Map<String, String> config) {
    Map<String, String> properties = new HashMap<>();
    config.forEach(
        (k, v) -> {
          if (k.startsWith(IcebergConfig.CATALOG_PREFIX)) {
            properties.put(k.substring(IcebergConfig.CATALOG_PREFIX.length()), v);
          }
        });
    return CatalogUtil.buildIcebergCatalog("iceberg", properties, new Configuration());
  }

  private static void produce(String topic, long from, long to) {
    List<JsonRecord> records = new ArrayList<>();
    for (long i = from; i < to; i++) {
      records.add(SinkIts.order(i, (int) (i % PARTITIONS), REGIONS));
    }
    KafkaRecords.produce(
        harness.broker().bootstrapServers(), topic, records, Duration.ofMinutes(1));
  }

  /** Waits until the table's newest snapshot holds every partition's offsets below {@code n/3}. */
  private static void awaitOffsets(
      Catalog catalog, TableIdentifier id, String connector, String topic, long records) {
    Await.until(
        "the table to hold " + records + " records of " + topic,
        Duration.ofMinutes(2),
        () -> {
          if (!catalog.tableExists(id)) {
            return false;
          }
          Table table = catalog.loadTable(id);
          if (table.currentSnapshot() == null) {
            return false;
          }
          Map<String, String> summary = table.currentSnapshot().summary();
          for (int p = 0; p < PARTITIONS; p++) {
            String key = "parquet-connect.offset." + connector + "/" + topic + "/" + p;
            String value = summary.get(key);
            if (value == null || Long.parseLong(value) < records / PARTITIONS - 1) {
              return false;
            }
          }
          return true;
        });
  }

  /** {@code [id, region, customer name, item count, kafka partition, offset]} with counts. */
  private static Map<List<Object>, Integer> rows(Table table) throws Exception {
    Map<List<Object>, Integer> rows = new HashMap<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        Record customer = (Record) r.getField("customer");
        List<?> items = (List<?>) r.getField("items");
        List<Object> row =
            List.of(
                r.getField("id"),
                r.getField("region"),
                customer.getField("name"),
                items.size(),
                ((Number) r.getField("__kafka_partition")).intValue(),
                r.getField("__kafka_offset"));
        rows.merge(row, 1, Integer::sum);
      }
    }
    return rows;
  }

  private static Map<List<Object>, Integer> expectedRows() {
    Map<List<Object>, Integer> rows = new HashMap<>();
    for (long i = 0; i < RECORDS; i++) {
      rows.put(
          List.of(
              i,
              SinkIts.region(i, REGIONS),
              "customer-" + (i % 997),
              (int) (1 + i % 3),
              (int) (i % PARTITIONS),
              i / PARTITIONS),
          1);
    }
    return rows;
  }

  private static List<String> planned(Table table, org.apache.iceberg.expressions.Expression filter)
      throws Exception {
    List<String> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().filter(filter).planFiles()) {
      tasks.forEach(t -> files.add(t.file().location()));
    }
    return files;
  }

  private static int count(Iterable<?> items) {
    int n = 0;
    for (Object ignored : items) {
      n++;
    }
    return n;
  }
}
