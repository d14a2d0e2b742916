package dev.parquetconnect.storage;

/**
 * S3 credentials that someone else hands to a store while it is open, such as the ones an Iceberg
 * REST catalog vends with a table: an S3 store opened with a holder in its settings ({@link
 * StoreSettings#DELEGATED_CREDENTIALS}) signs every request with the holder's current credentials
 * once it has any, and with its own settings' until then. Replacing them takes effect on the next
 * request, uploads in progress included. Thread-safe; {@link #toString} never shows a value.
 */
public final class DelegatedCredentials {
  /** One set of credentials and when it expires ({@link Long#MAX_VALUE}: not known to). */
  public record Current(
      Secret accessKeyId, Secret secretAccessKey, Secret sessionToken, long expiresAtMillis) {
    @Override
    public String toString() {
      return "credentials "
          + (sessionToken == null ? "without" : "with")
          + " a session token"
          + (expiresAtMillis == Long.MAX_VALUE ? "" : ", expiring at " + expiresAtMillis);
    }
  }

  private volatile Current current;

  /** The credentials to sign with now, or null while none have been handed over. */
  public Current current() {
    return current;
  }

  /** Replaces the credentials; {@code sessionToken} may be null. */
  public void update(Current credentials) {
    this.current = credentials;
  }

  /** Drops the credentials: the store signs with its own settings again. */
  public void clear() {
    this.current = null;
  }

  @Override
  public String toString() {
    Current c = current;
    return "DelegatedCredentials[" + (c == null ? "none" : c.toString()) + "]";
  }
}
