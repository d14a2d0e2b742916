package dev.parquetconnect.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parquetconnect.storage.ItStores;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every example config in {@code config/} (the README's and the plugin archive's) is accepted by a
 * real worker: {@code PUT /connector-plugins/CLASS/config/validate} answers {@code error_count} 0.
 * The store addresses are replaced by those of the test's servers, each substitution spelled out in
 * {@link #forTestStores}: the local lake placeholder by a directory under target/it, the MinIO
 * endpoint and keys by S3Proxy's, the HDFS namenode by a MiniDFSCluster's. Everything else is sent
 * as written.
 *
 * <p>Every key of a file must also be one the worker reports as defined (by the connector, Connect,
 * the converters or a named transform): Connect ignores unknown keys, so a misspelt one would
 * otherwise pass unnoticed.
 *
 * <p>The connectors' validate() checks keys, types, ranges and the rules between keys; it does not
 * contact the store (a worker validating a config must not depend on the store being up). That the
 * local configs also work end to end is QuickstartIT's part.
 */
final class ConfigValidationIT {

  /** The configs the README and the deployment kit name; a new file in config/ is validated too. */
  private static final List<String> DOCUMENTED =
      List.of(
          "sink-local.json",
          "sink-s3.json",
          "sink-hdfs.json",
          "source-replay.json",
          "source-generic.json",
          "sink-iceberg.json",
          "sink-iceberg-local.json");

  private static final String LAKE_PLACEHOLDER = "${env:PARQUET_LAKE_URL}";

  /**
   * What the example configs assume: MinIO and a namenode on this machine (docker/compose.yaml).
   */
  private static final String MINIO_ENDPOINT = "http://127.0.0.1:9000";

  private static final String NAMENODE = "hdfs://127.0.0.1:8020";

  /** The REST catalog of docker/compose.yaml. */
  private static final String ICEBERG_REST = "http://127.0.0.1:8181";

  private final Path root =
      Paths.get(System.getProperty("repo.root", "..")).toAbsolutePath().normalize();

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void everyExampleConfigPassesTheWorkersValidation() throws Exception {
    List<Path> files;
    try (Stream<Path> listing = Files.list(root.resolve("config"))) {
      files = listing.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
    List<String> names = files.stream().map(p -> p.getFileName().toString()).toList();
    assertTrue(names.containsAll(DOCUMENTED), "config/ holds " + DOCUMENTED + "; found " + names);

    Path workDir = ItPaths.freshWorkDir("ConfigValidationIT");
    KafkaRuntime runtime = KafkaRuntime.defaultVersion();
    try (ItStores.Running s3 = ItStores.s3(0, 0);
        ItStores.Hdfs hdfs = ItStores.hdfs(workDir.resolve("hdfs"));
        IcebergRestServer iceberg =
            IcebergRestServer.start(
                Files.createDirectories(workDir.resolve("iceberg")),
                workDir.resolve("lake/warehouse").toString(),
                Map.of());
        KafkaBroker broker = KafkaBroker.start(runtime, workDir.resolve("broker"));
        ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(workDir.resolve("worker"))
                .start()) {
      TestStores stores =
          new TestStores(
              workDir.resolve("lake").toUri().toString(),
              s3.settings(),
              hdfs.url("").replaceAll("/$", ""),
              iceberg.uri());
      List<String> failures = new ArrayList<>();
      for (Path file : files) {
        Map<String, String> config = forTestStores(file, readFlatMap(file), stores);
        // PUT /connectors/NAME/config takes the name from its path; validate needs it in the map.
        assertFalse(config.containsKey("name"), file + " leaves the name to the PUT path");
        config.put("name", file.getFileName().toString().replaceFirst("\\.json$", ""));
        JsonNode verdict = worker.validateConnectorConfig(config.get("connector.class"), config);
        if (verdict.path("error_count").asInt(-1) != 0) {
          failures.add(file.getFileName() + ": " + errors(verdict));
        }
        // Connect ignores keys nobody defines, so a misspelt key would pass the check
        // above and silently not apply: every key must be one the worker reports.
        List<String> unknown = unknownKeys(config, verdict);
        if (!unknown.isEmpty()) {
          failures.add(
              file.getFileName() + ": keys neither the connector nor Connect defines: " + unknown);
        }
      }
      assertEquals(List.of(), failures, "configs the worker rejects");

      // The control: the same endpoint does reject a broken config (so a pass above is the
      // connector's verdict, not an endpoint that accepts anything).
      Path sinkLocal = root.resolve("config/sink-local.json");
      Map<String, String> broken = forTestStores(sinkLocal, readFlatMap(sinkLocal), stores);
      broken.put("name", "broken");
      broken.put("flush.size", "0");
      JsonNode verdict = worker.validateConnectorConfig(broken.get("connector.class"), broken);
      List<String> errors = errors(verdict);
      assertEquals(
          1, verdict.path("error_count").asInt(), "sink-local.json with flush.size=0: " + errors);
      assertTrue(errors.get(0).startsWith("flush.size: "), "the error is on flush.size: " + errors);
    }
  }

  /** The addresses and keys of the test's stores. */
  private record TestStores(
      String localLakeUrl,
      Map<String, String> s3Settings,
      String namenodeUrl,
      String icebergRestUri) {}

  /**
   * The substitutions, explicitly: each replaces a value the file must hold (so a config that
   * drifts from what the test assumes fails here instead of being validated unchanged).
   */
  private static Map<String, String> forTestStores(
      Path file, Map<String, String> config, TestStores stores) {
    Map<String, String> result = new LinkedHashMap<>(config);
    if (config.containsKey("iceberg.catalog.uri")) {
      assertEquals(
          ICEBERG_REST,
          config.get("iceberg.catalog.uri"),
          file + ": the REST catalog of docker/compose.yaml");
      result.put("iceberg.catalog.uri", stores.icebergRestUri());
    }
    String warehouse = config.get("iceberg.catalog.warehouse");
    if (warehouse != null && warehouse.startsWith(LAKE_PLACEHOLDER)) {
      result.put(
          "iceberg.catalog.warehouse",
          stores.localLakeUrl() + warehouse.substring(LAKE_PLACEHOLDER.length()));
    }
    String storeUrl = config.get("store.url");
    assertNotNull(storeUrl, file + " sets store.url");
    if (storeUrl.equals(LAKE_PLACEHOLDER)) {
      result.put("store.url", stores.localLakeUrl());
    } else if (storeUrl.startsWith("s3://")) {
      assertEquals(
          MINIO_ENDPOINT,
          config.get("s3.endpoint"),
          file + ": the MinIO endpoint of docker/compose.yaml");
      for (String key : List.of("s3.endpoint", "aws.access.key.id", "aws.secret.access.key")) {
        assertTrue(config.containsKey(key), file + " sets " + key);
        result.put(key, stores.s3Settings().get(key));
      }
      // S3Proxy does not understand the SDK's checksum trailers over plain HTTP; MinIO does.
      result.put("s3.checksum.calculation", stores.s3Settings().get("s3.checksum.calculation"));
    } else if (storeUrl.startsWith(NAMENODE + "/")) {
      result.put("store.url", stores.namenodeUrl() + storeUrl.substring(NAMENODE.length()));
      // MiniDFSCluster checks permissions; its superuser is the user running the test.
      result.put("hdfs.user", System.getProperty("user.name"));
    } else {
      throw new AssertionError(
          file
              + ": a store.url this test does not know how to point at a test server: "
              + storeUrl);
    }
    return result;
  }

  /** A JSON object of strings, as {@code PUT /connectors/NAME/config} takes it. */
  private static Map<String, String> readFlatMap(Path file) throws Exception {
    JsonNode json = Json.read(Files.readString(file, StandardCharsets.UTF_8));
    assertTrue(json.isObject(), file + " is a JSON object");
    Map<String, String> map = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      assertTrue(
          field.getValue().isTextual(),
          file
              + ": the value of "
              + field.getKey()
              + " is a string (Connect takes string values only)");
      map.put(field.getKey(), field.getValue().asText());
    }
    assertTrue(map.containsKey("connector.class"), file + " sets connector.class");
    return map;
  }

  /**
   * The keys of {@code config} absent from the validate response, which lists every key the
   * connector, Connect, the converters and the named transforms define. Hadoop properties ({@code
   * hadoop.config.*}) are passed through by prefix and have no definition.
   */
  private static List<String> unknownKeys(Map<String, String> config, JsonNode verdict) {
    Set<String> known = new HashSet<>();
    for (JsonNode definition : verdict.path("configs")) {
      known.add(definition.path("value").path("name").asText());
    }
    return config.keySet().stream()
        .filter(key -> !known.contains(key) && !key.startsWith("hadoop.config."))
        .sorted()
        .toList();
  }

  private static List<String> errors(JsonNode verdict) {
    List<String> errors = new ArrayList<>();
    for (JsonNode config : verdict.path("configs")) {
      JsonNode value = config.path("value");
      for (JsonNode error : value.path("errors")) {
        errors.add(value.path("name").asText() + ": " + error.asText());
      }
    }
    return errors;
  }
}
