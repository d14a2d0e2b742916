package dev.parquetconnect.storage;

import java.util.Map;

/**
 * S3Proxy on 127.0.0.1 with the counting proxy ({@link FaultProxy}, without faults) in front, for
 * the ITs of other packages that measure how many bytes a reader fetches: the bytes the S3 endpoint
 * sends back through the proxy, HTTP heads included.
 */
public final class ByteCountingS3 implements AutoCloseable {
  private final S3ProxyServer server;
  private final FaultProxy proxy;

  public ByteCountingS3() throws Exception {
    server = new S3ProxyServer();
    proxy = new FaultProxy(server.port(), 0, 1);
  }

  /** Store settings that reach S3Proxy directly: nothing counted. */
  public Map<String, Object> directSettings() {
    return S3ProxyServer.settings(server.endpoint());
  }

  /** Store settings that reach S3Proxy through the counting proxy. */
  public Map<String, Object> countedSettings() {
    return S3ProxyServer.settings(proxy.endpoint());
  }

  /** The store URL of {@code prefix} in the test bucket. */
  public String url(String prefix) {
    return "s3://" + S3ProxyServer.BUCKET + "/" + prefix;
  }

  public void resetCounters() {
    proxy.resetCounters();
  }

  /** Requests (each a ranged GET, a HEAD or a listing) relayed since the last reset. */
  public int requests() {
    return proxy.requests();
  }

  /** Bytes sent back to clients through the proxy since the last reset. */
  public long bytesToClient() {
    return proxy.bytesToClient();
  }

  @Override
  public void close() throws Exception {
    proxy.close();
    server.close();
  }
}
