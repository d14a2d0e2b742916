package dev.parquetconnect.sink.commit;

import dev.parquetconnect.sink.partition.HivePaths;
import dev.parquetconnect.storage.StoreKeys;
import java.util.Locale;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the file-store commit keeps its markers, relative to the store root:
 *
 * <pre>
 * topics/_markers/CONNECTOR/TOPIC/PARTITION/START-ATTEMPT.intent|.outcome
 * </pre>
 *
 * Start (the commit's first offset) is printed with 20 digits so that names sort by offset. Topic
 * and connector names are encoded like partition values ({@link HivePaths}); the leading {@code _}
 * hides the markers from engines' globs over the data files beside them.
 */
public final class MarkerKeys {
  public static final String MARKERS_DIR = "_markers";
  static final String INTENT_SUFFIX = ".intent";
  static final String OUTCOME_SUFFIX = ".outcome";

  /** A topic directory stays well within one segment. */
  private static final int MAX_TOPIC_DIR_BYTES = 200;

  private static final int MAX_CONNECTOR_BYTES = 200;

  private final String markersRoot;

  public MarkerKeys(String topicsDir, String connectorName) {
    this.markersRoot =
        StoreKeys.join(
            topicsDir,
            MARKERS_DIR + "/" + HivePaths.encodeSegment(connectorName, MAX_CONNECTOR_BYTES));
  }

  /** The directory of one Kafka partition's commit markers. */
  public String markerDir(TopicPartition source) {
    return markersRoot
        + "/"
        + HivePaths.encodeSegment(source.topic(), MAX_TOPIC_DIR_BYTES)
        + "/"
        + source.partition();
  }

  String intentKey(TopicPartition source, long start, int attempt) {
    return markerDir(source) + "/" + markerName(start, attempt) + INTENT_SUFFIX;
  }

  String outcomeKey(TopicPartition source, long start, int attempt) {
    return markerDir(source) + "/" + markerName(start, attempt) + OUTCOME_SUFFIX;
  }

  private static String markerName(long start, int attempt) {
    return String.format(Locale.ROOT, "%020d", start) + "-" + attempt;
  }

  /** A marker file name parsed: which commit attempt and which kind; null for anything else. */
  record MarkerName(long start, int attempt, boolean intent) {
    static MarkerName parse(String fileName) {
      boolean intent = fileName.endsWith(INTENT_SUFFIX);
      boolean outcome = fileName.endsWith(OUTCOME_SUFFIX);
      if (!intent && !outcome) {
        return null;
      }
      String stem =
          fileName.substring(
              0, fileName.length() - (intent ? INTENT_SUFFIX : OUTCOME_SUFFIX).length());
      int dash = stem.indexOf('-');
      if (dash != 20 || stem.length() == 21) {
        return null;
      }
      try {
        return new MarkerName(
            Long.parseLong(stem.substring(0, dash)),
            Integer.parseInt(stem.substring(dash + 1)),
            intent);
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }
}
