package dev.parquetconnect.sink.commit.iceberg;

import java.util.HashMap;
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
 * one property naming the range it committed itself:
 *
 * <pre>
 * parquet-connect.commit = CONNECTOR/TOPIC/PARTITION/START/END/ATTEMPT
 * </pre>
 *
 * Snapshots of other writers (compaction, deletes) carry none: readers walk back past them. A topic
 * name holds no '/', so the partition's key is unambiguous even when a connector's name has one.
 */
public final class OffsetSummary {
  public static final String OFFSET_PREFIX = "parquet-connect.offset.";
  public static final String COMMIT_PROPERTY = "parquet-connect.commit";

  private OffsetSummary() {}

  /** The summary key of one Kafka partition's offset. */
  static String offsetKey(String connector, TopicPartition source) {
    return OFFSET_PREFIX + connector + "/" + source.topic() + "/" + source.partition();
  }

  /** The value of {@link #COMMIT_PROPERTY} for one committed range. */
  static String commitId(
      String connector, TopicPartition source, long start, long end, int attempt) {
    return connector
        + "/"
        + source.topic()
        + "/"
        + source.partition()
        + "/"
        + start
        + "/"
        + end
        + "/"
        + attempt;
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
