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
 * snapshot's {@link OffsetSummary#COMMIT_PROPERTY} says which range and attempt it committed. A
 * file is referenced only if a snapshot committed its start and attempt; one starting after the
 * committed offset cannot be. Only files older than {@code commit.timeout.ms} are deleted: a live
 * writer gives up its commit at half of that.
 */
final class TableOrphans {
  private static final Logger LOG = LoggerFactory.getLogger(TableOrphans.class);

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
   * @param committedEnd the partition's committed offset in the table's newest snapshot
   * @return how many files were deleted
   */
  int clean(Table table, long committedEnd, long olderThanMillis) {
    try {
      List<StoreFile> files = store.list(topicDir, true);
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
          }
          if (referenced.contains(start + "/" + range[1])) {
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
   * ancestry from {@code minStart} on.
   */
  private Set<String> committedAttempts(Table table, long minStart) {
    Set<String> ids = new HashSet<>();
    String ours = connector + "/" + source.topic() + "/" + source.partition() + "/";
    String offsetKey = OffsetSummary.offsetKey(connector, source);
    for (Snapshot s = table.currentSnapshot(); s != null; s = parent(table, s)) {
      String id = s.summary().get(OffsetSummary.COMMIT_PROPERTY);
      if (id != null && id.startsWith(ours)) {
        String[] parts = id.substring(ours.length()).split("/");
        if (parts.length == 3) {
          ids.add(parts[0] + "/" + parts[2]);
        }
      }
      String offset = s.summary().get(offsetKey);
      if (offset != null && Long.parseLong(offset) < minStart) {
        break;
      }
    }
    return ids;
  }

  /** Whether a snapshot of the current ancestry committed {@code start}/{@code attempt}. */
  static boolean committed(
      Table table, String connector, TopicPartition source, long start, int attempt) {
    String ours = connector + "/" + source.topic() + "/" + source.partition() + "/";
    String offsetKey = OffsetSummary.offsetKey(connector, source);
    for (Snapshot s = table.currentSnapshot(); s != null; s = parent(table, s)) {
      String id = s.summary().get(OffsetSummary.COMMIT_PROPERTY);
      if (id != null && id.startsWith(ours)) {
        String[] parts = id.substring(ours.length()).split("/");
        if (parts.length == 3 && Long.parseLong(parts[0]) == start) {
          return Long.parseLong(parts[2]) == attempt;
        }
      }
      String offset = s.summary().get(offsetKey);
      if (offset != null && Long.parseLong(offset) < start) {
        return false;
      }
    }
    return false;
  }

  private static Snapshot parent(Table table, Snapshot snapshot) {
    Long parent = snapshot.parentId();
    return parent == null ? null : table.snapshot(parent);
  }
}
