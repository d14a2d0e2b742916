package dev.parquetconnect.source;

import java.util.List;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * A piece of a task's work with its own position: one file (generic mode) or one original
 * topic-partition and its files (replay mode).
 */
interface ReplayUnit {
  /** Whether records may still be read now. */
  boolean hasWork();

  /**
   * Appends up to {@code max - out.size()} records. Returns early when the unit has nothing more
   * for now. An unreadable file is handled here (skipped, reported) or fails the task with a {@link
   * org.apache.kafka.connect.errors.ConnectException}.
   */
  void read(List<SourceRecord> out, int max);

  /** Releases open files. */
  void close();
}
