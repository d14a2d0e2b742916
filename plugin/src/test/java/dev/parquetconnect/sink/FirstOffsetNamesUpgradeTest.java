package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.LocalStore;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An upgrade: the store holds files and markers of a version that named files by their first offset
 * only ({@code t+p+S[-a].parquet}; the intent lists those names). Recovery goes by the keys the
 * intent lists, so every commit state such a version left is resumed after, rolled forward or
 * rolled back as before, and the new commits get full names ({@code t+p+S+E[-a].parquet}).
 *
 * <p>The old store is made by running this version to a crash point and then renaming its files and
 * rewriting its intent to the old names, exactly what the old version would have left.
 */
final class FirstOffsetNamesUpgradeTest {
  static final TopicPartition TP = SinkTaskDriver.TP;
  static final long TIMEOUT_MS = 10_000;

  /** The end offset in a full name, which the old names did not have. */
  private static final Pattern END = Pattern.compile("\\+\\d{20}(?=(-\\d+)?\\.parquet$)");

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

  /** The name an earlier version gave a file: no end offset. */
  static String oldName(String key) {
    return END.matcher(key).replaceFirst("");
  }

  /** Rewrites one commit attempt as an earlier version left it: files and intent, old names. */
  void downgrade(long start, int attempt) throws IOException {
    String intentKey =
        "topics/_markers/conn/orders/0/" + SinkKeys.offsetText(start) + "-" + attempt + ".intent";
    String intent = read(intentKey);
    StringBuilder old = new StringBuilder();
    int files = 0;
    for (String line : intent.split("\n")) {
      if (line.startsWith("file=")) {
        String key = line.substring("file=".length());
        String oldKey = oldName(key);
        assertFalse(key.equals(oldKey), "a full name: " + key);
        if (store.exists(key)) {
          store.move(key, oldKey);
        }
        line = "file=" + oldKey;
        files++;
      }
      old.append(line).append('\n');
    }
    assertTrue(files > 0);
    store.delete(intentKey);
    try (StoreOutput out = store.create(intentKey)) {
      out.write(old.toString().getBytes(StandardCharsets.UTF_8));
      out.commit();
    }
  }

  private String read(String key) throws IOException {
    try (StoreInput in = store.open(key)) {
      byte[] b = new byte[(int) in.length()];
      in.readFully(0, b, 0, b.length);
      return new String(b, StandardCharsets.UTF_8);
    }
  }

  void assertEachOffsetOnce(long endExclusive) throws IOException {
    Map<String, Integer> counts = SimulatedConnect.offsetCounts(store, "topics");
    for (long o = 0; o < endExclusive; o++) {
      assertEquals(1, counts.getOrDefault("orders-0@" + o, 0), "offset " + o + ": " + counts);
    }
    assertEquals(endExclusive, counts.size(), counts.keySet().toString());
  }

  List<String> dataFiles() throws IOException {
    List<String> names = new ArrayList<>();
    for (StoreFile f : store.list("topics/orders", true)) {
      names.add(f.key().substring(f.key().lastIndexOf('/') + 1));
    }
    return names;
  }

  @Test
  void aDoneCommitUnderOldNamesIsResumedAfter() throws IOException {
    SinkTaskDriver before = instance(CrashPoints.NONE);
    before.deliverUpTo(15); // offsets 0-9 committed, 10-14 open and lost with the instance
    downgrade(0, 0);
    assertTrue(
        dataFiles().contains("orders+0+00000000000000000000.parquet"), dataFiles().toString());

    SinkTaskDriver after = instance(CrashPoints.NONE);
    assertEquals(10L, after.position, "resumes after the old commit");
    after.deliverUpTo(20);
    assertEachOffsetOnce(20);
    assertTrue(
        dataFiles().contains("orders+0+00000000000000000010+00000000000000000019.parquet"),
        dataFiles().toString());
  }

  @Test
  void anUnfinishedCommitUnderOldNamesIsRolledForward() throws IOException {
    SinkTaskDriver crashed = instance(SinkTaskDriver.crashAt("before-done"));
    try {
      crashed.deliverUpTo(10);
    } catch (SinkTaskTest.SimulatedCrash expected) {
      // intent and all files, no outcome
    }
    downgrade(0, 0);
    SinkTaskDriver owner = instance(CrashPoints.NONE);
    assertFalse(owner.context.paused.contains(TP), "every old-named file exists: rolled forward");
    assertEquals(10L, owner.position);
    owner.deliverUpTo(20);
    assertEachOffsetOnce(20);
    assertEquals(
        3,
        dataFiles().stream().filter(n -> n.equals("orders+0+00000000000000000000.parquet")).count(),
        dataFiles().toString());
  }

  @Test
  void anUnfinishedCommitUnderOldNamesIsRolledBack() throws IOException {
    SinkTaskDriver crashed = instance(SinkTaskDriver.crashAt("mid-commit"));
    try {
      crashed.deliverUpTo(10);
    } catch (SinkTaskTest.SimulatedCrash expected) {
      // one file of three is visible
    }
    downgrade(0, 0);
    assertEquals(List.of("orders+0+00000000000000000000.parquet"), dataFiles());
    SinkTaskDriver owner = instance(CrashPoints.NONE);
    assertTrue(owner.context.paused.contains(TP), "waits for the unfinished commit");
    clock.advance(TIMEOUT_MS);
    owner.deliverUpTo(10);
    assertFalse(owner.context.paused.contains(TP), "rolled back after the timeout");
    owner.position = 0;
    owner.deliverUpTo(10);
    assertEachOffsetOnce(10);
    for (String name : dataFiles()) {
      assertEquals(
          "orders+0+00000000000000000000+00000000000000000009-1.parquet",
          name,
          "the old-named file was deleted, the new attempt has full names");
    }
  }
}
