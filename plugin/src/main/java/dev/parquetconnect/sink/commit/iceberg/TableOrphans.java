package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.iceberg.maintenance.OrphanFiles;
import dev.parquetconnect.sink.partition.HivePaths;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data files of one Kafka partition that no snapshot references: written and completed by a
 * writer that crashed, failed or was fenced before its catalog commit. A file's name says its
 * range's first offset and attempt ({@code TOPIC+PARTITION+START+END-ATTEMPT.parquet}); a
 * snapshot's commit keys ({@link OffsetSummary#ranges}) say which ranges and attempts it added. A
 * file is referenced only if a snapshot committed its start and attempt; one starting after the
 * committed offset cannot be. Only files older than {@code commit.timeout.ms} are deleted: a live
 * writer gives up its commit at half of that.
 */
final class TableOrphans {
  private static final Logger LOG = LoggerFactory.getLogger(TableOrphans.class);

  /** Stands for "every file may be referenced": the ancestry could not tell. */
  private static final Set<String> ALL = Set.of("*");

  private final Store store;
  private final TopicPartition source;
  private final String connector;
  private final String topicDir;
  private final String namePrefix;
  private final String log;

  TableOrphans(Store store, TopicPartition source, String connector, String topicDir, String log) {
    this.store = store;
    this.source = source;
    this.connector = connector;
    this.topicDir = topicDir;
    // As SinkKeys names the files: the topic encoded for a segment of at most 180 bytes.
    this.namePrefix = HivePaths.encodeSegment(source.topic(), 180) + "+" + source.partition() + "+";
    this.log = log;
  }

  /**
   * Deletes this partition's unreferenced data files last modified before {@code olderThanMillis}.
   * Best effort: a failure is logged, and the next recovery tries again.
   *
   * @param table the table, or null when it does not exist (then no file is referenced)
   * @param committedEnd the partition's committed offset as the caller read it (read again after
   *     the listing)
   * @return how many files were deleted
   */
  int clean(Table table, long committedEnd, long olderThanMillis) {
    try {
      List<StoreFile> files = store.list(topicDir, true);
      if (table != null) {
        // Read after the listing: a commit that lands between the caller's load and the listing
        // references files this listing may hold (old enough to delete, but committed).
        table.refresh();
        committedEnd =
            OffsetSummary.offset(
                OffsetSummary.offsets(OffsetSummary.newestWithOffsets(table)),
                OffsetSummary.offsetKey(connector, source));
      }
      Set<String> referenced = null;
      Set<String> reachable = null;
      int deleted = 0;
      for (StoreFile file : files) {
        long[] range = parse(file.name());
        if (range == null || file.modified().toEpochMilli() >= olderThanMillis) {
          continue;
        }
        long start = range[0];
        if (table != null && start <= committedEnd) {
          if (referenced == null) {
            referenced = committedAttempts(table, minStart(files));
            if (referenced == null) {
              LOG.info(
                  "{} keeps the data files up to offset {}: the snapshots that could reference "
                      + "them are expired",
                  log,
                  committedEnd);
              referenced = ALL;
            }
          }
          if (referenced == ALL || referenced.contains(start + "/" + range[1])) {
            continue;
          }
          // The snapshot that committed it may have expired while later ones still hold it.
          if (reachable == null) {
            reachable = OrphanFiles.referenced(table);
          }
          if (reachable.contains(StoreLocations.uri(store, file.key()))) {
            continue;
          }
        }
        store.delete(file.key());
        deleted++;
        LOG.info("{} deleted {}, a data file no snapshot references", log, file.key());
      }
      return deleted;
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} cannot clean up unreferenced data files: {}", log, e.toString());
      return 0;
    }
  }

  private long minStart(List<StoreFile> files) {
    long min = Long.MAX_VALUE;
    for (StoreFile file : files) {
      long[] range = parse(file.name());
      if (range != null) {
        min = Math.min(min, range[0]);
      }
    }
    return min;
  }

  /** {@code {start, attempt}} of one of this partition's committed-form names, or null. */
  long[] parse(String name) {
    if (!name.startsWith(namePrefix) || !name.endsWith(".parquet")) {
      return null;
    }
    String rest = name.substring(namePrefix.length(), name.length() - ".parquet".length());
    String[] parts = rest.split("\\+");
    if (parts.length != 2) {
      return null; // a provisional name (no end offset) or another partition's
    }
    try {
      long start = Long.parseLong(parts[0]);
      int dash = parts[1].indexOf('-');
      long attempt = dash < 0 ? 0 : Long.parseLong(parts[1].substring(dash + 1));
      return new long[] {start, attempt};
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * {@code start/attempt} of every range of this partition committed in the current snapshot's
   * ancestry from {@code minStart} on; null when the ancestry ends (expired snapshots) before it
   * reaches a snapshot whose offset is below {@code minStart}, so it cannot tell.
   */
  private Set<String> committedAttempts(Table table, long minStart) {
    Set<String> ids = new HashSet<>();
    String offsetKey = OffsetSummary.offsetKey(connector, source);
    for (Snapshot s = table.currentSnapshot(); s != null; s = OffsetSummary.parent(table, s)) {
      for (long[] range : OffsetSummary.ranges(s, connector, source)) {
        ids.add(range[0] + "/" + range[2]);
      }
      String offset = s.summary().get(offsetKey);
      if ((offset != null && Long.parseLong(offset.trim()) < minStart) || s.parentId() == null) {
        return ids;
      }
    }
    return null;
  }
}
