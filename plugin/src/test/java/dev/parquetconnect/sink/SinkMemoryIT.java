package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink in bounded memory: in a JVM with {@code -Xmx256m}, the production task writes records of
 * a nested schema through a field partitioner with 1,000 distinct values (so 1,000 files open at
 * once) with {@code buffer.max.bytes} at 128 MiB, without OutOfMemoryError: 1,000,000 records to a
 * local store, and 200,000 to S3 (S3Proxy, in this JVM), where each open file also holds a
 * multipart part buffer: two commits of 1,000 files each, the same load per commit as on disk, at a
 * fifth of the run time. The harness reports the live heap (the heap in use right after each full
 * collection) and the test asserts that its peak, less the JVM's baseline, stays within the budget
 * plus a stated margin, and that the task's own accounting never passes the budget. The task is
 * driven directly ({@link MemoryHarness}): a Connect worker would add its own heap to the
 * measurement.
 */
final class SinkMemoryIT {
  private static final Logger LOG = LoggerFactory.getLogger(SinkMemoryIT.class);
  private static final long BUDGET = 128L << 20;

  /**
   * What the task may hold beyond {@code buffer.max.bytes}: the budget counts each open file's
   * buffers and arrays, and a per-file estimate of its column writers' fixed heap
   * (docs/performance.md, Sink memory); the live heap also holds the batch in flight, the task's
   * own maps and whatever the estimate misses in 1,000 files opened and committed at once. Measured
   * on 2026-11-26: 136 MiB beyond the baseline on local disk and on S3, 106% of the budget (189
   * MiB, 148%, on local disk before the budget counted the arrays' length); the bound is 125%.
   */
  private static final long MARGIN = BUDGET / 4;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aMillionRecordsIntoAThousandDirectoriesIn256MegabytesOfHeap() throws Exception {
    Path dir = ItPaths.freshWorkDir("SinkMemoryIT");
    Path store = Files.createDirectories(dir.resolve("lake"));
    long records = 1_000_000;
    Map<String, String> results = runHarness(dir, store.toString(), records, Map.of());
    assertEquals(Long.toString(records), results.get("RECORDS_COMMITTED"));
    SinkIts.Found found = SinkIts.duckDb(store.resolve("topics/" + MemoryHarness.TOPIC), null);
    assertEquals(new SinkIts.Found(records, records, 0, 0, records - 1), found);
    SinkIts.sparkReadsAsDuckDb(store.resolve("topics/" + MemoryHarness.TOPIC));
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aThousandOpenMultipartUploadsToS3In256MegabytesOfHeap() throws Exception {
    Path dir = ItPaths.freshWorkDir("SinkMemoryIT-s3");
    long records = 200_000;
    try (ItStores.Running s3 = ItStores.s3(0, 0)) {
      Map<String, String> results = runHarness(dir, s3.url("lake"), records, s3.settings());
      assertEquals(Long.toString(records), results.get("RECORDS_COMMITTED"));
      try (Store check = s3.open("lake")) {
        Path files = SinkIts.localCopy(check, MemoryHarness.TOPIC, dir.resolve("copy"));
        SinkIts.Found found = SinkIts.duckDb(files, null);
        assertEquals(new SinkIts.Found(records, records, 0, 0, records - 1), found);
      }
    }
  }

  /** Runs the harness in a JVM of its own, checks its memory figures, returns its results. */
  private static Map<String, String> runHarness(
      Path dir, String store, long records, Map<String, String> settings) throws Exception {
    Path log = dir.resolve("harness.log");
    List<String> command =
        new ArrayList<>(
            List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:+UseParallelGC",
                "-cp",
                System.getProperty("java.class.path"),
                MemoryHarness.class.getName(),
                store,
                Long.toString(records),
                "1000",
                "1",
                Long.toString(BUDGET)));
    settings.forEach((k, v) -> command.add(k + "=" + v));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      assertTrue(process.waitFor(9, TimeUnit.MINUTES), "the harness finished; see " + log);
    } finally {
      process.destroyForcibly();
    }
    String output = Files.readString(log);
    assertEquals(0, process.exitValue(), "exit code (3: OutOfMemoryError); " + tail(output));
    Map<String, String> results = results(output);
    LOG.info("memory harness on {}: {}", store.contains("://") ? "S3" : "local disk", results);
    long baseline = Long.parseLong(results.get("BASELINE_LIVE_HEAP_BYTES"));
    long peakLive = Long.parseLong(results.get("PEAK_HEAP_AFTER_FULL_GC_BYTES"));
    long peakBudget = Long.parseLong(results.get("PEAK_BUDGET_BYTES"));
    assertTrue(peakLive > baseline, "a full collection measured the live heap: " + results);
    assertTrue(
        peakBudget <= BUDGET, "the accounted buffers stay within buffer.max.bytes: " + results);
    long held = peakLive - baseline;
    LOG.info(
        "the task held at most {} MiB beyond the JVM's baseline of {} MiB: {}% of the budget",
        held >> 20, baseline >> 20, held * 100 / BUDGET);
    assertTrue(
        held <= BUDGET + MARGIN,
        "live heap beyond the baseline "
            + held
            + " bytes, more than buffer.max.bytes "
            + BUDGET
            + " + "
            + MARGIN
            + ": "
            + results);
    return results;
  }

  private static Map<String, String> results(String output) {
    Map<String, String> results = new HashMap<>();
    for (String line : output.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && line.substring(0, eq).matches("[A-Z_]+")) {
        results.put(line.substring(0, eq), line.substring(eq + 1).trim());
      }
    }
    return results;
  }

  private static String tail(String output) {
    return output.length() < 4000 ? output : output.substring(output.length() - 4000);
  }
}
