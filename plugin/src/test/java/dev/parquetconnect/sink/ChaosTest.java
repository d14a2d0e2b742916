package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.LocalStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random runs of the whole task against a store that fails 3% of its calls (some commits
 * after the file became visible), with crashes at random protocol points, offsets with gaps (as
 * after compaction), bad records to the dead letter queue and ignored tombstones. At the end, every
 * good offset is in exactly one committed file, every bad one went to the dead letter queue (at
 * least once, from whichever task instance read it, failed ones included), and no temporary file is
 * left. Everything follows from the seed, including where the manual clock starts within the
 * scheduled rotation's period, so a failing seed fails again.
 */
final class ChaosTest {
  static final String[] POINTS = {
    "put", "before-intent", "after-intent", "mid-commit", "before-done", "after-done"
  };
  static final int SEEDS = Integer.getInteger("chaos.seeds", 20);

  @TempDir Path dir;

  @Test
  void everyOffsetExactlyOnceWhateverFails() throws IOException {
    for (long seed = 1; seed <= SEEDS; seed++) {
      run(seed, schedulePhase(seed));
    }
  }

  /**
   * The run that once failed the build: the first task instance dead-letters bad records, commits
   * them, and later fails after five store failures in a row; the later instances resume after
   * those commits and never see the records again. The test used to forget the dead letters of a
   * failed instance (and found none at all); which instance commits what depends on where in the 5
   * s rotation schedule the clock starts.
   */
  @Test
  void deadLettersOfAFailedTaskAreCounted() throws IOException {
    run(17, 500);
  }

  /**
   * Where in the {@code rotate.schedule.interval.ms} period (5 s) the clock of a seed starts.
   * Scheduled rotation commits at multiples of the interval, so this decides which records share a
   * commit: it must follow from the seed (or a failing seed cannot be run again), and differ
   * between seeds (so that they explore different commit boundaries). A separate generator keeps
   * each seed's records, configuration and crashes what they were.
   */
  static long schedulePhase(long seed) {
    return new Random(~seed).nextInt(5000);
  }

  private void run(long seed, long phase) throws IOException {
    Random random = new Random(seed);
    Path root = dir.resolve("seed-" + seed + "-phase-" + phase);
    SimulatedConnect connect = new SimulatedConnect();
    Set<String> good = new HashSet<>();
    Set<String> bad = new HashSet<>();
    for (int p = 0; p < 3; p++) {
      long offset = 0;
      for (int i = 0; i < 100; i++) {
        offset += random.nextInt(10) == 0 ? 2 + random.nextInt(5) : 1;
        int kind = random.nextInt(20);
        String value = kind == 0 ? "bad" : kind == 1 ? null : "v" + offset;
        SinkRecord r = SinkTaskTest.record(p, offset, value);
        r.headers().addString("h", "h" + random.nextInt(4));
        connect.append(r);
        String id = SinkTaskTest.TOPIC + "-" + p + "@" + offset;
        if (kind == 0) {
          bad.add(id);
        } else if (kind != 1) {
          good.add(id);
        }
      }
    }
    Map<String, String> props = new HashMap<>();
    props.put("name", "chaos");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, root.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, Integer.toString(3 + random.nextInt(20)));
    props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "10000");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "5000");
    props.put(ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG, "0");
    props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "header");
    props.put(ParquetSinkConfig.PARTITION_HEADERS_CONFIG, "h");
    props.put(ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG, "ignore");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    ManualClock clock = new ManualClock();
    clock.advance(Math.floorMod(phase - clock.wallMillis(), 5000L));
    LinesFormat format = new LinesFormat();
    Set<String> deadLettered = new HashSet<>();
    int crashes = 0;
    int failures = 0;
    try (LocalStore local = new LocalStore(root)) {
      FlakyStore flaky = new FlakyStore(local, seed, 0.03);
      for (int instance = 0; instance < 12; instance++) {
        String point = POINTS[random.nextInt(POINTS.length)];
        int crashAt = 1 + random.nextInt(instance < 11 ? 40 : Integer.MAX_VALUE);
        int[] hits = {0};
        CrashPoints crash =
            instance == 11
                ? CrashPoints.NONE
                : at -> {
                  if (at.equals(point) && ++hits[0] == crashAt) {
                    throw new SinkTaskTest.SimulatedCrash(at);
                  }
                };
        if (instance == 11) {
          flaky.failureRate(0);
        }
        try {
          connect.start(
              () -> new ParquetSinkTask(c -> format, c -> flaky, clock, crash), props, true);
          for (int step = 0; step < 2000 && connect.step(1 + random.nextInt(30)); step++) {
            clock.advance(random.nextInt(3000));
            if (random.nextInt(3) == 0) {
              connect.commitOffsets();
            }
          }
          // The scheduled rotation commits the tail that is below flush.size.
          for (int tail = 0; tail < 3; tail++) {
            clock.advance(10_000);
            connect.step(100);
          }
          connect.commitOffsets();
          deadLettered.addAll(deadLettered(connect));
          connect.stop();
        } catch (SinkTaskTest.SimulatedCrash e) {
          crashes++;
          deadLettered.addAll(deadLettered(connect));
          connect.crash();
          clock.advance(60_000);
        } catch (ConnectException e) {
          // Too many store failures in a row: the task fails; Connect (or a person) restarts it.
          // What it sent to the dead letter queue stays there: its commits covered those records,
          // and no later instance reads them again.
          failures++;
          deadLettered.addAll(deadLettered(connect));
          connect.crash();
          clock.advance(60_000);
        }
      }
      Map<String, Integer> counts = SimulatedConnect.offsetCounts(local, "topics");
      String context =
          "seed "
              + seed
              + " phase "
              + phase
              + " ("
              + crashes
              + " crashes, "
              + failures
              + " failed tasks)";
      for (String id : good) {
        assertEquals(1, counts.getOrDefault(id, 0), context + ": " + id);
      }
      assertEquals(good.size(), counts.size(), context + ": nothing else committed");
      assertTrue(!bad.isEmpty(), context + ": the seed made no bad record");
      // At least once: a record dead-lettered in a commit that was rolled back is sent again.
      assertEquals(new TreeSet<>(bad), new TreeSet<>(deadLettered), context + ": dead-lettered");
      assertEquals(List.of(), SimulatedConnect.temporaryFiles(root), context);
    }
  }

  /** What the current task instance sent to the dead letter queue, as topic-partition@offset. */
  private static Set<String> deadLettered(SimulatedConnect connect) {
    Set<String> ids = new HashSet<>();
    synchronized (connect.context().deadLettered) {
      for (SinkRecord r : connect.context().deadLettered) {
        ids.add(r.topic() + "-" + r.kafkaPartition() + "@" + r.kafkaOffset());
      }
    }
    return ids;
  }
}
