package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.ItPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink in bounded memory: in a JVM with {@code -Xmx256m}, the production task writes 1,000,000
 * records of a nested schema through a field partitioner with 1,000 distinct values (so 1,000 files
 * open at once) to a local store, without OutOfMemoryError; the peak heap is reported. The task is
 * driven directly ({@link MemoryHarness}): a Connect worker would add its own heap to the
 * measurement.
 */
final class SinkMemoryIT {
  private static final Logger LOG = LoggerFactory.getLogger(SinkMemoryIT.class);
  private static final long RECORDS = 1_000_000;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void aMillionRecordsIntoAThousandDirectoriesIn256MegabytesOfHeap() throws Exception {
    Path dir = ItPaths.freshWorkDir("SinkMemoryIT");
    Path store = Files.createDirectories(dir.resolve("lake"));
    Path log = dir.resolve("harness.log");
    List<String> command =
        List.of(
            Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-XX:+ExitOnOutOfMemoryError",
            "-XX:+UseParallelGC",
            "-cp",
            System.getProperty("java.class.path"),
            MemoryHarness.class.getName(),
            store.toString(),
            Long.toString(RECORDS),
            "1000",
            "1",
            Long.toString(128L << 20));
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
    LOG.info("memory harness: {}", results);
    assertEquals(Long.toString(RECORDS), results.get("RECORDS_COMMITTED"), tail(output));
    SinkIts.Found found = SinkIts.duckDb(store.resolve("topics/" + MemoryHarness.TOPIC), null);
    assertEquals(new SinkIts.Found(RECORDS, RECORDS, 0, 0, RECORDS - 1), found);
    SinkIts.sparkReadsAsDuckDb(store.resolve("topics/" + MemoryHarness.TOPIC));
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
