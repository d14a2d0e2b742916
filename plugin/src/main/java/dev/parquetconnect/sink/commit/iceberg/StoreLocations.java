package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.storage.Store;

/**
 * Where a table finds our data files: the store's URL and the key ({@code file:///...}, {@code
 * hdfs://...}, {@code s3://bucket/...}), as Iceberg's FileIOs and query engines read them.
 */
public final class StoreLocations {
  private StoreLocations() {}

  /** The absolute location of a key of {@code store}. */
  public static String uri(Store store, String key) {
    String root = store.url();
    return root.endsWith("/") ? root + key : root + "/" + key;
  }
}
