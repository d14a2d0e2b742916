package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.iceberg.OffsetSummary;
import dev.parquetconnect.sink.commit.iceberg.StoreLocations;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expiry of a table's old snapshots with Iceberg's {@code ExpireSnapshots}, which also deletes the
 * files only the expired snapshots referenced (our data files through our store, metadata through
 * the table's FileIO).
 *
 * <p>What is kept, whatever the age: the newest {@code minToKeep} snapshots of the main branch,
 * snapshots of other branches and tags as their own retention says, and the newest snapshot that
 * carries the sink's offsets ({@link OffsetSummary#newestWithOffsets}) with every snapshot after
 * it, since the sink's recovery walks back from the current snapshot to it. Iceberg retains a
 * branch's ancestors from the newest down to the first one older than the cut-off, so the cut-off
 * is taken at or below the oldest timestamp on that walk. Files a commit in flight will add are in
 * no snapshot yet, and an expiry deletes only files of expired snapshots that no retained one has.
 */
public final class SnapshotExpiry {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotExpiry.class);

  private final Store store;
  private final long maxAgeMs;
  private final int minToKeep;
  private final LongSupplier wallMillis;
  private CrashPoints crashPoints = CrashPoints.NONE;

  public SnapshotExpiry(Store store, long maxAgeMs, int minToKeep, LongSupplier wallMillis) {
    this.store = store;
    this.maxAgeMs = maxAgeMs;
    this.minToKeep = Math.max(1, minToKeep);
    this.wallMillis = wallMillis;
  }

  /** Passes {@link MaintenanceCrashPoints#EXPIRY_DELETE} before each file deleted (crash tests). */
  SnapshotExpiry crashPoints(CrashPoints points) {
    this.crashPoints = points;
    return this;
  }

  /**
   * Expires the table's snapshots older than the maximum age that must not be kept.
   *
   * @return how many snapshots were expired
   */
  public int expire(Table table) throws IOException {
    try {
      table.refresh();
      Snapshot current = table.currentSnapshot();
      if (current == null) {
        return 0;
      }
      long cutoff = Math.min(wallMillis.getAsLong() - maxAgeMs, keepFrom(table, current));
      if (!anyOlderThan(table, cutoff)) {
        // Nothing can expire: no commit, which would only race the sink's commits.
        return 0;
      }
      String root = StoreLocations.uri(store, "");
      Set<Long> before = new HashSet<>();
      table.snapshots().forEach(s -> before.add(s.snapshotId()));
      table
          .expireSnapshots()
          .expireOlderThan(cutoff)
          .retainLast(minToKeep)
          .deleteWith(location -> delete(table, root, location))
          .commit();
      table.refresh();
      table.snapshots().forEach(s -> before.remove(s.snapshotId()));
      return before.size();
    } catch (RuntimeException e) {
      throw new IOException("cannot expire the snapshots of " + table.name() + ": " + e, e);
    }
  }

  private static boolean anyOlderThan(Table table, long cutoff) {
    for (Snapshot s : table.snapshots()) {
      if (s.timestampMillis() < cutoff) {
        return true;
      }
    }
    return false;
  }

  /**
   * The oldest timestamp on the walk from the current snapshot back to the newest one with sink
   * offsets (inclusive): snapshots at or after it are all retained.
   */
  static long keepFrom(Table table, Snapshot current) {
    Snapshot withOffsets = OffsetSummary.newestWithOffsets(table);
    long oldest = current.timestampMillis();
    for (Snapshot s = current; s != null; ) {
      oldest = Math.min(oldest, s.timestampMillis());
      if (withOffsets == null || s.snapshotId() == withOffsets.snapshotId()) {
        break;
      }
      Long parent = s.parentId();
      s = parent == null ? null : table.snapshot(parent);
    }
    return oldest;
  }

  private void delete(Table table, String root, String location) {
    crashPoints.at(MaintenanceCrashPoints.EXPIRY_DELETE);
    try {
      if (location.startsWith(root)) {
        store.delete(location.substring(root.length()));
      } else {
        table.io().deleteFile(location);
      }
    } catch (IOException | RuntimeException e) {
      // What stays is unreferenced: the orphan clean-up deletes it later.
      LOG.info("cannot delete {} of an expired snapshot: {}", location, e.toString());
    }
  }
}
