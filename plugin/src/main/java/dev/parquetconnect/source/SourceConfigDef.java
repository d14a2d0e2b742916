package dev.parquetconnect.source;

import static dev.parquetconnect.source.ParquetSourceConfig.AFTER_REPLAY_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.AFTER_REPLAY_MOVE_PREFIX_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.BATCH_SIZE_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.DISCOVERY_INTERVAL_MS_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.ERRORS_ON_CORRUPT_FILE_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.ERRORS_QUARANTINE_PREFIX_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.ERRORS_TOPIC_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.FILE_NAME_PATTERN_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.KEY_FIELDS_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.MODE_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.PARTITION_COUNT_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.PARTITION_MODE_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.STORE_URL_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TASK_COUNT_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TASK_INDEX_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TIMESTAMP_FIELD_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TOPICS_DIR_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TOPIC_CONFIG;
import static dev.parquetconnect.source.ParquetSourceConfig.TRANSACTION_UNIT_CONFIG;

import dev.parquetconnect.config.EnumValues;
import dev.parquetconnect.config.RegexValidator;
import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.config.StoreUrlValidator;
import dev.parquetconnect.config.VisibleWhen;
import dev.parquetconnect.source.ParquetSourceConfig.AfterReplay;
import dev.parquetconnect.source.ParquetSourceConfig.Mode;
import dev.parquetconnect.source.ParquetSourceConfig.OnCorruptFile;
import dev.parquetconnect.source.ParquetSourceConfig.PartitionMode;
import dev.parquetconnect.source.ParquetSourceConfig.TransactionUnit;
import dev.parquetconnect.storage.StoreKeys;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The source's keys: type, default, validator, documentation, group and display of each, in the
 * order {@code docs/configuration.md} shows them (it is generated from this definition). The store
 * keys come from {@link StoreConfigDef}, shared with the sink.
 */
final class SourceConfigDef {
  private static final String GROUP_STORE = "Store";
  private static final String GROUP_FILES = "Files";
  private static final String GROUP_RECORDS = "Records";
  private static final String GROUP_ERRORS = "Errors";
  private static final String GROUP_DELIVERY = "Delivery";

  private SourceConfigDef() {}

  /** A new definition of every key. */
  static ConfigDef build() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        STORE_URL_CONFIG,
        Type.STRING,
        ConfigDef.NO_DEFAULT_VALUE,
        new StoreUrlValidator("file:///abs/path, hdfs://host:port/path, s3://bucket/prefix"),
        Importance.HIGH,
        "Where the files are: file:///abs/path, hdfs://namenode:port/path or "
            + "s3://bucket/prefix. Credentials never go in the URL: the store settings of "
            + "docs/storage.md (s3.*, aws.*, hadoop.*, hdfs.*) are passed to the store as they are.",
        GROUP_STORE,
        ++order,
        Width.LONG,
        "Store URL");
    def.define(
        TOPICS_DIR_CONFIG,
        Type.STRING,
        "topics",
        new KeyPrefixValidator(false),
        Importance.HIGH,
        "The directory under the store root that is searched, recursively, for "
            + "files; empty for the root itself. The sink's default is 'topics'.",
        GROUP_STORE,
        ++order,
        Width.MEDIUM,
        "Topics directory");

    order = 0;
    def.define(
        MODE_CONFIG,
        Type.STRING,
        "replay",
        EnumValues.validator(Mode.values()),
        Importance.HIGH,
        "replay: files written by our sink; records come back with their key, value, headers, "
            + "timestamp and partition from the __kafka_* columns, in offset order per original "
            + "partition. generic: any Parquet file; each row becomes a record of 'topic'.",
        GROUP_FILES,
        ++order,
        Width.SHORT,
        "Mode",
        EnumValues.recommender(Mode.values()));
    def.define(
        DISCOVERY_INTERVAL_MS_CONFIG,
        Type.LONG,
        10_000L,
        ConfigDef.Range.atLeast(100),
        Importance.MEDIUM,
        "How often the task lists the store for new files when it has " + "nothing left to read.",
        GROUP_FILES,
        ++order,
        Width.SHORT,
        "Discovery interval");
    def.define(
        FILE_NAME_PATTERN_CONFIG,
        Type.STRING,
        ".*\\.parquet",
        new RegexValidator(),
        Importance.MEDIUM,
        "A Java regular expression the whole file name (the last path "
            + "segment) must match. Directories and files whose name starts with '_' or '.' "
            + "(the sink's markers, temporary files) are always skipped.",
        GROUP_FILES,
        ++order,
        Width.MEDIUM,
        "File name pattern");
    def.define(
        AFTER_REPLAY_CONFIG,
        Type.STRING,
        "leave",
        EnumValues.validator(AfterReplay.values()),
        Importance.MEDIUM,
        "What happens to a file once every record read from it is "
            + "acknowledged (with exactly-once support: committed): leave, delete, or move "
            + "under after.replay.move.prefix.",
        GROUP_FILES,
        ++order,
        Width.SHORT,
        "After replay",
        EnumValues.recommender(AfterReplay.values()));
    def.define(
        AFTER_REPLAY_MOVE_PREFIX_CONFIG,
        Type.STRING,
        "",
        new KeyPrefixValidator(true),
        Importance.LOW,
        "With after.replay=move: the directory a replayed file is moved under, "
            + "keeping its path below topics.dir. Must not lie under topics.dir.",
        GROUP_FILES,
        ++order,
        Width.MEDIUM,
        "Move prefix",
        VisibleWhen.equalTo(AFTER_REPLAY_CONFIG, "move"));
    def.define(
        BATCH_SIZE_CONFIG,
        Type.INT,
        2_000,
        ConfigDef.Range.between(1, 1_000_000),
        Importance.LOW,
        "The most records one poll returns.",
        GROUP_FILES,
        ++order,
        Width.SHORT,
        "Batch size");

    order = 0;
    def.define(
        TOPIC_CONFIG,
        Type.STRING,
        "",
        Importance.HIGH,
        "Generic mode: the topic every "
            + "record goes to (required there). Replay mode sends each record to its original "
            + "topic; rename topics with Connect's RegexRouter transform (docs/source.md).",
        GROUP_RECORDS,
        ++order,
        Width.MEDIUM,
        "Topic",
        VisibleWhen.equalTo(MODE_CONFIG, "generic"));
    def.define(
        PARTITION_MODE_CONFIG,
        Type.STRING,
        "",
        ConfigDef.LambdaValidator.with(
            (name, value) -> {
              // null (a JSON null) is reported by validate's null check, not as an exception here
              if (value != null && !value.toString().isEmpty()) {
                EnumValues.validator(PartitionMode.values()).ensureValid(name, value);
              }
            },
            () -> "original, key.hash, default, or empty"),
        Importance.MEDIUM,
        "original: the record's original partition (replay mode; the target topic needs at "
            + "least as many partitions). key.hash: a hash of the key modulo partition.count. "
            + "default: no partition, the worker's producer partitioner decides. Empty (the "
            + "default): original in replay mode, default in generic mode.",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Partition mode",
        EnumValues.recommender(PartitionMode.values()));
    def.define(
        PARTITION_COUNT_CONFIG,
        Type.INT,
        0,
        ConfigDef.Range.atLeast(0),
        Importance.LOW,
        "With partition.mode=key.hash: the number of partitions of the target topic.",
        GROUP_RECORDS,
        ++order,
        Width.SHORT,
        "Partition count",
        VisibleWhen.equalTo(PARTITION_MODE_CONFIG, "key.hash"));
    def.define(
        KEY_FIELDS_CONFIG,
        Type.LIST,
        "",
        Importance.MEDIUM,
        "Generic mode: the top-level "
            + "column(s) whose values make the key: one column gives its value, several a "
            + "struct of them; none, a null key.",
        GROUP_RECORDS,
        ++order,
        Width.MEDIUM,
        "Key fields",
        VisibleWhen.equalTo(MODE_CONFIG, "generic"));
    def.define(
        TIMESTAMP_FIELD_CONFIG,
        Type.STRING,
        "",
        Importance.MEDIUM,
        "Generic mode: the "
            + "top-level column holding the record timestamp (a TIMESTAMP, DATE or INT64 epoch "
            + "milliseconds); empty for the file's modification time.",
        GROUP_RECORDS,
        ++order,
        Width.MEDIUM,
        "Timestamp field",
        VisibleWhen.equalTo(MODE_CONFIG, "generic"));

    order = 0;
    def.define(
        ERRORS_ON_CORRUPT_FILE_CONFIG,
        Type.STRING,
        "fail",
        EnumValues.validator(OnCorruptFile.values()),
        Importance.MEDIUM,
        "fail: a file that cannot be read fails the task with a message naming the file and "
            + "the position. skip: the file is logged, reported to errors.topic when set, moved "
            + "under errors.quarantine.prefix when set, and the task goes on with the others.",
        GROUP_ERRORS,
        ++order,
        Width.SHORT,
        "On a corrupt file",
        EnumValues.recommender(OnCorruptFile.values()));
    def.define(
        ERRORS_TOPIC_CONFIG,
        Type.STRING,
        "",
        Importance.LOW,
        "With skip: a topic that "
            + "receives one record per skipped file (key: the file; value: a JSON-like struct "
            + "with file, position and error).",
        GROUP_ERRORS,
        ++order,
        Width.MEDIUM,
        "Errors topic",
        VisibleWhen.equalTo(ERRORS_ON_CORRUPT_FILE_CONFIG, "skip"));
    def.define(
        ERRORS_QUARANTINE_PREFIX_CONFIG,
        Type.STRING,
        "",
        new KeyPrefixValidator(true),
        Importance.LOW,
        "With skip: the directory a skipped file is moved under (its path below "
            + "topics.dir kept); empty to leave it in place. Must not lie under topics.dir.",
        GROUP_ERRORS,
        ++order,
        Width.MEDIUM,
        "Quarantine prefix",
        VisibleWhen.equalTo(ERRORS_ON_CORRUPT_FILE_CONFIG, "skip"));

    order = 0;
    def.define(
        TRANSACTION_UNIT_CONFIG,
        Type.STRING,
        "file",
        EnumValues.validator(TransactionUnit.values()),
        Importance.LOW,
        "With exactly-once source support on the worker and transaction.boundary=connector: "
            + "commit a transaction after each file (file) or after each poll batch (batch).",
        GROUP_DELIVERY,
        ++order,
        Width.SHORT,
        "Transaction unit",
        EnumValues.recommender(TransactionUnit.values()));

    ReplaySelectionConfig.define(def);
    TableReplayConfig.define(def);

    // The store settings, the sink's keys: checked by validate like every other key.
    StoreConfigDef.define(def);

    def.defineInternal(TASK_INDEX_CONFIG, Type.INT, 0, Importance.LOW);
    def.defineInternal(TASK_COUNT_CONFIG, Type.INT, 1, Importance.LOW);
    return def;
  }

  /**
   * A store key prefix the source reads under or moves files to: empty (when allowed for the root)
   * or a valid key. The sink, which writes, is stricter ({@code SinkConfigDef}).
   */
  static final class KeyPrefixValidator implements ConfigDef.Validator {
    private final boolean emptyMeansUnset;

    KeyPrefixValidator(boolean emptyMeansUnset) {
      this.emptyMeansUnset = emptyMeansUnset;
    }

    @Override
    public void ensureValid(String name, Object value) {
      String prefix = value == null ? "" : value.toString();
      if (prefix.isEmpty()) {
        return;
      }
      try {
        StoreKeys.checkKey(prefix);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name + " is not a valid store path: " + e.getMessage());
      }
    }

    @Override
    public String toString() {
      return emptyMeansUnset ? "a store path, or empty for none" : "a store path, or empty";
    }
  }
}
