package dev.parquetconnect.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The README's walkthrough, run as a user would: {@code bin/quickstart} as a separate process (its
 * data directory redirected under target/it with {@code QUICKSTART_DATA}, so the test never touches
 * ./data), 1,000 JSON records produced with a Kafka client, {@code config/sink-local.json} PUT
 * unchanged, the files read back with DuckDB, {@code config/source-replay.json} PUT unchanged, the
 * replayed topic consumed (with a client and with {@code bin/consume}), and the quickstart stopped
 * with SIGTERM: it must print {@code stopped}, exit with 143 (128 + SIGTERM, the JVM's code after
 * its shutdown hooks ran) and leave no process behind.
 *
 * <p>The quickstart's ports are fixed (9092, 9093, 8083): the test fails at once, saying so, when
 * any is taken.
 */
final class QuickstartIT {

  private static final String BOOTSTRAP = "127.0.0.1:9092";
  private static final URI REST = URI.create("http://127.0.0.1:8083");
  private static final int RECORDS = 1000;
  private static final String[] COUNTRIES = {"DE", "FR", "NL", "US", "JP"};
  private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration IO_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(90);

  /** 128 + 15: how a JVM ended by SIGTERM exits once its shutdown hooks have run. */
  private static final int SIGTERM_EXIT_CODE = 143;

  private final Path root =
      Paths.get(System.getProperty("repo.root", "..")).toAbsolutePath().normalize();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void walkthroughFromTheReadme() throws Exception {
    for (int port : List.of(9092, 9093, 8083)) {
      requireFree(port);
    }
    Path workDir = ItPaths.freshWorkDir("QuickstartIT");
    Path data = workDir.resolve("data");
    Path output = workDir.resolve("quickstart.out");
    ProcessBuilder builder =
        new ProcessBuilder(root.resolve("bin/quickstart").toString())
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile());
    builder.environment().put("QUICKSTART_DATA", data.toString());
    // Maven has just built the archive and the launcher: never a Maven inside Maven.
    builder.environment().put("QUICKSTART_SKIP_BUILD", "1");
    Process quickstart = builder.start();
    quickstart.getOutputStream().close();
    try {
      awaitReady(quickstart, output);

      List<JsonRecord> sent = orders();
      KafkaRecords.produce(BOOTSTRAP, "orders", sent, IO_TIMEOUT);
      putConfig("parquet-sink", root.resolve("config/sink-local.json"));
      assertLakeHolds(data.resolve("lake"), sent);
      putConfig("parquet-iceberg", root.resolve("config/sink-iceberg-local.json"));
      assertIcebergTableHolds(workDir, sent);

      putConfig("parquet-replay", root.resolve("config/source-replay.json"));
      List<ConsumerRecord<String, String>> replayed =
          KafkaRecords.consumeAtLeast(BOOTSTRAP, "orders-replay", RECORDS, IO_TIMEOUT);
      assertSameRecords(
          sent, byKey(replayed.stream().map(r -> Map.entry(r.key(), r.value())).toList()));
      assertSameRecords(sent, byKey(consumeWithTheScript(workDir)));
      assertProduceScriptWorks(workDir);

      List<ProcessHandle> children = quickstart.descendants().toList();
      quickstart.destroy();
      assertTrue(
          quickstart.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
          "the quickstart stops within "
              + STOP_TIMEOUT.toSeconds()
              + " s of SIGTERM; output:\n"
              + ItPaths.tail(output, 20));
      assertEquals(
          SIGTERM_EXIT_CODE,
          quickstart.exitValue(),
          "exit code after SIGTERM; output:\n" + ItPaths.tail(output, 20));
      List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
      assertEquals("stopped", lines.get(lines.size() - 1), "the last line after a clean stop");
      for (ProcessHandle child : children) {
        assertFalse(child.isAlive(), "no process of the quickstart is left: " + child.info());
      }
    } finally {
      if (quickstart.isAlive()) {
        quickstart.descendants().forEach(ProcessHandle::destroyForcibly);
        quickstart.destroyForcibly();
        quickstart.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  private static void requireFree(int port) throws IOException {
    try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getByName(ItPaths.LOOPBACK))) {
      probe.setReuseAddress(true);
    } catch (BindException e) {
      fail(
          "QuickstartIT needs port "
              + port
              + " on 127.0.0.1, the quickstart's fixed port, and it is in use "
              + "(a quickstart or another Kafka running?); stop that process and run the test again");
    }
  }

  private static void awaitReady(Process quickstart, Path output) {
    Await.until(
        "bin/quickstart to print `ready`",
        READY_TIMEOUT,
        () -> {
          if (!quickstart.isAlive()) {
            throw new Await.Aborted(
                "bin/quickstart exited with "
                    + quickstart.exitValue()
                    + ":\n"
                    + ItPaths.tail(output, 40));
          }
          return Files.readAllLines(output, StandardCharsets.UTF_8).contains("ready");
        });
  }

  /** Orders like the README's, with values a DuckDB double and a JSON round trip keep exactly. */
  private static List<JsonRecord> orders() {
    List<JsonRecord> records = new ArrayList<>();
    for (int id = 1; id <= RECORDS; id++) {
      String value =
          String.format(
              Locale.ROOT,
              "{\"id\":%d,\"customer\":\"customer-%d\",\"country\":\"%s\",\"amount\":%s,\"express\":%b}",
              id,
              id % 37,
              COUNTRIES[id % COUNTRIES.length],
              Double.toString((id % 400) * 0.25),
              id % 3 == 0);
      records.add(JsonRecord.of("order-" + id, value));
    }
    return records;
  }

  /** PUT /connectors/NAME/config with the file's bytes as they are, as the README's curl does. */
  private void putConfig(String name, Path file) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(REST.resolve("/connectors/" + name + "/config"))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofFile(file))
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertTrue(
        response.statusCode() == 200 || response.statusCode() == 201,
        "PUT "
            + file.getFileName()
            + " answered "
            + response.statusCode()
            + ": "
            + response.body());
  }

  /** DuckDB must find every record, with its values, in the sink's files under the lake. */
  private static void assertLakeHolds(Path lake, List<JsonRecord> sent) throws Exception {
    String glob = lake.resolve("topics/orders").toString().replace("'", "''") + "/**/*.parquet";
    String query =
        "SELECT __kafka_key, id, customer, country, amount, express FROM read_parquet('"
            + glob
            + "', hive_partitioning = false) ORDER BY id";
    Map<String, String> found = new TreeMap<>();
    int[] rowCount = {0};
    Await.until(
        "DuckDB to find the " + RECORDS + " records in " + lake,
        IO_TIMEOUT,
        () -> {
          if (!Files.isDirectory(lake.resolve("topics/orders"))) {
            return false;
          }
          found.clear();
          rowCount[0] = 0;
          try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
              Statement statement = db.createStatement();
              ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
              String value =
                  String.format(
                      Locale.ROOT,
                      "{\"id\":%d,\"customer\":\"%s\",\"country\":\"%s\",\"amount\":%s,\"express\":%b}",
                      rows.getLong(2),
                      rows.getString(3),
                      rows.getString(4),
                      Double.toString(rows.getDouble(5)),
                      rows.getBoolean(6));
              found.put(rows.getString(1), value);
              rowCount[0]++;
            }
          } catch (SQLException e) {
            // No file yet matches the glob.
            return false;
          }
          return rowCount[0] >= RECORDS;
        });
    assertEquals(RECORDS, rowCount[0], "rows in the lake (no record twice)");
    assertSameRecords(sent, found);
  }

  /**
   * The table of config/sink-iceberg-local.json, as the README reads it: {@code bin/iceberg-table}
   * prints its snapshots and the current snapshot's data files, and DuckDB finds every record once
   * in those files.
   */
  private void assertIcebergTableHolds(Path workDir, List<JsonRecord> sent) throws Exception {
    Path out = workDir.resolve("iceberg-table.out");
    List<String> dataFiles = new ArrayList<>();
    Await.until(
        "bin/iceberg-table to show the " + RECORDS + " records in the table",
        IO_TIMEOUT,
        () -> {
          Process report =
              script(workDir, "iceberg-table", "config/sink-iceberg-local.json")
                  .redirectErrorStream(true)
                  .redirectOutput(out.toFile())
                  .start();
          if (!report.waitFor(1, TimeUnit.MINUTES) || report.exitValue() != 0) {
            return false;
          }
          List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
          if (!lines.contains(
              "current snapshot: "
                  + RECORDS
                  + " records in "
                  + countFiles(lines)
                  + " data files")) {
            return false;
          }
          dataFiles.clear();
          for (String line : lines) {
            if (line.startsWith("data file ")) {
              dataFiles.add(
                  line.substring(
                      "data file ".length(), line.lastIndexOf(' ', line.lastIndexOf(' ') - 1)));
            }
          }
          return true;
        });
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertTrue(lines.get(0).startsWith("table lake.orders at file:"), lines.get(0));
    assertTrue(
        lines.stream().anyMatch(l -> l.startsWith("partition spec: [1000: country: identity(")),
        String.join("\n", lines));
    String files =
        String.join(
            ", ",
            dataFiles.stream()
                .map(f -> "'" + Path.of(URI.create(f)).toString().replace("'", "''") + "'")
                .toList());
    Map<String, String> found = new TreeMap<>();
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = db.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT __kafka_key, id, customer, country, amount, express FROM read_parquet(["
                    + files
                    + "])")) {
      int n = 0;
      while (rows.next()) {
        n++;
        found.put(
            rows.getString(1),
            String.format(
                Locale.ROOT,
                "{\"id\":%d,\"customer\":\"%s\",\"country\":\"%s\",\"amount\":%s,\"express\":%b}",
                rows.getLong(2),
                rows.getString(3),
                rows.getString(4),
                Double.toString(rows.getDouble(5)),
                rows.getBoolean(6)));
      }
      assertEquals(RECORDS, n, "rows in the table's data files (no record twice)");
    }
    assertSameRecords(sent, found);
  }

  private static long countFiles(List<String> lines) {
    return lines.stream().filter(l -> l.startsWith("data file ")).count();
  }

  private static Map<String, String> byKey(List<Map.Entry<String, String>> records) {
    Map<String, String> byKey = new TreeMap<>();
    for (Map.Entry<String, String> record : records) {
      String earlier = byKey.put(record.getKey(), record.getValue());
      assertNull(earlier, "key " + record.getKey() + " appears once");
    }
    return byKey;
  }

  /** Same keys, and per key the same JSON value (compared as trees: field order may differ). */
  private static void assertSameRecords(List<JsonRecord> sent, Map<String, String> received) {
    assertEquals(sent.size(), received.size(), "record count");
    for (JsonRecord record : sent) {
      String value = received.get(record.key());
      assertNotNull(value, "record " + record.key() + " is there");
      JsonNode want = Json.read(record.value());
      JsonNode got = Json.read(value);
      assertEquals(want, got, "value of " + record.key());
    }
  }

  /** {@code bin/consume orders-replay 5}: key TAB value per line. */
  private List<Map.Entry<String, String>> consumeWithTheScript(Path workDir) throws Exception {
    Path out = workDir.resolve("consume.out");
    Path err = workDir.resolve("consume.err");
    Process consume =
        script(workDir, "consume", "orders-replay", "5")
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertTrue(consume.waitFor(2, TimeUnit.MINUTES), "bin/consume ends after 5 idle seconds");
    assertEquals(
        0, consume.exitValue(), "bin/consume exit code; stderr:\n" + ItPaths.tail(err, 10));
    List<Map.Entry<String, String>> records = new ArrayList<>();
    for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
      int tab = line.indexOf('\t');
      assertTrue(tab > 0, "a record line: " + line);
      records.add(Map.entry(line.substring(0, tab), line.substring(tab + 1)));
    }
    return records;
  }

  /** {@code bin/produce TOPIC 20}: the README's orders, ids 1 to 20, keyed order-<id>. */
  private void assertProduceScriptWorks(Path workDir) throws Exception {
    Path out = workDir.resolve("produce.out");
    Process produce =
        script(workDir, "produce", "produce-check", "20")
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .start();
    assertTrue(produce.waitFor(2, TimeUnit.MINUTES), "bin/produce ends");
    assertEquals(
        0, produce.exitValue(), "bin/produce exit code; output:\n" + ItPaths.tail(out, 10));
    List<ConsumerRecord<String, String>> records =
        KafkaRecords.consumeAll(BOOTSTRAP, "produce-check", IO_TIMEOUT);
    assertEquals(20, records.size());
    for (ConsumerRecord<String, String> record : records) {
      JsonNode value = Json.read(record.value());
      assertEquals("order-" + value.path("id").asInt(), record.key());
      assertTrue(
          value.path("amount").isNumber() && value.path("country").isTextual(), record.value());
    }
  }

  private ProcessBuilder script(Path workDir, String name, String... args) {
    List<String> command = new ArrayList<>();
    command.add(root.resolve("bin").resolve(name).toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile());
    builder.environment().put("QUICKSTART_DATA", workDir.resolve("data").toString());
    return builder;
  }
}
