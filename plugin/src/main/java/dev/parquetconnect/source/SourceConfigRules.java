package dev.parquetconnect.source;

import static dev.parquetconnect.source.ParquetSourceConfig.AFTER_REPLAY_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.AFTER_REPLAY_MOVE_PREFIX_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.ERRORS_ON_CORRUPT_FILE_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.ERRORS_QUARANTINE_PREFIX_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.ERRORS_TOPIC_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.KEY_FIELDS_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.MODE_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.PARTITION_COUNT_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.PARTITION_MODE_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TASK_COUNT_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TASK_INDEX_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TIMESTAMP_FIELD_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TOPICS_DIR_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TOPIC_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.isUnder;

import dev.parquetconnect.config.ConfigProblem;
import dev.parquetconnect.config.ConnectorValidation;
import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.source.ParquetSourceConfig.AfterReplay;
import dev.parquetconnect.source.ParquetSourceConfig.Mode;
import dev.parquetconnect.source.ParquetSourceConfig.OnCorruptFile;
import dev.parquetconnect.source.ParquetSourceConfig.PartitionMode;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;

/**
 * The source's rules between keys, which {@code ParquetSourceConnector.validate} reports on the key
 * at fault and the {@link ParquetSourceConfig} constructor enforces. They read a typed config in
 * which an invalid key has its default; each problem names the keys it involves, and is left out of
 * validate's answer when one of them has an error of its own.
 */
final class SourceConfigRules {
  private SourceConfigRules() {}

  /**
   * The problems validate reports: the rules over the given keys without the invalid ones (their
   * defaults stand in).
   */
  static List<ConfigProblem> problems(ConnectorValidation.Validated validated) {
    ParquetSourceConfig parsed;
    try {
      parsed = ParquetSourceConfig.unchecked(validated.usableProps());
    } catch (ConfigException e) {
      // Only a key without a default (store.url) can still fail: its own error is reported.
      return List.of();
    }
    return problems(parsed);
  }

  /** The problems of a configuration whose keys each passed their own validation. */
  static List<ConfigProblem> problems(ParquetSourceConfig c) {
    List<ConfigProblem> problems = new ArrayList<>();
    Mode mode = c.mode();
    if (mode == Mode.GENERIC && c.topic().isEmpty()) {
      problems.add(about(TOPIC_CONFIG, TOPIC_CONFIG + " is required in generic mode", MODE_CONFIG));
    }
    if (mode == Mode.GENERIC && c.partitionMode() == PartitionMode.ORIGINAL) {
      problems.add(
          about(
              PARTITION_MODE_CONFIG,
              PARTITION_MODE_CONFIG
                  + " original needs "
                  + "replay mode (generic files have no original partition): use default or key.hash",
              MODE_CONFIG));
    }
    if (mode == Mode.REPLAY && !c.topic().isEmpty()) {
      problems.add(
          about(
              TOPIC_CONFIG,
              TOPIC_CONFIG
                  + " '"
                  + c.topic()
                  + "' applies to "
                  + "generic mode only: rename replayed topics with the RegexRouter transform",
              MODE_CONFIG));
    }
    if (mode == Mode.REPLAY && (!c.keyFields().isEmpty() || !c.timestampField().isEmpty())) {
      problems.add(
          about(
              c.keyFields().isEmpty() ? TIMESTAMP_FIELD_CONFIG : KEY_FIELDS_CONFIG,
              KEY_FIELDS_CONFIG
                  + " ("
                  + c.keyFields()
                  + ") and "
                  + TIMESTAMP_FIELD_CONFIG
                  + " ('"
                  + c.timestampField()
                  + "') apply to generic mode only: "
                  + "replay restores keys and timestamps from the __kafka_* columns",
              MODE_CONFIG,
              KEY_FIELDS_CONFIG,
              TIMESTAMP_FIELD_CONFIG));
    }
    if (c.partitionMode() == PartitionMode.KEY_HASH && c.partitionCount() == 0) {
      problems.add(
          about(
              PARTITION_COUNT_CONFIG,
              PARTITION_COUNT_CONFIG
                  + " must be set "
                  + "(the target topic's partition count) with partition.mode key.hash",
              PARTITION_MODE_CONFIG));
    }
    String topicsDir = c.topicsDir();
    if (c.afterReplay() == AfterReplay.MOVE) {
      String prefix = c.afterReplayMovePrefix();
      if (prefix.isEmpty()) {
        problems.add(
            about(
                AFTER_REPLAY_MOVE_PREFIX_CONFIG,
                AFTER_REPLAY_MOVE_PREFIX_CONFIG + " is required with after.replay move",
                AFTER_REPLAY_CONFIG));
      } else if (isUnder(prefix, topicsDir)) {
        problems.add(
            about(
                AFTER_REPLAY_MOVE_PREFIX_CONFIG,
                AFTER_REPLAY_MOVE_PREFIX_CONFIG
                    + " '"
                    + prefix
                    + "' must not lie under topics.dir '"
                    + topicsDir
                    + "', or moved "
                    + "files would be found again",
                AFTER_REPLAY_CONFIG,
                TOPICS_DIR_CONFIG));
      }
    }
    String quarantine = c.quarantinePrefix();
    if (!quarantine.isEmpty() && c.onCorruptFile() != OnCorruptFile.SKIP) {
      problems.add(
          about(
              ERRORS_QUARANTINE_PREFIX_CONFIG,
              ERRORS_QUARANTINE_PREFIX_CONFIG
                  + " '"
                  + quarantine
                  + "' needs errors.on.corrupt.file skip",
              ERRORS_ON_CORRUPT_FILE_CONFIG));
    } else if (!quarantine.isEmpty() && isUnder(quarantine, topicsDir)) {
      problems.add(
          about(
              ERRORS_QUARANTINE_PREFIX_CONFIG,
              ERRORS_QUARANTINE_PREFIX_CONFIG
                  + " '"
                  + quarantine
                  + "' must not lie under topics.dir '"
                  + topicsDir
                  + "', or "
                  + "quarantined files would be found again",
              TOPICS_DIR_CONFIG,
              ERRORS_ON_CORRUPT_FILE_CONFIG));
    }
    if (!c.errorsTopic().isEmpty() && c.onCorruptFile() != OnCorruptFile.SKIP) {
      problems.add(
          about(
              ERRORS_TOPIC_CONFIG,
              ERRORS_TOPIC_CONFIG + " '" + c.errorsTopic() + "' needs errors.on.corrupt.file skip",
              ERRORS_ON_CORRUPT_FILE_CONFIG));
    }
    problems.addAll(ReplaySelectionConfig.problems(c));
    problems.addAll(TableReplayConfig.problems(c));
    problems.addAll(StoreConfigDef.problems(c.values()::get));
    int count = c.getInt(TASK_COUNT_CONFIG);
    int index = c.getInt(TASK_INDEX_CONFIG);
    if (count < 1 || index < 0 || index >= count) {
      problems.add(
          about(
              TASK_INDEX_CONFIG,
              TASK_INDEX_CONFIG + " " + index + " is not a task of " + count,
              TASK_COUNT_CONFIG));
    }
    return problems;
  }

  private static ConfigProblem about(String key, String message, String... others) {
    return ConfigProblem.about(key, message, others);
  }
}
