package dev.parquetconnect.sink.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.SinkClock;
import dev.parquetconnect.sink.commit.CommitProtocol.DataFile;
import dev.parquetconnect.sink.commit.CommitProtocol.Fenced;
import dev.parquetconnect.sink.commit.CommitProtocol.PendingCommit;
import dev.parquetconnect.storage.LocalStore;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@link CommitProtocol} contract as the file store keeps it, one call at a time: what {@code
 * recover} reports, what a commit leaves visible, how a second writer fences the first, and what
 * {@code abort} rolls back. The crash tests (in {@code dev.parquetconnect.sink}) cover the same
 * protocol through a whole task at every crash point.
 */
final class FileCommitProtocolTest {
  private static final TopicPartition TP = new TopicPartition("orders", 0);
  private static final long TIMEOUT_MS = 60_000;

  @TempDir Path dir;
  private Store store;
  private final MarkerKeys keys = new MarkerKeys("topics", "conn");

  @BeforeEach
  void openStore() throws IOException {
    store = new LocalStore(dir);
  }

  @AfterEach
  void closeStore() throws IOException {
    store.close();
  }

  private CommitProtocol writer(String id) {
    return new FileCommitProtocol(
        store,
        keys,
        TP,
        SinkClock.SYSTEM,
        TIMEOUT_MS,
        id,
        "conn-0",
        CrashPoints.NONE,
        "[" + id + "]");
  }

  /** A data file whose bytes wait in memory until the protocol publishes it. */
  private DataFile file(String key) throws IOException {
    StoreOutput out = new DeferredOutput(store, key + ".open");
    out.write(new byte[] {1, 2, 3}, 0, 3);
    return new DataFile() {
      @Override
      public String key() {
        return key;
      }

      @Override
      public void publish() throws IOException {
        out.commitAs(key);
      }
    };
  }

  private static String key(long start, long end, int attempt) {
    return "topics/orders/partition=0/orders+0+" + start + "+" + end + "-" + attempt + ".parquet";
  }

  @Test
  void anEmptyStoreHasNothingCommittedAndStartsAtAttemptZero() throws Exception {
    CommitProtocol p = writer("a");
    assertTrue(p.recover());
    assertEquals(-1, p.lastCommitted());
    assertEquals(List.of(), p.lastCommitFiles());
    assertEquals(0, p.attemptAt(0));
  }

  @Test
  void aCommittedRangeIsVisibleAndWhatTheNextWriterRecovers() throws Exception {
    CommitProtocol p = writer("a");
    assertTrue(p.recover());
    p.commit(new PendingCommit(0, 9, 0, 10, List.of(file(key(0, 9, 0)), file(key(0, 9, 1)))));
    assertEquals(9, p.lastCommitted());
    assertTrue(store.exists(key(0, 9, 0)) && store.exists(key(0, 9, 1)));

    CommitProtocol next = writer("b");
    assertTrue(next.recover());
    assertEquals(9, next.lastCommitted());
    assertEquals(List.of(key(0, 9, 0), key(0, 9, 1)), next.lastCommitFiles());
    assertEquals(1, next.attemptAt(0), "a retry of a known start takes the next attempt");
    assertEquals(0, next.attemptAt(10));
  }

  @Test
  void aWriterBehindANewerCommitIsFencedAndLeavesNothingVisible() throws Exception {
    CommitProtocol zombie = writer("zombie");
    assertTrue(zombie.recover());
    CommitProtocol owner = writer("owner");
    assertTrue(owner.recover());
    owner.commit(new PendingCommit(0, 9, 0, 10, List.of(file(key(0, 9, 0)))));

    assertThrows(
        Fenced.class,
        () -> zombie.commit(new PendingCommit(0, 4, 0, 5, List.of(file(key(0, 4, 0))))));
    assertFalse(zombie.abort(0, 0), "it claimed nothing");
    assertFalse(store.exists(key(0, 4, 0)));
    assertTrue(store.exists(key(0, 9, 0)), "the owner's file stays");
  }

  @Test
  void abortRollsBackAClaimedCommitAndTheRetryTakesTheNextAttempt() throws Exception {
    CommitProtocol p = writer("a");
    assertTrue(p.recover());
    DataFile failing =
        new DataFile() {
          @Override
          public String key() {
            return FileCommitProtocolTest.key(0, 9, 1);
          }

          @Override
          public void publish() throws IOException {
            throw new IOException("the store failed");
          }
        };
    assertThrows(
        IOException.class,
        () -> p.commit(new PendingCommit(0, 9, 0, 10, List.of(file(key(0, 9, 0)), failing))));
    assertTrue(store.exists(key(0, 9, 0)), "the first file became visible");

    assertFalse(p.abort(0, 0));
    assertFalse(store.exists(key(0, 9, 0)), "rolled back");
    assertTrue(p.recover());
    assertEquals(-1, p.lastCommitted());
    assertEquals(1, p.attemptAt(0));
    assertFalse(p.abort(0, 0), "aborting again is a no-op");
  }
}
