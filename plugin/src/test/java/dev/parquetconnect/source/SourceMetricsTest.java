package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.metrics.TaskMetrics.Metric;
import org.junit.jupiter.api.Test;

final class SourceMetricsTest {

  private static long value(SourceMetrics metrics, String name) {
    for (Metric m : metrics.metrics()) {
      if (m.name().equals(name)) {
        return m.value().getAsLong();
      }
    }
    throw new AssertionError("no metric " + name);
  }

  @Test
  void countsRecordsFilesAndLag() {
    SourceMetrics metrics = new SourceMetrics();
    metrics.polled(100);
    metrics.polled(0);
    metrics.polled(23);
    metrics.fileFinished(false);
    metrics.fileFinished(false);
    metrics.fileFinished(true);
    metrics.lagFiles(5);
    metrics.lagFiles(4);
    assertEquals(123, value(metrics, "records"));
    assertEquals(2, value(metrics, "files-completed"));
    assertEquals(1, value(metrics, "files-skipped"));
    assertEquals(4, value(metrics, "lag-files"));
  }
}
