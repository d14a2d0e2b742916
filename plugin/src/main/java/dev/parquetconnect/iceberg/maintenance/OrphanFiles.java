package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.iceberg.StoreLocations;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import java.io.IOException;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clean-up of a table's orphans: Parquet files in the table's directory of our store that no
 * snapshot of the table references (data and delete files of every retained snapshot, all branches
 * and tags), left by a crashed or fenced writer or compaction, or by an expiry whose deletes
 * failed; the temporary files and uploads of compacted files a killed compaction left there; and
 * the metadata files nothing retained references ({@link OrphanMetadataFiles}).
 *
 * <p>Only files older than the minimum age are deleted: a sink commit in flight completes its files
 * before the catalog commit and gives it up at half of {@code commit.timeout.ms}, a compaction
 * within its run time, and the minimum age is validated to exceed both. Only committed-form names
 * are considered: a sink file ({@code TOPIC+PARTITION+START+END-ATTEMPT.parquet}) or a compacted
 * one; files being written are never listed by a store. Of the temporary files, only those of
 * compacted files older than the minimum age are removed: a compaction writes its files within its
 * run time, while a sink's open file may stay open for its whole rotation interval (the sink's own
 * {@code cleanup.orphans.min.age.ms} bounds those, applied when a task starts writing a topic).
 */
public final class OrphanFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanFiles.class);

  private final Store store;
  private final long minAgeMs;
  private final LongSupplier wallMillis;
  private final OrphanMetadataFiles metadata;
  private CrashPoints crashPoints = CrashPoints.NONE;

  public OrphanFiles(Store store, long minAgeMs, LongSupplier wallMillis) {
    this.store = store;
    this.minAgeMs = minAgeMs;
    this.wallMillis = wallMillis;
    this.metadata = new OrphanMetadataFiles(minAgeMs, wallMillis);
  }

  /**
   * Passes {@link MaintenanceCrashPoints#ORPHAN_DELETE} before each orphan deleted (crash tests).
   */
  OrphanFiles crashPoints(CrashPoints points) {
    this.crashPoints = points;
    metadata.crashPoints(points);
    return this;
  }

  /**
   * Deletes the orphan data files and compacted files' temporaries under {@code dir}, the table's
   * directory in the store, then the table's orphan metadata files.
   *
   * @return how many files were deleted
   */
  public int clean(Table table, String dir) throws IOException {
    long olderThan = wallMillis.getAsLong() - minAgeMs;
    int deleted = cleanDataFiles(table, dir, olderThan);
    deleted +=
        store.cleanupOrphans(
            dir,
            Instant.ofEpochMilli(olderThan),
            name -> name.startsWith(TableCompactor.FILE_PREFIX));
    return deleted + metadata.clean(table);
  }

  private int cleanDataFiles(Table table, String dir, long olderThan) throws IOException {
    Set<String> referenced = null;
    int deleted = 0;
    String root = StoreLocations.uri(store, "");
    for (StoreFile file : store.list(dir, true)) {
      if (!isDataFileName(file.name()) || file.modified().toEpochMilli() >= olderThan) {
        continue;
      }
      if (referenced == null) {
        // Read after the listing: a file committed meanwhile is in it.
        referenced = referenced(table);
      }
      if (!referenced.contains(root + file.key())) {
        crashPoints.at(MaintenanceCrashPoints.ORPHAN_DELETE);
        store.delete(file.key());
        deleted++;
        LOG.info("deleted {}, a data file no snapshot of {} references", file.key(), table.name());
      }
    }
    return deleted;
  }

  static boolean isDataFileName(String name) {
    return name.endsWith(".parquet")
        && (name.startsWith(TableCompactor.FILE_PREFIX) || TableCompactor.firstOffset(name) >= 0);
  }

  /** The locations of every data and delete file a snapshot of the table references. */
  public static Set<String> referenced(Table table) throws IOException {
    try {
      table.refresh();
      Set<String> manifests = new HashSet<>();
      Set<String> files = new HashSet<>();
      for (Snapshot snapshot : table.snapshots()) {
        for (ManifestFile manifest : snapshot.allManifests(table.io())) {
          if (!manifests.add(manifest.path())) {
            continue;
          }
          try (CloseableIterable<String> paths = ManifestFiles.readPaths(manifest, table.io())) {
            paths.forEach(files::add);
          }
        }
      }
      return files;
    } catch (RuntimeException e) {
      throw new IOException("cannot list the files " + table.name() + " references: " + e, e);
    }
  }
}
