package dev.parquetconnect.source;

import dev.parquetconnect.format.io.RemoteDirectories;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.sink.commit.iceberg.IcebergCatalogs;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/**
 * An Iceberg table as a directory for {@code pq audit iceberg://namespace.table[@snapshot-id]}: the
 * data files its current (or given) snapshot references, keyed by their key in {@code store.url},
 * read through the plugin's store. The settings are a source connector's: {@code store.url}, the
 * store's own keys and the {@code iceberg.catalog.*} keys. pq itself has no Iceberg (and no Avro,
 * which a table's manifests are written in): it finds this class, like the plugin's other stores,
 * through the codec's {@link RemoteDirectories} service interface when the plugin's jars are on its
 * class path.
 */
public final class TableDirectories implements RemoteDirectories {
  static final String SCHEME = "iceberg://";

  @Override
  public boolean opens(String url) {
    return url.toLowerCase(Locale.ROOT).startsWith(SCHEME);
  }

  @Override
  public Directory open(String url, Map<String, String> settings) throws IOException {
    String spec = url.substring(SCHEME.length());
    int at = spec.lastIndexOf('@');
    String tableName = at < 0 ? spec : spec.substring(0, at);
    Long snapshotId;
    try {
      snapshotId = at < 0 ? null : Long.parseLong(spec.substring(at + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "not a snapshot id after '@': " + spec.substring(at + 1) + " (iceberg://ns.table@id)");
    }
    String storeUrl = settings.get(ParquetSourceConfig.STORE_URL_CONFIG);
    if (storeUrl == null || storeUrl.isBlank()) {
      throw new IllegalArgumentException(
          "an Iceberg table needs store.url (where the sink wrote its data files) and the"
              + " iceberg.catalog.* keys in --store-config");
    }
    Map<String, Object> catalogKeys = new HashMap<>();
    Map<String, String> storeSettings = new HashMap<>();
    settings.forEach(
        (k, v) -> {
          if (k.startsWith(IcebergConfig.CATALOG_PREFIX)) {
            catalogKeys.put(k, v);
          } else if (!k.equals(ParquetSourceConfig.STORE_URL_CONFIG)) {
            storeSettings.put(k, v);
          }
        });
    Catalog catalog = IcebergCatalogs.open(TableReplayConfig.catalogSettings(catalogKeys));
    Store store = null;
    try {
      Table table = catalog.loadTable(TableIdentifier.parse(tableName));
      Snapshot snapshot = snapshotId == null ? table.currentSnapshot() : table.snapshot(snapshotId);
      if (snapshotId != null && snapshot == null) {
        throw new IllegalArgumentException(tableName + " has no snapshot " + snapshotId);
      }
      store = Stores.open(storeUrl.trim(), storeSettings);
      List<Directory.Entry> entries = new ArrayList<>();
      if (snapshot != null) {
        TableScan scan = table.newScan().useSnapshot(snapshot.snapshotId());
        try (CloseableIterable<FileScanTask> tasks = scan.planFiles()) {
          for (FileScanTask task : tasks) {
            entries.add(
                new Directory.Entry(
                    TableDiscovery.storeKey(store, task.file().location(), tableName),
                    task.file().fileSizeInBytes()));
          }
        }
      }
      entries.sort((a, b) -> a.key().compareTo(b.key()));
      return new TableDirectory(List.copyOf(entries), store, catalog);
    } catch (RuntimeException e) {
      closeQuietly(store, catalog);
      if (e instanceof IllegalArgumentException) {
        throw e;
      }
      throw new IOException("reading table " + tableName + ": " + e.getMessage(), e);
    } catch (IOException e) {
      closeQuietly(store, catalog);
      throw e;
    }
  }

  private static void closeQuietly(Store store, Catalog catalog) {
    try {
      if (store != null) {
        store.close();
      }
      if (catalog instanceof AutoCloseable c) {
        c.close();
      }
    } catch (Exception ignored) {
      // the failure that got here is the one to report
    }
  }

  /** The data files of one snapshot, read from the store. */
  private static final class TableDirectory implements Directory {
    private final List<Entry> entries;
    private final Store store;
    private final Catalog catalog;

    TableDirectory(List<Entry> entries, Store store, Catalog catalog) {
      this.entries = entries;
      this.store = store;
      this.catalog = catalog;
    }

    @Override
    public List<Entry> list() {
      return entries;
    }

    @Override
    public SeekableInput open(String key) throws IOException {
      return store.open(key);
    }

    @Override
    public boolean everyFileCommitted() {
      return true;
    }

    @Override
    public void close() throws IOException {
      try {
        store.close();
      } finally {
        if (catalog instanceof AutoCloseable c) {
          try {
            c.close();
          } catch (Exception e) {
            throw new IOException("closing the catalog: " + e.getMessage(), e);
          }
        }
      }
    }
  }
}
