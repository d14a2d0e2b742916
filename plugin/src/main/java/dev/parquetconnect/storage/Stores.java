package dev.parquetconnect.storage;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/** Opens the {@link Store} a store URL names. */
public final class Stores {
  private Stores() {}

  /**
   * Opens a store.
   *
   * <ul>
   *   <li>{@code file:///abs/path}: {@link LocalStore} (the directory is created if missing)
   *   <li>{@code s3://bucket/prefix}: {@link S3Store}
   *   <li>{@code hdfs://namenode:port/path} and any other scheme Hadoop has a FileSystem for on the
   *       class path ({@code viewfs}, {@code webhdfs}, {@code abfs}, {@code gs}, {@code s3a}...):
   *       {@link HadoopStore}
   * </ul>
   *
   * @param storeUrl the URL; it must not carry credentials (they go in {@code settings})
   * @param settings the store settings (see docs/storage.md); other keys are ignored
   * @throws IllegalArgumentException for a malformed URL or setting (the message never contains a
   *     credential)
   */
  public static Store open(String storeUrl, Map<String, ?> settings) throws IOException {
    return open(storeUrl, new StoreSettings(settings));
  }

  /** Opens a store, as {@link #open(String, Map)}, with settings already gathered. */
  public static Store open(String storeUrl, StoreSettings settings) throws IOException {
    Objects.requireNonNull(settings, "settings");
    URI uri;
    try {
      uri = new URI(storeUrl);
    } catch (URISyntaxException e) {
      // The reason alone: a malformed URL might carry a secret.
      throw new IllegalArgumentException("store.url is not a valid URL: " + e.getReason());
    }
    if (uri.getScheme() == null) {
      throw new IllegalArgumentException("store.url needs a scheme (file, hdfs, s3...)");
    }
    if (uri.getRawUserInfo() != null) {
      throw new IllegalArgumentException(
          "store.url must not carry credentials; put them in the store settings");
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    return switch (scheme) {
      case "file" -> {
        if (uri.getAuthority() != null && !uri.getAuthority().isEmpty()) {
          throw new IllegalArgumentException("a file store URL has no host: file:///abs/path");
        }
        yield new LocalStore(Path.of(uri));
      }
      case "s3" -> new S3Store(uri, settings);
      default -> new HadoopStore(uri, settings);
    };
  }
}
