package dev.parquetconnect.source;

import java.util.HashMap;
import java.util.Map;

/**
 * The source partitions and offsets the task gives Connect, and reading them back.
 *
 * <ul>
 *   <li>Replay mode: one source partition per original topic-partition, {@code {topic, partition}};
 *       offset {@code {offset, file, rowGroup, row}}: the Kafka offset of the last record sent, the
 *       file it came from and the position after it in that file.
 *   <li>Generic mode: one source partition per file, {@code {file}}; offset {@code {rowGroup, row,
 *       done}}: the position after the last record sent, and whether it was the file's last.
 * </ul>
 *
 * A restart resumes at the recorded position: the row groups before are not read, the rows before
 * in the same row group are read and dropped, nothing is sent twice.
 */
final class SourcePositions {
  static final String TOPIC = "topic";
  static final String PARTITION = "partition";
  static final String FILE = "file";
  static final String OFFSET = "offset";
  static final String ROW_GROUP = "rowGroup";
  static final String ROW = "row";
  static final String DONE = "done";
  static final String SKIPPED = "skipped";

  private SourcePositions() {}

  static Map<String, Object> replayPartition(String topic, int partition) {
    Map<String, Object> map = new HashMap<>(4);
    map.put(TOPIC, topic);
    map.put(PARTITION, partition);
    return map;
  }

  /** A replayed record's offset (immutable: Connect only reads it). */
  static Map<String, Object> replayOffset(long kafkaOffset, String file, int rowGroup, long row) {
    return new ReplayOffset(kafkaOffset, file, rowGroup, row);
  }

  static Map<String, Object> filePartition(String file) {
    Map<String, Object> map = new HashMap<>(2);
    map.put(FILE, file);
    return map;
  }

  static Map<String, Object> fileOffset(int rowGroup, long row, boolean done) {
    Map<String, Object> map = new HashMap<>(4);
    map.put(ROW_GROUP, rowGroup);
    map.put(ROW, row);
    map.put(DONE, done);
    return map;
  }

  /** A generic file's offset once it was skipped as unreadable: never read again. */
  static Map<String, Object> skippedFileOffset() {
    Map<String, Object> map = fileOffset(0, 0, true);
    map.put(SKIPPED, true);
    return map;
  }

  static long longOf(Map<String, ?> offset, String key, long absent) {
    Object v = offset == null ? null : offset.get(key);
    return v instanceof Number n ? n.longValue() : absent;
  }

  static String stringOf(Map<String, ?> offset, String key) {
    Object v = offset == null ? null : offset.get(key);
    return v == null ? null : v.toString();
  }

  static boolean flagOf(Map<String, ?> offset, String key) {
    Object v = offset == null ? null : offset.get(key);
    return Boolean.TRUE.equals(v) || "true".equals(v);
  }
}
