package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreSettings;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.types.Password;

/**
 * An Iceberg {@code FileIO} over our own stores ({@code storage/}): the table metadata a catalog
 * writes and reads (metadata files, manifest lists, manifests) goes through the same S3, HDFS or
 * local client as our data files, with the same settings and credentials. It is the default {@code
 * io-impl} of the table mode ({@link #catalogProperties}), so an {@code s3://} warehouse needs
 * nothing beyond the plugin (no {@code iceberg-aws}, no second set of credentials).
 *
 * <p>A location names a store root and a key: {@code s3://bucket/key} (also {@code s3a}, {@code
 * s3n}) the bucket's root, {@code file:/path}, {@code file:///path} and a bare {@code /path} the
 * local file system's root, any other {@code scheme://authority/path} the Hadoop file system there.
 * Reads are positioned (ranged GETs on S3); a new file appears whole when its stream is closed (the
 * store's atomic commit); {@link OutputFile#create} refuses an existing file, {@link
 * OutputFile#createOrOverwrite} replaces it. Missing files are Iceberg's {@link NotFoundException}.
 */
public final class StoreFileIO implements SupportsPrefixOperations {
  private static final long serialVersionUID = 1L;

  /** The prefix of the catalog properties that carry the store settings to this FileIO. */
  static final String STORE_PROPERTY_PREFIX = "parquet-connect.store.";

  private Map<String, String> properties = Map.of();
  private transient StoreSettings settings;
  private transient Map<String, Store> stores;

  /** For Iceberg's {@code CatalogUtil.loadFileIO}, followed by {@link #initialize}. */
  public StoreFileIO() {}

  /**
   * The catalog properties that make a catalog use this FileIO (unless {@code io-impl} is set
   * already) over stores opened with the store settings of {@code config} (every store key with a
   * value, and the {@code hadoop.config.*} pass-through keys); secrets go as their values, like the
   * catalog's own credentials, and never to a log.
   */
  static Map<String, String> catalogProperties(
      Map<String, String> catalogProperties, AbstractConfig config) {
    Map<String, String> all = new LinkedHashMap<>(catalogProperties);
    all.putIfAbsent("io-impl", StoreFileIO.class.getName());
    Map<String, ?> parsed = config.values();
    for (String key : StoreConfigDef.KEYS) {
      Object value = parsed.get(key);
      if (value instanceof Password password) {
        if (password.value() != null && !password.value().isEmpty()) {
          all.put(STORE_PROPERTY_PREFIX + key, password.value());
        }
      } else if (value != null) {
        all.put(STORE_PROPERTY_PREFIX + key, value.toString());
      }
    }
    config
        .originals()
        .forEach(
            (key, value) -> {
              if (key.startsWith(StoreConfigDef.HADOOP_CONFIG_PREFIX) && value instanceof String) {
                all.put(STORE_PROPERTY_PREFIX + key, (String) value);
              }
            });
    return all;
  }

  @Override
  public void initialize(Map<String, String> props) {
    this.properties = Map.copyOf(props);
    Map<String, Object> values = new HashMap<>();
    props.forEach(
        (key, value) -> {
          if (key.startsWith(STORE_PROPERTY_PREFIX)) {
            String name = key.substring(STORE_PROPERTY_PREFIX.length());
            values.put(name, StoreSettings.SECRET_KEYS.contains(name) ? Secret.of(value) : value);
          }
        });
    // A table's FileIO carries what the catalog vended with it: those credentials, not the
    // connector's, are the ones the table's storage accepts.
    this.settings = new StoreSettings(VendedCredentials.overStoreSettings(values, props));
    this.stores = new ConcurrentHashMap<>();
  }

  /** The settings its stores are opened with (the connector's, or what the catalog vended). */
  StoreSettings settings() {
    return settings;
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public InputFile newInputFile(String location) {
    return new StoreInputFile(this, location, -1);
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return new StoreInputFile(this, location, length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return new StoreOutputFile(this, location);
  }

  @Override
  public void deleteFile(String location) {
    Located file = locate(location);
    try {
      file.store().delete(file.key());
    } catch (IOException e) {
      throw unchecked("deleting " + location, e);
    }
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Located dir = locate(withoutTrailingSlashes(prefix));
    try {
      List<FileInfo> files = new ArrayList<>();
      String root = rootOf(prefix);
      for (StoreFile f : dir.store().list(dir.key(), true)) {
        files.add(new FileInfo(root + f.key(), f.size(), f.modified().toEpochMilli()));
      }
      return files;
    } catch (IOException e) {
      throw unchecked("listing " + prefix, e);
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    Located dir = locate(withoutTrailingSlashes(prefix));
    try {
      for (StoreFile f : dir.store().list(dir.key(), true)) {
        dir.store().delete(f.key());
      }
    } catch (IOException e) {
      throw unchecked("deleting under " + prefix, e);
    }
  }

  @Override
  public void close() {
    if (stores == null) {
      return;
    }
    for (Store store : stores.values()) {
      try {
        store.close();
      } catch (IOException e) {
        // Closing releases clients only: nothing written is at stake.
      }
    }
    stores.clear();
  }

  /** A store root and the key of a location in it. */
  record Located(Store store, String key) {}

  Located locate(String location) {
    if (stores == null) {
      initialize(Map.of());
    }
    String root = rootOf(location);
    String key = trimSlashes(location.substring(root.length()));
    Store store =
        stores.computeIfAbsent(
            root,
            r -> {
              try {
                return Stores.open(storeUrl(r), settings);
              } catch (IOException e) {
                throw unchecked("opening the store of " + location, e);
              }
            });
    return new Located(store, key);
  }

  /** The part of a location that names its store root, ending with {@code /}. */
  private static String rootOf(String location) {
    if (location.startsWith("/")) {
      return "/";
    }
    int colon = location.indexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("not an absolute location: " + location);
    }
    if (location.startsWith("//", colon + 1)) {
      int slash = location.indexOf('/', colon + 3);
      return slash < 0 ? location + "/" : location.substring(0, slash + 1);
    }
    // file:/path
    return location.substring(0, colon + 1) + "/";
  }

  /** The URL {@link Stores#open} takes for a root. */
  private static String storeUrl(String root) {
    if (root.equals("/")) {
      return "file:///";
    }
    String scheme = root.substring(0, root.indexOf(':')).toLowerCase(Locale.ROOT);
    String rest = root.substring(root.indexOf(':') + 1);
    return switch (scheme) {
      case "s3", "s3a", "s3n" -> "s3:" + rest;
      case "file" -> "file:///";
      default -> root;
    };
  }

  private static String withoutTrailingSlashes(String s) {
    int to = s.length();
    while (to > 1 && s.charAt(to - 1) == '/') {
      to--;
    }
    return s.substring(0, to);
  }

  private static String trimSlashes(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && s.charAt(from) == '/') {
      from++;
    }
    while (to > from && s.charAt(to - 1) == '/') {
      to--;
    }
    return s.substring(from, to);
  }

  /**
   * Iceberg's FileIO speaks unchecked exceptions: a missing file is its {@link NotFoundException},
   * anything else an {@link UncheckedIOException} that keeps the store's message (keys and URLs,
   * never a credential).
   */
  static RuntimeException unchecked(String what, IOException e) {
    if (e instanceof NoSuchFileException) {
      return new NotFoundException(e, "%s: no such file", what);
    }
    return new UncheckedIOException(what + ": " + e.getMessage(), e);
  }
}
