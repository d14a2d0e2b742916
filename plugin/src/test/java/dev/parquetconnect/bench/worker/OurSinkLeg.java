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
 * input.format=json} behind ByteArrayConverter) where the installed plugin has that key; in files
 * mode, or in table mode ({@code table.format=iceberg}) committing into a table of a Hadoop catalog
 * on local disk, as Iceberg's sink leg does, with its data files in the leg's store directory.
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

  static final String TABLE_FORMAT = "table.format";

  private final LegKind kind;
  private final boolean inputJson;
  private final boolean table;

  OurSinkLeg(LegKind kind, boolean inputJson, boolean table) {
    this.kind = kind;
    this.inputJson = inputJson;
    this.table = table;
  }

  /** The table mode's data files: the store's directory, not the table's {@code data/}. */
  static Path storeDir(Path outputDir, boolean table) {
    return table ? outputDir.resolve("store") : outputDir;
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
    if (!inputJson && !table) {
      return Optional.empty();
    }
    Map<String, String> config = connectorConfig("validate", dataset, outputDir, 1, 10_000);
    JsonNode verdict = worker.validateConnectorConfig(CONNECTOR_CLASS, config);
    Map<String, List<String>> errors = new LinkedHashMap<>();
    for (JsonNode entry : verdict.path("configs")) {
      String name = entry.path("definition").path("name").asText();
      if (config.containsKey(name)) {
        List<String> keyErrors = new ArrayList<>();
        entry.path("value").path("errors").forEach(error -> keyErrors.add(error.asText()));
        errors.put(name, keyErrors);
      }
    }
    List<String> needed = new ArrayList<>();
    if (inputJson) {
      needed.add(INPUT_FORMAT);
    }
    if (table) {
      needed.add(TABLE_FORMAT);
    }
    for (String key : needed) {
      if (!errors.containsKey(key)) {
        return Optional.of(
            "the installed plugin's configuration has no key " + key + " (not in this build)");
      }
    }
    List<String> rejected = new ArrayList<>();
    errors.forEach(
        (key, keyErrors) -> {
          if (!keyErrors.isEmpty()) {
            rejected.add(key + ": " + keyErrors);
          }
        });
    if (!rejected.isEmpty()) {
      return Optional.of("the plugin rejects the leg's configuration: " + rejected);
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
    config.put("store.url", storeDir(outputDir, table).toAbsolutePath().toUri().toString());
    config.put("parquet.codec", "zstd");
    config.put("store.kafka.metadata", "false");
    // Commits by the clock only, as Iceberg's coordinator does: no count ever triggers one.
    config.put("flush.size", Long.toString(Math.max(records, 1)));
    config.put("rotate.schedule.interval.ms", Long.toString(commitIntervalMs));
    if (table) {
      config.put(TABLE_FORMAT, "iceberg");
      config.put("iceberg.catalog.type", "hadoop");
      config.put(
          "iceberg.catalog.warehouse", outputDir.resolve("warehouse").toAbsolutePath().toString());
      config.put("iceberg.table", IcebergSinkLeg.NAMESPACE + "." + tableName(connectorName));
    }
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

  /** The table a table-mode leg writes, one per leg (connector names are unique per run). */
  static String tableName(String connectorName) {
    return IcebergSinkLeg.tableName(connectorName);
  }

  /**
   * Files mode: done when, for every partition, a committed file's last offset is the partition's
   * last offset: file names carry the offsets of their commit, and a file has that name only once
   * committed. Table mode: done when the table's current snapshot counts every produced record, as
   * for Iceberg's sink; its data files are those in the store, whose number must be the snapshot's.
   */
  @Override
  public Optional<Commit> lastCommit(
      String connectorName, BenchDataset dataset, Path outputDir, Map<Integer, Long> endOffsets)
      throws IOException {
    if (table) {
      long produced = endOffsets.values().stream().mapToLong(Long::longValue).sum();
      Path tableDir =
          outputDir
              .resolve("warehouse")
              .resolve(IcebergSinkLeg.NAMESPACE)
              .resolve(tableName(connectorName));
      return IcebergTableState.lastCommit(tableDir, storeDir(outputDir, true), produced);
    }
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
