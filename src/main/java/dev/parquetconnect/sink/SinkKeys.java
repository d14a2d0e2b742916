package dev.parquetconnect.sink;

import dev.parquetconnect.storage.StoreKeys;
import java.util.Locale;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the sink puts things, relative to the store root:
 *
 * <pre>
 * &lt;topics.dir&gt;/&lt;topic&gt;/&lt;name=value&gt;/.../&lt;topic&gt;+&lt;partition&gt;+&lt;start offset&gt;[-&lt;attempt&gt;].parquet
 * &lt;topics.dir&gt;/_markers/&lt;connector&gt;/&lt;topic&gt;/&lt;partition&gt;/&lt;start offset&gt;-&lt;attempt&gt;.intent|.outcome
 * </pre>
 *
 * The start offset is printed with 20 digits so that names sort by offset; the attempt suffix
 * appears only on files rewritten after a rolled-back commit (docs/exactly-once.md). Topic and
 * connector names are encoded like partition values ({@link HivePaths}).
 */
final class SinkKeys {
  static final String MARKERS_DIR = "_markers";
  static final String INTENT_SUFFIX = ".intent";
  static final String OUTCOME_SUFFIX = ".outcome";
  static final String EXTENSION = ".parquet";

  /** A topic directory stays well within one segment. */
  private static final int MAX_TOPIC_DIR_BYTES = 200;
  /** The topic in a file name leaves room for partition, offset and attempt in 255 bytes. */
  private static final int MAX_TOPIC_IN_NAME_BYTES = 180;
  private static final int MAX_CONNECTOR_BYTES = 200;

  private final String topicsDir;
  private final String markersRoot;

  SinkKeys(String topicsDir, String connectorName) {
    this.topicsDir = topicsDir;
    this.markersRoot = StoreKeys.join(topicsDir, MARKERS_DIR + "/"
        + HivePaths.encodeSegment(connectorName, MAX_CONNECTOR_BYTES));
  }

  /** The directory of a topic's files (the topic as records name it, after transformations). */
  String topicDir(String topic) {
    return StoreKeys.join(topicsDir, HivePaths.encodeSegment(topic, MAX_TOPIC_DIR_BYTES));
  }

  /**
   * The key of one file of a commit.
   *
   * @param topic the record's topic (its directory)
   * @param partitionPath the encoded partition directories, {@code ""} for none
   * @param source the Kafka partition the records were consumed from
   * @param start the commit's first offset
   * @param attempt 0, or the number of earlier rolled-back attempts at this start offset
   */
  String dataKey(String topic, String partitionPath, TopicPartition source, long start,
      int attempt) {
    String dir = topicDir(topic);
    if (!partitionPath.isEmpty()) {
      dir = dir + "/" + partitionPath;
    }
    String name = HivePaths.encodeSegment(source.topic(), MAX_TOPIC_IN_NAME_BYTES) + "+"
        + source.partition() + "+" + offsetText(start)
        + (attempt == 0 ? "" : "-" + attempt) + EXTENSION;
    return StoreKeys.join(dir, name);
  }

  /** The directory of one Kafka partition's commit markers. */
  String markerDir(TopicPartition source) {
    return markersRoot + "/" + HivePaths.encodeSegment(source.topic(), MAX_TOPIC_DIR_BYTES) + "/"
        + source.partition();
  }

  String intentKey(TopicPartition source, long start, int attempt) {
    return markerDir(source) + "/" + markerName(start, attempt) + INTENT_SUFFIX;
  }

  String outcomeKey(TopicPartition source, long start, int attempt) {
    return markerDir(source) + "/" + markerName(start, attempt) + OUTCOME_SUFFIX;
  }

  private static String markerName(long start, int attempt) {
    return offsetText(start) + "-" + attempt;
  }

  static String offsetText(long offset) {
    return String.format(Locale.ROOT, "%020d", offset);
  }

  /** A marker file name parsed: which commit attempt and which kind; null for anything else. */
  record MarkerName(long start, int attempt, boolean intent) {
    static MarkerName parse(String fileName) {
      boolean intent = fileName.endsWith(INTENT_SUFFIX);
      boolean outcome = fileName.endsWith(OUTCOME_SUFFIX);
      if (!intent && !outcome) {
        return null;
      }
      String stem = fileName.substring(0,
          fileName.length() - (intent ? INTENT_SUFFIX : OUTCOME_SUFFIX).length());
      int dash = stem.indexOf('-');
      if (dash != 20 || stem.length() == 21) {
        return null;
      }
      try {
        return new MarkerName(Long.parseLong(stem.substring(0, dash)),
            Integer.parseInt(stem.substring(dash + 1)), intent);
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }
}
