package dev.parquetconnect.storage;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.TransientApiMetadata;

/**
 * An in-process S3Proxy on 127.0.0.1 over jclouds' in-memory (transient) blob store. Public for the
 * tests of the connectors that read and write through S3.
 */
public final class S3ProxyServer implements AutoCloseable {
  static final String ACCESS_KEY = "AKIAPQCTESTACCESS0042";
  static final String SECRET_KEY = "pqcTestSecret/Do-Not-Log+0123456789abcdef";
  public static final String BUCKET = "lake";

  static {
    TestLogging.quietServers();
  }

  private final BlobStoreContext context;
  private final S3Proxy proxy;

  public S3ProxyServer() throws Exception {
    this(null, null, false);
  }

  /**
   * With a keystore: serves HTTPS instead of HTTP. With {@code ignoreUnknownHeaders}, accepts (and
   * ignores) headers S3Proxy does not implement: the SSE headers, x-amz-security-token.
   */
  S3ProxyServer(String keyStorePath, String keyStorePassword, boolean ignoreUnknownHeaders)
      throws Exception {
    // By ApiMetadata, not by id: the id lookup instantiates every provider on the class path,
    // including S3Proxy's Azure one whose jclouds modules are trimmed from the test class path.
    context =
        ContextBuilder.newBuilder(new TransientApiMetadata())
            .credentials(ACCESS_KEY, SECRET_KEY)
            .overrides(new Properties())
            .build(BlobStoreContext.class);
    S3Proxy.Builder b =
        S3Proxy.builder()
            .blobStore(context.getBlobStore())
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            .ignoreUnknownHeaders(ignoreUnknownHeaders);
    if (keyStorePath != null) {
      b.secureEndpoint(URI.create("https://127.0.0.1:0")).keyStore(keyStorePath, keyStorePassword);
    } else {
      b.endpoint(URI.create("http://127.0.0.1:0"));
    }
    proxy = b.build();
    proxy.start();
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!"STARTED".equals(proxy.getState())) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("S3Proxy did not start: " + proxy.getState());
      }
      Thread.sleep(10);
    }
    context.getBlobStore().createContainerInLocation(null, BUCKET);
  }

  int port() {
    return proxy.getPort();
  }

  int securePort() {
    return proxy.getSecurePort();
  }

  /** The access key the server accepts, for tests that hand it over outside a store's settings. */
  public static String accessKeyId() {
    return ACCESS_KEY;
  }

  /** The secret of {@link #accessKeyId()}. */
  public static String secretAccessKey() {
    return SECRET_KEY;
  }

  public String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  /** Settings for a store on this server (or on a proxy in front of it). */
  public static Map<String, Object> settings(String endpoint) {
    Map<String, Object> s = new HashMap<>();
    s.put("s3.endpoint", endpoint);
    s.put("s3.region", "us-east-1");
    s.put("s3.path.style.access", "true");
    s.put("aws.access.key.id", ACCESS_KEY);
    s.put("aws.secret.access.key", Secret.of(SECRET_KEY));
    s.put("s3.part.size", String.valueOf(S3Store.MIN_PART_SIZE));
    // S3Proxy does not understand the signed streaming trailer the SDK sends over plain HTTP
    // for its default CRC32 checksums ("x-amz-content-sha256 does not match").
    s.put("s3.checksum.calculation", "when_required");
    s.put("s3.retry.base.delay.ms", "5");
    s.put("s3.retry.max.delay.ms", "200");
    s.put("s3.socket.timeout.ms", "10000");
    return s;
  }

  @Override
  public void close() throws Exception {
    proxy.stop();
    context.close();
  }
}
