package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.sink.ParquetSinkConfig;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/**
 * What the sink's {@code validate()} asks of the catalog itself, once every key is valid on its
 * own: that it can be reached (an error on {@code iceberg.catalog.uri}), and that the table of each
 * topic listed in {@code topics} exists, or may be created ({@code iceberg.table.auto-create} and a
 * namespace that exists or can be asked about), reported on {@code iceberg.table}; and where a
 * table would be created under the warehouse of a jdbc or hadoop catalog, that the warehouse takes
 * a probe file (written and deleted at once), reported on {@code iceberg.catalog.warehouse}. No
 * table or namespace is created.
 */
public final class CatalogCheck {
  private CatalogCheck() {}

  /** Adds the catalog's problems to {@code result}; nothing when the keys have errors already. */
  public static void check(Config result, Map<String, String> props) {
    if (result.configValues().stream().anyMatch(v -> !v.errorMessages().isEmpty())) {
      return;
    }
    ParquetSinkConfig config;
    try {
      config = new ParquetSinkConfig(props);
    } catch (RuntimeException e) {
      return;
    }
    if (!config.icebergTables()) {
      return;
    }
    IcebergSettings settings = config.iceberg();
    Catalog catalog;
    try {
      catalog = IcebergCatalogs.open(settings);
    } catch (IOException e) {
      add(result, IcebergConfig.CATALOG_URI_CONFIG, "cannot reach the catalog: " + e.getMessage());
      return;
    }
    try {
      String topics = props.getOrDefault("topics", "");
      boolean creates = false;
      for (String topic : topics.split(",")) {
        Optional<String> problem = problem(catalog, settings, topic.trim());
        problem.ifPresent(p -> add(result, IcebergConfig.TABLE_CONFIG, p));
        creates |= problem.isEmpty() && wouldCreate(catalog, settings, topic.trim());
      }
      if (creates) {
        warehouseProblem(settings)
            .ifPresent(p -> add(result, IcebergConfig.CATALOG_WAREHOUSE_CONFIG, p));
      }
    } finally {
      if (catalog instanceof Closeable closeable) {
        try {
          closeable.close();
        } catch (IOException e) {
          // Only a check: nothing was written.
        }
      }
    }
  }

  private static Optional<String> problem(Catalog catalog, IcebergSettings settings, String topic) {
    if (topic.isEmpty()) {
      return Optional.empty();
    }
    TableIdentifier id = TableIdentifier.parse(TableNames.resolve(settings.tableTemplate(), topic));
    try {
      if (catalog.tableExists(id)) {
        return Optional.empty();
      }
      if (!settings.autoCreate()) {
        return Optional.of(
            "table "
                + id
                + " of topic "
                + topic
                + " does not exist and "
                + IcebergConfig.TABLE_AUTO_CREATE_CONFIG
                + "=false");
      }
      if (catalog instanceof SupportsNamespaces namespaces && !id.namespace().isEmpty()) {
        namespaces.namespaceExists(id.namespace());
      }
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of("cannot look up or create table " + id + " of topic " + topic + ": " + e);
    }
  }

  private static boolean wouldCreate(Catalog catalog, IcebergSettings settings, String topic) {
    if (topic.isEmpty()) {
      return false;
    }
    try {
      return !catalog.tableExists(
          TableIdentifier.parse(TableNames.resolve(settings.tableTemplate(), topic)));
    } catch (RuntimeException e) {
      return false;
    }
  }

  /**
   * Whether a table can be created under the warehouse of a jdbc or hadoop catalog whose tables go
   * through {@link StoreFileIO}: a probe file written there and deleted at once (a warehouse on a
   * path that cannot be a directory, a bucket the credentials may not write to). A REST catalog
   * chooses its tables' locations itself, and writes their first metadata itself.
   */
  private static Optional<String> warehouseProblem(IcebergSettings settings) {
    Map<String, String> properties = settings.catalogProperties();
    String warehouse = properties.get("warehouse");
    if (warehouse == null
        || "rest".equals(settings.catalogType())
        || !StoreFileIO.class.getName().equals(properties.get("io-impl"))) {
      return Optional.empty();
    }
    String probe =
        warehouse.replaceAll("/+$", "") + "/.parquet-connect-validate-" + UUID.randomUUID();
    try (StoreFileIO io = new StoreFileIO()) {
      io.initialize(properties);
      try (OutputStream out = io.newOutputFile(probe).create()) {
        out.write(1);
      }
      io.deleteFile(probe);
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.of(
          "cannot create tables in the warehouse " + warehouse + ": " + e.getMessage());
    }
  }

  private static void add(Config result, String key, String message) {
    List<ConfigValue> values = result.configValues();
    for (ConfigValue value : values) {
      if (value.name().equals(key)) {
        value.addErrorMessage(key + ": " + message);
        return;
      }
    }
  }
}
