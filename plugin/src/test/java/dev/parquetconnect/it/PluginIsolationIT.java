package dev.parquetconnect.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.naming.Context;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin as users install it: a worker of each supported Kafka line (4.3 and 3.9) whose {@code
 * plugin.path} is the unpacked archive ({@code target/plugin}) and whose classpath holds only
 * Kafka's jars. Each worker lists our sink and source with our version, runs the sink over a few
 * thousand JSON records into a local directory (checked with DuckDB), then the source replays those
 * files into a new topic and every record comes back. The task metrics are read over JMX from the
 * worker JVM: Connect's plugin metrics on 4.3 (KIP-877), our own MBean on 3.9. No secret given in a
 * connector config appears in the worker's log.
 */
final class PluginIsolationIT {
  private static final Logger LOG = LoggerFactory.getLogger(PluginIsolationIT.class);
  private static final Duration IO_TIMEOUT = Duration.ofMinutes(2);
  private static final String PLUGIN = "kafka-connect-parquet";
  private static final String SINK = "dev.parquetconnect.sink.ParquetSinkConnector";
  private static final String SOURCE = "dev.parquetconnect.source.ParquetSourceConnector";
  private static final int PARTITIONS = 3;
  private static final int RECORDS = 3_000;

  /** A value no log line may ever contain: given as a Password key of the sink. */
  private static final String SECRET = "IT-secret-never-logged-7f3a9c";

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void kafka43WorkerRunsThePluginFromItsArchive() throws Exception {
    exercise(KafkaRuntime.defaultVersion(), true);
  }

  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void kafka39WorkerRunsThePluginFromItsArchive() throws Exception {
    exercise(KafkaRuntime.compatibilityVersion(), false);
  }

  private static void exercise(KafkaRuntime runtime, boolean hasPluginMetrics) throws Exception {
    long started = System.nanoTime();
    Path workDir = ItPaths.freshWorkDir("PluginIsolationIT-" + runtime.version());
    Path store = workDir.resolve("store");
    Files.createDirectories(store);
    String version = pluginVersion();
    try (KafkaBroker broker = KafkaBroker.start(runtime, workDir.resolve("broker"));
        ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(workDir.resolve("worker"))
                .jmxRemote()
                .start();
        JMXConnector jmx =
            JMXConnectorFactory.connect(
                new JMXServiceURL(worker.jmxServiceUrl()),
                // The test classpath's jndi.properties (from a test dependency) names a factory
                // that is not there: ask for the JDK's RMI registry lookup explicitly.
                Map.of(
                    Context.INITIAL_CONTEXT_FACTORY,
                    "com.sun.jndi.rmi.registry.RegistryContextFactory"))) {
      MBeanServerConnection beans = jmx.getMBeanServerConnection();
      assertEquals(runtime.version(), worker.serverInfo().path("version").asText());
      assertNotOnTheWorkerClasspath(runtime, beans);
      assertListed(worker.connectorPlugins(), version);

      broker.createTopic("events", PARTITIONS);
      broker.createTopic("events-restored", PARTITIONS);
      List<JsonRecord> sent = records();
      KafkaRecords.produce(broker.bootstrapServers(), "events", sent, IO_TIMEOUT);

      worker.putConnectorConfig("archive", sinkConfig(store));
      worker.awaitConnectorRunning("archive", 1, IO_TIMEOUT);
      Path files = store.resolve("topics/events");
      Await.until(
          "the sink to commit " + RECORDS + " records",
          IO_TIMEOUT,
          () -> Files.isDirectory(files) && duckDbCount(files) == RECORDS);
      assertEquals(RECORDS, duckDbDistinctOffsets(files), "each record once");
      assertPluginCodeFromTheArchive(worker.logFile());

      ObjectName sinkBean =
          hasPluginMetrics
              ? new ObjectName("kafka.connect:type=plugins,connector=archive,task=0")
              : new ObjectName(
                  "dev.parquetconnect:type=sink-task-metrics,connector=archive,task=0");
      ObjectName otherSinkBean =
          hasPluginMetrics
              ? new ObjectName("dev.parquetconnect:type=sink-task-metrics,connector=archive,task=0")
              : new ObjectName("kafka.connect:type=plugins,connector=archive,task=0");
      Await.until(
          "records-written of " + sinkBean + " to reach " + RECORDS,
          IO_TIMEOUT,
          () ->
              beans.isRegistered(sinkBean)
                  && ((Number) beans.getAttribute(sinkBean, "records-written")).longValue()
                      == RECORDS);
      assertFalse(beans.isRegistered(otherSinkBean), "one registration only: " + otherSinkBean);
      long filesCommitted = number(beans, sinkBean, "files-committed");
      assertEquals(fileCount(files), filesCommitted, "files-committed");
      assertTrue(number(beans, sinkBean, "bytes-written") > 0);
      assertTrue(number(beans, sinkBean, "commits") > 0);
      assertEquals(0, number(beans, sinkBean, "dlq-records"));
      assertTrue(
          number(beans, sinkBean, "rotations-flush-size")
                  + number(beans, sinkBean, "rotations-rotate-schedule-interval")
              > 0);
      worker.deleteConnector("archive");
      Await.until(
          sinkBean + " to go with its task", IO_TIMEOUT, () -> !beans.isRegistered(sinkBean));

      worker.putConnectorConfig("replay", sourceConfig(store));
      worker.awaitConnectorRunning("replay", 1, IO_TIMEOUT);
      List<ConsumerRecord<String, String>> restored =
          KafkaRecords.consumeAtLeast(
              broker.bootstrapServers(), "events-restored", RECORDS, IO_TIMEOUT);
      assertSameRecords(sent, restored);
      ObjectName sourceBean =
          hasPluginMetrics
              ? new ObjectName("kafka.connect:type=plugins,connector=replay,task=0")
              : new ObjectName(
                  "dev.parquetconnect:type=source-task-metrics,connector=replay,task=0");
      Await.until(
          "the source metrics to show every file done",
          IO_TIMEOUT,
          () ->
              beans.isRegistered(sourceBean)
                  && number(beans, sourceBean, "files-completed") == filesCommitted
                  && number(beans, sourceBean, "lag-files") == 0);
      assertEquals(RECORDS, number(beans, sourceBean, "records"));
      worker.deleteConnector("replay");

      String log = Files.readString(worker.logFile(), StandardCharsets.UTF_8);
      assertTrue(log.contains("aws.secret.access.key"), "the worker logged the sink's config");
      assertFalse(
          log.contains(SECRET), "a Password value reached the worker log " + worker.logFile());
    }
    LOG.info(
        "Kafka {}: plugin isolation, sink, source and metrics checked in {} s",
        runtime.version(),
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
  }

  /** Our version as the archive's manifest states it. */
  private static String pluginVersion() throws Exception {
    JsonNode manifest =
        Json.read(
            Files.readString(
                ItPaths.pluginDir().resolve(PLUGIN).resolve("manifest.json"),
                StandardCharsets.UTF_8));
    return manifest.path("version").asText();
  }

  /**
   * Connect's isolation is only proven if our classes cannot come from the worker's own classpath:
   * the JVM's class path (read over JMX) is the Kafka runtime's jars, none ours.
   */
  private static void assertNotOnTheWorkerClasspath(
      KafkaRuntime runtime, MBeanServerConnection beans) throws Exception {
    RuntimeMXBean jvm =
        ManagementFactory.newPlatformMXBeanProxy(
            beans, ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class);
    // The launcher expands the -cp wildcard: every entry is one of the runtime's jars.
    String[] entries = jvm.getClassPath().split(java.io.File.pathSeparator);
    assertTrue(entries.length > 10, "the worker's classpath: " + jvm.getClassPath());
    for (String entry : entries) {
      Path jar = Path.of(entry);
      assertEquals(
          runtime.jarDir(),
          jar.getParent(),
          "a worker classpath entry outside " + runtime.jarDir() + ": " + entry);
      assertFalse(
          jar.getFileName().toString().startsWith(PLUGIN),
          "our jar on the worker's " + "classpath: " + entry);
    }
  }

  private static void assertListed(JsonNode plugins, String version) {
    Map<String, JsonNode> byClass = new HashMap<>();
    plugins.forEach(p -> byClass.put(p.path("class").asText(), p));
    assertTrue(byClass.containsKey(SINK), "GET /connector-plugins lists the sink: " + plugins);
    assertTrue(byClass.containsKey(SOURCE), "GET /connector-plugins lists the source: " + plugins);
    assertEquals("sink", byClass.get(SINK).path("type").asText());
    assertEquals("source", byClass.get(SOURCE).path("type").asText());
    assertEquals(version, byClass.get(SINK).path("version").asText());
    assertEquals(version, byClass.get(SOURCE).path("version").asText());
  }

  /** Our tasks log where their code was loaded from: the archive's lib/, by a plugin loader. */
  private static void assertPluginCodeFromTheArchive(Path workerLog) throws Exception {
    String lib = ItPaths.pluginDir().resolve(PLUGIN).resolve("lib").toAbsolutePath().toString();
    String log = Files.readString(workerLog, StandardCharsets.UTF_8);
    String line =
        log.lines()
            .filter(l -> l.contains("plugin code from"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no 'plugin code from' line in " + workerLog));
    assertTrue(line.contains("plugin code from file:" + lib + "/" + PLUGIN + "-"), line);
    assertTrue(line.contains("PluginClassLoader"), line);
  }

  private static List<JsonRecord> records() {
    List<JsonRecord> records = new ArrayList<>(RECORDS);
    for (int i = 0; i < RECORDS; i++) {
      Map<String, Object> value = new LinkedHashMap<>();
      value.put("id", i);
      value.put("name", "event-" + i);
      value.put("amount", i * 1.25);
      value.put("ok", i % 3 != 0);
      records.add(
          JsonRecord.of("key-" + i, Json.write(value))
              .withPartition(i % PARTITIONS)
              .withTimestamp(1_700_000_000_000L + i));
    }
    return records;
  }

  private static Map<String, String> sinkConfig(Path store) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("connector.class", SINK);
    c.put("tasks.max", "1");
    c.put("topics", "events");
    c.put("store.url", store.toUri().toString());
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("store.kafka.key", "true");
    c.put("flush.size", "700");
    c.put("rotate.schedule.interval.ms", "2000");
    // Unused by a local store; here so that the test can look for it in the log.
    c.put("aws.access.key.id", "AKIAIT");
    c.put("aws.secret.access.key", SECRET);
    return c;
  }

  private static Map<String, String> sourceConfig(Path store) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("connector.class", SOURCE);
    c.put("tasks.max", "1");
    c.put("store.url", store.toUri().toString());
    c.put("discovery.interval.ms", "1000");
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("transforms", "rename");
    c.put("transforms.rename.type", "org.apache.kafka.connect.transforms.RegexRouter");
    c.put("transforms.rename.regex", "events");
    c.put("transforms.rename.replacement", "events-restored");
    return c;
  }

  /** Same key, value (as JSON), partition and timestamp, in the same order per partition. */
  private static void assertSameRecords(
      List<JsonRecord> sent, List<ConsumerRecord<String, String>> restored) {
    assertEquals(sent.size(), restored.size(), "record count");
    Map<Integer, List<JsonRecord>> want = new HashMap<>();
    sent.forEach(r -> want.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r));
    Map<Integer, Integer> next = new HashMap<>();
    for (ConsumerRecord<String, String> got : restored) {
      int i = next.merge(got.partition(), 1, Integer::sum) - 1;
      JsonRecord expected = want.get(got.partition()).get(i);
      String what = "record " + got.partition() + "@" + got.offset();
      assertEquals(expected.key(), got.key(), what);
      assertEquals(Json.read(expected.value()), Json.read(got.value()), what);
      assertEquals(expected.timestamp().longValue(), got.timestamp(), what);
    }
  }

  private static long number(MBeanServerConnection beans, ObjectName bean, String attribute)
      throws Exception {
    return ((Number) beans.getAttribute(bean, attribute)).longValue();
  }

  private static long fileCount(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.getFileName().toString().endsWith(".parquet")).count();
    }
  }

  private static long duckDbCount(Path dir) throws Exception {
    return duckDb(dir, "count(*)");
  }

  private static long duckDbDistinctOffsets(Path dir) throws Exception {
    return duckDb(dir, "count(DISTINCT (__kafka_partition, __kafka_offset))");
  }

  /** One number DuckDB computes over every Parquet file under {@code dir}; 0 without files. */
  private static long duckDb(Path dir, String aggregate) throws Exception {
    if (fileCount(dir) == 0) {
      return 0; // DuckDB refuses a glob that matches nothing
    }
    String files = dir.toString().replace("'", "''") + "/**/*.parquet";
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = db.createStatement();
        ResultSet rs =
            sql.executeQuery(
                "SELECT "
                    + aggregate
                    + " FROM read_parquet('"
                    + files
                    + "', hive_partitioning=false)")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
