package dev.parquetconnect.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Smoke test of the integration-test harness itself, once per supported Kafka line: a real KRaft
 * broker and a real distributed Connect worker of that version run as child JVMs with {@code
 * plugin.path} = the unpacked plugin archive; records go through the broker; the worker and the
 * broker are killed and restarted; everything shuts down with no process left behind.
 */
final class KafkaHarnessIT {

  private static final Logger LOG = LoggerFactory.getLogger(KafkaHarnessIT.class);
  private static final Duration IO_TIMEOUT = Duration.ofSeconds(60);
  private static final String TOPIC = "harness-smoke";
  private static final int PARTITIONS = 3;

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void defaultKafkaVersionRunsBrokerAndWorker() throws Exception {
    exercise(KafkaRuntime.defaultVersion());
  }

  @Test
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void compatibilityKafkaVersionRunsBrokerAndWorker() throws Exception {
    exercise(KafkaRuntime.compatibilityVersion());
  }

  private static void exercise(KafkaRuntime runtime) throws Exception {
    Path workDir = ItPaths.freshWorkDir("KafkaHarnessIT-" + runtime.version());
    long started = System.nanoTime();
    long brokerPid;
    long workerPid;
    try (KafkaBroker broker = KafkaBroker.start(runtime, workDir.resolve("broker"));
        ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(workDir.resolve("worker"))
                .start()) {
      LOG.info("Kafka {} broker and worker up in {} ms", runtime.version(), millisSince(started));

      JsonNode info = worker.serverInfo();
      assertEquals(runtime.version(), info.path("version").asText(), "worker version: " + info);
      assertTrue(worker.connectorPlugins().isArray(), "GET /connector-plugins answers a list");
      assertWorkerScannedThePluginArchive(worker);

      broker.createTopic(TOPIC, PARTITIONS);
      List<JsonRecord> firstBatch = records(0, 30);
      assertPlacedAsAsked(
          firstBatch,
          KafkaRecords.produce(broker.bootstrapServers(), TOPIC, firstBatch, IO_TIMEOUT));
      assertSameRecords(
          firstBatch, KafkaRecords.consumeAll(broker.bootstrapServers(), TOPIC, IO_TIMEOUT));

      long killedWorkerPid = worker.pid();
      worker.kill();
      assertFalse(
          ProcessHandle.of(killedWorkerPid).map(ProcessHandle::isAlive).orElse(false),
          "the killed worker is gone");
      worker.restart();
      assertEquals(runtime.version(), worker.serverInfo().path("version").asText());

      broker.kill();
      broker.restart();
      List<JsonRecord> secondBatch = records(30, 10);
      KafkaRecords.produce(broker.bootstrapServers(), TOPIC, secondBatch, IO_TIMEOUT);
      List<JsonRecord> all = new ArrayList<>(firstBatch);
      all.addAll(secondBatch);
      assertSameRecords(all, KafkaRecords.consumeAll(broker.bootstrapServers(), TOPIC, IO_TIMEOUT));
      Await.until(
          "the worker to serve GET /connectors after the broker restart",
          IO_TIMEOUT,
          () -> worker.send("GET", "/connectors", null).status() == 200);

      brokerPid = broker.pid();
      workerPid = worker.pid();
    }
    assertFalse(
        ProcessHandle.of(workerPid).map(ProcessHandle::isAlive).orElse(false), "worker stopped");
    assertFalse(
        ProcessHandle.of(brokerPid).map(ProcessHandle::isAlive).orElse(false), "broker stopped");
    LOG.info("Kafka {} harness smoke test took {} ms", runtime.version(), millisSince(started));
  }

  /** Connect logs each plugin location it scans; ours must be among them. */
  private static void assertWorkerScannedThePluginArchive(ConnectWorker worker) throws Exception {
    Path pluginLocation = ItPaths.pluginDir().resolve("kafka-connect-parquet");
    assertTrue(
        Files.isDirectory(pluginLocation.resolve("lib")),
        "the plugin archive is unpacked at " + pluginLocation + " (mvn package)");
    String log = Files.readString(worker.logFile(), StandardCharsets.UTF_8);
    assertTrue(
        log.contains("Loading plugin from: " + pluginLocation),
        "the worker scanned " + pluginLocation + "; see " + worker.logFile());
  }

  /** Records with keys, headers, explicit partitions and timestamps, spread over all partitions. */
  private static List<JsonRecord> records(int first, int count) {
    long baseTimestamp = 1_700_000_000_000L;
    List<JsonRecord> records = new ArrayList<>();
    for (int i = first; i < first + count; i++) {
      records.add(
          JsonRecord.ofValues(
                  Map.of("id", i), Map.of("id", i, "name", "record-" + i, "even", i % 2 == 0))
              .withPartition(i % PARTITIONS)
              .withTimestamp(baseTimestamp + i)
              .withHeader("source", "harness")
              .withHeader("sequence", Integer.toString(i)));
    }
    return records;
  }

  private static void assertPlacedAsAsked(List<JsonRecord> sent, List<RecordMetadata> placed) {
    assertEquals(sent.size(), placed.size());
    for (int i = 0; i < sent.size(); i++) {
      assertEquals(sent.get(i).partition().intValue(), placed.get(i).partition());
    }
  }

  /** Same records: per partition in the order sent, with key, value, timestamp and headers. */
  private static void assertSameRecords(
      List<JsonRecord> sent, List<ConsumerRecord<String, String>> received) {
    assertEquals(sent.size(), received.size(), "record count");
    List<JsonRecord> expected = new ArrayList<>(sent);
    expected.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
    for (int i = 0; i < expected.size(); i++) {
      JsonRecord want = expected.get(i);
      ConsumerRecord<String, String> got = received.get(i);
      assertEquals(want.partition().intValue(), got.partition(), "partition of record " + i);
      assertEquals(want.key(), got.key(), "key of record " + i);
      assertEquals(want.value(), got.value(), "value of record " + i);
      assertEquals(want.timestamp().longValue(), got.timestamp(), "timestamp of record " + i);
      List<Map.Entry<String, String>> headers = new ArrayList<>();
      for (Header header : got.headers()) {
        headers.add(Map.entry(header.key(), new String(header.value(), StandardCharsets.UTF_8)));
      }
      assertEquals(want.headers(), headers, "headers of record " + i);
    }
  }

  private static long millisSince(long nanoTime) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanoTime);
  }
}
