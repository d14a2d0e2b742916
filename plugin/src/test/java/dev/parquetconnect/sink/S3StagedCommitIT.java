package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.S3ProxyServer;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sink on S3 (S3Proxy on 127.0.0.1) with files larger than one part, so that every file is a
 * multipart upload to a staging object, completed, copied to its full name and deleted at the
 * commit. The task runs in process; crashes are simulated at the protocol's points, as in {@link
 * ZombieFencingTest}. Every offset ends up in one visible file under its full name, and no staging
 * object is ever listed.
 */
final class S3StagedCommitIT {
  static final TopicPartition TP = SinkTaskDriver.TP;
  static final long TIMEOUT_MS = 10_000;

  /** Records of 2 MiB: three or four of them make a file of more than one 5 MiB part. */
  static final String BIG = "x".repeat(2 << 20);

  static final Pattern FULL_NAME =
      Pattern.compile("orders\\+0\\+\\d{20}\\+\\d{20}(-\\d+)?\\.parquet");

  private static S3ProxyServer server;
  private static int roots;
  Store store;
  final ManualClock clock = new ManualClock();
  final LinesFormat format = new LinesFormat();

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

  @BeforeEach
  void openStore() throws IOException {
    store =
        Stores.open(
            "s3://" + S3ProxyServer.BUCKET + "/staged" + (++roots) + "-" + System.nanoTime(),
            S3ProxyServer.settings(server.endpoint()));
  }

  @AfterEach
  void closeStore() throws IOException {
    store.close();
  }

  SinkTaskDriver instance(CrashPoints crashPoints) {
    // 2 MiB records: a budget well above the few open files' buffers, so none is flushed early
    return new SinkTaskDriver(
        store,
        clock,
        format,
        crashPoints,
        TIMEOUT_MS,
        Map.of(ParquetSinkConfig.BUFFER_MAX_BYTES_CONFIG, Long.toString(1L << 30)),
        o -> {
          SinkRecord r = SinkTaskTest.record(0, o, BIG + o);
          r.headers().addString("h", "h" + (o % 3));
          return r;
        });
  }

  void assertEachOffsetOnceUnderFullNames(long endExclusive) throws IOException {
    Map<String, Integer> counts = SimulatedConnect.offsetCounts(store, "topics");
    for (long o = 0; o < endExclusive; o++) {
      assertEquals(1, counts.getOrDefault("orders-0@" + o, 0), "offset " + o);
    }
    assertEquals(endExclusive, counts.size(), counts.keySet().toString());
    for (StoreFile f : store.list("topics/orders", true)) {
      String name = f.key().substring(f.key().lastIndexOf('/') + 1);
      assertTrue(FULL_NAME.matcher(name).matches(), f.key());
      assertTrue(f.size() > 5 << 20, "a multipart (staged) file: " + f);
    }
    for (StoreFile f : store.list("", true)) {
      assertFalse(f.key().contains(".tmp-pqc-"), "listed: " + f.key());
    }
  }

  @Test
  void filesLargerThanOnePartAreStagedAndCommittedUnderTheirFullNames() throws IOException {
    SinkTaskDriver task = instance(CrashPoints.NONE);
    task.deliverUpTo(20);
    assertEachOffsetOnceUnderFullNames(20);
    assertTrue(
        store.exists(
            "topics/orders/h=h0/orders+0+00000000000000000000+00000000000000000009.parquet"));
    assertTrue(
        store.exists(
            "topics/orders/h=h2/orders+0+00000000000000000010+00000000000000000019.parquet"));
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "no upload or staging object left");
  }

  @Test
  void aCrashBetweenStagedFilesIsRolledBackAndRewrittenUnderNewNames() throws IOException {
    SinkTaskDriver crashed = instance(SinkTaskDriver.crashAt("mid-commit"));
    try {
      crashed.deliverUpTo(10);
    } catch (SinkTaskTest.SimulatedCrash expected) {
      // one file of three copied to its full name, two uploads abandoned
    }
    assertEquals(1, SimulatedConnect.committedFiles(store, "topics").size());
    SinkTaskDriver owner = instance(CrashPoints.NONE);
    assertTrue(owner.context.paused.contains(TP), "waits for the unfinished commit");
    clock.advance(TIMEOUT_MS);
    owner.deliverUpTo(10);
    assertFalse(owner.context.paused.contains(TP), "rolled back after the timeout");
    owner.position = 0;
    owner.deliverUpTo(10);
    assertEachOffsetOnceUnderFullNames(10);
    assertTrue(
        store.exists(
            "topics/orders/h=h0/orders+0+00000000000000000000+00000000000000000009-1.parquet"));
    assertEquals(2, store.cleanupOrphans("", Instant.MAX), "the crashed writer's two uploads");
    assertEquals(0, store.cleanupOrphans("", Instant.MAX));
  }

  @Test
  void aCrashBeforeTheOutcomeOfStagedFilesIsRolledForward() throws IOException {
    SinkTaskDriver crashed = instance(SinkTaskDriver.crashAt("before-done"));
    try {
      crashed.deliverUpTo(10);
    } catch (SinkTaskTest.SimulatedCrash expected) {
      // every file copied, no outcome
    }
    SinkTaskDriver owner = instance(CrashPoints.NONE);
    assertFalse(owner.context.paused.contains(TP), "all files exist: rolled forward");
    assertEquals(10L, owner.position);
    owner.deliverUpTo(20);
    assertEachOffsetOnceUnderFullNames(20);
    assertEquals(0, store.cleanupOrphans("", Instant.MAX));
  }
}
