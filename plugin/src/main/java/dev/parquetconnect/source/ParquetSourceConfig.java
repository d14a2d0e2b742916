package dev.parquetconnect.source;

import dev.parquetconnect.config.ConnectorStoreSettings;
import dev.parquetconnect.config.ConnectorValidation;
import dev.parquetconnect.config.EnumValues;
import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.storage.StoreSettings;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The configuration of {@link ParquetSourceConnector} and its tasks, typed: the key names and the
 * accessors. Its one {@link ConfigDef} is {@link SourceConfigDef}, the store keys of
 * docs/storage.md ({@link StoreConfigDef}, the sink's) included, which reach the store through
 * {@link #storeSettings()}. The rules between keys are {@link SourceConfigRules}, which both the
 * connector's {@code validate} ({@link #validate(Map)}) and the constructor apply, through {@link
 * ConnectorValidation}.
 */
public final class ParquetSourceConfig extends AbstractConfig {

  public static final String STORE_URL_CONFIG = "store.url";
  public static final String TOPICS_DIR_CONFIG = "topics.dir";
  public static final String DISCOVERY_INTERVAL_MS_CONFIG = "discovery.interval.ms";
  public static final String FILE_NAME_PATTERN_CONFIG = "file.name.pattern";
  public static final String MODE_CONFIG = "mode";
  public static final String PARTITION_MODE_CONFIG = "partition.mode";
  public static final String PARTITION_COUNT_CONFIG = "partition.count";
  public static final String TOPIC_CONFIG = "topic";
  public static final String KEY_FIELDS_CONFIG = "key.fields";
  public static final String TIMESTAMP_FIELD_CONFIG = "timestamp.field";
  public static final String AFTER_REPLAY_CONFIG = "after.replay";
  public static final String AFTER_REPLAY_MOVE_PREFIX_CONFIG = "after.replay.move.prefix";
  public static final String ERRORS_ON_CORRUPT_FILE_CONFIG = "errors.on.corrupt.file";
  public static final String ERRORS_TOPIC_CONFIG = "errors.topic";
  public static final String ERRORS_QUARANTINE_PREFIX_CONFIG = "errors.quarantine.prefix";
  public static final String BATCH_SIZE_CONFIG = "batch.size";
  public static final String TRANSACTION_UNIT_CONFIG = "transaction.unit";

  /** Set by the connector in each task's config: this task's index and the number of tasks. */
  static final String TASK_INDEX_CONFIG = "task.index";

  static final String TASK_COUNT_CONFIG = "task.count";

  /** Which files are read and how their rows become records. */
  public enum Mode {
    /** Files our sink wrote: records restored from the {@code __kafka_*} columns. */
    REPLAY,
    /** Any Parquet file: each row a record of {@code topic}. */
    GENERIC
  }

  /** Which partition a record is sent to. */
  public enum PartitionMode {
    /** The record's original partition ({@code __kafka_partition}; replay mode). */
    ORIGINAL,
    /** A hash of the record's key modulo {@code partition.count}. */
    KEY_HASH,
    /** None given: the worker's producer partitioner decides. */
    DEFAULT
  }

  /** What happens to a file once every record of it is acknowledged. */
  public enum AfterReplay {
    LEAVE,
    DELETE,
    MOVE
  }

  /** What happens when a file cannot be read. */
  public enum OnCorruptFile {
    /** The task fails with a message naming the file and the position. */
    FAIL,
    /** The file is logged, reported to {@code errors.topic}, optionally quarantined, and left. */
    SKIP
  }

  /** Where the task asks for a transaction commit when the worker lets it define them. */
  public enum TransactionUnit {
    FILE,
    BATCH
  }

  public static final ConfigDef CONFIG_DEF = SourceConfigDef.build();

  private final Pattern fileNamePattern;

  public ParquetSourceConfig(Map<String, ?> originals) {
    this(originals, true);
  }

  private ParquetSourceConfig(Map<String, ?> originals, boolean checkRules) {
    super(CONFIG_DEF, originals, false);
    if (checkRules) {
      ConnectorValidation.requireValid(
          CONFIG_DEF, originals, () -> SourceConfigRules.problems(this));
    }
    this.fileNamePattern = Pattern.compile(getString(FILE_NAME_PATTERN_CONFIG));
  }

  /** A config whose rules between keys are not checked: what validate applies them to. */
  static ParquetSourceConfig unchecked(Map<String, ?> originals) {
    return new ParquetSourceConfig(originals, false);
  }

  /**
   * Validates a proposed configuration: each key by its validator, then the rules between keys,
   * whose failures are attached to the keys they concern. A rule that involves a key whose own
   * value is invalid is skipped (that key's error says enough), the others are still checked, so
   * that one answer lists every problem. Never throws: the worker turns an exception into an HTTP
   * 500 without guidance.
   */
  public static Config validate(Map<String, String> props) {
    return ConnectorValidation.validate(CONFIG_DEF, props, SourceConfigRules::problems);
  }

  /** Whether {@code key} is {@code dir} or below it ({@code ""} is the root: everything is). */
  static boolean isUnder(String key, String dir) {
    return dir.isEmpty() || key.equals(dir) || key.startsWith(dir + "/");
  }

  public String storeUrl() {
    return getString(STORE_URL_CONFIG);
  }

  public String topicsDir() {
    return getString(TOPICS_DIR_CONFIG);
  }

  /**
   * The settings the store is opened with ({@link ConnectorStoreSettings}: the store keys with
   * secrets as {@code Secret}s, and the {@code hadoop.config.*} pass-through keys).
   */
  public StoreSettings storeSettings() {
    return ConnectorStoreSettings.of(this);
  }

  public long discoveryIntervalMs() {
    return getLong(DISCOVERY_INTERVAL_MS_CONFIG);
  }

  public Pattern fileNamePattern() {
    return fileNamePattern;
  }

  public Mode mode() {
    return EnumValues.parse(Mode.class, getString(MODE_CONFIG));
  }

  public PartitionMode partitionMode() {
    String value = getString(PARTITION_MODE_CONFIG);
    if (value.isEmpty()) {
      return mode() == Mode.REPLAY ? PartitionMode.ORIGINAL : PartitionMode.DEFAULT;
    }
    return EnumValues.parse(PartitionMode.class, value);
  }

  public int partitionCount() {
    return getInt(PARTITION_COUNT_CONFIG);
  }

  public String topic() {
    return getString(TOPIC_CONFIG);
  }

  public List<String> keyFields() {
    return getList(KEY_FIELDS_CONFIG);
  }

  public String timestampField() {
    return getString(TIMESTAMP_FIELD_CONFIG);
  }

  public AfterReplay afterReplay() {
    return EnumValues.parse(AfterReplay.class, getString(AFTER_REPLAY_CONFIG));
  }

  public String afterReplayMovePrefix() {
    return getString(AFTER_REPLAY_MOVE_PREFIX_CONFIG);
  }

  public OnCorruptFile onCorruptFile() {
    return EnumValues.parse(OnCorruptFile.class, getString(ERRORS_ON_CORRUPT_FILE_CONFIG));
  }

  public String errorsTopic() {
    return getString(ERRORS_TOPIC_CONFIG);
  }

  public String quarantinePrefix() {
    return getString(ERRORS_QUARANTINE_PREFIX_CONFIG);
  }

  public int batchSize() {
    return getInt(BATCH_SIZE_CONFIG);
  }

  public TransactionUnit transactionUnit() {
    return EnumValues.parse(TransactionUnit.class, getString(TRANSACTION_UNIT_CONFIG));
  }

  public int taskIndex() {
    return getInt(TASK_INDEX_CONFIG);
  }

  public int taskCount() {
    return getInt(TASK_COUNT_CONFIG);
  }

  /** The configuration's own spelling of an enum constant: lower case, '.' for '_'. */
  static String spelling(Enum<?> constant) {
    return EnumValues.spelling(constant);
  }
}
