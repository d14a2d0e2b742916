package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.it.Await;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@link IcebergCrashIT} reads from its table: each Kafka partition's committed offset (and
 * waits for one), the current snapshot's data files and those under the topic's directory it does
 * not reference, and whether the snapshots are as the table commit designs them.
 */
final class IcebergCrashChecks {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCrashChecks.class);
  private static final String COMMIT_PREFIX = "parquet-connect.commit.";
  private static final String INTERVAL_PROPERTY = "parquet-connect.interval";

  private final TableIdentifier table;
  private final String topic;
  private final int partitions;
  private final String offsetKey;

  /** The checks of {@code topic}'s table {@code table}, written by {@code connector}. */
  IcebergCrashChecks(TableIdentifier table, String connector, String topic, int partitions) {
    this.table = table;
    this.topic = topic;
    this.partitions = partitions;
    this.offsetKey = "parquet-connect.offset." + connector + "/" + topic;
  }

  /** Each partition's committed offset in the table's current snapshot (-1: none yet). */
  Map<Integer, Long> tableOffsets(Catalog catalog) {
    Map<Integer, Long> offsets = new TreeMap<>();
    Snapshot current;
    try {
      current = catalog.loadTable(table).currentSnapshot();
    } catch (NoSuchTableException notYet) {
      current = null;
    }
    for (int p = 0; p < partitions; p++) {
      String value = current == null ? null : current.summary().get(offsetKey + "/" + p);
      offsets.put(p, value == null ? -1 : Long.parseLong(value));
    }
    return offsets;
  }

  void awaitCommitted(Catalog catalog, Map<Integer, Long> ends, String what) {
    awaitCommitted(catalog, ends, what, Duration.ofMinutes(3));
  }

  /** Waits until the table holds each partition's offsets up to at least {@code ends}. */
  void awaitCommitted(Catalog catalog, Map<Integer, Long> ends, String what, Duration timeout) {
    Await.until(
        "the table to commit " + what + " (up to " + ends + ")",
        timeout,
        () -> {
          // Once a second: each look loads the table's metadata, which grows with its snapshots.
          Thread.sleep(800);
          Map<Integer, Long> offsets = tableOffsets(catalog);
          return ends.entrySet().stream().allMatch(e -> offsets.get(e.getKey()) >= e.getValue());
        });
  }

  /** Each partition's offset plus one: a commit past where it was. */
  static Map<Integer, Long> plusOne(Map<Integer, Long> offsets) {
    Map<Integer, Long> next = new TreeMap<>();
    offsets.forEach((p, o) -> next.put(p, o + 1));
    return next;
  }

  /**
   * The snapshots are as designed: all in the current ancestry; each adds ranges (named in its
   * commit keys); no range of a Kafka partition is added by two snapshots; and the rounds of the
   * schedule make at most one snapshot per table and commit interval (the others are the rounds of
   * a recovery or of a task letting its partitions go). Returns how many there are.
   */
  int assertSnapshotsAsDesigned(Table table, String rounds) {
    List<Snapshot> history = new ArrayList<>();
    SnapshotUtil.currentAncestors(table).forEach(history::add);
    int all = 0;
    for (Snapshot ignored : table.snapshots()) {
      all++;
    }
    assertEquals(all, history.size(), "snapshots outside the current ancestry: " + rounds);
    Map<String, Integer> ranges = new TreeMap<>();
    Map<String, Integer> intervals = new TreeMap<>();
    List<Long> withoutRange = new ArrayList<>();
    int unscheduled = 0;
    for (Snapshot snapshot : history) {
      int added = 0;
      for (Map.Entry<String, String> entry : snapshot.summary().entrySet()) {
        if (entry.getKey().startsWith(COMMIT_PREFIX)) {
          String partition = entry.getKey().substring(COMMIT_PREFIX.length());
          for (String range : entry.getValue().split(",")) {
            ranges.merge(partition + "/" + range.trim(), 1, Integer::sum);
            added++;
          }
        }
      }
      if (added == 0) {
        withoutRange.add(snapshot.snapshotId());
      }
      String interval = snapshot.summary().get(INTERVAL_PROPERTY);
      if (interval == null) {
        unscheduled++;
      } else {
        intervals.merge(interval, 1, Integer::sum);
      }
    }
    assertEquals(List.of(), withoutRange, "snapshots adding no range: " + rounds);
    assertEquals(Map.of(), repeated(ranges), "ranges in more than one snapshot: " + rounds);
    assertEquals(Map.of(), repeated(intervals), "intervals with more than one snapshot: " + rounds);
    LOG.info(
        "IcebergCrashIT: {} snapshots, {} of them rounds of the schedule, {} of recoveries and"
            + " hand-overs, adding {} ranges",
        history.size(),
        history.size() - unscheduled,
        unscheduled,
        ranges.size());
    return history.size();
  }

  private static Map<String, Integer> repeated(Map<String, Integer> counts) {
    Map<String, Integer> repeated = new TreeMap<>();
    counts.forEach(
        (id, n) -> {
          if (n > 1) {
            repeated.put(id, n);
          }
        });
    return repeated;
  }

  /** The current snapshot's data files, as local paths. */
  static List<String> referencedFiles(Table table) throws Exception {
    List<String> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> files.add(Path.of(URI.create(t.file().location())).toString()));
    }
    return files;
  }

  /** When the newest of the {@link #unreferenced} files was last modified, 0 when there is none. */
  long newestUnreferenced(Table table, Path lake) throws Exception {
    long newest = 0;
    for (String file : unreferenced(table, lake)) {
      try {
        newest = Math.max(newest, Files.getLastModifiedTime(Path.of(file)).toMillis());
      } catch (java.nio.file.NoSuchFileException deletedMeanwhile) {
        // A recovery deleted it since the listing.
      }
    }
    return newest;
  }

  /** The data files under the topic's directory that the current snapshot does not reference. */
  List<String> unreferenced(Table table, Path lake) throws Exception {
    Set<String> referenced = new HashSet<>(referencedFiles(table));
    try (Stream<Path> files = Files.walk(lake.resolve(SinkIts.TOPICS_DIR).resolve(topic))) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(".parquet"))
          .filter(f -> !f.getFileName().toString().startsWith(".tmp-pqc-"))
          .map(Path::toString)
          .filter(f -> !referenced.contains(f))
          .sorted()
          .collect(Collectors.toList());
    }
  }
}
