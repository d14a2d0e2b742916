package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.FileCommitProtocol;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each crash window of docs/exactly-once.md, on one store: the first task instance stops exactly at
 * the window's point, a second instance takes the partition over and acts while the first is
 * stopped, then the first is killed there or wakes up as a zombie and goes on. Afterwards a fresh
 * instance recovers, and every offset is in exactly one visible file: none lost, none twice, no
 * file of a rolled-back attempt left, however long after the rollback the zombie acted.
 *
 * <p>The instances run in the test's thread; "stopping" is the crash point running the second
 * instance before it returns, "killing" is a {@link SinkTaskTest.SimulatedCrash} thrown there (the
 * instance is abandoned with whatever it left in the store).
 */
abstract class CrashWindowContract {
  static final TopicPartition TP = SinkTaskDriver.TP;
  static final long TIMEOUT_MS = 10_000;
  static final String MARKERS = "topics/_markers/conn/orders/0/";

  /** A store on a fresh, empty root. */
  protected abstract Store openStore() throws Exception;

  Store store;
  final ManualClock clock = new ManualClock();
  final LinesFormat format = new LinesFormat();

  /**
   * Runs with {@code "delete <key>"} before each delete and {@code "commit <key>"} before each
   * commit of a marker (a {@link Store#create} output) of the instances' store.
   */
  Consumer<String> storeHook = key -> {};

  @BeforeEach
  void open() throws Exception {
    store = openStore();
  }

  @AfterEach
  void close() throws IOException {
    store.close();
  }

  SinkTaskDriver instance(CrashPoints crashPoints) {
    return new SinkTaskDriver(
        new HookedStore(store, key -> storeHook.accept(key)),
        clock,
        format,
        crashPoints,
        TIMEOUT_MS,
        Map.of(),
        ZombieFencingTest::record);
  }

  /**
   * The first instance delivers offsets 0-9 (one commit of three files, one per header value) and
   * reaches {@code point} for the {@code hit}-th time; there the second instance acts, and then the
   * first is killed ({@code kill}) or goes on.
   */
  void firstStopsAt(String point, int hit, boolean kill, Runnable secondActs) {
    int[] hits = new int[1];
    SinkTaskDriver first =
        instance(
            p -> {
              if (p.equals(point) && ++hits[0] == hit) {
                secondActs.run();
                if (kill) {
                  throw new SinkTaskTest.SimulatedCrash(p);
                }
              }
            });
    try {
      first.deliverUpTo(10);
      assertFalse(kill, "the first instance never reached " + point);
      first.deliverUpTo(10); // a zombie that went on learns the store's state
    } catch (SinkTaskTest.SimulatedCrash killed) {
      assertTrue(kill, "killed at " + killed.getMessage());
    }
  }

  /** A second instance that recovers (waiting out an unfinished commit) and commits 0-19. */
  SinkTaskDriver takeOverAndCommit(boolean expectWait) {
    SinkTaskDriver second = instance(CrashPoints.NONE);
    assertEquals(
        expectWait,
        second.context.paused.contains(TP),
        expectWait ? "waits for the unfinished commit" : "nothing to wait for");
    if (expectWait) {
      clock.advance(TIMEOUT_MS);
      second.deliverUpTo(20);
      assertFalse(second.context.paused.contains(TP), "rolled back after the timeout");
    }
    second.deliverUpTo(20);
    assertEquals(20L, second.position);
    return second;
  }

  /** A fresh instance recovers and reads on to {@code end}: every offset below it once. */
  void recoverAndAssertEachOffsetOnce(long end) throws IOException {
    SinkTaskDriver last = instance(CrashPoints.NONE);
    assertFalse(last.context.paused.contains(TP));
    last.deliverUpTo(end);
    assertEquals(end, last.position);
    assertEachOffsetOnce(end);
  }

  void assertEachOffsetOnce(long end) throws IOException {
    Map<String, Integer> counts = SimulatedConnect.offsetCounts(store, "topics");
    for (long o = 0; o < end; o++) {
      assertEquals(1, counts.getOrDefault("orders-0@" + o, 0), "offset " + o + ": " + counts);
    }
    assertEquals(end, counts.size(), counts.keySet().toString());
  }

  List<String> dataFiles() throws IOException {
    List<String> keys = new ArrayList<>();
    for (StoreFile f : store.list("topics/orders", true)) {
      if (!f.directory()) {
        keys.add(f.key());
      }
    }
    return keys;
  }

  // ---------------------------------------------------------------------------------------------
  // Before anything is visible

  @Test
  void killedDuringPut() throws IOException {
    firstStopsAt("put", 5, true, () -> takeOverAndCommit(false));
    recoverAndAssertEachOffsetOnce(30);
    store.cleanupOrphans("", Instant.MAX);
    assertEquals(0, store.cleanupOrphans("", Instant.MAX), "nothing left to clean");
  }

  @Test
  void killedWithFilesFinishedBeforeTheIntent() throws IOException {
    firstStopsAt("before-intent", 1, true, () -> takeOverAndCommit(false));
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void stoppedBeforeTheIntentIsFencedByTheNewOwnersMarkers() throws IOException {
    firstStopsAt("before-intent", 1, false, () -> takeOverAndCommit(false));
    recoverAndAssertEachOffsetOnce(30);
  }

  // ---------------------------------------------------------------------------------------------
  // Intent written

  @Test
  void killedAfterTheIntent() throws IOException {
    firstStopsAt("after-intent", 1, true, () -> takeOverAndCommit(true));
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void stoppedAfterTheIntentPublishesNothingOnceRolledBack() throws IOException {
    firstStopsAt("after-intent", 1, false, () -> takeOverAndCommit(true));
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void killedBetweenFiles() throws IOException {
    firstStopsAt(
        "mid-commit",
        1,
        true,
        () -> {
          assertEquals(1, dataFilesUnchecked().size(), "one file of three visible");
          takeOverAndCommit(true);
        });
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void stoppedBetweenFilesCannotFinishOnceRolledBack() throws IOException {
    firstStopsAt("mid-commit", 1, false, () -> takeOverAndCommit(true));
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void killedWithAllFilesBeforeTheOutcome() throws IOException {
    firstStopsAt(
        "before-done",
        1,
        true,
        () -> {
          SinkTaskDriver second = instance(CrashPoints.NONE);
          assertFalse(second.context.paused.contains(TP), "rolled forward at once");
          assertEquals(10L, second.position);
          second.deliverUpTo(20);
        });
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void stoppedWithAllFilesBeforeTheOutcomeFindsItRolledForward() throws IOException {
    firstStopsAt(
        "before-done",
        1,
        false,
        () -> {
          SinkTaskDriver second = instance(CrashPoints.NONE);
          assertEquals(10L, second.position, "rolled forward at once");
          second.deliverUpTo(20);
        });
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void killedAfterTheOutcome() throws IOException {
    firstStopsAt(
        "after-done",
        1,
        true,
        () -> {
          SinkTaskDriver second = instance(CrashPoints.NONE);
          assertEquals(10L, second.position, "resumes after the done commit");
          second.deliverUpTo(20);
        });
    recoverAndAssertEachOffsetOnce(30);
  }

  // ---------------------------------------------------------------------------------------------
  // A zombie stalled between its deadline check and a file's appearance

  /**
   * The window of a zombie that outlives its commit: it stalls right before making its first file
   * visible; the new owner waits the timeout, rolls the commit back and commits the same offsets
   * again (as attempt 1, and {@code laterCommits} more commits after them); the zombie wakes, makes
   * its file visible (its deadline check passed before the stall) and is killed before it can learn
   * of the rollback. Its file must not stay.
   */
  void zombiePublishesAfterItsRollback(int laterCommits) throws IOException {
    String[] zombieFile = new String[1];
    int[] hits = new int[2];
    SinkTaskDriver zombie =
        instance(
            p -> {
              if (p.equals("before-file") && ++hits[0] == 1) {
                SinkTaskDriver owner = takeOverAndCommit(true);
                owner.deliverUpTo(20 + 10L * laterCommits);
                assertEachOffsetOnceUnchecked(20 + 10L * laterCommits);
              } else if (p.equals("mid-commit") && ++hits[1] == 1) {
                List<String> attempt0 =
                    dataFilesUnchecked().stream()
                        .filter(k -> k.endsWith("+00000000000000000009.parquet"))
                        .toList();
                assertEquals(1, attempt0.size(), "the zombie's file is visible: " + attempt0);
                zombieFile[0] = attempt0.get(0);
                throw new SinkTaskTest.SimulatedCrash(p);
              }
            });
    assertThrows(SinkTaskTest.SimulatedCrash.class, () -> zombie.deliverUpTo(10));
    assertTrue(store.exists(zombieFile[0]));
    long end = 30 + 10L * laterCommits;
    recoverAndAssertEachOffsetOnce(end);
    assertFalse(store.exists(zombieFile[0]), "the rolled-back attempt's file is gone");
  }

  @Test
  void aZombieFilePublishedAfterTheRollbackIsDeletedByTheNextRecovery() throws IOException {
    zombiePublishesAfterItsRollback(0);
  }

  @Test
  void aZombieFilePublishedLongAfterTheRollbackIsDeletedToo() throws IOException {
    // More commits than the markers retained: the rolled-back attempt is the oldest there is.
    zombiePublishesAfterItsRollback(FileCommitProtocol.RETAINED_ATTEMPTS + 2);
  }

  @Test
  void theOwnerItselfDeletesAZombieFileWithinTheCommitTimeout() throws IOException {
    int[] hits = new int[2];
    SinkTaskDriver[] owner = new SinkTaskDriver[1];
    SinkTaskDriver zombie =
        instance(
            p -> {
              if (p.equals("before-file") && ++hits[0] == 1) {
                owner[0] = takeOverAndCommit(true);
              } else if (p.equals("mid-commit") && ++hits[1] == 1) {
                throw new SinkTaskTest.SimulatedCrash(p);
              }
            });
    assertThrows(SinkTaskTest.SimulatedCrash.class, () -> zombie.deliverUpTo(10));
    assertEquals(
        2,
        SimulatedConnect.offsetCounts(store, "topics").get("orders-0@0"),
        "the zombie's file is visible");
    // No rebalance: the owner goes on committing and sweeps once a commit timeout has passed.
    clock.advance(TIMEOUT_MS);
    owner[0].deliverUpTo(30);
    assertEachOffsetOnce(30);
  }

  /**
   * A zombie that checked the markers (step 2) and stalled before its intent was written, while the
   * new owner committed the same offsets and so many more that compaction deleted the markers of
   * that attempt: the zombie's intent is created all the same, and it must not finish.
   */
  @Test
  void aZombieClaimingAnAttemptWhoseMarkersWereCompactedPublishesNothing() throws IOException {
    long ownerEnd = 10L * (FileCommitProtocol.RETAINED_ATTEMPTS + 3);
    storeHook =
        key -> {
          if (key.equals("commit " + MARKERS + "00000000000000000000-0.intent")) {
            storeHook = k -> {};
            SinkTaskDriver owner = takeOverAndCommit(false);
            owner.deliverUpTo(ownerEnd);
            assertFalse(storeExists(MARKERS + "00000000000000000000-0.outcome"), "compacted");
          }
        };
    SinkTaskDriver zombie = instance(CrashPoints.NONE);
    zombie.deliverUpTo(10);
    assertEachOffsetOnce(ownerEnd);
    zombie.deliverUpTo(10);
    recoverAndAssertEachOffsetOnce(ownerEnd + 10);
  }

  // ---------------------------------------------------------------------------------------------
  // Markers

  @Test
  void killedWhileWritingAMarker() throws IOException {
    storeHook =
        key -> {
          if (key.equals("commit " + MARKERS + "00000000000000000000-0.intent")) {
            storeHook = k -> {};
            throw new SinkTaskTest.SimulatedCrash(key);
          }
        };
    SinkTaskDriver first = instance(CrashPoints.NONE);
    assertThrows(SinkTaskTest.SimulatedCrash.class, () -> first.deliverUpTo(10));
    assertFalse(store.exists(MARKERS + "00000000000000000000-0.intent"), "never committed");
    takeOverAndCommit(false);
    for (StoreFile f : store.list(MARKERS.substring(0, MARKERS.length() - 1), false)) {
      assertFalse(f.name().startsWith("."), "temporary marker left: " + f.key());
    }
    recoverAndAssertEachOffsetOnce(30);
  }

  @Test
  void killedDuringCompaction() throws IOException {
    SinkTaskDriver first = instance(CrashPoints.NONE);
    first.deliverUpTo(10L * FileCommitProtocol.RETAINED_ATTEMPTS);
    storeHook =
        key -> {
          if (key.startsWith("delete ") && key.endsWith(".outcome")) {
            storeHook = k -> {};
            throw new SinkTaskTest.SimulatedCrash(key);
          }
        };
    assertThrows(
        SinkTaskTest.SimulatedCrash.class,
        () -> first.deliverUpTo(10L * FileCommitProtocol.RETAINED_ATTEMPTS + 10));
    assertTrue(store.exists(MARKERS + "00000000000000000000-0.outcome"));
    assertFalse(store.exists(MARKERS + "00000000000000000000-0.intent"));
    SinkTaskDriver second = instance(CrashPoints.NONE);
    assertEquals(
        10L * FileCommitProtocol.RETAINED_ATTEMPTS + 10,
        second.position,
        "the outcome without intent is skipped");
    second.deliverUpTo(10L * FileCommitProtocol.RETAINED_ATTEMPTS + 20);
    assertFalse(store.exists(MARKERS + "00000000000000000000-0.outcome"), "compacted later");
    recoverAndAssertEachOffsetOnce(10L * FileCommitProtocol.RETAINED_ATTEMPTS + 30);
  }

  private boolean storeExists(String key) {
    try {
      return store.exists(key);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private List<String> dataFilesUnchecked() {
    try {
      return dataFiles();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private void assertEachOffsetOnceUnchecked(long end) {
    try {
      assertEachOffsetOnce(end);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** The store with a hook before each delete and each commit of a {@link Store#create} output. */
  static final class HookedStore implements Store {
    private final Store delegate;
    private final Consumer<String> hook;

    HookedStore(Store delegate, Consumer<String> hook) {
      this.delegate = delegate;
      this.hook = hook;
    }

    @Override
    public String url() {
      return delegate.url();
    }

    @Override
    public StoreInput open(String key) throws IOException {
      return delegate.open(key);
    }

    @Override
    public StoreOutput create(String key) throws IOException {
      StoreOutput out = delegate.create(key);
      return new StoreOutput() {
        @Override
        public String key() {
          return out.key();
        }

        @Override
        public long bytesWritten() {
          return out.bytesWritten();
        }

        private boolean crashed;

        @Override
        public void commitAs(String finalKey) throws IOException {
          try {
            hook.accept("commit " + finalKey);
          } catch (SinkTaskTest.SimulatedCrash crash) {
            crashed = true; // the output stays as the crash left it, uncommitted
            throw crash;
          }
          out.commitAs(finalKey);
        }

        @Override
        public void abort() throws IOException {
          out.abort();
        }

        @Override
        public long heapBytes() {
          return out.heapBytes();
        }

        @Override
        public boolean committed() {
          return out.committed();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
          if (!crashed) { // a crashed writer never closes: whatever the store keeps of it stays
            out.close();
          }
        }
      };
    }

    @Override
    public StoreOutput createNamedAtCommit(String key) throws IOException {
      return delegate.createNamedAtCommit(key);
    }

    @Override
    public List<StoreFile> list(String prefix, boolean recursive) throws IOException {
      return delegate.list(prefix, recursive);
    }

    @Override
    public boolean exists(String key) throws IOException {
      return delegate.exists(key);
    }

    @Override
    public StoreFile stat(String key) throws IOException {
      return delegate.stat(key);
    }

    @Override
    public void delete(String key) throws IOException {
      hook.accept("delete " + key);
      delegate.delete(key);
    }

    @Override
    public void move(String from, String to) throws IOException {
      delegate.move(from, to);
    }

    @Override
    public int cleanupOrphans(
        String prefix, Instant olderThan, java.util.function.Predicate<String> finalName)
        throws IOException {
      return delegate.cleanupOrphans(prefix, olderThan, finalName);
    }

    @Override
    public void close() {
      // the test closes the store it opened
    }
  }
}
