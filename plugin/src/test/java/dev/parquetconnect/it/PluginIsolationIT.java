package dev.parquetconnect.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import javax.naming.Context;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin as users install it, on every Connect line we support: for each version of the matrix
 * ({@link KafkaRuntime#matrix()}, the newest patch of 3.6 to 4.3) a worker in a JVM of its own
 * whose classpath holds only that version's Kafka jars and whose {@code plugin.path} is the
 * unpacked archive plus a user's partitioner jar installed in the plugin's directory. All workers
 * share one broker of the newest version and run one after the other. Each worker finds our sink
 * and source through their {@code ServiceLoader} manifests ({@code plugin.discovery=service_load})
 * with our version, runs the sink over a few thousand JSON records into a local directory through
 * the user's {@link ParityPartitioner} (checked with DuckDB: every record once, each in its parity
 * directory), then the source replays those files into a new topic and every record comes back. The
 * task metrics are read over JMX from the worker JVM: Connect's plugin metrics from 4.1 on
 * (KIP-877), our own MBean before. No secret given in a connector config appears in the worker's
 * log. Each version logs how long its worker took to start, its round trip and its stop.
 */
final class PluginIsolationIT {
  private static final Logger LOG = LoggerFactory.getLogger(PluginIsolationIT.class);
  private static final Duration IO_TIMEOUT = Duration.ofMinutes(2);
  private static final String PLUGIN = "kafka-connect-parquet";
  private static final String SINK = "dev.parquetconnect.sink.ParquetSinkConnector";
  private static final String SOURCE = "dev.parquetconnect.source.ParquetSourceConnector";
  private static final int PARTITIONS = 3;
  private static final int RECORDS = 3_000;

  /**
   * Where a user's own jar goes: a folder of the plugin's directory, as docs/configuration.md says.
   */
  private static final String USER_JAR = PLUGIN + "/extensions/parity-partitioner.jar";

  /** A value no log line may ever contain: given as a Password key of the sink. */
  private static final String SECRET = "IT-secret-never-logged-7f3a9c";

  private static final List<String> TIMINGS = new ArrayList<>();
  private static Path workDir;
  private static Path pluginPath;
  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() throws IOException {
    workDir = ItPaths.freshWorkDir("PluginIsolationIT");
    pluginPath = installWithUserPartitioner(workDir.resolve("plugins"));
    List<KafkaRuntime> matrix = KafkaRuntime.matrix();
    KafkaRuntime newest = matrix.get(matrix.size() - 1);
    long started = System.nanoTime();
    broker = KafkaBroker.start(newest, workDir.resolve("broker"));
    TIMINGS.add("broker " + newest.version() + " started in " + millisSince(started) + " ms");
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
    LOG.info("Worker matrix timings:\n  {}", String.join("\n  ", TIMINGS));
  }

  static Stream<String> versions() {
    return KafkaRuntime.matrix().stream().map(KafkaRuntime::version);
  }

  @ParameterizedTest(name = "Kafka Connect {0}")
  @MethodSource("versions")
  @Timeout(value = 3, unit = TimeUnit.MINUTES)
  void workerRunsThePluginFromItsArchive(String version) throws Exception {
    KafkaRuntime runtime = KafkaRuntime.of(version);
    // The task context offers pluginMetrics() from Connect 4.1 on (KIP-877).
    boolean hasPluginMetrics = atLeast(version, 4, 1);
    String tag = version.replace('.', '_');
    String topic = "events-" + tag;
    String restoredTopic = "restored-" + tag;
    // Names of their own per version: a killed worker's consumer would otherwise hold up the
    // next version's sink consumer group until its session expired.
    String sink = "archive-" + tag;
    String source = "replay-" + tag;
    Path store = workDir.resolve("store-" + tag);
    Files.createDirectories(store);
    String pluginVersion = pluginVersion();
    long started = System.nanoTime();
    long roundTripStarted;
    long stopStarted;
    try (ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(workDir.resolve("worker-" + tag))
                .groupId("connect-" + tag)
                .pluginPath(pluginPath)
                // KIP-898's fast start: no scan, only the plugins' ServiceLoader manifests.
                .workerProperty("plugin.discovery", "service_load")
                // A short-lived worker: C1 only and one GC thread start it sooner on a busy host.
                .jvmOption("-XX:TieredStopAtLevel=1")
                .jvmOption("-XX:+UseSerialGC")
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
      long workerStarted = millisSince(started);
      roundTripStarted = System.nanoTime();
      MBeanServerConnection beans = jmx.getMBeanServerConnection();
      assertEquals(version, worker.serverInfo().path("version").asText());
      assertNotOnTheWorkerClasspath(runtime, beans);
      assertListed(worker.connectorPlugins(), pluginVersion);

      broker.createTopic(topic, PARTITIONS);
      broker.createTopic(restoredTopic, PARTITIONS);
      List<JsonRecord> sent = records();
      KafkaRecords.produce(broker.bootstrapServers(), topic, sent, IO_TIMEOUT);

      worker.putConnectorConfig(sink, sinkConfig(store, topic));
      worker.awaitConnectorRunning(sink, 1, IO_TIMEOUT);
      Path files = store.resolve("topics").resolve(topic);
      Await.until(
          "the sink to commit " + RECORDS + " records",
          IO_TIMEOUT,
          () -> Files.isDirectory(files) && duckDbCount(files) == RECORDS);
      assertEquals(RECORDS, duckDbDistinctOffsets(files), "each record once");
      assertEquals(0, duckDbOutsideTheirParity(files), "records outside their parity=");
      assertEquals(
          List.of("parity=even", "parity=odd"), subdirectories(files), "the user's partitioner");
      assertPluginCodeFromTheArchive(worker.logFile());

      ObjectName sinkBean =
          hasPluginMetrics
              ? new ObjectName("kafka.connect:type=plugins,connector=" + sink + ",task=0")
              : new ObjectName(
                  "dev.parquetconnect:type=sink-task-metrics,connector=" + sink + ",task=0");
      ObjectName otherSinkBean =
          hasPluginMetrics
              ? new ObjectName(
                  "dev.parquetconnect:type=sink-task-metrics,connector=" + sink + ",task=0")
              : new ObjectName("kafka.connect:type=plugins,connector=" + sink + ",task=0");
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
      worker.deleteConnector(sink);
      Await.until(
          sinkBean + " to go with its task", IO_TIMEOUT, () -> !beans.isRegistered(sinkBean));

      worker.putConnectorConfig(source, sourceConfig(store, topic, restoredTopic));
      worker.awaitConnectorRunning(source, 1, IO_TIMEOUT);
      List<ConsumerRecord<String, String>> restored =
          KafkaRecords.consumeAtLeast(
              broker.bootstrapServers(), restoredTopic, RECORDS, IO_TIMEOUT);
      assertSameRecords(sent, restored);
      ObjectName sourceBean =
          hasPluginMetrics
              ? new ObjectName("kafka.connect:type=plugins,connector=" + source + ",task=0")
              : new ObjectName(
                  "dev.parquetconnect:type=source-task-metrics,connector=" + source + ",task=0");
      Await.until(
          "the source metrics to show every file done",
          IO_TIMEOUT,
          () ->
              beans.isRegistered(sourceBean)
                  && number(beans, sourceBean, "files-completed") == filesCommitted
                  && number(beans, sourceBean, "lag-files") == 0);
      assertEquals(RECORDS, number(beans, sourceBean, "records"));
      worker.deleteConnector(source);

      String log = Files.readString(worker.logFile(), StandardCharsets.UTF_8);
      assertTrue(log.contains("aws.secret.access.key"), "the worker logged the sink's config");
      assertFalse(
          log.contains(SECRET), "a Password value reached the worker log " + worker.logFile());
      stopStarted = System.nanoTime();
      // Nothing is checked after this point, and a clean stop costs each version 1-2 s.
      jmx.close();
      worker.kill();
      synchronized (TIMINGS) {
        TIMINGS.add(
            "Kafka "
                + version
                + ": worker start "
                + workerStarted
                + " ms, round trip "
                + millisSince(roundTripStarted)
                + " ms");
      }
    }
    LOG.info(
        "Kafka {}: plugin isolation, user partitioner, sink, source and metrics checked in {} ms"
            + " (worker stop {} ms)",
        version,
        millisSince(started),
        millisSince(stopStarted));
    synchronized (TIMINGS) {
      TIMINGS.add("Kafka " + version + ": worker stop " + millisSince(stopStarted) + " ms");
    }
  }

  /**
   * A copy of the unpacked archive with a user's jar holding only {@link ParityPartitioner}, in a
   * folder of the plugin's own directory: Connect gives each directory of {@code plugin.path} one
   * class loader, so only there can our sink load the user's class by name.
   */
  private static Path installWithUserPartitioner(Path plugins) throws IOException {
    Path archive = ItPaths.pluginDir();
    try (Stream<Path> walk = Files.walk(archive)) {
      for (Path from : (Iterable<Path>) walk::iterator) {
        Path to = plugins.resolve(archive.relativize(from).toString());
        if (Files.isDirectory(from)) {
          Files.createDirectories(to);
        } else {
          Files.copy(from, to);
        }
      }
    }
    Path jar = plugins.resolve(USER_JAR);
    Files.createDirectories(jar.getParent());
    String entry = ParityPartitioner.class.getName().replace('.', '/') + ".class";
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (InputStream bytes = ParityPartitioner.class.getClassLoader().getResourceAsStream(entry);
        JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      out.putNextEntry(new JarEntry(entry));
      bytes.transferTo(out);
      out.closeEntry();
    }
    return plugins;
  }

  private static boolean atLeast(String version, int major, int minor) {
    String[] parts = version.split("\\.");
    int have = Integer.parseInt(parts[0]) * 1000 + Integer.parseInt(parts[1]);
    return have >= major * 1000 + minor;
  }

  private static long millisSince(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
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
    String lib = pluginPath.resolve(PLUGIN).resolve("lib").toAbsolutePath().toString();
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

  private static Map<String, String> sinkConfig(Path store, String topic) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("connector.class", SINK);
    c.put("tasks.max", "1");
    c.put("topics", topic);
    c.put("partitioner.class", ParityPartitioner.class.getName());
    c.put(ParityPartitioner.FIELD_CONFIG, "id");
    c.put("store.url", store.toUri().toString());
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("store.kafka.key", "true");
    c.put("flush.size", "700");
    c.put("rotate.schedule.interval.ms", "500");
    // Unused by a local store; here so that the test can look for it in the log.
    c.put("aws.access.key.id", "AKIAIT");
    c.put("aws.secret.access.key", SECRET);
    return c;
  }

  private static Map<String, String> sourceConfig(Path store, String topic, String restoredTopic) {
    Map<String, String> c = new LinkedHashMap<>();
    c.put("connector.class", SOURCE);
    c.put("tasks.max", "1");
    c.put("store.url", store.toUri().toString());
    c.put("discovery.interval.ms", "250");
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("transforms", "rename");
    c.put("transforms.rename.type", "org.apache.kafka.connect.transforms.RegexRouter");
    c.put("transforms.rename.regex", topic);
    c.put("transforms.rename.replacement", restoredTopic);
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

  /** Rows whose file is not under the {@code parity=} directory of their {@code id}. */
  private static long duckDbOutsideTheirParity(Path dir) throws Exception {
    return duckDb(
        dir,
        "count(*) FILTER (WHERE filename NOT LIKE '%/parity=' "
            + "|| CASE WHEN id % 2 = 0 THEN 'even' ELSE 'odd' END || '/%')");
  }

  private static List<String> subdirectories(Path dir) throws IOException {
    try (Stream<Path> list = Files.list(dir)) {
      return list.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
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
                    + "', hive_partitioning=false, filename=true)")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
