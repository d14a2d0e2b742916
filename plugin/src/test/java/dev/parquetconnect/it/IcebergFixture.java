package dev.parquetconnect.it;

import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * What the table-mode tests share: Iceberg's REST catalog server ({@link IcebergRestServer}) with a
 * client catalog of the test's own, the sink settings that commit into it, and the order record
 * most of them write. One per test class; closing it closes the client, then the server.
 */
public final class IcebergFixture implements AutoCloseable {
  /** The namespace of the tables the sink settings name ({@code lake.${topic}}). */
  public static final String NAMESPACE = "lake";

  /** The value schema of the orders the table tests write: id, an optional name, an amount. */
  public static final Schema ORDER_VALUE =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .build();

  private final IcebergRestServer server;
  private final Catalog catalog;

  private IcebergFixture(IcebergRestServer server) {
    this.server = server;
    this.catalog =
        CatalogUtil.buildIcebergCatalog(
            "test", Map.of("type", "rest", "uri", server.uri()), new Configuration());
  }

  /**
   * A REST catalog whose state is in {@code dir/rest} and whose warehouse is {@code
   * dir/rest-warehouse}.
   */
  public static IcebergFixture restOnLocalDisk(Path dir) throws Exception {
    return rest(dir, dir.resolve("rest-warehouse").toString(), Map.of());
  }

  /**
   * A REST catalog whose state is in {@code dir/rest} and whose tables live under {@code
   * warehouse}, written by the server with {@code backendProperties} (an S3 endpoint, say).
   */
  public static IcebergFixture rest(
      Path dir, String warehouse, Map<String, String> backendProperties) throws Exception {
    IcebergRestServer server =
        IcebergRestServer.start(
            Files.createDirectories(dir.resolve("rest")), warehouse, backendProperties);
    try {
      return new IcebergFixture(server);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The catalog's URI ({@code iceberg.catalog.uri}). */
  public String uri() {
    return server.uri();
  }

  /** The server, to stop and restart it. */
  public IcebergRestServer server() {
    return server;
  }

  /** The test's own client of the catalog (not the task's). */
  public Catalog catalog() {
    return catalog;
  }

  /** The table of {@code topic}, as the sink settings name it, loaded now. */
  public Table table(String topic) {
    return catalog.loadTable(TableIdentifier.of(NAMESPACE, topic));
  }

  /**
   * Puts into {@code props} what makes a sink commit into this catalog: table mode, the catalog's
   * URI, and one table per topic in {@link #NAMESPACE}.
   *
   * @return {@code props}
   */
  public Map<String, String> tableMode(Map<String, String> props) {
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_URI_CONFIG, server.uri());
    props.put(IcebergConfig.TABLE_CONFIG, NAMESPACE + ".${topic}");
    return props;
  }

  @Override
  public void close() throws Exception {
    try {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    } finally {
      server.close();
    }
  }
}
