package dev.parquetconnect.metrics;

import dev.parquetconnect.metrics.TaskMetrics.Metric;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The metrics of the Iceberg table maintenance a sink task runs (docs/iceberg.md, "Maintenance"):
 * totals since the task started. The maintenance thread is the only writer of every field; JMX
 * reads them from other threads, hence {@code volatile}.
 */
public final class MaintenanceMetrics implements AutoCloseable {
  /** The JMX type of the fallback bean on workers without KIP-877. */
  public static final String FALLBACK_TYPE = "iceberg-maintenance-metrics";

  private volatile long runs;
  private volatile long failures;
  private volatile long filesRewritten;
  private volatile long filesWritten;
  private volatile long bytesBefore;
  private volatile long bytesAfter;
  private volatile long partitionsGivenUp;
  private volatile long snapshotsExpired;
  private volatile long orphansDeleted;
  private volatile long runNanosLast;
  private volatile long runNanosMax;
  private TaskMetrics registration;

  /** Registers the metrics beside the task's own; see {@link TaskMetrics}. */
  public void register(Object taskContext, String connector, String task) {
    registration = TaskMetrics.register(taskContext, FALLBACK_TYPE, connector, task, metrics());
  }

  public List<Metric> metrics() {
    return List.of(
        new Metric("maintenance-runs", "Maintenance runs over a table", () -> runs),
        new Metric(
            "maintenance-failures",
            "Maintenance runs that failed (the catalog or store; retried at the next run)",
            () -> failures),
        new Metric(
            "compaction-files-rewritten",
            "Data files replaced by compacted ones",
            () -> filesRewritten),
        new Metric(
            "compaction-files-written", "Compacted data files committed", () -> filesWritten),
        new Metric(
            "compaction-bytes-before",
            "Bytes of the data files compaction replaced",
            () -> bytesBefore),
        new Metric(
            "compaction-bytes-after",
            "Bytes of the compacted files that replaced them",
            () -> bytesAfter),
        new Metric(
            "compaction-partitions-given-up",
            "Partitions a compaction left as they were (inputs changed meanwhile, a refused commit)",
            () -> partitionsGivenUp),
        new Metric("snapshots-expired", "Snapshots expired", () -> snapshotsExpired),
        new Metric("orphan-files-deleted", "Unreferenced data files deleted", () -> orphansDeleted),
        new Metric(
            "maintenance-run-time-last-ms",
            "How long the last maintenance run took",
            () -> TimeUnit.NANOSECONDS.toMillis(runNanosLast)),
        new Metric(
            "maintenance-run-time-max-ms",
            "The longest maintenance run",
            () -> TimeUnit.NANOSECONDS.toMillis(runNanosMax)));
  }

  /** A compaction's outcome. */
  public void compacted(int rewritten, int written, long before, long after, int givenUp) {
    filesRewritten += rewritten;
    filesWritten += written;
    bytesBefore += before;
    bytesAfter += after;
    partitionsGivenUp += givenUp;
  }

  public void expired(int snapshots) {
    snapshotsExpired += snapshots;
  }

  public void orphansDeleted(int files) {
    orphansDeleted += files;
  }

  /** A run over one table ended, failed or not. */
  public void ran(long nanos, boolean failed) {
    runs++;
    if (failed) {
      failures++;
    }
    runNanosLast = nanos;
    runNanosMax = Math.max(runNanosMax, nanos);
  }

  public long value(String name) {
    for (Metric m : metrics()) {
      if (m.name().equals(name)) {
        return m.value().getAsLong();
      }
    }
    throw new IllegalArgumentException(name);
  }

  @Override
  public void close() {
    if (registration != null) {
      registration.close();
      registration = null;
    }
  }
}
