package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.sink.commit.CrashPoints;

/**
 * The named places of a maintenance run where the crash tests stop a worker ({@link CrashPoints}, a
 * {@code FaultInjector} of the maintenance's own in a real worker): each is a window between a
 * store or catalog change and the next, whose crash must leave every retained snapshot readable.
 */
public final class MaintenanceCrashPoints {
  /** Compaction: a partition's merged files are written, the rewrite not committed yet. */
  public static final String BEFORE_REWRITE_COMMIT = "compaction-before-commit";

  /** Compaction: the rewrite is committed, nothing after it done yet (result, next partition). */
  public static final String AFTER_REWRITE_COMMIT = "compaction-after-commit";

  /** Snapshot expiry: the expiry is committed, before each file it deletes. */
  public static final String EXPIRY_DELETE = "expiry-delete";

  /** Orphan clean-up: before each orphan data file it deletes. */
  public static final String ORPHAN_DELETE = "orphan-delete";

  private MaintenanceCrashPoints() {}
}
