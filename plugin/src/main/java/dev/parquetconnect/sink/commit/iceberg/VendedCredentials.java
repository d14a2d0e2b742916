package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.storage.DelegatedCredentials;
import dev.parquetconnect.storage.Secret;
import java.util.HashMap;
import java.util.Map;

/**
 * The S3 credentials a catalog vends with a table, read from the properties of the table's FileIO.
 * An Iceberg REST catalog returns them in a table's load result ({@code LoadTableResult.config},
 * asked for with the header {@code X-Iceberg-Access-Delegation: vended-credentials}) under the
 * names of Iceberg's own S3 FileIO, and Iceberg's REST client initializes the table's FileIO with
 * the catalog's properties merged with them. Here they become our store settings: {@code
 * s3.access-key-id}, {@code s3.secret-access-key} and {@code s3.session-token} the store's {@code
 * aws.*} keys (as secrets), {@code s3.endpoint}, {@code client.region} and {@code
 * s3.path-style-access} its endpoint, region and path style, and {@code
 * s3.session-token-expires-at-ms} when they must be renewed (by loading the table again).
 */
public final class VendedCredentials {
  static final String ACCESS_KEY_ID = "s3.access-key-id";
  static final String SECRET_ACCESS_KEY = "s3.secret-access-key";
  static final String SESSION_TOKEN = "s3.session-token";
  static final String EXPIRES_AT_MS = "s3.session-token-expires-at-ms";
  static final String ENDPOINT = "s3.endpoint";
  static final String REGION = "client.region";
  static final String PATH_STYLE = "s3.path-style-access";

  /** Credentials expiring within this are renewed before the next commit or file. */
  static final long RENEW_BEFORE_MS = 5 * 60_000L;

  private VendedCredentials() {}

  /** The credentials in a table's FileIO properties, or null when they carry none. */
  public static DelegatedCredentials.Current of(Map<String, String> io) {
    String id = io.get(ACCESS_KEY_ID);
    String secret = io.get(SECRET_ACCESS_KEY);
    if (isBlank(id) || isBlank(secret)) {
      return null;
    }
    String token = io.get(SESSION_TOKEN);
    return new DelegatedCredentials.Current(
        Secret.of(id), Secret.of(secret), isBlank(token) ? null : Secret.of(token), expiresAt(io));
  }

  /**
   * When the vended credentials expire, in epoch milliseconds; {@link Long#MAX_VALUE} when the
   * catalog does not say.
   *
   * @throws IllegalArgumentException when the expiry is not a number (the message names the key,
   *     never a credential)
   */
  static long expiresAt(Map<String, String> io) {
    String at = io.get(EXPIRES_AT_MS);
    if (isBlank(at)) {
      return Long.MAX_VALUE;
    }
    try {
      return Long.parseLong(at.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "the catalog vended " + EXPIRES_AT_MS + " '" + at + "', not epoch milliseconds");
    }
  }

  /** Whether the properties carry credentials that expire within {@link #RENEW_BEFORE_MS}. */
  static boolean expiring(Map<String, String> io, long nowMillis) {
    DelegatedCredentials.Current c = of(io);
    return c != null
        && c.expiresAtMillis() != Long.MAX_VALUE
        && c.expiresAtMillis() - RENEW_BEFORE_MS <= nowMillis;
  }

  /**
   * Store settings {@code own} with what {@code io} vends over them: without credentials in {@code
   * io}, {@code own} as it is; with them, the vended keys instead of the store's own (an assumed
   * role of {@code aws.sts.*} dropped: the vended credentials are the final ones), and the vended
   * endpoint, region and path style where given.
   */
  static Map<String, Object> overStoreSettings(Map<String, Object> own, Map<String, String> io) {
    DelegatedCredentials.Current c = of(io);
    if (c == null) {
      return own;
    }
    Map<String, Object> settings = new HashMap<>(own);
    settings.keySet().removeIf(key -> key.startsWith("aws."));
    settings.put("aws.access.key.id", c.accessKeyId());
    settings.put("aws.secret.access.key", c.secretAccessKey());
    if (c.sessionToken() != null) {
      settings.put("aws.session.token", c.sessionToken());
    }
    copy(io, ENDPOINT, settings, "s3.endpoint");
    copy(io, REGION, settings, "s3.region");
    copy(io, PATH_STYLE, settings, "s3.path.style.access");
    return settings;
  }

  private static void copy(
      Map<String, String> io, String from, Map<String, Object> settings, String to) {
    String value = io.get(from);
    if (!isBlank(value)) {
      settings.put(to, value.trim());
    }
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
