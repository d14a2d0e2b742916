package dev.parquetconnect.storage;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * The credentials of a {@link DelegatedCredentials} holder while it has some, else the store's own.
 * Asked at every request, so a replaced set applies to the next one.
 */
final class DelegatingCredentialsProvider implements AwsCredentialsProvider, AutoCloseable {
  private final DelegatedCredentials delegated;
  private final AwsCredentialsProvider own;

  DelegatingCredentialsProvider(DelegatedCredentials delegated, AwsCredentialsProvider own) {
    this.delegated = delegated;
    this.own = own;
  }

  @Override
  public AwsCredentials resolveCredentials() {
    DelegatedCredentials.Current c = delegated.current();
    if (c == null) {
      return own.resolveCredentials();
    }
    String id = c.accessKeyId().value();
    String secret = c.secretAccessKey().value();
    return c.sessionToken() == null
        ? AwsBasicCredentials.create(id, secret)
        : AwsSessionCredentials.create(id, secret, c.sessionToken().value());
  }

  @Override
  public void close() throws Exception {
    if (own instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  @Override
  public String toString() {
    return "DelegatingCredentialsProvider[" + delegated + "]";
  }
}
