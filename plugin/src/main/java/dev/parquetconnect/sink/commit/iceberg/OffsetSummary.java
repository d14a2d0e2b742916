package dev.parquetconnect.sink.commit.iceberg;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka offsets a table's snapshots carry in their summaries. Every snapshot the sink commits
 * holds, for every Kafka partition any sink has committed into the table, one property
 *
 * <pre>
 * parquet-connect.offset.CONNECTOR/TOPIC/PARTITION = the last committed offset
 * </pre>
 *
 * (copied forward from the newest snapshot that has them, so the newest one is enough to read), and
 * for each Kafka partition whose ranges it added (one snapshot adds the staged ranges of all tasks,
 * {@link TableCommitter}):
 *
 * <pre>
 * parquet-connect.commit.CONNECTOR/TOPIC/PARTITION = START/END/ATTEMPT[,START/END/ATTEMPT...]
 * </pre>
 *
 * A round of the schedule also sets {@code parquet-connect.interval} ({@link #INTERVAL_PROPERTY}).
 * Snapshots of earlier versions name their one range in {@code parquet-connect.commit =
 * CONNECTOR/TOPIC/PARTITION/START/END/ATTEMPT}; {@link #ranges} reads both forms.
 *
 * <p>Snapshots of other writers (compaction, deletes) carry none: readers walk back past them. A
 * topic name holds no '/', so the partition's key is unambiguous even when a connector's name has
 * one.
 */
public final class OffsetSummary {
  public static final String OFFSET_PREFIX = "parquet-connect.offset.";
  public static final String COMMIT_PROPERTY = "parquet-connect.commit";
  public static final String COMMIT_PREFIX = COMMIT_PROPERTY + ".";

  /**
   * The number of the commit interval whose round made the snapshot (wall-clock milliseconds over
   * the interval); absent for a round outside the schedule (a recovery, a task letting partitions
   * go).
   */
  public static final String INTERVAL_PROPERTY = "parquet-connect.interval";

  private OffsetSummary() {}

  /** The summary key of one Kafka partition's offset. */
  static String offsetKey(String connector, TopicPartition source) {
    return OFFSET_PREFIX + connector + "/" + source.topic() + "/" + source.partition();
  }

  /** The summary key naming the ranges of one Kafka partition a snapshot added. */
  static String commitKey(String connector, TopicPartition source) {
    return COMMIT_PREFIX + connector + "/" + source.topic() + "/" + source.partition();
  }

  /** One range's part of a {@link #commitKey} value. */
  static String rangeId(long start, long end, long attempt) {
    return start + "/" + end + "/" + attempt;
  }

  /**
   * The ranges of one Kafka partition a snapshot added, each {@code {start, end, attempt}}, in
   * order; empty when it added none of this partition.
   */
  static List<long[]> ranges(Snapshot snapshot, String connector, TopicPartition source) {
    Map<String, String> summary = snapshot.summary();
    List<long[]> ranges = new ArrayList<>();
    String value = summary.get(commitKey(connector, source));
    if (value != null) {
      for (String id : value.split(",")) {
        long[] range = parseRange(id);
        if (range != null) {
          ranges.add(range);
        }
      }
    }
    String legacy = summary.get(COMMIT_PROPERTY);
    String ours = connector + "/" + source.topic() + "/" + source.partition() + "/";
    if (legacy != null && legacy.startsWith(ours)) {
      long[] range = parseRange(legacy.substring(ours.length()));
      if (range != null) {
        ranges.add(range);
      }
    }
    return ranges;
  }

  private static long[] parseRange(String id) {
    String[] parts = id.trim().split("/");
    if (parts.length != 3) {
      return null;
    }
    try {
      return new long[] {
        Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])
      };
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** What the table says about one staged range. */
  enum RangeState {
    /** A snapshot of the current ancestry added it. */
    COMMITTED,
    /** The ancestry holds its partition's offsets from before it on, and not this range. */
    REFUSED,
    /** The ancestry ends (expired snapshots) before it can tell: never delete its files. */
    UNKNOWN
  }

  /**
   * What the current snapshot's ancestry says about the range of {@code source} starting at {@code
   * start} with {@code attempt}: walked back until the partition's offset is below {@code start}.
   */
  static RangeState state(
      Table table, String connector, TopicPartition source, long start, long attempt) {
    String offsetKey = offsetKey(connector, source);
    for (Snapshot s = table.currentSnapshot(); s != null; s = parent(table, s)) {
      for (long[] range : ranges(s, connector, source)) {
        if (range[0] == start) {
          return range[2] == attempt ? RangeState.COMMITTED : RangeState.REFUSED;
        }
      }
      String offset = s.summary().get(offsetKey);
      if (offset != null && Long.parseLong(offset.trim()) < start) {
        return RangeState.REFUSED;
      }
      if (s.parentId() == null) {
        // The table's first snapshot: nothing before it can hold the range.
        return RangeState.REFUSED;
      }
    }
    return RangeState.UNKNOWN;
  }

  static Snapshot parent(Table table, Snapshot snapshot) {
    Long parent = snapshot.parentId();
    return parent == null ? null : table.snapshot(parent);
  }

  /**
   * The newest snapshot of the current snapshot's ancestry that carries sink offsets, or null (no
   * sink ever committed, or every such snapshot expired).
   */
  public static Snapshot newestWithOffsets(Table table) {
    Snapshot snapshot = table.currentSnapshot();
    while (snapshot != null) {
      if (hasOffsets(snapshot.summary())) {
        return snapshot;
      }
      Long parent = snapshot.parentId();
      snapshot = parent == null ? null : table.snapshot(parent);
    }
    return null;
  }

  static boolean hasOffsets(Map<String, String> summary) {
    for (String key : summary.keySet()) {
      if (key.startsWith(OFFSET_PREFIX)) {
        return true;
      }
    }
    return false;
  }

  /** Every sink offset property of a snapshot (empty for null). */
  static Map<String, String> offsets(Snapshot snapshot) {
    Map<String, String> offsets = new HashMap<>();
    if (snapshot != null) {
      for (Map.Entry<String, String> e : snapshot.summary().entrySet()) {
        if (e.getKey().startsWith(OFFSET_PREFIX)) {
          offsets.put(e.getKey(), e.getValue());
        }
      }
    }
    return offsets;
  }

  /** The committed offset under {@code key}, or -1. */
  static long offset(Map<String, String> offsets, String key) {
    String value = offsets.get(key);
    if (value == null) {
      return -1;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          "the table's snapshot summary has '" + value + "' under " + key + ", not an offset", e);
    }
  }
}
