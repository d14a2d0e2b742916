package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** The store contract on S3Proxy (in-memory back end) on 127.0.0.1, plus S3-only behaviour. */
class S3StoreIT extends StoreContract {
  private static S3ProxyServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = new S3ProxyServer();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected Store openStore(String rootName) throws IOException {
    return Stores.open(
        "s3://" + S3ProxyServer.BUCKET + "/lake/" + rootName,
        S3ProxyServer.settings(server.endpoint()));
  }

  @Override
  protected long maxHeapPerOutput() {
    return S3Store.MIN_PART_SIZE; // the configured part size
  }

  @Override
  protected long orphanBytes() {
    return S3Store.MIN_PART_SIZE + 1; // an upload starts once one part is full
  }

  @Test
  void theServerListensOnLoopbackOnly() throws IOException {
    assertEquals(List.of(), ListeningSockets.nonLoopback(), "sockets on other interfaces");
  }

  @Test
  void multipartFilesCommitAndRefuseAnExistingKey() throws IOException {
    byte[] a = bytes(30, 2 * S3Store.MIN_PART_SIZE + 12345);
    put("mp/a", a);
    assertEquals(a.length, store.stat("mp/a").size());
    StoreOutput b = store.create("mp/a");
    b.write(bytes(31, S3Store.MIN_PART_SIZE + 1));
    assertThrows(FileAlreadyExistsException.class, b::commit);
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "the refused upload was not aborted");
    assertTrue(java.util.Arrays.equals(a, readAll("mp/a")));
  }

  @Test
  void orphanedStagingObjectsAreNeverListedAndAreCleanedUpByAge() throws IOException {
    // What a writer that crashed between completing its staged upload and copying it (or between
    // copying and deleting it) leaves behind, written with a plain client.
    String root = store.url().substring(("s3://" + S3ProxyServer.BUCKET + "/").length());
    try (S3Client raw =
        S3Client.builder()
            .endpointOverride(URI.create(server.endpoint()))
            .region(Region.US_EAST_1)
            .forcePathStyle(true)
            .credentialsProvider(
                StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)))
            .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
            .build()) {
      for (String dir : new String[] {"p/0", "q"}) {
        String key = root + "/" + S3Store.STAGING_DIR + "/" + dir + "/" + StoreKeys.randomToken();
        raw.putObject(
            b -> b.bucket(S3ProxyServer.BUCKET).key(key), RequestBody.fromBytes(bytes(50, 1000)));
      }
    }
    put("p/0/committed", bytes(51, 10));
    assertEquals(List.of("p/0/committed"), keys(store.list("", true)));
    assertEquals(List.of("p"), keys(store.list("", false)), "the staging prefix is hidden");
    assertEquals(
        0,
        store.cleanupOrphans("p", Instant.now().minusSeconds(3600)),
        "olderThan must spare recent staging objects");
    assertEquals(1, store.cleanupOrphans("p", Instant.MAX), "p's staging object");
    assertEquals(1, store.cleanupOrphans("", Instant.MAX), "q's staging object");
    assertEquals(0, store.cleanupOrphans("", Instant.MAX));
    assertEquals(List.of("p/0/committed"), keys(store.list("", true)));
  }

  @Test
  void aRootPrefixIsolatesStores() throws IOException {
    put("f", bytes(32, 10));
    try (Store other =
        Stores.open(
            "s3://" + S3ProxyServer.BUCKET + "/lake/elsewhere-" + System.nanoTime(),
            S3ProxyServer.settings(server.endpoint()))) {
      assertTrue(other.list("", true).isEmpty());
      assertEquals(List.of(), other.list("", false));
    }
  }

  @Test
  void badSettingsAreRefusedWithoutEchoingSecrets() {
    Map<String, Object> s = S3ProxyServer.settings(server.endpoint());
    s.put("s3.part.size", "1000");
    assertThrows(IllegalArgumentException.class, () -> Stores.open("s3://b/p", s));
    Map<String, Object> s2 = S3ProxyServer.settings(server.endpoint());
    s2.remove("aws.access.key.id");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Stores.open("s3://b/p", s2));
    assertTrue(!e.getMessage().contains(S3ProxyServer.SECRET_KEY));
    Map<String, Object> s3 = S3ProxyServer.settings(server.endpoint());
    s3.put("s3.sse.type", "sse-c");
    s3.put("s3.sse.c.key", "not base64 !!");
    IllegalArgumentException e3 =
        assertThrows(IllegalArgumentException.class, () -> Stores.open("s3://b/p", s3));
    assertTrue(!e3.getMessage().contains("not base64"), e3.getMessage());
  }
}
