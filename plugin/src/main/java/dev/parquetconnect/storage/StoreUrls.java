package dev.parquetconnect.storage;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;

/**
 * The checks of a {@code store.url} that need no connection, shared by both connectors' validators
 * so that the REST validate call refuses every URL {@link Stores#open} would refuse later (in a
 * task, where the failure is harder to read).
 *
 * <p>A message quotes the URL only when it cannot carry a credential (no {@code @}, no query,
 * parseable): a user who pastes {@code s3://KEY:SECRET@bucket} or {@code s3:KEY:SECRET@bucket} must
 * not find the secret in the worker's answer or log.
 */
public final class StoreUrls {
  /** The key both connectors read the URL from. */
  public static final String KEY = "store.url";

  private StoreUrls() {}

  /** What is wrong with a store URL, naming the key, or {@code null} if nothing is. */
  public static String problem(Object value) {
    if (value == null || value.toString().isBlank()) {
      return KEY + " is required: file:///path, hdfs://host/path or s3://bucket/prefix";
    }
    String text = value.toString().trim();
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      // The reason alone: the index and input of the exception repeat the value.
      return KEY + " is not a valid URL: " + e.getReason();
    }
    String quoted = quoted(text);
    // An authority with '@' is user information, also when Java cannot parse it as such
    // (file://u:p@/x has a "registry" authority and no user info), and so is '@' in an opaque
    // URL such as s3:KEY:SECRET@bucket.
    if (uri.getRawUserInfo() != null || text.contains("@")) {
      return KEY + " must not carry credentials (nor any '@'); put them in the store settings";
    }
    if (uri.getScheme() == null) {
      return KEY
          + " "
          + quoted
          + " needs a scheme: file:///path, hdfs://host/path or "
          + "s3://bucket/prefix";
    }
    if (uri.isOpaque()) {
      return KEY
          + " "
          + quoted
          + " is not a hierarchical URL: file:///path, hdfs://host/path "
          + "or s3://bucket/prefix";
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      // Stores.open cannot use either (LocalStore refuses a query), and a query is where tokens
      // go: the value is not quoted.
      return KEY + " must not have a query or fragment ('?', '#')";
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        // The stores take the path as the root of every key; '..' would put the files
        // somewhere else than the URL reads (and S3 refuses such a prefix only when a task
        // opens the store).
        return KEY + " " + quoted + " has a '" + segment + "' segment; give the path without it";
      }
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    String authority = uri.getRawAuthority();
    if (scheme.equals("file")) {
      if ((authority != null && !authority.isEmpty()) || !path.startsWith("/")) {
        return KEY + " " + quoted + " is not file:///absolute/path (a file URL has no host)";
      }
    } else if (scheme.equals("s3")) {
      if (authority == null || authority.isEmpty()) {
        return KEY + " " + quoted + " names no bucket: s3://bucket/prefix";
      }
    } else if (!path.isEmpty() && !path.startsWith("/")) {
      return KEY + " " + quoted + " needs an absolute path: hdfs://host/path";
    }
    return null;
  }

  /**
   * What is wrong with the scheme of a valid {@code store.url}, naming the key, or {@code null}: a
   * scheme other than file and s3 must be one Hadoop has a FileSystem for (asked without any
   * connection, with the configuration the store would get: {@code hadoop.conf.dir} and {@code
   * hadoop.config.*}). Else validate accepted the URL and every task failed with "No FileSystem for
   * scheme".
   *
   * @param props the connector configuration as given (null values allowed)
   */
  public static String schemeProblem(Map<String, ?> props) {
    Object url = props.get(KEY);
    if (!(url instanceof String text) || problem(text) != null) {
      return null; // the URL's own error is reported
    }
    String scheme;
    try {
      scheme = new URI(text.trim()).getScheme().toLowerCase(Locale.ROOT);
    } catch (URISyntaxException e) {
      return null;
    }
    if (scheme.equals("file") || scheme.equals("s3")) {
      return null;
    }
    Map<String, Object> given = new LinkedHashMap<>();
    props.forEach(
        (key, value) -> {
          if (value instanceof String
              && (key.startsWith("hadoop.config.") || key.equals("hadoop.conf.dir"))) {
            given.put(key, value);
          }
        });
    try {
      FileSystem.getFileSystemClass(scheme, configuration(given));
      return null;
    } catch (IOException e) {
      return KEY
          + ": Hadoop has no file system for the scheme '"
          + scheme
          + "' (file, "
          + "s3, hdfs and the schemes of Hadoop jars installed with the plugin; or set "
          + "hadoop.config.fs."
          + scheme
          + ".impl)";
    } catch (RuntimeException | LinkageError e) {
      return null; // e.g. hadoop.conf.dir is not a directory: the store reports it
    }
  }

  /**
   * The Hadoop configuration of the given keys; one that an unusable {@code hadoop.conf.dir} fails
   * (the store reports that directory) is made without it, so the scheme is still checked.
   */
  private static org.apache.hadoop.conf.Configuration configuration(Map<String, Object> given)
      throws IOException {
    try {
      return HadoopStore.configuration(new StoreSettings(given));
    } catch (IllegalArgumentException e) {
      Map<String, Object> without = new LinkedHashMap<>(given);
      without.remove("hadoop.conf.dir");
      return HadoopStore.configuration(new StoreSettings(without));
    }
  }

  /** The URL in quotes when it cannot hold a credential, else a placeholder. */
  private static String quoted(String url) {
    if (url.contains("@") || url.contains("?") || url.contains("#")) {
      return "(value not shown)";
    }
    return "'" + url + "'";
  }
}
