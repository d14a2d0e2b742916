package dev.parquetconnect.sink.commit.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * Opens the configured catalog through Iceberg's own {@link CatalogUtil} (rest, jdbc, hadoop), and
 * turns the catalog's transient failures into {@link IOException}s, which the sink retries with
 * backoff like a store's.
 */
public final class IcebergCatalogs {
  private IcebergCatalogs() {}

  /**
   * A catalog of the configured type.
   *
   * @throws IOException when the catalog cannot be reached or refuses its configuration
   */
  public static Catalog open(IcebergSettings settings) throws IOException {
    Map<String, String> properties = new HashMap<>(settings.catalogProperties());
    // The Hadoop catalog keeps its metadata through a Hadoop file system; the others take the
    // configuration for their default FileIO (HadoopFileIO for file: and hdfs: locations).
    Configuration conf = new Configuration();
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    // Iceberg and the JDBC drivers load classes through the context class loader: within a
    // Connect worker that must be the plugin's own (where iceberg-core and the drivers are).
    Thread.currentThread().setContextClassLoader(IcebergCatalogs.class.getClassLoader());
    try {
      if ("jdbc".equals(settings.catalogType())) {
        registerJdbcDrivers();
      }
      return CatalogUtil.buildIcebergCatalog(settings.catalogName(), properties, conf);
    } catch (RuntimeException e) {
      throw asIOException("opening the " + settings.catalogType() + " catalog", e);
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
  }

  /**
   * Loads the JDBC drivers the plugin's class loader sees (its {@code lib/} jars), so they register
   * with {@link java.sql.DriverManager}: it looks for drivers once per JVM, through the class
   * loader current at its first use, which within a Connect worker is rarely the plugin's.
   */
  private static void registerJdbcDrivers() {
    try {
      for (java.sql.Driver driver :
          java.util.ServiceLoader.load(
              java.sql.Driver.class, IcebergCatalogs.class.getClassLoader())) {
        // Loading the class registers the driver (JDBC 4); nothing else to do with it.
        driver.getClass();
      }
    } catch (java.util.ServiceConfigurationError e) {
      // A broken driver jar: the catalog's own connection attempt reports what is missing.
    }
  }

  /**
   * An {@link IOException} for a catalog call that failed with a runtime exception (Iceberg's
   * exceptions are unchecked): the message says what was done and what the catalog answered.
   */
  static IOException asIOException(String what, RuntimeException e) {
    if (e instanceof UncheckedIOException io && io.getCause() != null) {
      return new IOException(what + ": " + io.getCause().getMessage(), io.getCause());
    }
    return new IOException(what + ": " + e, e);
  }
}
