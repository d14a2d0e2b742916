package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.LocalStore;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two task instances own the same Kafka partition at once: the old one (a zombie: it lost the
 * partition but does not know yet) and the new one. Interleavings are forced by running the new
 * owner inside the zombie's crash points. Whatever happens, every offset is committed once.
 */
final class ZombieFencingTest {
  static final TopicPartition TP = SinkTaskDriver.TP;
  static final long TIMEOUT_MS = 10_000;

  @TempDir Path dir;
  Store store;
  final ManualClock clock = new ManualClock();
  final LinesFormat format = new LinesFormat();

  @BeforeEach
  void openStore() throws IOException {
    store = new LocalStore(dir);
  }

  @AfterEach
  void closeStore() throws IOException {
    store.close();
  }

  SinkTaskDriver instance(CrashPoints crashPoints) {
    return new SinkTaskDriver(
        store, clock, format, crashPoints, TIMEOUT_MS, Map.of(), ZombieFencingTest::record);
  }

  static SinkRecord record(long offset) {
    SinkRecord r = SinkTaskTest.record(0, offset, "v" + offset);
    r.headers().addString("h", "h" + (offset % 3));
    return r;
  }

  void assertEachOffsetOnce(long endExclusive) throws IOException {
    Map<String, Integer> counts = SimulatedConnect.offsetCounts(store, "topics");
    for (long o = 0; o < endExclusive; o++) {
      assertEquals(1, counts.getOrDefault("orders-0@" + o, 0), "offset " + o + ": " + counts);
    }
    assertEquals(endExclusive, counts.size(), counts.keySet().toString());
  }

  @Test
  void aZombieThatKeptWritingIsFencedByTheNewOwnersCommit() throws IOException {
    SinkTaskDriver zombie = instance(CrashPoints.NONE);
    zombie.deliverUpTo(5);
    SinkTaskDriver owner = instance(CrashPoints.NONE);
    owner.deliverUpTo(10);
    assertTrue(store.exists("topics/_markers/conn/orders/0/00000000000000000000-0.outcome"));
    zombie.deliverUpTo(10);
    assertEquals(10L, zombie.position, "the zombie learnt the store's state and moved on");
    assertEachOffsetOnce(10);
  }

  @Test
  void anUnfinishedCommitOfACrashedInstanceIsRolledBackAfterTheTimeout() throws IOException {
    SinkTaskDriver crashed =
        instance(
            point -> {
              if (point.equals("after-intent")) {
                throw new SinkTaskTest.SimulatedCrash(point);
              }
            });
    try {
      crashed.deliverUpTo(10);
    } catch (SinkTaskTest.SimulatedCrash expected) {
      // abandoned, temporary files and all
    }
    SinkTaskDriver owner = instance(CrashPoints.NONE);
    assertTrue(owner.context.paused.contains(TP), "waits for the unfinished commit");
    owner.deliverUpTo(10);
    assertTrue(owner.context.paused.contains(TP));
    clock.advance(TIMEOUT_MS);
    owner.deliverUpTo(10);
    assertFalse(owner.context.paused.contains(TP));
    assertTrue(store.exists("topics/_markers/conn/orders/0/00000000000000000000-0.outcome"));
    owner.position = 0;
    owner.deliverUpTo(10);
    assertEachOffsetOnce(10);
    assertTrue(
        store.exists(
            "topics/orders/h=h0/orders+0+00000000000000000000+00000000000000000009-1.parquet"),
        "the second attempt at offset 0 has its own names");
  }

  @Test
  void anIntentOldByItsWritersClockIsRolledBackAtOnce() throws IOException {
    SinkTaskDriver crashed =
        instance(
            point -> {
              if (point.equals("mid-commit")) {
                throw new SinkTaskTest.SimulatedCrash(point);
              }
            });
    try {
      crashed.deliverUpTo(10);
    } catch (SinkTaskTest.SimulatedCrash expected) {
      // one file of three is visible
    }
    assertEquals(1, SimulatedConnect.committedFiles(store, "topics").size());
    clock.advance(2 * TIMEOUT_MS);
    SinkTaskDriver owner = instance(CrashPoints.NONE);
    assertFalse(owner.context.paused.contains(TP));
    assertEquals(0, SimulatedConnect.committedFiles(store, "topics").size(), "rolled back");
    owner.deliverUpTo(12);
    assertEachOffsetOnce(10);
  }

  @Test
  void aZombieStalledMidCommitIsRolledBackAndCannotFinish() throws IOException {
    SinkTaskDriver[] owner = new SinkTaskDriver[1];
    SinkTaskDriver zombie =
        instance(
            point -> {
              if (point.equals("mid-commit") && owner[0] == null) {
                // The zombie stalls here with one of three files visible; a new owner takes over.
                owner[0] = instance(CrashPoints.NONE);
                assertTrue(owner[0].context.paused.contains(TP), "waits for the zombie's commit");
                clock.advance(TIMEOUT_MS);
                owner[0].deliverUpTo(20);
                assertFalse(owner[0].context.paused.contains(TP), "rolled back after the timeout");
                owner[0].deliverUpTo(20);
              }
            });
    zombie.deliverUpTo(10);
    // The zombie woke up past its deadline: it stopped, found its commit rolled back, and
    // recovered the new owner's state.
    zombie.deliverUpTo(10);
    assertEachOffsetOnce(20);
  }

  @Test
  void aZombieStalledBeforeItsOutcomeIsRolledForward() throws IOException {
    SinkTaskDriver[] owner = new SinkTaskDriver[1];
    SinkTaskDriver zombie =
        instance(
            point -> {
              if (point.equals("before-done") && owner[0] == null) {
                owner[0] = instance(CrashPoints.NONE);
                assertFalse(
                    owner[0].context.paused.contains(TP), "all files exist: rolled forward");
                assertEquals(10L, owner[0].position);
                owner[0].deliverUpTo(20);
              }
            });
    zombie.deliverUpTo(10);
    assertEachOffsetOnce(20);
    assertEquals(
        10L,
        zombie.task.preCommit(Map.of()).get(TP).offset(),
        "the zombie sees its commit done (the owner finished it for it)");
  }
}
