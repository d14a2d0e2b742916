package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The crash windows of docs/exactly-once.md on S3 (S3Proxy on 127.0.0.1): small files put whole
 * at the commit, markers created with a conditional put; and a zombie whose file is larger than
 * one part, so that what it makes visible late is the server-side copy of its staging object.
 */
final class S3CrashWindowsIT extends CrashWindowContract {
  private static ItStores.Running s3;
  private static int roots;

  @BeforeAll
  static void startServer() throws Exception {
    s3 = ItStores.s3(0, 0);
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (s3 != null) {
      s3.close();
    }
  }

  @Override
  protected Store openStore() throws Exception {
    return s3.open("windows" + (++roots) + "-" + System.nanoTime());
  }

  /** Records of 2 MiB: four of them make a file of more than one 5 MiB part (staged). */
  SinkTaskDriver stagedInstance(CrashPoints crashPoints) {
    String big = "x".repeat(2 << 20);
    return new SinkTaskDriver(store, clock, format, crashPoints, TIMEOUT_MS,
        Map.of(ParquetSinkConfig.BUFFER_MAX_BYTES_CONFIG, Long.toString(1L << 30)), o -> {
          SinkRecord r = SinkTaskTest.record(0, o, big + o);
          r.headers().addString("h", "h" + (o % 3));
          return r;
        });
  }

  @Test
  void aStagedZombieFileCopiedAfterTheRollbackIsDeletedByTheNextRecovery() throws IOException {
    int[] hits = new int[2];
    String[] zombieFile = new String[1];
    SinkTaskDriver zombie = stagedInstance(p -> {
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
        List<String> attempt0 = dataFilesOrFail().stream()
            .filter(k -> k.endsWith("+00000000000000000009.parquet")).toList();
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

  private List<String> dataFilesOrFail() {
    try {
      return dataFiles();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
