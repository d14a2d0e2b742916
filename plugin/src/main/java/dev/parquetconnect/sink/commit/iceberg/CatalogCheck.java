package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.sink.ParquetSinkConfig;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;

/**
 * What the sink's {@code validate()} asks of the catalog itself, once every key is valid on its
 * own: that it can be reached (an error on {@code iceberg.catalog.uri}), and that the table of each
 * topic listed in {@code topics} exists, or may be created ({@code iceberg.table.auto-create} and a
 * namespace that exists or can be asked about), reported on {@code iceberg.table}. Nothing is
 * created.
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
      for (String topic : topics.split(",")) {
        problem(catalog, settings, topic.trim())
            .ifPresent(p -> add(result, IcebergConfig.TABLE_CONFIG, p));
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
