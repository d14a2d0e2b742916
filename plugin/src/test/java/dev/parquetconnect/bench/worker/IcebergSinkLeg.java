package dev.parquetconnect.bench.worker;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.KafkaBroker;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Apache Iceberg's Kafka Connect sink behind JsonConverter, writing a table it creates in a Hadoop
 * catalog on local disk with Iceberg's defaults (Parquet, zstd). Its coordinator commits every
 * {@code iceberg.control.commit.interval-ms}: set to the same interval as our sink's clock-driven
 * commits, so that neither waits for the other's latency.
 */
final class IcebergSinkLeg implements Leg {

  static final String CONNECTOR_CLASS = "org.apache.iceberg.connect.IcebergSinkConnector";
  static final String NAMESPACE = "bench";

  private final LegKind kind;

  IcebergSinkLeg(LegKind kind) {
    this.kind = kind;
  }

  @Override
  public LegKind kind() {
    return kind;
  }

  @Override
  public Optional<String> skipReason(ConnectWorker worker, BenchDataset dataset, Path outputDir) {
    for (JsonNode plugin : worker.connectorPlugins()) {
      if (CONNECTOR_CLASS.equals(plugin.path("class").asText())) {
        return Optional.empty();
      }
    }
    return Optional.of("the worker found no " + CONNECTOR_CLASS + " on its plugin path");
  }

  /** The coordinator and the workers talk over this topic; one per leg, so no leg sees another. */
  static String controlTopic(String connectorName) {
    return connectorName + "-control";
  }

  @Override
  public void prepare(KafkaBroker broker, String connectorName) {
    broker.createTopic(controlTopic(connectorName), 1);
  }

  static String tableName(String connectorName) {
    return connectorName.replace('-', '_');
  }

  static Path tableDir(Path outputDir, String connectorName) {
    return outputDir.resolve("warehouse").resolve(NAMESPACE).resolve(tableName(connectorName));
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
    config.put("iceberg.tables", NAMESPACE + "." + tableName(connectorName));
    config.put("iceberg.tables.auto-create-enabled", "true");
    config.put("iceberg.catalog.type", "hadoop");
    config.put(
        "iceberg.catalog.warehouse",
        outputDir.resolve("warehouse").toAbsolutePath().toUri().toString());
    config.put("iceberg.control.topic", controlTopic(connectorName));
    config.put("iceberg.control.commit.interval-ms", Long.toString(commitIntervalMs));
    config.put("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", Boolean.toString(dataset.schemas()));
    return config;
  }

  /**
   * Done when the table's current snapshot counts every produced record: the coordinator's commit
   * of the last data files, not the workers' earlier report of them (with which the source offsets
   * are already committed to Kafka).
   */
  @Override
  public Optional<Commit> lastCommit(
      String connectorName, BenchDataset dataset, Path outputDir, Map<Integer, Long> endOffsets)
      throws IOException {
    long produced = endOffsets.values().stream().mapToLong(Long::longValue).sum();
    return IcebergTableState.lastCommit(tableDir(outputDir, connectorName), produced);
  }
}
