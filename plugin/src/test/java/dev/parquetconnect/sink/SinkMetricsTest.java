package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.metrics.TaskMetrics.Metric;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

final class SinkMetricsTest {

  private static long value(SinkMetrics metrics, String name) {
    for (Metric m : metrics.metrics()) {
      if (m.name().equals(name)) {
        return m.value().getAsLong();
      }
    }
    throw new AssertionError("no metric " + name);
  }

  @Test
  void commitsAddUpRecordsFilesLatencyAndRotationsByReason() {
    SinkMetrics metrics = new SinkMetrics();
    metrics.committed("flush.size", 1000, List.of(), 4_000_000);
    metrics.committed("flush.size", 500, List.of(), 2_000_000);
    metrics.committed("rotate.schedule.interval.ms", 7, List.of(), 9_000_000);
    metrics.committed("something new", 1, List.of(), 1_000_000);
    assertEquals(1508, value(metrics, "records-written"));
    assertEquals(4, value(metrics, "commits"));
    assertEquals(4, value(metrics, "commit-latency-avg-ms"));
    assertEquals(9, value(metrics, "commit-latency-max-ms"));
    assertEquals(2, value(metrics, "rotations-flush-size"));
    assertEquals(1, value(metrics, "rotations-rotate-schedule-interval"));
    assertEquals(1, value(metrics, "rotations-other"));
    assertEquals(0, value(metrics, "rotations-schema-change"));
  }

  @Test
  void errantRecordsAndBufferedBytesAndFailures() {
    SinkMetrics metrics = new SinkMetrics();
    assertEquals(0, value(metrics, "commit-latency-avg-ms"), "no commit yet: no division by 0");
    metrics.errantRecord(true);
    metrics.errantRecord(true);
    metrics.errantRecord(false);
    metrics.bufferedBytes(12345);
    metrics.commitFailed();
    assertEquals(2, value(metrics, "dlq-records"));
    assertEquals(1, value(metrics, "skipped-records"));
    assertEquals(12345, value(metrics, "buffered-bytes"));
    assertEquals(1, value(metrics, "commit-failures"));
  }

  @Test
  void metricNamesAreUniqueAndDescribed() {
    List<String> names = new ArrayList<>();
    for (Metric m : new SinkMetrics().metrics()) {
      assertTrue(!names.contains(m.name()), "duplicate " + m.name());
      assertTrue(m.description().length() > 10, m.name());
      names.add(m.name());
    }
  }

  /**
   * Every reason the sink commits for has its own counter: a new {@code commit("...")} reason in
   * the code must be added to {@link SinkMetrics.Rotation} (and docs/operations.md).
   */
  @Test
  void everyCommitReasonInTheCodeHasItsRotationCounter() throws Exception {
    Pattern call = Pattern.compile("commit\\(\"([^\"]+)\"\\)");
    List<String> reasons = new ArrayList<>();
    for (String file : List.of("TopicPartitionWriter.java", "ParquetSinkTask.java")) {
      Matcher m =
          call.matcher(Files.readString(Path.of("src/main/java/dev/parquetconnect/sink", file)));
      while (m.find()) {
        reasons.add(m.group(1));
      }
    }
    assertTrue(reasons.size() >= 6, "found " + reasons);
    for (String reason : reasons) {
      assertNotEquals(SinkMetrics.Rotation.OTHER, SinkMetrics.Rotation.of(reason), reason);
    }
  }
}
