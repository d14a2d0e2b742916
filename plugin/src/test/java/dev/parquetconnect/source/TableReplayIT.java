package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRuntime;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.source.SinkArchive.Original;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An Iceberg table the sink wrote in table mode (several commits per partition, Iceberg's REST
 * catalog in-process), replayed with a filter by the source connector on a real worker with
 * exactly-once source support, the worker killed mid-replay and restarted: a read_committed
 * consumer sees each selected record once, in offset order per partition, with its key and
 * timestamp.
 */
final class TableReplayIT {
  private static final Logger LOG = LoggerFactory.getLogger(TableReplayIT.class);
  private static final Duration IO_TIMEOUT = Duration.ofMinutes(2);
  private static final int PARTITIONS = 3;
  private static final int PER_COMMIT = 400;
  private static final int COMMITS = 3;

  private static Path workDir;
  private static IcebergFixture rest;
  private static KafkaBroker broker;

  @BeforeAll
  static void start() throws Exception {
    workDir = ItPaths.freshWorkDir("TableReplayIT");
    rest = IcebergFixture.restOnLocalDisk(workDir);
    broker =
        KafkaBroker.builder(KafkaRuntime.defaultVersion(), workDir.resolve("broker"))
            // A killed worker's open transaction is aborted within a second of its timeout.
            .brokerProperty("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000")
            .start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (broker != null) {
      broker.close();
    }
    if (rest != null) {
      rest.close();
    }
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aFilteredTableReplayKilledMidwayIsExactlyOnce() throws Exception {
    long started = System.nanoTime();
    Path store = Files.createDirectories(workDir.resolve("store"));
    List<Original> originals = writeTable(store);
    List<Original> selected =
        originals.stream().filter(o -> o.amountCents() != null && o.id() % 11 != 0).toList();
    String target = "orders-restored";
    broker.createTopic(target, PARTITIONS);
    try (ConnectWorker worker =
        ConnectWorker.builder(KafkaRuntime.defaultVersion(), broker.bootstrapServers())
            .workDir(workDir.resolve("worker"))
            .groupId("table-replay")
            .workerProperty("exactly.once.source.support", "enabled")
            .start()) {
      worker.putConnectorConfig("table-replay", connectorConfig(store, target));
      List<ConsumerRecord<String, String>> restored =
          ParquetSourceIT.killOnceAndConsumeAll(
              broker, worker, target, PARTITIONS, selected.size(), IO_TIMEOUT);
      ParquetSourceIT.assertEachOnceInOrder(
          selected,
          restored,
          (o, r, what) -> {
            assertEquals(o.key(), r.key(), what);
            assertEquals(o.timestamp(), r.timestamp(), what);
          });
      LOG.info(
          "table replay: {} of {} records once after a kill, {} s",
          restored.size(),
          originals.size(),
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    }
  }

  /** The table, written by the sink's task in-process: every partition in several commits. */
  private static List<Original> writeTable(Path store) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "table-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, store.toUri().toString());
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "10000");
    props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    props.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_URI_CONFIG, rest.uri());
    props.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition("orders", p));
    }
    List<Original> all = new ArrayList<>();
    try (SinkTaskHarness sink = new SinkTaskHarness(props, partitions)) {
      for (int c = 0; c < COMMITS; c++) {
        List<SinkRecord> batch = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
          for (Original o : SinkArchive.records("orders", p, (long) c * PER_COMMIT, PER_COMMIT)) {
            batch.add(o.asSinkRecord());
            all.add(o);
          }
        }
        sink.put(batch);
        sink.commitOpenFiles(10_000);
      }
    }
    return all;
  }

  private static Map<String, String> connectorConfig(Path store, String target) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", ParquetSourceConnector.class.getName());
    c.put("tasks.max", "2");
    c.put("store.url", store.toUri().toString());
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("value.converter.decimal.format", "NUMERIC");
    c.put("transforms", "rename");
    c.put("transforms.rename.type", "org.apache.kafka.connect.transforms.RegexRouter");
    c.put("transforms.rename.regex", "orders");
    c.put("transforms.rename.replacement", target);
    c.put("batch.size", "100");
    c.put("transaction.boundary", "connector");
    c.put("transaction.unit", "batch");
    // The killed task's open transaction holds back read_committed readers until it times out.
    c.put("producer.override.transaction.timeout.ms", "10000");
    c.put(TableReplayConfig.SOURCE_TABLE_FORMAT_CONFIG, "iceberg");
    c.put(TableReplayConfig.TABLE_CONFIG, "lake.orders");
    c.put(IcebergConfig.CATALOG_URI_CONFIG, rest.uri());
    c.put(ReplaySelectionConfig.FILTER_CONFIG, "amount IS NOT NULL AND address.zip IS NOT NULL");
    return c;
  }
}
