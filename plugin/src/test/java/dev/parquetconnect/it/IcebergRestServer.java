package dev.parquetconnect.it;

import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.rest.IcebergServerAdapters;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Iceberg's own REST catalog server, in-process on 127.0.0.1: Iceberg's {@link RESTCatalogServlet}
 * and {@link RESTCatalogAdapter} (the handler of every route of the REST catalog protocol, as
 * iceberg-open-api's {@code RESTCatalogServer} mounts them) over a {@code JdbcCatalog} on an
 * embedded SQLite file, served by the test classpath's Jetty. {@code RESTCatalogServer.start}
 * itself binds every interface ({@code new Server(port)}), which the tests never do.
 */
public final class IcebergRestServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergRestServer.class);

  private final Catalog backend;
  private final Server server;
  private final String uri;

  private IcebergRestServer(Catalog backend, Server server, String uri) {
    this.backend = backend;
    this.server = server;
    this.uri = uri;
  }

  /**
   * Starts a server whose tables live under {@code warehouse} (a local path or any location the
   * backend's FileIO writes, with {@code backendProperties} such as an S3 endpoint). With {@code
   * include-credentials=true} among them, it vends their {@code s3.access-key-id}, {@code
   * s3.secret-access-key} and {@code s3.session-token} with every table, as Iceberg's {@code
   * RESTCatalogServer} does.
   */
  public static IcebergRestServer start(
      Path workDir, String warehouse, Map<String, String> backendProperties) throws Exception {
    Map<String, String> properties = new java.util.HashMap<>(backendProperties);
    properties.put(CatalogUtil.ICEBERG_CATALOG_TYPE, CatalogUtil.ICEBERG_CATALOG_TYPE_JDBC);
    properties.put("uri", "jdbc:sqlite:" + workDir.resolve("rest-catalog.db"));
    properties.put("jdbc.schema-version", "V1");
    properties.put("warehouse", warehouse);
    Catalog backend =
        CatalogUtil.buildIcebergCatalog("rest_backend", properties, new Configuration());
    Server server = new Server();
    ServerConnector connector = new ServerConnector(server);
    connector.setHost(ItPaths.LOOPBACK);
    connector.setPort(0);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    // Iceberg's server adapter vends the configuration's storage credentials with each table
    // when include-credentials is true; the plain adapter never does.
    RESTCatalogAdapter adapter =
        properties.containsKey("include-credentials")
            ? IcebergServerAdapters.serverAdapter(backend, properties)
            : new RESTCatalogAdapter(backend);
    context.addServlet(new ServletHolder(new RESTCatalogServlet(adapter)), "/*");
    server.setHandler(context);
    server.start();
    String uri = "http://" + ItPaths.LOOPBACK + ":" + connector.getLocalPort() + "/";
    LOG.info("Iceberg REST catalog at {}, warehouse {}", uri, warehouse);
    return new IcebergRestServer(backend, server, uri);
  }

  /** Stops serving (connections are refused) until {@link #restart}; the tables stay. */
  public void stop() throws Exception {
    server.stop();
  }

  /** Serves again, on the same port. */
  public void restart() throws Exception {
    ServerConnector connector = (ServerConnector) server.getConnectors()[0];
    connector.setPort(java.net.URI.create(uri).getPort());
    server.start();
    LOG.info("Iceberg REST catalog at {} serves again", uri);
  }

  /** The catalog's URI ({@code iceberg.catalog.uri}). */
  public String uri() {
    return uri;
  }

  @Override
  public void close() throws Exception {
    server.stop();
    if (backend instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }
}
