package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The writer streams. 300 MB go through a sink that keeps only a count and the last 4 MiB (from
 * which the footer is checked), in a JVM limited to a 64 MiB heap, with 8 MiB row groups: memory is
 * bounded by the row group, not by the file. The sink is a plain OutputStream: nothing can seek
 * back.
 */
class StreamingWriteIT {
  private static final Logger LOG = LoggerFactory.getLogger(StreamingWriteIT.class);

  private static final long BYTES = 300L << 20;
  private static final long ROW_GROUP = 8L << 20;

  @Test
  void threeHundredMegabytesThroughA64MegabyteHeap() throws Exception {
    String java =
        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    Process process =
        new ProcessBuilder(
                java,
                "-Xmx64m",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                StreamingWriteMain.class.getName(),
                Long.toString(BYTES),
                Long.toString(ROW_GROUP))
            .redirectErrorStream(true)
            .start();
    String output;
    try (var in = process.getInputStream()) {
      output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the writer did not finish");
    assertEquals(0, process.exitValue(), output);
    String last =
        output
            .lines()
            .filter(l -> l.startsWith("bytes="))
            .reduce((a, b) -> b)
            .orElseThrow(() -> new AssertionError("no result line in:\n" + output));
    Map<String, Long> result = new HashMap<>();
    for (String field : List.of(last.split(" "))) {
      String[] kv = field.split("=");
      result.put(kv[0], Long.parseLong(kv[1]));
    }
    LOG.info("streamed " + last);
    assertTrue(result.get("bytes") >= BYTES, last);
    assertTrue(result.get("rowGroups") >= BYTES / ROW_GROUP / 2, last);
    // Held at most about one row group (plus open pages and dictionaries).
    assertTrue(result.get("maxBuffered") < 2 * ROW_GROUP, last);
  }
}
