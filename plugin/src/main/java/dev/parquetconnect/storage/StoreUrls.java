package dev.parquetconnect.storage;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The checks of a {@code store.url} that need no connection, shared by both connectors'
 * validators so that the REST validate call refuses every URL {@link Stores#open} would refuse
 * later (in a task, where the failure is harder to read).
 *
 * <p>A message quotes the URL only when it cannot carry a credential (no {@code @}, no query,
 * parseable): a user who pastes {@code s3://KEY:SECRET@bucket} or {@code s3:KEY:SECRET@bucket}
 * must not find the secret in the worker's answer or log.
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
      return KEY + " " + quoted + " needs a scheme: file:///path, hdfs://host/path or "
          + "s3://bucket/prefix";
    }
    if (uri.isOpaque()) {
      return KEY + " " + quoted + " is not a hierarchical URL: file:///path, hdfs://host/path "
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

  /** The URL in quotes when it cannot hold a credential, else a placeholder. */
  private static String quoted(String url) {
    if (url.contains("@") || url.contains("?") || url.contains("#")) {
      return "(value not shown)";
    }
    return "'" + url + "'";
  }
}
