package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.StallingS3;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The crash windows of docs/exactly-once.md on S3 (S3Proxy on 127.0.0.1): small files put whole at
 * the commit, markers created with a conditional put; and a zombie whose file is larger than one
 * part, so that what it makes visible late is the server-side copy of its staging object.
 *
 * <p>The two windows inside the commit of such a staged file (staging object completed but not yet
 * copied; copied but the staging object not yet deleted) are reached exactly by stalling the first
 * instance's request there ({@link StallingS3}): it runs in its own thread against a proxy that
 * holds that request while the second instance acts, and then either relays it (the first wakes as
 * a zombie) or never does (killed there: the proxy is closed at the end).
 */
final class S3CrashWindowsIT extends CrashWindowContract {
  private static StallingS3 s3;
  private static int roots;
  private String root;

  @BeforeAll
  static void startServer() throws Exception {
    s3 = new StallingS3();
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (s3 != null) {
      s3.close();
    }
  }

  @Override
  protected Store openStore() throws Exception {
    root = "windows" + (++roots) + "-" + System.nanoTime();
    return s3.open(root);
  }

  /** Records of 2 MiB: four of them make a file of more than one 5 MiB part (staged). */
  SinkTaskDriver stagedInstance(CrashPoints crashPoints) {
    return stagedInstance(store, crashPoints);
  }

  SinkTaskDriver stagedInstance(Store on, CrashPoints crashPoints) {
    String big = "x".repeat(2 << 20);
    return new SinkTaskDriver(
        on,
        clock,
        format,
        crashPoints,
        TIMEOUT_MS,
        Map.of(ParquetSinkConfig.BUFFER_MAX_BYTES_CONFIG, Long.toString(1L << 30)),
        o -> {
          SinkRecord r = SinkTaskTest.record(0, o, big + o);
          r.headers().addString("h", "h" + (o % 3));
          return r;
        });
  }

  @Test
  void aStagedZombieFileCopiedAfterTheRollbackIsDeletedByTheNextRecovery() throws IOException {
    int[] hits = new int[2];
    String[] zombieFile = new String[1];
    SinkTaskDriver zombie =
        stagedInstance(
            p -> {
              if (p.equals("before-file") && ++hits[0] == 1) {
                SinkTaskDriver owner = stagedInstance(CrashPoints.NONE);
                assertTrue(owner.context.paused.contains(TP), "waits for the zombie's commit");
                clock.advance(TIMEOUT_MS);
                owner.deliverUpTo(20);
                assertFalse(owner.context.paused.contains(TP), "rolled back after the timeout");
                owner.deliverUpTo(20);
                assertEquals(20L, owner.position);
              } else if (p.equals("mid-commit") && ++hits[1] == 1) {
                // The staging object was completed and copied under the rolled-back attempt's name.
                List<String> attempt0 =
                    dataFilesOrFail().stream()
                        .filter(k -> k.endsWith("+00000000000000000009.parquet"))
                        .toList();
                assertEquals(1, attempt0.size(), attempt0.toString());
                zombieFile[0] = attempt0.get(0);
                throw new SinkTaskTest.SimulatedCrash(p);
              }
            });
    assertThrows(SinkTaskTest.SimulatedCrash.class, () -> zombie.deliverUpTo(10));
    assertTrue(store.exists(zombieFile[0]));
    assertTrue(store.stat(zombieFile[0]).size() > 5 << 20, "a staged (multipart) file");
    SinkTaskDriver last = stagedInstance(CrashPoints.NONE);
    assertFalse(last.context.paused.contains(TP));
    last.deliverUpTo(30);
    assertFalse(store.exists(zombieFile[0]), "the rolled-back attempt's file is gone");
    assertEachOffsetOnce(30);
    // The zombie's two uploads that never completed are orphans for the next cleanup.
    store.cleanupOrphans("", Instant.MAX);
    assertEquals(0, store.cleanupOrphans("", Instant.MAX));
  }

  // ---------------------------------------------------------------------------------------------
  // Inside the commit of a staged file, by stalling the first instance's requests

  /** The server-side copy of a staging object to its full name (a PUT to a data key). */
  static Predicate<String> copy(int nth) {
    int[] seen = new int[1];
    return line ->
        line.startsWith("PUT ")
            && line.contains("/topics/orders/")
            && !line.contains("uploadId")
            && ++seen[0] == nth;
  }

  /** The deletion of a staging object after its copy (not the abort of an upload). */
  static Predicate<String> stagingDelete(int nth) {
    int[] seen = new int[1];
    return line ->
        line.startsWith("DELETE ")
            && line.contains(".tmp-pqc-staging")
            && !line.contains("uploadId")
            && ++seen[0] == nth;
  }

  static Runnable signalThenWait(CountDownLatch reached, CountDownLatch until) {
    return () -> {
      reached.countDown();
      try {
        until.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /** The first instance, committing offsets 0-9 through {@code on} in a thread of its own. */
  Thread startFirst(Store on) {
    Thread t =
        new Thread(
            () -> {
              try {
                stagedInstance(on, CrashPoints.NONE).deliverUpTo(10);
              } catch (Throwable expected) {
                // killed: the proxy was closed under it
              }
            },
            "first-instance");
    t.setDaemon(true);
    t.start();
    return t;
  }

  static void await(CountDownLatch latch) throws InterruptedException {
    assertTrue(latch.await(120, TimeUnit.SECONDS), "the first instance never got there");
  }

  /** The second instance waits out the unfinished commit, rolls it back and commits 0-19. */
  void secondRollsBackAndCommits() {
    SinkTaskDriver second = stagedInstance(CrashPoints.NONE);
    assertTrue(second.context.paused.contains(TP), "waits for the unfinished commit");
    clock.advance(TIMEOUT_MS);
    second.deliverUpTo(20);
    assertFalse(second.context.paused.contains(TP), "rolled back after the timeout");
    second.deliverUpTo(20);
    assertEquals(20L, second.position);
  }

  /**
   * A fresh instance reads on to 30: every offset once. Then the orphan cleanup finds exactly what
   * the first instance left (staging objects, which listings never show, and unfinished uploads),
   * and nothing after.
   */
  void lastRecoversAndCleansUp(int firstInstancesOrphans) throws IOException {
    SinkTaskDriver last = stagedInstance(CrashPoints.NONE);
    assertFalse(last.context.paused.contains(TP));
    last.deliverUpTo(30);
    assertEachOffsetOnce(30);
    assertEquals(firstInstancesOrphans, store.cleanupOrphans("", Instant.MAX));
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "nothing left to clean");
  }

  @Test
  void killedWithAStagedFileCompletedButNotCopied() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    try (StallingS3.Stalls stalls = s3.stalls();
        Store firstStore = stalls.open(root)) {
      stalls.stallNext(copy(1), signalThenWait(reached, never));
      startFirst(firstStore);
      await(reached);
      assertEquals(List.of(), dataFiles(), "nothing under a full name yet");
      secondRollsBackAndCommits();
      lastRecoversAndCleansUp(3); // the first file's staging object, the others' uploads
    } finally {
      never.countDown();
    }
  }

  @Test
  void killedWithAStagedFileCopiedBeforeItsStagingObjectIsDeleted() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    try (StallingS3.Stalls stalls = s3.stalls();
        Store firstStore = stalls.open(root)) {
      stalls.stallNext(stagingDelete(1), signalThenWait(reached, never));
      startFirst(firstStore);
      await(reached);
      assertEquals(1, dataFiles().size(), "the first file copied to its full name");
      secondRollsBackAndCommits(); // another file is missing: rolled back
      lastRecoversAndCleansUp(3); // the first file's staging object, the others' uploads
    } finally {
      never.countDown();
    }
  }

  @Test
  void killedWithTheLastStagedFileCopiedBeforeItsStagingObjectIsDeleted() throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    try (StallingS3.Stalls stalls = s3.stalls();
        Store firstStore = stalls.open(root)) {
      stalls.stallNext(stagingDelete(3), signalThenWait(reached, never));
      startFirst(firstStore);
      await(reached);
      assertEquals(3, dataFiles().size(), "every file copied to its full name");
      SinkTaskDriver second = stagedInstance(CrashPoints.NONE);
      assertFalse(second.context.paused.contains(TP), "all files exist: rolled forward at once");
      assertEquals(10L, second.position);
      second.deliverUpTo(20);
      lastRecoversAndCleansUp(1); // the last file's staging object
    } finally {
      never.countDown();
    }
  }

  /**
   * The window, exactly, on a staged file: the first instance completed the staging object
   * and is frozen before its copy; the second rolls the commit back and commits the same offsets;
   * the first wakes, its copy makes the rolled-back attempt's file visible, and it is killed right
   * after (before it deletes the staging object).
   */
  @Test
  void aZombieCopyingAStagedFileAfterItsRollbackAndKilledThenLeavesNothing() throws Exception {
    CountDownLatch atCopy = new CountDownLatch(1);
    CountDownLatch copy = new CountDownLatch(1);
    CountDownLatch copied = new CountDownLatch(1);
    CountDownLatch never = new CountDownLatch(1);
    try (StallingS3.Stalls stalls = s3.stalls();
        Store firstStore = stalls.open(root)) {
      stalls.stallNext(copy(1), signalThenWait(atCopy, copy));
      stalls.stallNext(stagingDelete(1), signalThenWait(copied, never));
      startFirst(firstStore);
      await(atCopy);
      secondRollsBackAndCommits();
      copy.countDown();
      await(copied);
      List<String> attempt0 =
          dataFiles().stream().filter(k -> k.endsWith("+00000000000000000009.parquet")).toList();
      assertEquals(1, attempt0.size(), "the zombie's copy is visible: " + attempt0);
      assertEquals(2, SimulatedConnect.offsetCounts(store, "topics").get("orders-0@0"));
      lastRecoversAndCleansUp(3); // the copied file's staging object, the others' uploads
      assertFalse(store.exists(attempt0.get(0)));
    } finally {
      never.countDown();
    }
  }

  private List<String> dataFilesOrFail() {
    try {
      return dataFiles();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
