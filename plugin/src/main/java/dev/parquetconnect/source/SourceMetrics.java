package dev.parquetconnect.source;

import dev.parquetconnect.metrics.TaskMetrics;
import dev.parquetconnect.metrics.TaskMetrics.Metric;
import java.util.List;

/**
 * The source task's metrics (docs/operations.md lists them). Only the task thread writes the
 * fields; JMX reads them from other threads, hence {@code volatile}. Counters are totals since the
 * task started.
 */
final class SourceMetrics implements AutoCloseable {
  /** The JMX type of the fallback bean on workers without KIP-877. */
  static final String FALLBACK_TYPE = "source-task-metrics";

  private volatile long records;
  private volatile long filesCompleted;
  private volatile long filesSkipped;
  private volatile long lagFiles;
  private TaskMetrics registration;

  /** Registers the metrics (Connect's plugin metrics, else our MBean); see {@link TaskMetrics}. */
  void register(Object taskContext, String connector, String task) {
    registration = TaskMetrics.register(taskContext, FALLBACK_TYPE, connector, task, metrics());
  }

  /** "connect-plugin-metrics", "mbean" or "none" (not registered). */
  String mechanism() {
    return registration == null ? "none" : registration.mechanism();
  }

  List<Metric> metrics() {
    return List.of(
        new Metric(
            "records",
            "Records this task handed to Connect (replayed rows, and reports of "
                + "corrupt files to errors.topic)",
            () -> records),
        new Metric(
            "files-completed",
            "Files read to the end, or found fully replayed after a " + "restart",
            () -> filesCompleted),
        new Metric(
            "files-skipped",
            "Unreadable files skipped (errors.on.corrupt.file=skip)",
            () -> filesSkipped),
        new Metric(
            "lag-files",
            "Files this task has discovered but not yet read to the end",
            () -> lagFiles));
  }

  /** A poll returned {@code count} records. */
  void polled(int count) {
    records += count;
  }

  /** Nothing more will be read from a file: it was read to its end, or skipped as corrupt. */
  void fileFinished(boolean skipped) {
    if (skipped) {
      filesSkipped++;
    } else {
      filesCompleted++;
    }
  }

  void lagFiles(long files) {
    lagFiles = files;
  }

  @Override
  public void close() {
    if (registration != null) {
      registration.close();
      registration = null;
    }
  }
}
