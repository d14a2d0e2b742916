package dev.parquetconnect.storage;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.TrustManagerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * The S3 client an {@link S3Store} talks through, built from its settings: the HTTP client (pool,
 * timeouts, truststore), endpoint, region, path style, checksums and credentials (static keys or
 * the default chain, optionally under an assumed role). The SDK's own retries are off: {@link
 * Retrier} retries every call. Server-side encryption is per request ({@link S3Sse}).
 */
final class S3ClientSetup {
  final S3Client s3;
  final SdkHttpClient http;

  /** The credentials provider when it holds resources (an STS client), else null. */
  final AutoCloseable credentialsToClose;

  private S3ClientSetup(S3Client s3, SdkHttpClient http, AutoCloseable credentialsToClose) {
    this.s3 = s3;
    this.http = http;
    this.credentialsToClose = credentialsToClose;
  }

  /** Builds the client; on a bad setting, closes what it opened and throws. */
  static S3ClientSetup open(StoreSettings settings) throws IOException {
    String endpoint = settings.string("s3.endpoint", null);
    String region = settings.string("s3.region", null);
    SdkHttpClient http = httpClient(settings);
    AwsCredentialsProvider creds = null;
    S3Client s3;
    try {
      S3ClientBuilder b = S3Client.builder().httpClient(http);
      if (endpoint != null) {
        URI e = URI.create(endpoint);
        if (!"http".equalsIgnoreCase(e.getScheme()) && !"https".equalsIgnoreCase(e.getScheme())) {
          throw new IllegalArgumentException("s3.endpoint must be an http:// or https:// URL");
        }
        if (e.getRawUserInfo() != null) {
          throw new IllegalArgumentException("credentials in s3.endpoint are not allowed");
        }
        b.endpointOverride(e);
      }
      if (region != null) {
        b.region(Region.of(region));
      } else if (endpoint != null) {
        b.region(Region.US_EAST_1); // S3-compatible stores mostly ignore it; the signer needs one
      }
      b.forcePathStyle(settings.bool("s3.path.style.access", false));
      String checksums =
          settings.string("s3.checksum.calculation", "when_supported").toLowerCase(Locale.ROOT);
      switch (checksums) {
        case "when_supported" ->
            b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_SUPPORTED);
        case "when_required" -> {
          b.requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED);
          b.responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
        }
        default ->
            throw new IllegalArgumentException(
                "s3.checksum.calculation must be when_supported or when_required, got "
                    + checksums);
      }
      creds = credentials(settings, region, http);
      b.credentialsProvider(creds);
      b.overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
      s3 = b.build();
    } catch (RuntimeException e) {
      http.close();
      if (creds instanceof AutoCloseable c) {
        closeQuietly(c);
      }
      throw e;
    }
    return new S3ClientSetup(s3, http, creds instanceof AutoCloseable c ? c : null);
  }

  /** The kind of credentials the settings choose, for the log (never the credentials). */
  static String credentialsKind(StoreSettings settings) {
    String base = settings.has("aws.access.key.id") ? "static keys" : "default chain";
    return settings.has("aws.sts.role.arn") ? "assume-role over " + base : base;
  }

  /** The HTTP client: connection pool, timeouts and the truststore {@code s3.tls.*} names. */
  private static SdkHttpClient httpClient(StoreSettings settings) throws IOException {
    Apache5HttpClient.Builder h =
        Apache5HttpClient.builder()
            .maxConnections(settings.intValue("s3.max.connections", 50))
            .connectionTimeout(
                Duration.ofMillis(settings.longValue("s3.connect.timeout.ms", 10_000)))
            .socketTimeout(Duration.ofMillis(settings.longValue("s3.socket.timeout.ms", 50_000)));
    String trustStore = settings.string("s3.tls.truststore.path", null);
    if (trustStore != null) {
      Secret password = settings.secret("s3.tls.truststore.password");
      String type = settings.string("s3.tls.truststore.type", "PKCS12");
      try (InputStream in = new FileInputStream(trustStore)) {
        KeyStore ks = KeyStore.getInstance(type);
        ks.load(in, password == null ? null : password.value().toCharArray());
        TrustManagerFactory tmf =
            TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(ks);
        h.tlsTrustManagersProvider(tmf::getTrustManagers);
      } catch (GeneralSecurityException e) {
        throw new IOException(
            "cannot load the truststore " + trustStore + " (" + e.getClass().getSimpleName() + ")");
      }
    }
    return h.build();
  }

  /**
   * The delegated credentials while a holder has some, else {@link #ownCredentials}: the SDK asks
   * for them at every request, so new ones apply at once.
   */
  private static AwsCredentialsProvider credentials(
      StoreSettings settings, String region, SdkHttpClient http) {
    AwsCredentialsProvider own = ownCredentials(settings, region, http);
    DelegatedCredentials delegated = settings.delegatedCredentials();
    if (delegated == null) {
      return own;
    }
    return new DelegatingCredentialsProvider(delegated, own);
  }

  /** Static keys or the default chain, under an assumed role if {@code aws.sts.role.arn} is set. */
  private static AwsCredentialsProvider ownCredentials(
      StoreSettings settings, String region, SdkHttpClient http) {
    Secret id = settings.secret("aws.access.key.id");
    Secret secret = settings.secret("aws.secret.access.key");
    Secret token = settings.secret("aws.session.token");
    if ((id == null) != (secret == null)) {
      throw new IllegalArgumentException(
          "aws.access.key.id and aws.secret.access.key must be set together");
    }
    AwsCredentialsProvider base;
    if (id != null) {
      base =
          StaticCredentialsProvider.create(
              token == null
                  ? AwsBasicCredentials.create(id.value(), secret.value())
                  : AwsSessionCredentials.create(id.value(), secret.value(), token.value()));
    } else {
      base = DefaultCredentialsProvider.builder().build();
    }
    String roleArn = settings.string("aws.sts.role.arn", null);
    if (roleArn == null) {
      return base;
    }
    var sts = StsClient.builder().credentialsProvider(base).httpClient(http);
    String stsRegion = settings.string("aws.sts.region", region);
    sts.region(Region.of(stsRegion == null ? "us-east-1" : stsRegion));
    String stsEndpoint = settings.string("aws.sts.endpoint", null);
    if (stsEndpoint != null) {
      sts.endpointOverride(URI.create(stsEndpoint));
    }
    String session = settings.string("aws.sts.role.session.name", "kafka-connect-parquet");
    Secret externalId = settings.secret("aws.sts.external.id");
    int duration = settings.intValue("aws.sts.duration.seconds", 3600);
    return StsAssumeRoleCredentialsProvider.builder()
        .stsClient(sts.build())
        .refreshRequest(
            r -> {
              r.roleArn(roleArn).roleSessionName(session).durationSeconds(duration);
              if (externalId != null) {
                r.externalId(externalId.value());
              }
            })
        .build();
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // nothing to do
    }
  }
}
