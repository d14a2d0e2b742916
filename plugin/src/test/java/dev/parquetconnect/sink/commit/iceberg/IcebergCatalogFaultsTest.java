package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergRestServer;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.ParquetSinkConnector;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catalog faults: a REST catalog that goes down mid-stream and comes back (Iceberg's REST catalog
 * server stopped and restarted on its port) costs failed commits, counted in {@code
 * commit-failures}, and neither loses nor repeats an offset; {@code validate()} reports a catalog
 * it cannot reach and a warehouse it cannot create tables in.
 */
final class IcebergCatalogFaultsTest {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCatalogFaultsTest.class);
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 2;
  private static final long SCHEDULE_MS = 10_000;
  private static final Schema VALUE =
      SchemaBuilder.struct().name("Order").field("id", Schema.INT64_SCHEMA).build();

  @TempDir Path dir;

  @Test
  void aRestCatalogDownForAWhileLosesAndRepeatsNothing() throws Exception {
    try (IcebergRestServer rest =
        IcebergRestServer.start(
            Files.createDirectories(dir.resolve("rest")),
            dir.resolve("warehouse").toString(),
            Map.of())) {
      Map<String, String> props = props("down");
      props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "rest");
      props.put(IcebergConfig.CATALOG_URI_CONFIG, rest.uri());
      props.put("iceberg.catalog.rest.client.max-retries", "1");
      List<TopicPartition> partitions = List.of(tp(0), tp(1));
      try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
        task.put(records(0, 20));
        task.commitOpenFiles(SCHEDULE_MS);
        assertEquals(Map.of(tp(0), 20L, tp(1), 20L), task.committed());

        rest.stop();
        task.put(records(20, 40));
        task.commitOpenFiles(SCHEDULE_MS);
        long failures = task.commitFailures();
        assertTrue(failures >= 1, "the failed commits are counted: " + failures);
        assertEquals(Map.of(tp(0), 20L, tp(1), 20L), task.committed(), "nothing committed");

        rest.restart();
        // Connect hands the records after the committed offsets over again; the writers recover
        // from the table once their back-off has passed.
        task.commitOpenFiles(SCHEDULE_MS);
        task.put(records(20, 40));
        task.commitOpenFiles(SCHEDULE_MS);
        task.put(records(0, 50));
        task.commitOpenFiles(SCHEDULE_MS);
        assertEquals(Map.of(tp(0), 50L, tp(1), 50L), task.committed());
        LOG.info("REST catalog down: {} commit failures, then every offset once", failures);
      }
      Catalog catalog = IcebergCatalogs.open(new ParquetSinkConfig(props).iceberg());
      try {
        Table table = catalog.loadTable(TableIdentifier.of("lake", TOPIC));
        Map<List<Long>, Integer> seen = new HashMap<>();
        try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
          for (Record r : read) {
            long p = ((Number) r.getField("__kafka_partition")).longValue();
            long o = (Long) r.getField("__kafka_offset");
            assertEquals(o * PARTITIONS + p, r.getField("id"));
            seen.merge(List.of(p, o), 1, Integer::sum);
          }
        }
        assertEquals(PARTITIONS * 50, seen.size(), "no offset lost");
        assertTrue(seen.values().stream().allMatch(n -> n == 1), "no offset repeated: " + seen);
      } finally {
        ((Closeable) catalog).close();
      }
    }
  }

  @Test
  void validateReportsAnUnreachableJdbcCatalogAndAWarehouseWithoutTables() throws Exception {
    Map<String, String> jdbc = props("jdbc");
    jdbc.put(IcebergConfig.CATALOG_TYPE_CONFIG, "jdbc");
    jdbc.put(
        IcebergConfig.CATALOG_URI_CONFIG, "jdbc:sqlite:" + dir.resolve("no/such/dir/catalog.db"));
    jdbc.put("iceberg.catalog.jdbc.schema-version", "V1");
    String uriErrors = errors(jdbc, IcebergConfig.CATALOG_URI_CONFIG);
    assertTrue(uriErrors.contains("cannot reach the catalog"), uriErrors);

    // A warehouse below a regular file: the catalog answers, but no table can be created there.
    Path file = Files.writeString(dir.resolve("a-file"), "not a directory");
    Map<String, String> hadoop = props("hadoop");
    hadoop.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, file.resolve("warehouse").toString());
    String warehouseErrors = errors(hadoop, IcebergConfig.CATALOG_WAREHOUSE_CONFIG);
    assertTrue(warehouseErrors.contains("cannot create tables in the warehouse"), warehouseErrors);
    // A warehouse that can take tables: the probe leaves nothing behind.
    Map<String, String> fine = props("fine");
    assertEquals("[]", errors(fine, IcebergConfig.CATALOG_WAREHOUSE_CONFIG));
    assertEquals("[]", errors(fine, IcebergConfig.TABLE_CONFIG));
    try (java.util.stream.Stream<Path> left = Files.list(dir.resolve("fine/warehouse"))) {
      assertEquals(List.of(), left.toList(), "validate leaves nothing in the warehouse");
    } catch (java.nio.file.NoSuchFileException e) {
      // Nothing at all.
    }
  }

  private static String errors(Map<String, String> props, String key) {
    return new ParquetSinkConnector()
        .validate(props).configValues().stream()
            .filter(v -> v.name().equals(key))
            .findFirst()
            .orElseThrow()
            .errorMessages()
            .toString();
  }

  private Map<String, String> props(String connector) throws IOException {
    Path root = Files.createDirectories(dir.resolve(connector));
    Map<String, String> props = new HashMap<>();
    props.put("name", connector);
    props.put("topics", TOPIC);
    props.put("connector.class", ParquetSinkConnector.class.getName());
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, root.resolve("store").toUri().toString());
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(SCHEDULE_MS));
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "hadoop");
    props.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, root.resolve("warehouse").toString());
    props.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    return props;
  }

  private static TopicPartition tp(int p) {
    return new TopicPartition(TOPIC, p);
  }

  private static List<SinkRecord> records(long from, long to) {
    List<SinkRecord> records = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (long o = from; o < to; o++) {
        records.add(
            new SinkRecord(
                TOPIC,
                p,
                null,
                null,
                VALUE,
                new Struct(VALUE).put("id", o * PARTITIONS + p),
                o,
                0L,
                TimestampType.CREATE_TIME));
      }
    }
    return records;
  }
}
