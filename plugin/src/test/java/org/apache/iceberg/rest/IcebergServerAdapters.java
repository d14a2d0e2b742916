package org.apache.iceberg.rest;

import java.util.Map;
import org.apache.iceberg.catalog.Catalog;

/**
 * The request handler Iceberg's own REST catalog server ({@code RESTCatalogServer} of
 * iceberg-open-api's test fixtures) mounts: a {@link RESTCatalogAdapter} that, when its catalog's
 * configuration has {@code include-credentials=true}, returns the {@code s3.access-key-id}, {@code
 * s3.secret-access-key} and {@code s3.session-token} of that configuration in every table's load
 * result ({@code LoadTableResult.config}), as a catalog vending credentials does. Its class and
 * constructor are package-private, hence this class in Iceberg's package (test scope only).
 */
public final class IcebergServerAdapters {
  private IcebergServerAdapters() {}

  /** The server's handler over {@code backend}, configured as the server would be. */
  public static RESTCatalogAdapter serverAdapter(
      Catalog backend, Map<String, String> configuration) {
    return new RESTServerCatalogAdapter(
        new RESTCatalogServer.CatalogContext(backend, Map.copyOf(configuration)));
  }
}
