package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.Json;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.it.KafkaRuntime;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every record exactly once through a real worker, on every store: a real KRaft broker and a real
 * Connect worker (child JVMs on 127.0.0.1), the connector created over the REST API with a JSON
 * config, 100,000 records of a nested schema through JsonConverter ({@code schemas.enable=true}),
 * and DuckDB finding each (partition, offset) exactly once, on local disk, HDFS (MiniDFSCluster),
 * S3 (S3Proxy), and S3 behind a proxy failing 10% of requests with 500, 503 SlowDown and connection
 * resets.
 */
final class SinkEndToEndIT {
  private static final Logger LOG = LoggerFactory.getLogger(SinkEndToEndIT.class);
  private static final int RECORDS = 100_000;
  private static final int PARTITIONS = 3;
  private static final Duration COMMIT_TIMEOUT = Duration.ofMinutes(8);

  private static Path workDir;
  private static KafkaBroker broker;
  private static ConnectWorker worker;

  @BeforeAll
  static void startKafka() {
    workDir = ItPaths.freshWorkDir("SinkEndToEndIT");
    KafkaRuntime runtime = KafkaRuntime.defaultVersion();
    broker = KafkaBroker.start(runtime, workDir.resolve("broker"));
    worker =
        ConnectWorker.builder(runtime, broker.bootstrapServers())
            .workDir(workDir.resolve("worker"))
            .start();
  }

  @AfterAll
  static void stopKafka() {
    if (worker != null) {
      worker.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"local", "hdfs", "s3", "s3-faults"})
  @Timeout(value = 12, unit = TimeUnit.MINUTES)
  void everyRecordOnceReadBackByDuckDb(String storeName) throws Exception {
    long started = System.nanoTime();
    try (ItStores.Running store = startStore(storeName)) {
      String topic = "orders-" + storeName;
      String connector = "sink-" + storeName;
      broker.createTopic(topic, PARTITIONS);
      produce(topic);
      Map<String, String> extra = new HashMap<>();
      extra.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
      extra.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
      if (storeName.equals("s3-faults")) {
        // Many small commits: hundreds of requests for the proxy to fail one in ten of.
        extra.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "1000");
      }
      Map<String, String> config = SinkIts.connectorConfig(store, "lake", topic, extra);
      worker.putConnectorConfig(connector, config);
      worker.awaitConnectorRunning(connector, 1, Duration.ofMinutes(2));
      Map<TopicPartition, Long> ends = new HashMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
        ends.put(new TopicPartition(topic, p), (long) countInPartition(p));
      }
      try (Store check = store.open("lake")) {
        SinkIts.awaitCommitted(
            check, connector, ends, COMMIT_TIMEOUT, () -> requireTaskRunning(connector));
        int[] requestsAndFaults = store.requestsAndFaults();
        LOG.info(
            "{}: {} records committed {} s after the start ({} requests through the fault "
                + "proxy, {} failed by it)",
            storeName,
            RECORDS,
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
            requestsAndFaults[0],
            requestsAndFaults[1]);
        if (storeName.equals("s3-faults")) {
          assertTrue(
              requestsAndFaults[1] >= 20, "the proxy failed requests: " + requestsAndFaults[1]);
        }
        worker.deleteConnector(connector);
        worker.awaitConnectorDeleted(connector, Duration.ofMinutes(1));
        Path files =
            storeName.equals("local")
                ? workDir.resolve("local/lake/" + SinkIts.TOPICS_DIR + "/" + topic)
                : SinkIts.localCopy(check, topic, workDir.resolve("copy-" + storeName));
        SinkIts.Found found =
            SinkIts.duckDb(
                files,
                "SELECT count(*) FROM $FILES WHERE customer.name <> 'customer-' || (id % 997)"
                    + " OR id % "
                    + PARTITIONS
                    + " <> __kafka_partition"
                    + " OR \"partition\" <> __kafka_partition"
                    + " OR len(items) <> 1 + id % 3 OR tags['parity'] IS NULL"
                    + " OR epoch_ms(created) <> 1700000000000 + id");
        assertEquals(
            new SinkIts.Found(
                RECORDS,
                RECORDS,
                0,
                0,
                RECORDS / PARTITIONS + (RECORDS % PARTITIONS == 0 ? -1 : 0)),
            found,
            storeName);
        assertEquals(
            0, check.cleanupOrphans("", Instant.MAX), "no temporary file or upload is left");
        SinkIts.sparkReadsAsDuckDb(files);
      }
    }
  }

  /**
   * Bad records through a real worker: schemaless records the sink cannot write (no partition
   * field, a type conflict under {@code schemaless.type.conflict=fail}, a tombstone under {@code
   * behavior.on.null.values=fail}) go to the dead letter queue with Connect's error context headers
   * naming the reason; every other record is written once.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void badRecordsGoToTheDeadLetterQueueWithTheirContext() throws Exception {
    try (ItStores.Running store = ItStores.local(workDir.resolve("bad"))) {
      String topic = "bad-records";
      broker.createTopic(topic, 1);
      KafkaRecords.produce(
          broker.bootstrapServers(), topic, badRecordsMix(), Duration.ofMinutes(1));
      Map<String, String> extra = new HashMap<>(badRecordsConfig());
      extra.put("errors.tolerance", "all");
      extra.put("errors.deadletterqueue.topic.name", "bad-records-dlq");
      extra.put("errors.deadletterqueue.topic.replication.factor", "1");
      extra.put("errors.deadletterqueue.context.headers.enable", "true");
      worker.putConnectorConfig("bad", SinkIts.connectorConfig(store, "lake", topic, extra));
      try (Store check = store.open("lake")) {
        SinkIts.awaitCommitted(
            check,
            "bad",
            Map.of(new TopicPartition(topic, 0), 8L),
            Duration.ofMinutes(2),
            () -> requireTaskRunning("bad"));
      }
      List<ConsumerRecord<String, String>> dead =
          KafkaRecords.consumeAtLeast(
              broker.bootstrapServers(), "bad-records-dlq", 3, Duration.ofMinutes(1));
      Map<String, String> reasons = new TreeMap<>();
      for (ConsumerRecord<String, String> record : dead) {
        reasons.put(
            header(record, "__connect.errors.offset"),
            header(record, "__connect.errors.exception.message"));
      }
      assertEquals(List.of("2", "4", "6"), List.copyOf(reasons.keySet()), reasons.toString());
      assertTrue(reasons.get("2").contains("region"), reasons.get("2"));
      assertTrue(reasons.get("4").contains("n"), reasons.get("4"));
      assertTrue(reasons.get("6").contains("tombstone"), reasons.get("6"));
      worker.deleteConnector("bad");
      SinkIts.Found found =
          SinkIts.duckDb(workDir.resolve("bad/lake/" + SinkIts.TOPICS_DIR + "/" + topic), null);
      assertEquals(5, found.rows());
      assertEquals(5, found.distinctOffsets());
      SinkIts.sparkReadsAsDuckDb(workDir.resolve("bad/lake/" + SinkIts.TOPICS_DIR + "/" + topic));
    }
  }

  /** Without tolerance the task fails, and its trace names the record and the reason. */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void withoutToleranceTheTaskFailsNamingTopicPartitionOffsetAndField() throws Exception {
    try (ItStores.Running store = ItStores.local(workDir.resolve("strict"))) {
      String topic = "bad-strict";
      broker.createTopic(topic, 1);
      KafkaRecords.produce(
          broker.bootstrapServers(), topic, badRecordsMix(), Duration.ofMinutes(1));
      worker.putConnectorConfig(
          "strict", SinkIts.connectorConfig(store, "lake", topic, badRecordsConfig()));
      ConnectWorker.ConnectorStatus status =
          worker.awaitConnectorStatus(
              "strict",
              "the task to fail",
              Duration.ofMinutes(2),
              s -> s.tasks().stream().anyMatch(t -> "FAILED".equals(t.state())));
      String trace = status.tasks().get(0).trace();
      assertTrue(
          trace.contains("topic bad-strict partition 0 offset 2") && trace.contains("'region'"),
          trace);
      worker.deleteConnector("strict");
    }
  }

  private static Map<String, String> badRecordsConfig() {
    Map<String, String> config = new HashMap<>();
    config.put("value.converter.schemas.enable", "false");
    config.put("key.converter.schemas.enable", "false");
    config.put(ParquetSinkConfig.PARTITIONER_CONFIG, "field");
    config.put(ParquetSinkConfig.PARTITION_FIELDS_CONFIG, "region");
    config.put(ParquetSinkConfig.SCHEMALESS_TYPE_CONFLICT_CONFIG, "fail");
    config.put(ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG, "fail");
    config.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "8");
    return config;
  }

  /** Offsets 0-7: good, good, no region, good, type conflict on n, good, tombstone, good. */
  private static List<JsonRecord> badRecordsMix() {
    return List.of(
        JsonRecord.ofValues("k0", Map.of("region", "eu", "n", 0)),
        JsonRecord.ofValues("k1", Map.of("region", "us", "n", 1)),
        JsonRecord.ofValues("k2", Map.of("n", 2)),
        JsonRecord.ofValues("k3", Map.of("region", "eu", "n", 3)),
        JsonRecord.ofValues("k4", Map.of("region", "eu", "n", Map.of("nested", true))),
        JsonRecord.ofValues("k5", Map.of("region", "us", "n", 5)),
        JsonRecord.of("\"k6\"", null),
        JsonRecord.ofValues("k7", Map.of("region", "eu", "n", 7)));
  }

  private static String header(ConsumerRecord<String, String> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static ItStores.Running startStore(String name) throws Exception {
    switch (name) {
      case "local":
        return ItStores.local(workDir.resolve("local"));
      case "hdfs":
        return ItStores.hdfs(workDir.resolve("hdfs"));
      case "s3":
        return ItStores.s3(0, 0);
      default:
        return ItStores.s3(0.10, 42);
    }
  }

  private static int countInPartition(int partition) {
    int n = 0;
    for (int i = 0; i < RECORDS; i++) {
      if (i % PARTITIONS == partition) {
        n++;
      }
    }
    return n;
  }

  /**
   * The switch-over of docs/migrating.md, through Connect's own offsets API: a connector created
   * STOPPED writes nothing; given the first offsets the old connector did not commit (PATCH
   * /connectors/NAME/offsets) and resumed, it starts each partition exactly there, because with no
   * commit markers of its own it starts at its consumer group's position.
   */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void aSwitchedPipelineStartsExactlyAtTheOffsetsGivenThroughConnectsOffsetsApi() throws Exception {
    try (ItStores.Running store = ItStores.local(workDir.resolve("switch"))) {
      String topic = "switched";
      String connector = "switched-sink";
      int records = 3_000;
      long[] handedOver = {700, 450};
      broker.createTopic(topic, 2);
      List<JsonRecord> batch = new ArrayList<>();
      for (int i = 0; i < records; i++) {
        batch.add(SinkIts.order(i, i % 2, 5));
      }
      KafkaRecords.produce(broker.bootstrapServers(), topic, batch, Duration.ofMinutes(1));

      Map<String, Object> create = new HashMap<>();
      create.put("name", connector);
      create.put("config", SinkIts.connectorConfig(store, "lake", topic, Map.of()));
      create.put("initial_state", "STOPPED");
      worker.require("POST", "/connectors", Json.write(create));
      worker.awaitConnectorStatus(
          connector,
          "connector " + connector + " STOPPED",
          Duration.ofMinutes(1),
          status -> "STOPPED".equals(status.connectorState()));
      List<Map<String, Object>> offsets = new ArrayList<>();
      for (int p = 0; p < 2; p++) {
        offsets.add(
            Map.of(
                "partition", Map.of("kafka_topic", topic, "kafka_partition", p),
                "offset", Map.of("kafka_offset", handedOver[p])));
      }
      worker.require(
          "PATCH", "/connectors/" + connector + "/offsets", Json.write(Map.of("offsets", offsets)));
      try (Store stopped = store.open("lake")) {
        assertEquals(
            List.of(),
            stopped.list(SinkIts.TOPICS_DIR, true),
            "a stopped connector writes nothing");
      }
      worker.require("PUT", "/connectors/" + connector + "/resume", null);

      Map<TopicPartition, Long> ends =
          Map.of(
              new TopicPartition(topic, 0), (long) records / 2,
              new TopicPartition(topic, 1), (long) records / 2);
      try (Store check = store.open("lake")) {
        SinkIts.awaitCommitted(
            check, connector, ends, Duration.ofMinutes(2), () -> requireTaskRunning(connector));
      }
      worker.deleteConnector(connector);
      worker.awaitConnectorDeleted(connector, Duration.ofMinutes(1));
      Path files = workDir.resolve("switch/lake/" + SinkIts.TOPICS_DIR + "/" + topic);
      SinkIts.Found found = SinkIts.duckDb(files, null);
      long expected = records - handedOver[0] - handedOver[1];
      assertEquals(expected, found.rows(), "the records from the handed-over offsets on");
      assertEquals(0, found.duplicated(), "no record twice");
      String glob = "read_parquet('" + files + "/**/*.parquet')";
      for (int p = 0; p < 2; p++) {
        assertEquals(
            handedOver[p],
            SinkIts.duckDbCount(
                "SELECT min(__kafka_offset) FROM " + glob + " WHERE __kafka_partition = " + p),
            "partition " + p + " starts at the offset given");
      }
    }
  }

  private static void produce(String topic) {
    for (int from = 0; from < RECORDS; from += 10_000) {
      List<JsonRecord> batch = new ArrayList<>();
      for (int i = from; i < Math.min(RECORDS, from + 10_000); i++) {
        batch.add(SinkIts.order(i, i % PARTITIONS, 5).withHeader("batch", "b" + from));
      }
      KafkaRecords.produce(broker.bootstrapServers(), topic, batch, Duration.ofMinutes(2));
    }
  }

  private static void requireTaskRunning(String connector) {
    ConnectWorker.ConnectorStatus status = worker.connectorStatus(connector);
    for (ConnectWorker.TaskStatus task : status.tasks()) {
      if ("FAILED".equals(task.state())) {
        throw new AssertionError("task " + task.id() + " failed: " + task.trace());
      }
    }
  }
}
