package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.sink.commit.CrashPoints;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clean-up of a table's orphan metadata files: manifests, manifest lists, statistics files and
 * metadata files ({@code .metadata.json}) in the table's metadata directory that nothing retained
 * references, left by an expiry killed between its commit and its deletes, by a commit that failed
 * or crashed after writing its manifests, or by a metadata file that a commit replaced and a crash
 * kept from deleting. Listed and deleted through the table's FileIO, which must list by prefix
 * (ours, Hadoop's and S3's do); with one that cannot, nothing is deleted.
 *
 * <p>What is kept, whatever the age: the current metadata file and those of its metadata log; every
 * retained snapshot's manifest list and each manifest in it (all branches and tags), the statistics
 * and partition statistics files of the current metadata; every file that is not one of those kinds
 * by its name (a Hadoop catalog's {@code version-hint.text}). And every file younger than the
 * minimum age: a commit in flight writes its manifests and manifest list before it commits, within
 * half of {@code commit.timeout.ms} (a rewrite within the compaction's run time), and the minimum
 * age is validated to exceed both. The references are read after the listing, so a commit that
 * lands in between has its files in them.
 */
final class OrphanMetadataFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanMetadataFiles.class);

  private final long minAgeMs;
  private final LongSupplier wallMillis;
  private CrashPoints crashPoints = CrashPoints.NONE;

  OrphanMetadataFiles(long minAgeMs, LongSupplier wallMillis) {
    this.minAgeMs = minAgeMs;
    this.wallMillis = wallMillis;
  }

  /** Passes {@link MaintenanceCrashPoints#ORPHAN_DELETE} before each file deleted (crash tests). */
  OrphanMetadataFiles crashPoints(CrashPoints points) {
    this.crashPoints = points;
    return this;
  }

  /**
   * Deletes the table's orphan metadata files.
   *
   * @return how many files were deleted
   */
  int clean(Table table) throws IOException {
    try {
      if (!(table.io() instanceof SupportsPrefixOperations listing)
          || !(table instanceof HasTableOperations withOperations)) {
        LOG.debug("{}: its FileIO cannot list, no metadata clean-up", table.name());
        return 0;
      }
      long olderThan = wallMillis.getAsLong() - minAgeMs;
      String dir = metadataDir(withOperations);
      Set<String> referenced = null;
      int deleted = 0;
      for (FileInfo file : listing.listPrefix(dir)) {
        if (!isMetadataFileName(name(file.location())) || file.createdAtMillis() >= olderThan) {
          continue;
        }
        if (referenced == null) {
          // Read after the listing: a file committed meanwhile is in it.
          referenced = referenced(table, withOperations);
        }
        if (!referenced.contains(normalized(file.location()))) {
          crashPoints.at(MaintenanceCrashPoints.ORPHAN_DELETE);
          if (delete(table.io(), file.location())) {
            deleted++;
            LOG.info(
                "deleted {}, a metadata file nothing retained of {} references",
                file.location(),
                table.name());
          }
        }
      }
      return deleted;
    } catch (RuntimeException e) {
      throw new IOException("cannot clean the metadata of " + table.name() + ": " + e, e);
    }
  }

  /** Manifests and manifest lists (Avro), statistics (Puffin) and metadata files. */
  static boolean isMetadataFileName(String name) {
    return name.endsWith(".avro")
        || name.endsWith(".stats")
        || name.endsWith(".puffin")
        || name.endsWith(".metadata.json")
        || name.endsWith(".metadata.json.gz")
        || name.endsWith(".gz.metadata.json");
  }

  /**
   * Every metadata file of the table that must stay: the current and logged metadata files, each
   * retained snapshot's manifest list and manifests, the statistics files, as {@link #normalized}
   * locations.
   */
  static Set<String> referenced(Table table, HasTableOperations withOperations) {
    table.refresh();
    TableMetadata metadata = withOperations.operations().current();
    Set<String> kept = new HashSet<>();
    if (metadata.metadataFileLocation() != null) {
      kept.add(normalized(metadata.metadataFileLocation()));
    }
    for (TableMetadata.MetadataLogEntry logged : metadata.previousFiles()) {
      kept.add(normalized(logged.file()));
    }
    for (Snapshot snapshot : metadata.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        kept.add(normalized(snapshot.manifestListLocation()));
      }
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        kept.add(normalized(manifest.path()));
      }
    }
    for (StatisticsFile statistics : metadata.statisticsFiles()) {
      kept.add(normalized(statistics.path()));
    }
    for (PartitionStatisticsFile statistics : metadata.partitionStatisticsFiles()) {
      kept.add(normalized(statistics.path()));
    }
    return kept;
  }

  /**
   * A location as one spelling: {@code file:/a}, {@code file:///a} and {@code /a} are one local
   * file; other schemes are compared as written.
   */
  static String normalized(String location) {
    if (location.startsWith("file:")) {
      return Path.of(URI.create(location)).toString();
    }
    if (location.startsWith("/")) {
      return Path.of(location).toString();
    }
    return location;
  }

  private static String metadataDir(HasTableOperations withOperations) {
    String any = withOperations.operations().metadataFileLocation("x");
    return any.substring(0, any.length() - 1);
  }

  private static String name(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  private static boolean delete(FileIO io, String location) {
    try {
      io.deleteFile(location);
      return true;
    } catch (RuntimeException e) {
      // Unreferenced either way: the next run retries.
      LOG.info("cannot delete the orphan metadata file {}: {}", location, e.toString());
      return false;
    }
  }
}
