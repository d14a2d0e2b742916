package dev.parquetconnect.storage;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Retries an idempotent S3 call with exponential backoff and full jitter: attempt {@code n} (from
 * 1) waits a uniformly random time in {@code [0, min(max, base * 2^(n-1))]} before the next, with a
 * base five times larger after throttling. Retried: HTTP 5xx, 429, the throttling and transient
 * error codes (SlowDown, Throttling, RequestTimeout, InternalError, ConditionalRequestConflict...),
 * and connection errors (any {@link IOException} in the cause chain of a client exception, a reset
 * or truncated response). Anything else fails at once.
 *
 * <p>The SDK's own retries are switched off, so this is the only retry layer and every retry is
 * visible here (logged at WARN without credentials).
 */
final class Retrier {
  private static final Logger LOG = LoggerFactory.getLogger(Retrier.class);

  private static final Set<String> RETRYABLE_CODES =
      Set.of(
          "SlowDown",
          "Throttling",
          "ThrottlingException",
          "RequestLimitExceeded",
          "TooManyRequestsException",
          "ProvisionedThroughputExceededException",
          "RequestThrottled",
          "RequestTimeout",
          "RequestTimeoutException",
          "InternalError",
          "ServiceUnavailable",
          "ConditionalRequestConflict",
          "OperationAborted",
          "BadDigest",
          "IncompleteBody",
          "ExpiredToken",
          "RequestTimeTooSkewed");

  private static final Set<String> THROTTLING_CODES =
      Set.of(
          "SlowDown",
          "Throttling",
          "ThrottlingException",
          "RequestLimitExceeded",
          "TooManyRequestsException",
          "ProvisionedThroughputExceededException",
          "RequestThrottled");

  interface Call<T> {
    T run() throws IOException;
  }

  private final int maxAttempts;
  private final long baseMs;
  private final long maxMs;
  private final String where;

  Retrier(int maxAttempts, long baseMs, long maxMs, String where) {
    if (maxAttempts < 1 || baseMs < 0 || maxMs < baseMs) {
      throw new IllegalArgumentException(
          "bad retry settings: attempts "
              + maxAttempts
              + ", base "
              + baseMs
              + " ms, max "
              + maxMs
              + " ms");
    }
    this.maxAttempts = maxAttempts;
    this.baseMs = baseMs;
    this.maxMs = maxMs;
    this.where = where;
  }

  int maxAttempts() {
    return maxAttempts;
  }

  <T> T call(String what, Call<T> call) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.run();
      } catch (IOException | RuntimeException e) {
        if (attempt >= maxAttempts || !retryable(e)) {
          throw e;
        }
        long cap =
            Math.min(maxMs, (throttling(e) ? 5 * baseMs : baseMs) << Math.min(attempt - 1, 20));
        long sleep = cap <= 0 ? 0 : ThreadLocalRandom.current().nextLong(cap + 1);
        LOG.warn(
            "{}: {} failed (attempt {} of {}), retrying in {} ms: {}",
            where,
            what,
            attempt,
            maxAttempts,
            sleep,
            describe(e));
        try {
          Thread.sleep(sleep);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          InterruptedIOException iio =
              new InterruptedIOException(
                  where + ": " + what + " interrupted while waiting to retry");
          iio.initCause(e);
          throw iio;
        }
      }
    }
  }

  static boolean retryable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.security.cert.CertificateException
          || t instanceof javax.net.ssl.SSLPeerUnverifiedException) {
        return false; // an untrusted or mismatched certificate does not heal
      }
      if (t.getCause() == t) {
        break;
      }
    }
    if (e instanceof AwsServiceException s) {
      int status = s.statusCode();
      String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
      return status >= 500 || status == 429 || (code != null && RETRYABLE_CODES.contains(code));
    }
    if (e instanceof InterruptedIOException && !(e instanceof java.net.SocketTimeoutException)) {
      return false;
    }
    if (e instanceof IOException || e instanceof UncheckedIOException) {
      return !(e instanceof java.nio.file.FileAlreadyExistsException)
          && !(e instanceof java.nio.file.NoSuchFileException)
          && !(e instanceof FencedException);
    }
    if (e instanceof SdkClientException c) {
      if (c.retryable()) {
        return true;
      }
      for (Throwable t = c.getCause(); t != null; t = t.getCause()) {
        if (t instanceof IOException) {
          return true;
        }
      }
      String m = String.valueOf(c.getMessage());
      // A response cut off mid-body (a reset after the headers) surfaces as an unparsable
      // XML document; every call we retry is idempotent, so it is as retryable as a reset.
      return m.contains("Unable to execute HTTP request")
          || m.contains("timed out")
          || m.contains("Connection reset")
          || m.contains("Premature end")
          || m.contains("Could not parse XML response")
          || m.contains("Unable to unmarshall");
    }
    return false;
  }

  static boolean throttling(Throwable e) {
    if (e instanceof AwsServiceException s) {
      String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
      return s.statusCode() == 503
          || s.statusCode() == 429
          || (code != null && THROTTLING_CODES.contains(code));
    }
    return false;
  }

  static String describe(Throwable e) {
    if (e instanceof AwsServiceException s) {
      String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
      return "HTTP " + s.statusCode() + (code == null ? "" : " " + code);
    }
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return e.getClass().getSimpleName()
        + (root != e
            ? " (" + root.getClass().getSimpleName() + ": " + root.getMessage() + ")"
            : ": " + e.getMessage());
  }

  /** A writer whose upload or temporary file was removed under it: never retried. */
  static final class FencedException extends IOException {
    FencedException(String message) {
      super(message);
    }
  }
}
