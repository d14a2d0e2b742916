package dev.parquetconnect.bench.worker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parquetconnect.it.ConnectWorker;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Our sink to local disk, its defaults (zstd) and no Kafka metadata columns, so that its files hold
 * what Iceberg's do: behind JsonConverter, or parsing the raw bytes itself ({@code
 * input.format=json} behind ByteArrayConverter) where the installed plugin has that key.
 */
final class OurSinkLeg implements Leg {

  static final String CONNECTOR_CLASS = "dev.parquetconnect.sink.ParquetSinkConnector";
  static final String INPUT_FORMAT = "input.format";
  static final String INPUT_JSON_SCHEMAS_ENABLE = "input.json.schemas.enable";

  /**
   * A committed file: {@code <topic>+<partition>+<first offset>+<last offset>.parquet}, the offsets
   * of the commit that wrote it (temporary files have other names).
   */
  private static final Pattern COMMITTED_FILE =
      Pattern.compile("^(.+)\\+(\\d+)\\+(\\d+)\\+(\\d+)\\.parquet$");

  private final LegKind kind;
  private final boolean inputJson;

  OurSinkLeg(LegKind kind, boolean inputJson) {
    this.kind = kind;
    this.inputJson = inputJson;
  }

  @Override
  public LegKind kind() {
    return kind;
  }

  /**
   * For {@code input.format=json}: the worker's own verdict on the configuration, so the leg runs
   * exactly when the installed plugin knows the key and accepts {@code json}.
   */
  @Override
  public Optional<String> skipReason(ConnectWorker worker, BenchDataset dataset, Path outputDir) {
    if (!inputJson) {
      return Optional.empty();
    }
    Map<String, String> config = connectorConfig("validate", dataset, outputDir, 1, 10_000);
    JsonNode verdict = worker.validateConnectorConfig(CONNECTOR_CLASS, config);
    boolean known = false;
    List<String> errors = new ArrayList<>();
    for (JsonNode entry : verdict.path("configs")) {
      String name = entry.path("definition").path("name").asText();
      if (name.equals(INPUT_FORMAT)) {
        known = true;
      }
      if (name.equals(INPUT_FORMAT) || name.equals(INPUT_JSON_SCHEMAS_ENABLE)) {
        entry.path("value").path("errors").forEach(error -> errors.add(error.asText()));
      }
    }
    if (!known) {
      return Optional.of(
          "the installed plugin's configuration has no key "
              + INPUT_FORMAT
              + " (the converter-free JSON path is not in this build)");
    }
    if (!errors.isEmpty()) {
      return Optional.of("the plugin rejects " + INPUT_FORMAT + "=json: " + errors);
    }
    return Optional.empty();
  }

  @Override
  public Map<String, String> connectorConfig(
      String connectorName,
      BenchDataset dataset,
      Path outputDir,
      long records,
      long commitIntervalMs) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", CONNECTOR_CLASS);
    config.put("tasks.max", "1");
    config.put("topics", dataset.topic());
    config.put("store.url", outputDir.toAbsolutePath().toUri().toString());
    config.put("parquet.codec", "zstd");
    config.put("store.kafka.metadata", "false");
    // Commits by the clock only, as Iceberg's coordinator does: no count ever triggers one.
    config.put("flush.size", Long.toString(Math.max(records, 1)));
    config.put("rotate.schedule.interval.ms", Long.toString(commitIntervalMs));
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    if (inputJson) {
      config.put("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
      config.put(INPUT_FORMAT, "json");
      config.put(INPUT_JSON_SCHEMAS_ENABLE, Boolean.toString(dataset.schemas()));
    } else {
      config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
      config.put("value.converter.schemas.enable", Boolean.toString(dataset.schemas()));
    }
    return config;
  }

  /**
   * Done when, for every partition, a committed file's last offset is the partition's last offset:
   * file names carry the offsets of their commit, and a file has that name only once committed.
   */
  @Override
  public Optional<Commit> lastCommit(
      String connectorName, BenchDataset dataset, Path outputDir, Map<Integer, Long> endOffsets)
      throws IOException {
    if (!Files.isDirectory(outputDir)) {
      return Optional.empty();
    }
    List<Path> files = new ArrayList<>();
    Map<Integer, Long> lastCommitted = new HashMap<>();
    FileTime newest = FileTime.fromMillis(0);
    try (Stream<Path> paths = Files.walk(outputDir)) {
      for (Path path : paths.filter(Files::isRegularFile).toList()) {
        Matcher name = COMMITTED_FILE.matcher(path.getFileName().toString());
        if (!name.matches() || !name.group(1).equals(dataset.topic())) {
          continue;
        }
        files.add(path);
        lastCommitted.merge(
            Integer.parseInt(name.group(2)), Long.parseLong(name.group(4)), Math::max);
        FileTime modified = Files.getLastModifiedTime(path);
        if (modified.compareTo(newest) > 0) {
          newest = modified;
        }
      }
    }
    for (Map.Entry<Integer, Long> end : endOffsets.entrySet()) {
      if (end.getValue() > 0
          && lastCommitted.getOrDefault(end.getKey(), -1L) < end.getValue() - 1) {
        return Optional.empty();
      }
    }
    return Optional.of(
        new Commit(
            newest.toMillis(),
            files,
            "every partition's last offset in a committed file name, " + files.size() + " files"));
  }
}
