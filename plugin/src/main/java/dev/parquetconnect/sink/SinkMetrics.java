package dev.parquetconnect.sink;

import dev.parquetconnect.metrics.TaskMetrics;
import dev.parquetconnect.metrics.TaskMetrics.Metric;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sink task's metrics (docs/operations.md lists them). The task thread is the only writer of
 * every field; JMX reads them from other threads, hence {@code volatile} and no read-modify- write
 * from anywhere else. Counters are totals since the task started.
 */
final class SinkMetrics implements AutoCloseable {
  /** The JMX type of the fallback bean on workers without KIP-877. */
  static final String FALLBACK_TYPE = "sink-task-metrics";

  /**
   * Why a commit closed the open files: the reasons {@link TopicPartitionWriter} and {@link
   * ParquetSinkTask} pass to {@code commit(reason)}, and the metric counting each.
   */
  enum Rotation {
    FLUSH_SIZE("flush.size", "rotations-flush-size"),
    FILE_MAX_BYTES("file.max.bytes", "rotations-file-max-bytes"),
    INTERVAL("rotate.interval.ms", "rotations-rotate-interval"),
    SCHEDULE("rotate.schedule.interval.ms", "rotations-rotate-schedule-interval"),
    SCHEMA_CHANGE("schema change", "rotations-schema-change"),
    MEMORY("buffer.max.bytes", "rotations-buffer-max-bytes"),
    /** A reason this class does not know (kept so that nothing goes uncounted). */
    OTHER("", "rotations-other");

    final String reason;
    final String metric;

    Rotation(String reason, String metric) {
      this.reason = reason;
      this.metric = metric;
    }

    static Rotation of(String reason) {
      for (Rotation r : values()) {
        if (r.reason.equals(reason)) {
          return r;
        }
      }
      return OTHER;
    }
  }

  private volatile long recordsWritten;
  private volatile long filesCommitted;
  private volatile long filesPerCommitMax;
  private volatile long schemaChangesInPlace;
  private volatile long bytesWritten;
  private volatile long bufferedBytes;
  private volatile long commits;
  private volatile long commitNanosTotal;
  private volatile long commitNanosMax;
  private volatile long commitFailures;
  private volatile long dlqRecords;
  private volatile long skippedRecords;
  private final long[] rotations = new long[Rotation.values().length];
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
    List<Metric> list = new ArrayList<>();
    list.add(
        new Metric(
            "records-written",
            "Records in files this task committed (each record "
                + "once: a file is visible only after its commit)",
            () -> recordsWritten));
    list.add(
        new Metric("files-committed", "Parquet files this task committed", () -> filesCommitted));
    list.add(
        new Metric(
            "files-per-commit-avg",
            "Files per successful commit, on average: "
                + "about the directories a Kafka partition's records go to between two commits",
            () -> {
              long n = commits;
              return n == 0 ? 0 : filesCommitted / n;
            }));
    list.add(
        new Metric(
            "files-per-commit-max",
            "The most files one successful commit made " + "visible",
            () -> filesPerCommitMax));
    list.add(
        new Metric(
            "schema-changes-in-place",
            "Schema changes made inside an open file "
                + "without a commit, in committed files: a new optional column or a first type for a "
                + "column that was only null (schemaless values); a widening of written values commits "
                + "instead (rotations-schema-change)",
            () -> schemaChangesInPlace));
    list.add(
        new Metric(
            "bytes-written", "Bytes of the Parquet files this task committed", () -> bytesWritten));
    list.add(
        new Metric(
            "buffered-bytes",
            "Heap the open files hold now (rows not yet written "
                + "out plus the store outputs' buffers), bounded by buffer.max.bytes",
            () -> bufferedBytes));
    list.add(
        new Metric(
            "commits", "Successful commits (one per Kafka partition and rotation)", () -> commits));
    list.add(
        new Metric(
            "commit-latency-avg-ms",
            "Average time from writing the intent marker to "
                + "the outcome marker of a successful commit",
            () -> {
              long n = commits;
              return n == 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(commitNanosTotal / n);
            }));
    list.add(
        new Metric(
            "commit-latency-max-ms",
            "Longest successful commit, from intent to " + "outcome marker",
            () -> TimeUnit.NANOSECONDS.toMillis(commitNanosMax)));
    list.add(
        new Metric(
            "commit-failures",
            "Commits that failed or were fenced and were rolled "
                + "back (their records are written again)",
            () -> commitFailures));
    for (Rotation r : Rotation.values()) {
      int i = r.ordinal();
      String why = r == Rotation.OTHER ? "any other reason" : r.reason;
      list.add(new Metric(r.metric, "Commits started by " + why, () -> rotations[i]));
    }
    list.add(
        new Metric(
            "dlq-records",
            "Records sent to the dead letter queue (errors.tolerance" + "=all)",
            () -> dlqRecords));
    list.add(
        new Metric(
            "skipped-records",
            "Bad records skipped without a dead letter queue "
                + "(errors.tolerance=all on a worker without an errant record reporter)",
            () -> skippedRecords));
    return list;
  }

  /** A commit made {@code files} visible, holding {@code records}, in {@code nanos}. */
  void committed(String reason, long records, Collection<OpenFile> files, long nanos) {
    long bytes = 0;
    long reshapes = 0;
    for (OpenFile f : files) {
      bytes += f.fileBytes();
      reshapes += f.writer() == null ? 0 : f.writer().reshapes();
    }
    recordsWritten += records;
    filesCommitted += files.size();
    if (files.size() > filesPerCommitMax) {
      filesPerCommitMax = files.size();
    }
    schemaChangesInPlace += reshapes;
    bytesWritten += bytes;
    commits++;
    commitNanosTotal += nanos;
    if (nanos > commitNanosMax) {
      commitNanosMax = nanos;
    }
    int i = Rotation.of(reason).ordinal();
    // A plain array element: written by the task thread only; a reader may see it late, which
    // a monotonic counter tolerates.
    rotations[i]++;
  }

  void commitFailed() {
    commitFailures++;
  }

  /** A bad record went to the dead letter queue ({@code true}) or was skipped. */
  void errantRecord(boolean deadLettered) {
    if (deadLettered) {
      dlqRecords++;
    } else {
      skippedRecords++;
    }
  }

  void bufferedBytes(long bytes) {
    bufferedBytes = bytes;
  }

  /** The {@code commit-failures} metric: commits that failed (the store or catalog, fencing). */
  long commitFailures() {
    return commitFailures;
  }

  long filesCommitted() {
    return filesCommitted;
  }

  long schemaChangesInPlace() {
    return schemaChangesInPlace;
  }

  long rotations(Rotation r) {
    return rotations[r.ordinal()];
  }

  @Override
  public void close() {
    if (registration != null) {
      registration.close();
      registration = null;
    }
  }
}
