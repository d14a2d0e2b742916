package dev.parquetconnect.sink.commit.iceberg;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parquetconnect.sink.ParquetSinkConfig;
import java.io.Closeable;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.config.ConfigTransformer;
import org.apache.kafka.common.config.provider.ConfigProvider;
import org.apache.kafka.common.config.provider.EnvVarConfigProvider;

/**
 * {@code bin/iceberg-table CONFIG.json}: the tables a sink config commits into, read through
 * Iceberg with the connector's own catalog settings (and {@link StoreFileIO}): each table's
 * location, schema and partition spec, its snapshots (operation, records added, total records, the
 * Kafka offsets the sink committed with them) and the data files of the current snapshot with their
 * record counts, which {@code bin/pq} and any Parquet engine read. {@code ${env:NAME}} in the
 * config is resolved from the environment, as the quickstart's worker does.
 */
public final class TableReport {
  private TableReport() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: bin/iceberg-table CONFIG.json");
      System.exit(2);
    }
    try {
      print(Path.of(args[0]), System.out);
    } catch (IOException | RuntimeException e) {
      System.err.println("iceberg-table: " + e.getMessage());
      System.exit(1);
    }
  }

  /** Prints the report of the tables of the sink config in {@code file}. */
  static void print(Path file, PrintStream out) throws IOException {
    Map<String, String> props = resolve(read(file));
    props.putIfAbsent("name", "iceberg-table");
    ParquetSinkConfig config = new ParquetSinkConfig(props);
    if (!config.icebergTables()) {
      throw new IllegalArgumentException(file + " does not set table.format=iceberg");
    }
    IcebergSettings settings = config.iceberg();
    Catalog catalog = IcebergCatalogs.open(settings);
    try {
      for (String topic : props.getOrDefault("topics", "").split(",")) {
        if (!topic.isBlank()) {
          table(catalog, TableNames.resolve(settings.tableTemplate(), topic.trim()), out);
        }
      }
    } finally {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
  }

  private static void table(Catalog catalog, String name, PrintStream out) throws IOException {
    TableIdentifier id = TableIdentifier.parse(name);
    if (!catalog.tableExists(id)) {
      out.println("table " + name + ": does not exist (yet)");
      return;
    }
    Table table = catalog.loadTable(id);
    out.println("table " + name + " at " + table.location());
    out.println("schema: " + table.schema().asStruct());
    out.println("partition spec: " + table.spec().fields());
    for (Snapshot s : table.snapshots()) {
      Map<String, String> summary = s.summary();
      StringBuilder offsets = new StringBuilder();
      summary.forEach(
          (k, v) -> {
            if (k.startsWith(OffsetSummary.OFFSET_PREFIX)) {
              offsets
                  .append(' ')
                  .append(k.substring(OffsetSummary.OFFSET_PREFIX.length()))
                  .append('=')
                  .append(v);
            }
          });
      out.printf(
          "snapshot %d at %s: %s, %s records added, %s in total%s%n",
          s.snapshotId(),
          Instant.ofEpochMilli(s.timestampMillis()),
          s.operation(),
          summary.getOrDefault("added-records", "0"),
          summary.getOrDefault("total-records", "0"),
          offsets.length() == 0 ? "" : ";" + offsets);
    }
    long records = 0;
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask t : tasks) {
        out.println("data file " + t.file().location() + " " + t.file().recordCount() + " records");
        records += t.file().recordCount();
        files++;
      }
    }
    out.println("current snapshot: " + records + " records in " + files + " data files");
  }

  private static Map<String, String> read(Path file) throws IOException {
    JsonNode json = new ObjectMapper().readTree(Files.readString(file));
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException(file + " is not a JSON object of connector settings");
    }
    Map<String, String> props = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      props.put(e.getKey(), e.getValue().asText());
    }
    return props;
  }

  /** {@code ${env:NAME}} as the worker's EnvVarConfigProvider resolves it. */
  private static Map<String, String> resolve(Map<String, String> props) {
    EnvVarConfigProvider env = new EnvVarConfigProvider();
    env.configure(Map.of());
    Map<String, ConfigProvider> providers = Map.of("env", env);
    Map<String, String> resolved =
        new LinkedHashMap<>(new ConfigTransformer(providers).transform(props).data());
    for (Map.Entry<String, String> e : resolved.entrySet()) {
      if (e.getValue() != null && e.getValue().contains("${env:")) {
        throw new IllegalArgumentException(
            e.getKey() + " names an environment variable that is not set: " + e.getValue());
      }
    }
    return resolved;
  }
}
