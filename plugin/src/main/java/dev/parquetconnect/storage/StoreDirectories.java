package dev.parquetconnect.storage;

import dev.parquetconnect.format.io.RemoteDirectories;
import dev.parquetconnect.format.io.SeekableInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The plugin's stores for tools over the codec ({@code pq audit hdfs://... or s3://...}): a
 * directory is a {@link Store} opened with {@link Stores#open(String, Map)} and the same settings
 * as a connector's. Found by {@link java.util.ServiceLoader} when the plugin's jars are on pq's
 * class path.
 */
public final class StoreDirectories implements RemoteDirectories {
  @Override
  public boolean opens(String url) {
    int colon = url.indexOf("://");
    if (colon <= 0) {
      return false;
    }
    String scheme = url.substring(0, colon).toLowerCase(Locale.ROOT);
    return !scheme.equals("file") && !scheme.equals("iceberg"); // iceberg: TableDirectories
  }

  @Override
  public Directory open(String url, Map<String, String> settings) throws IOException {
    Store store = Stores.open(url, settings);
    return new Directory() {
      @Override
      public List<Entry> list() throws IOException {
        List<Entry> entries = new ArrayList<>();
        for (StoreFile f : store.list("", true)) {
          if (!f.directory()) {
            entries.add(new Entry(f.key(), f.size()));
          }
        }
        entries.sort((a, b) -> a.key().compareTo(b.key()));
        return entries;
      }

      @Override
      public SeekableInput open(String key) throws IOException {
        return store.open(key);
      }

      @Override
      public void close() throws IOException {
        store.close();
      }
    };
  }
}
