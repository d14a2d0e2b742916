package dev.parquetconnect.sink.commit;

import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.schema.MessageType;
import java.io.IOException;
import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * How the sink makes the records of one Kafka partition durable, exactly once: the one thing a
 * partition's writer ({@code TopicPartitionWriter}) asks of where its files go. The writer writes
 * the records of a contiguous range of offsets {@code [start, end]} into data files (one per
 * partition directory), then commits the range with its files; the range and its files become
 * durable together or not at all, and across task instances, zombies included, no offset is ever
 * committed twice or skipped. Connect's own committed offsets are only reported: where a partition
 * resumes is what {@link #recover} finds here.
 *
 * <p>One instance per Kafka partition a task owns, called from the task's thread only. Its life:
 * {@link #recover} until it returns true, then any number of {@link #commit}s, each followed by
 * {@link #abort} when it failed; any failure sends the writer back to {@link #recover}. The writer
 * handles rotation, memory, metrics, retries and backoff; an implementation handles the claim,
 * visibility, fencing and clean-up of its commits, and calls its {@link CrashPoints} at the named
 * points of its protocol so that the crash tests can stop it there.
 *
 * <h2>The file store ({@link FileCommitProtocol})</h2>
 *
 * Files in a plain directory or bucket, with commit markers beside them (docs/exactly-once.md):
 * {@link #recover} lists the partition's markers and settles an unfinished commit (rolled forward
 * when all its files exist, rolled back otherwise, after waiting for another writer's commit up to
 * {@code commit.timeout.ms}); {@link #commit} claims the attempt with a create-if-absent intent,
 * makes each file visible under its final key ({@link DataFile#publish}) and records the outcome;
 * {@link #abort} settles the attempt as aborted and deletes what it made visible. Attempt numbers
 * name the files of a retried range.
 *
 * <h2>An Apache Iceberg table</h2>
 *
 * The same interface fits a table commit: the data files are written by the same writer to the
 * table's location, and a catalog transaction appends them, with the range's Kafka offsets in the
 * new snapshot's summary:
 *
 * <ul>
 *   <li>{@link #recover}: loads the table and reads the offsets of this partition from the summary
 *       of the newest snapshot that holds them (so {@link #lastCommitted}); a catalog commit is
 *       atomic, so there is no unfinished commit to wait for ({@code false} only while the catalog
 *       cannot be reached, as an {@link IOException}). Data files of attempts that no snapshot
 *       references are orphans to delete.
 *   <li>{@link #attemptAt}: a number that keeps the file names of a retried range unique.
 *   <li>{@link #commit}: {@link DataFile#publish} completes each upload at its final key (invisible
 *       to readers until a snapshot references it), then the range is staged: one snapshot per
 *       table and interval adds the staged ranges of all tasks, each on the condition that the
 *       table's committed offset for its partition is still {@code start - 1}. So {@code commit}
 *       returns before the range is durable: {@link #lastCommitted} moves when the table holds it,
 *       and a range the table refused (a zombie's, or one no committer took in time) is reported by
 *       {@link #lost}, which sends the writer back to {@link #recover}.
 *   <li>{@link #abort}: files of a range never staged are deleted; a range that may be staged is
 *       withdrawn and its files are left to the orphan clean-up, which sees whether a committer
 *       took it after all.
 *   <li>{@link #lastCommitFiles}: the data files the last commit added.
 * </ul>
 *
 * Such an implementation needs the data file metrics of each file (counts, sizes, bounds) from the
 * writer's statistics: {@link DataFile} is where they would be added.
 */
public interface CommitProtocol {

  /**
   * Learns where the partition resumes, settling any unfinished commit it finds.
   *
   * @return true when settled ({@link #lastCommitted} is then known); false while another writer's
   *     unfinished commit must be waited for (the caller tries again later)
   * @throws IOException when the store or catalog fails (the caller backs off and retries)
   */
  boolean recover() throws IOException;

  /**
   * The last offset of the newest committed range, as the last {@link #recover}, {@link #commit} or
   * {@link #abort} learned it; -1 when nothing is committed.
   */
  long lastCommitted();

  /**
   * The keys of the files of the newest committed range, so the writer can learn the schemas they
   * were written with; empty when there is none or it is not known. Best effort.
   */
  List<String> lastCommitFiles() throws IOException;

  /**
   * The attempt number of a new range starting at {@code start}: 0, or one more than the last
   * attempt known at that offset. It is part of the names of the range's files.
   */
  int attemptAt(long start);

  /**
   * Commits a range and its files, atomically and fenced against every other writer of the
   * partition.
   *
   * @return the nanoseconds from claiming the range until it was done (for metrics and the slow
   *     commit warning)
   * @throws Fenced when another writer owns the partition or committed past this range: nothing of
   *     this commit stays visible once {@link #abort} ran
   * @throws IOException when the store or catalog failed; the outcome may be unknown until {@link
   *     #abort} or the next {@link #recover}
   */
  long commit(PendingCommit commit) throws Fenced, IOException;

  /**
   * Rolls back what the failed {@link #commit} of {@code start}/{@code attempt} claimed or made
   * visible; nothing when it claimed nothing. Never throws: what it cannot settle now, the next
   * {@link #recover} does.
   *
   * @return true when the commit turned out done (another writer completed it): the range is
   *     committed and {@link #lastCommitted} says so
   */
  boolean abort(long start, int attempt);

  /**
   * Whether a range {@link #commit} accepted was refused afterwards, so the writer must go back to
   * {@link #recover}. Only an implementation whose {@code commit} returns before the range is
   * durable (an Iceberg table's ranges, committed together with other tasks' once per interval) has
   * such ranges; {@link #lastCommitted} moves only when they are durable.
   */
  default boolean lost() {
    return false;
  }

  /**
   * The first offset of the ranges {@link #commit} accepted that are not known to be durable, -1
   * when there are none: where a writer that goes back to {@link #recover} reads again from when
   * nothing is committed.
   */
  default long unconfirmedFrom() {
    return -1;
  }

  /** The partition is no longer the task's: what the protocol holds for it can go. */
  default void release() {}

  /** Opens the protocol of one Kafka partition. */
  @FunctionalInterface
  interface Factory {
    /**
     * @param source the Kafka partition the records are consumed from
     * @param logPrefix what the partition's log lines start with
     */
    CommitProtocol open(TopicPartition source, String logPrefix);
  }

  /**
   * A range of offsets to commit with its files.
   *
   * @param start the first offset of the range
   * @param end the last offset (records skipped or sent to the dead letter queue included)
   * @param attempt the attempt number the files are named with ({@link #attemptAt})
   * @param records how many records the files hold
   * @param files the files, each committed once
   */
  record PendingCommit(long start, long end, int attempt, long records, List<DataFile> files) {
    public PendingCommit {
      files = List.copyOf(files);
    }
  }

  /** One finished data file of a range. */
  interface DataFile {
    /** The key it is visible under once committed. */
    String key();

    /** Makes the file durable under {@link #key} (visible, for a plain store). */
    void publish() throws IOException;

    /** The file's length in bytes once finished; -1 when not known. */
    default long sizeBytes() {
      return -1;
    }

    /** The records (rows) the file holds; -1 when not known. */
    default long recordCount() {
      return -1;
    }

    /** The Parquet schema the file was written with; null when not known. */
    default MessageType schema() {
      return null;
    }

    /** The file's footer as written (row groups, statistics); null when not known. */
    default FileMetaData footer() {
      return null;
    }

    /**
     * The partitioner's encoded partition of the file ({@code name=value/...} as in its key),
     * {@code ""} for none.
     */
    default String partitionPath() {
      return "";
    }
  }

  /** Another writer owns the partition, or has committed past the range. */
  final class Fenced extends Exception {
    public Fenced(String message) {
      super(message);
    }
  }
}
