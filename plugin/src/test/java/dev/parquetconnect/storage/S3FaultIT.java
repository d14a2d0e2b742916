package dev.parquetconnect.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * S3 through our fault-injecting proxy in front of S3Proxy: exactly-once commits despite 500s, 503
 * SlowDowns, resets before and after the backend acted and truncated responses; the bytes a ranged
 * read transfers; credentials kept out of logs and messages.
 */
@Timeout(value = 150, unit = java.util.concurrent.TimeUnit.SECONDS)
class S3FaultIT {
  private static final Logger LOG = LoggerFactory.getLogger(S3FaultIT.class);

  private static S3ProxyServer server;
  private static FaultProxy proxy;
  private static final long SEED = 20260521L;

  @BeforeAll
  static void start() throws Exception {
    server = new S3ProxyServer();
    proxy = new FaultProxy(server.port(), 0, SEED);
  }

  @AfterAll
  static void stop() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static String root(String name) {
    return "s3://" + S3ProxyServer.BUCKET + "/faults/" + name + "-" + System.nanoTime();
  }

  static byte[] data(int i, int size) {
    byte[] b = new byte[size];
    new Random(5000 + i).nextBytes(b);
    return b;
  }

  /**
   * A writer commits 40 files (a quarter of them 3-part multipart uploads) with 10% of requests
   * failing. Half of the files are named at the commit (the multipart ones among them staged,
   * completed, copied and their staging objects deleted, each step through the faults). Each file
   * is retried under the same key until it is committed; every file ends up committed exactly once,
   * whole, and no upload or staging object is left behind.
   */
  @Test
  void everyFileIsCommittedExactlyOnceThroughTenPercentFaults() throws Exception {
    String root = root("once");
    int files = 40;
    Map<String, Integer> commits = new TreeMap<>();
    int failedAttempts = 0;
    int foundCommitted = 0;
    proxy.resetCounters();
    proxy.faultRate(0.10);
    try (Store store = Stores.open(root, S3ProxyServer.settings(proxy.endpoint()))) {
      for (int i = 0; i < files; i++) {
        String key = String.format("t/partition=%d/%05d.parquet", i % 4, i);
        int size = i % 4 == 0 ? 2 * S3Store.MIN_PART_SIZE + 4321 : 1000 + 37_000 * i;
        byte[] d = data(i, size);
        for (int attempt = 1; ; attempt++) {
          boolean namedAtCommit = i % 8 < 4;
          try (StoreOutput out =
              namedAtCommit
                  ? store.createNamedAtCommit(key.replace(".parquet", ".open"))
                  : store.create(key)) {
            out.write(d);
            out.commitAs(key);
            commits.merge(key, 1, Integer::sum);
            break;
          } catch (FileAlreadyExistsException e) {
            try (Store direct = Stores.open(root, S3ProxyServer.settings(server.endpoint()))) {
              assertArrayEquals(d, readAll(direct, key), key);
            }
            foundCommitted++;
            break;
          } catch (IOException e) {
            failedAttempts++;
            if (attempt >= 5) {
              throw e;
            }
          }
        }
      }
      // read everything back through the faults too (ranged GETs retried, truncations resumed)
      List<String> keys = new ArrayList<>();
      for (StoreFile f : store.list("", true)) {
        keys.add(f.key());
      }
      assertEquals(files, keys.size(), keys.toString());
      for (int i = 0; i < files; i++) {
        String key = String.format("t/partition=%d/%05d.parquet", i % 4, i);
        int size = i % 4 == 0 ? 2 * S3Store.MIN_PART_SIZE + 4321 : 1000 + 37_000 * i;
        assertArrayEquals(data(i, size), readAll(store, key), key);
      }
    } finally {
      proxy.faultRate(0);
    }
    commits.forEach((k, n) -> assertEquals(1, n, k + " committed " + n + " times"));
    assertEquals(files, commits.size() + foundCommitted);
    LOG.info(
        String.format(
            "S3 faults: %d requests, %d faults %s; %d commit attempts failed and were "
                + "retried, %d found already committed",
            proxy.requests(), proxy.totalFaults(), faultCounts(), failedAttempts, foundCommitted));
    for (FaultProxy.Fault f : FaultProxy.Fault.values()) {
      assertTrue(proxy.faults(f) > 0, "no " + f + " was injected");
    }
    // A CreateMultipartUpload whose response was lost leaves an empty upload behind: the
    // cleanup aborts it, and then nothing is left.
    try (Store direct = Stores.open(root, S3ProxyServer.settings(server.endpoint()))) {
      int orphans = direct.cleanupOrphans("", Instant.MAX);
      LOG.info(String.format("S3 faults: %d orphaned upload(s) aborted by cleanup", orphans));
      assertEquals(0, direct.cleanupOrphans("", Instant.MAX));
      assertEquals(files, direct.list("", true).size());
    }
  }

  /**
   * The response to a commit request is lost after the server acted on it (the connection is
   * reset): the retried PutObject gets 412 and the writer recognises its own object (by its writer
   * token) and reports success. The retried CompleteMultipartUpload succeeds again on S3Proxy (as
   * on AWS shortly after a completion), so its 404 NoSuchUpload branch is not reached here. A
   * different writer's object under the same key is not mistaken for ours.
   */
  @Test
  void aLostCommitResponseIsRecognisedAsOurOwnCommit() throws Exception {
    String root = root("lost");
    try (Store store = Stores.open(root, S3ProxyServer.settings(proxy.endpoint()))) {
      proxy.resetCounters();
      byte[] small = data(1, 1000);
      proxy.failNext(
          l -> l.startsWith("PUT ") && l.contains("/small "), FaultProxy.Fault.RESET_AFTER);
      try (StoreOutput out = store.create("small")) {
        out.write(small);
        out.commit();
      }
      assertEquals(1, proxy.faults(FaultProxy.Fault.RESET_AFTER));
      assertArrayEquals(small, readAll(store, "small"));

      byte[] big = data(2, 2 * S3Store.MIN_PART_SIZE + 99);
      proxy.failNext(
          l -> l.startsWith("POST ") && l.contains("/big?uploadId="), FaultProxy.Fault.RESET_AFTER);
      try (StoreOutput out = store.create("big")) {
        out.write(big);
        out.commit();
      }
      assertEquals(2, proxy.faults(FaultProxy.Fault.RESET_AFTER));
      assertArrayEquals(big, readAll(store, "big"));
      long completes =
          proxy.requestLines().stream()
              .filter(l -> l.startsWith("POST ") && l.contains("/big?uploadId="))
              .count();
      // At least one retry; more when a retried completion's answer is itself unreadable.
      assertTrue(completes >= 2, "the completion was not retried: " + proxy.requestLines());

      // A staged file whose copy response is lost: the retried copy either succeeds again or
      // gets 412 and finds its own token on the object; the staging object is deleted.
      byte[] staged = data(4, 2 * S3Store.MIN_PART_SIZE + 77);
      proxy.failNext(
          l -> l.startsWith("PUT ") && l.contains("/staged "), FaultProxy.Fault.RESET_AFTER);
      try (StoreOutput out = store.createNamedAtCommit("staging-first")) {
        out.write(staged);
        out.commitAs("staged");
      }
      assertEquals(3, proxy.faults(FaultProxy.Fault.RESET_AFTER));
      assertArrayEquals(staged, readAll(store, "staged"));
      long copies =
          proxy.requestLines().stream()
              .filter(l -> l.startsWith("PUT ") && l.contains("/staged "))
              .count();
      assertTrue(copies >= 2, "the copy was not retried: " + proxy.requestLines());
      assertEquals(0, store.cleanupOrphans("", Instant.MAX), "a staging object was left");

      // someone else's object: the retried PUT's 412 is a refusal, not a success
      StoreOutput late = store.create("small");
      late.write(data(3, 10));
      assertThrows(FileAlreadyExistsException.class, late::commit);
      assertArrayEquals(small, readAll(store, "small"));
      assertEquals(0, store.cleanupOrphans("", Instant.MAX));
    }
  }

  private static String faultCounts() {
    StringBuilder sb = new StringBuilder("(");
    for (FaultProxy.Fault f : FaultProxy.Fault.values()) {
      sb.append(sb.length() > 1 ? ", " : "").append(f).append('=').append(proxy.faults(f));
    }
    return sb.append(')').toString();
  }

  static byte[] readAll(Store store, String key) throws IOException {
    try (StoreInput in = store.open(key)) {
      byte[] b = new byte[Math.toIntExact(in.length())];
      in.readFully(0, b, 0, b.length);
      return b;
    }
  }

  /**
   * Reading one column-chunk-sized range of a 64 MiB object transfers, counted at the proxy with
   * every header and the HEAD of the open, less than twice the bytes asked for.
   */
  @Test
  void aRangedReadTransfersLessThanTwiceTheRequestedBytes() throws Exception {
    String root = root("ranged");
    int size = 64 * 1024 * 1024;
    try (Store direct = Stores.open(root, S3ProxyServer.settings(server.endpoint()))) {
      try (StoreOutput out = direct.create("big.parquet")) {
        byte[] chunk = new byte[1024 * 1024];
        for (int i = 0; i < 64; i++) {
          java.util.Arrays.fill(chunk, (byte) i);
          out.write(chunk);
        }
        out.commit();
      }
    }
    try (Store viaProxy = Stores.open(root, S3ProxyServer.settings(proxy.endpoint()))) {
      proxy.resetCounters();
      int[][] ranges = {{40 * 1024 * 1024 + 123, 1024 * 1024}, {7, 300_000}, {size - 8, 8}};
      long requested = 0;
      try (StoreInput in = viaProxy.open("big.parquet")) {
        assertEquals(size, in.length());
        for (int[] r : ranges) {
          byte[] dst = new byte[r[1]];
          in.readFully(r[0], dst, 0, r[1]);
          for (int j = 0; j < r[1]; j += 4096) {
            assertEquals((byte) ((r[0] + j) / (1024 * 1024)), dst[j]);
          }
          requested += r[1];
        }
        assertEquals(requested, in.bytesRead());
      }
      long transferred = proxy.bytesToClient();
      LOG.info(
          String.format(
              "ranged reads: %d bytes requested, %d transferred by the proxy "
                  + "(%d requests: %s)",
              requested, transferred, proxy.requests(), proxy.requestLines()));
      assertTrue(transferred < 2 * requested, transferred + " >= 2 x " + requested);
      assertTrue(transferred >= requested);
      assertEquals(1 + ranges.length, proxy.requests(), "one HEAD, then one GET per range");
      for (String head : proxy.requestHeads()) {
        if (head.startsWith("get ")) {
          assertTrue(head.contains("\r\nrange: bytes="), head);
          assertTrue(head.contains("\r\nif-match: "), "a read not pinned to the ETag: " + head);
        }
      }
    }
  }

  @Test
  void credentialsNeverAppearInLogsOrMessages() throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
    List<String> messages = new ArrayList<>();
    System.setOut(capture);
    System.setErr(capture);
    try {
      Map<String, Object> settings = S3ProxyServer.settings(proxy.endpoint());
      proxy.faultRate(0.3); // so that retries are logged
      try (Store store = Stores.open(root("creds"), settings)) {
        messages.add(store.toString());
        for (int i = 0; i < 5; i++) {
          try (StoreOutput o = store.create("f" + i)) {
            o.write(data(i, 1000));
            o.commit();
          } catch (IOException e) {
            messages.add(String.valueOf(e));
          }
        }
        store.list("", true);
      } catch (IOException e) {
        messages.add(String.valueOf(e));
      } finally {
        proxy.faultRate(0);
      }
      // wrong secret: the server refuses; the message names the key, not the secret
      Map<String, Object> wrong = S3ProxyServer.settings(server.endpoint());
      String wrongSecret = "wrongSecret/" + S3ProxyServer.SECRET_KEY.substring(0, 12);
      wrong.put("aws.secret.access.key", wrongSecret);
      wrong.put("s3.retry.max.attempts", "2");
      try (Store store = Stores.open(root("creds-wrong"), wrong)) {
        IOException e = assertThrows(IOException.class, () -> store.exists("x"));
        messages.add(String.valueOf(e));
        IOException e2 =
            assertThrows(
                IOException.class,
                () -> {
                  try (StoreOutput o = store.create("y")) {
                    o.write(1);
                    o.commit();
                  }
                });
        messages.add(String.valueOf(e2));
        messages.add(String.valueOf(e2.getCause()));
      }
      messages.add(new StoreSettings(settings).toString());
      messages.add(String.valueOf(settings.get("aws.secret.access.key")));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    String logs = captured.toString(StandardCharsets.UTF_8);
    assertTrue(logs.contains("opened (endpoint"), "the log capture saw nothing: " + logs);
    assertTrue(logs.contains("retrying in"), "no retry was logged: " + logs);
    String all = logs + "\n" + String.join("\n", messages);
    for (String secret :
        new String[] {S3ProxyServer.SECRET_KEY, S3ProxyServer.ACCESS_KEY, "wrongSecret/"}) {
      assertFalse(all.contains(secret), "a credential leaked:\n" + all);
    }
    LOG.info(
        "credentials test: checked "
            + logs.length()
            + " characters of logs and "
            + messages.size()
            + " messages");
  }
}
