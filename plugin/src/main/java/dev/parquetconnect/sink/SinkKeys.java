package dev.parquetconnect.sink;

import dev.parquetconnect.sink.partition.HivePaths;
import dev.parquetconnect.storage.StoreKeys;
import java.util.Locale;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the sink puts things, relative to the store root:
 *
 * <pre>
 * topics/TOPIC/NAME=VALUE/.../TOPIC+PARTITION+START+END[-ATTEMPT].parquet   data files
 * </pre>
 *
 * Start and end (the commit's first and last offset) are printed with 20 digits so that names sort
 * by offset; the attempt suffix appears only on files rewritten after a rolled-back commit
 * (docs/exactly-once.md). While a file is written its end is not known yet: it is opened under the
 * provisional name {@code TOPIC+PARTITION+START[-ATTEMPT].parquet} (the name earlier versions
 * committed it under), which only names its temporary state, and committed under the full name.
 * Topic names are encoded like partition values ({@link HivePaths}). The commit markers beside them
 * are named by {@link dev.parquetconnect.sink.commit.MarkerKeys}.
 */
public final class SinkKeys {
  static final String EXTENSION = ".parquet";

  /** A topic directory stays well within one segment. */
  private static final int MAX_TOPIC_DIR_BYTES = 200;

  /**
   * The topic in a file name leaves room for partition, two offsets and attempt in 255 bytes: 180 +
   * 1 + 10 + 1 + 20 + 1 + 20 + 11 + 8 = 252.
   */
  private static final int MAX_TOPIC_IN_NAME_BYTES = 180;

  private final String topicsDir;
  private final int rootPrefixBytes;

  public SinkKeys(String topicsDir) {
    this(topicsDir, 0);
  }

  /**
   * @param rootPrefixBytes the bytes the store puts before every key (an S3 URL's prefix and its
   *     slash), which count toward the store's key limit
   */
  SinkKeys(String topicsDir, int rootPrefixBytes) {
    this.rootPrefixBytes = rootPrefixBytes;
    this.topicsDir = topicsDir;
  }

  /** The directory of a topic's files (the topic as records name it, after transformations). */
  String topicDir(String topic) {
    return StoreKeys.join(topicsDir, HivePaths.encodeSegment(topic, MAX_TOPIC_DIR_BYTES));
  }

  /**
   * The directory of one partition directory's files.
   *
   * @param topic the record's topic (its directory)
   * @param partitionPath the encoded partition directories, {@code ""} for none
   */
  String dataDir(String topic, String partitionPath) {
    String dir = topicDir(topic);
    return partitionPath.isEmpty() ? dir : dir + "/" + partitionPath;
  }

  /**
   * The name of one file of a commit, the same in every directory the commit writes to.
   *
   * @param source the Kafka partition the records were consumed from
   * @param start the commit's first offset
   * @param end the commit's last offset, or {@link #OPEN} for the provisional name of a file still
   *     being written
   * @param attempt 0, or the number of earlier rolled-back attempts at this start offset
   */
  static String dataName(TopicPartition source, long start, long end, int attempt) {
    return HivePaths.encodeSegment(source.topic(), MAX_TOPIC_IN_NAME_BYTES)
        + "+"
        + source.partition()
        + "+"
        + offsetText(start)
        + (end == OPEN ? "" : "+" + offsetText(end))
        + (attempt == 0 ? "" : "-" + attempt)
        + EXTENSION;
  }

  /** The end of a file still being written: its provisional name has no end offset. */
  static final long OPEN = -1;

  /** The key of one file of a commit ({@link #dataDir} and {@link #dataName}). */
  public String dataKey(
      String topic,
      String partitionPath,
      TopicPartition source,
      long start,
      long end,
      int attempt) {
    return StoreKeys.join(dataDir(topic, partitionPath), dataName(source, start, end, attempt));
  }

  /**
   * Checks a key against the stores' rules before anything is created under it.
   *
   * @throws IllegalArgumentException naming the rule it breaks
   */
  String check(String key) {
    StoreKeys.checkKey(key);
    int bytes = key.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + rootPrefixBytes;
    if (bytes > StoreKeys.MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "the key of "
              + bytes
              + " bytes (with the store's "
              + "prefix) is longer than "
              + StoreKeys.MAX_KEY_BYTES);
    }
    return key;
  }

  /** The bytes an S3 store URL puts before every key; 0 for other stores. */
  static int rootPrefixBytes(String storeUrl) {
    java.net.URI uri = java.net.URI.create(storeUrl);
    if (!"s3".equalsIgnoreCase(uri.getScheme()) || uri.getPath() == null) {
      return 0;
    }
    String prefix = ParquetSinkConfig.trimSlashes(uri.getPath());
    return prefix.isEmpty()
        ? 0
        : prefix.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 1;
  }

  static String offsetText(long offset) {
    return String.format(Locale.ROOT, "%020d", offset);
  }
}
