package dev.parquetconnect.storage;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * S3Proxy on 127.0.0.1 for tests that freeze a writer at an exact request: {@link #open} is a
 * direct client; {@link #stalls} a proxy in front of it ({@link FaultProxy}, injecting nothing)
 * whose clients stall right before a chosen request reaches the store, for as long as the test
 * wants, or for good until the proxy is closed (a writer killed there: nothing it does later
 * reaches the store).
 */
public final class StallingS3 implements AutoCloseable {
  private final S3ProxyServer server;

  public StallingS3() throws Exception {
    TestLogging.quietServers();
    server = new S3ProxyServer();
  }

  /** A direct client of the store under {@code prefix}. */
  public Store open(String prefix) throws IOException {
    return Stores.open(url(prefix), S3ProxyServer.settings(server.endpoint()));
  }

  private static String url(String prefix) {
    return "s3://" + S3ProxyServer.BUCKET + "/" + prefix;
  }

  /** A new proxy whose requests can be stalled. */
  public Stalls stalls() throws IOException {
    return new Stalls(new FaultProxy(server.port(), 0, 0));
  }

  @Override
  public void close() throws Exception {
    server.close();
  }

  /** A proxy in front of the store, with the stalls a test arms. */
  public static final class Stalls implements AutoCloseable {
    private final FaultProxy proxy;

    private Stalls(FaultProxy proxy) {
      this.proxy = proxy;
    }

    /**
     * A client through this proxy under {@code prefix}: no retries and a socket timeout of ten
     * minutes, so that a stalled request neither times out nor is sent again meanwhile.
     */
    public Store open(String prefix) throws IOException {
      Map<String, Object> settings = new HashMap<>(S3ProxyServer.settings(proxy.endpoint()));
      settings.put("s3.retry.max.attempts", "1");
      settings.put("s3.socket.timeout.ms", "600000");
      return Stores.open(url(prefix), settings);
    }

    /** See {@link FaultProxy#stallNext}: the start line is e.g. {@code PUT /lake/key HTTP/1.1}. */
    public void stallNext(Predicate<String> startLine, Runnable action) {
      proxy.stallNext(startLine, action);
    }

    /** Closes the proxy: a request stalled for good fails, and every later one. */
    @Override
    public void close() throws IOException {
      proxy.close();
    }
  }
}
