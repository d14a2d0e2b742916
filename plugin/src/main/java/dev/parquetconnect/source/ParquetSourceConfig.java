package dev.parquetconnect.source;

import dev.parquetconnect.storage.StoreConfigDef;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.StoreUrls;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The configuration of {@link ParquetSourceConnector} and its tasks: one {@link ConfigDef} with
 * typed accessors. The store settings of docs/storage.md ({@link StoreConfigDef}, the sink's
 * keys) are defined and checked here too, and passed to {@code Stores.open} with the other keys
 * ({@code hadoop.config.*} included).
 * Cross-field rules live in {@link #validate(Map)}, which both the connector's {@code validate}
 * and the constructor apply.
 */
public final class ParquetSourceConfig extends AbstractConfig {
  private static final String GROUP_STORE = "Store";
  private static final String GROUP_FILES = "Files";
  private static final String GROUP_RECORDS = "Records";
  private static final String GROUP_ERRORS = "Errors";
  private static final String GROUP_DELIVERY = "Delivery";

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

  public static final ConfigDef CONFIG_DEF = define(new ConfigDef());

  private final Pattern fileNamePattern;

  public ParquetSourceConfig(Map<String, ?> originals) {
    this(originals, true);
  }

  private ParquetSourceConfig(Map<String, ?> originals, boolean checkRules) {
    super(CONFIG_DEF, originals, false);
    if (checkRules) {
      List<Problem> problems = nullProblems(originals);
      if (problems.isEmpty()) {
        problems = crossFieldProblems(this);
        String scheme = StoreConfigDef.schemeProblem(originals);
        if (scheme != null) {
          problems.add(new Problem(STORE_URL_CONFIG, scheme));
        }
      }
      if (!problems.isEmpty()) {
        throw new ConfigException(String.join("; ",
            problems.stream().map(Problem::message).toList()));
      }
    }
    this.fileNamePattern = Pattern.compile(getString(FILE_NAME_PATTERN_CONFIG));
  }

  private static ConfigDef define(ConfigDef def) {
    int order = 0;
    def.define(STORE_URL_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new StoreUrlValidator(),
        Importance.HIGH, "Where the files are: file:///abs/path, hdfs://namenode:port/path or "
            + "s3://bucket/prefix. Credentials never go in the URL: the store settings of "
            + "docs/storage.md (s3.*, aws.*, hadoop.*, hdfs.*) are passed to the store as they are.",
        GROUP_STORE, ++order, Width.LONG, "Store URL");
    def.define(TOPICS_DIR_CONFIG, Type.STRING, "topics", new KeyPrefixValidator(false),
        Importance.HIGH, "The directory under the store root that is searched, recursively, for "
            + "files; empty for the root itself. The sink's default is 'topics'.",
        GROUP_STORE, ++order, Width.MEDIUM, "Topics directory");

    order = 0;
    def.define(MODE_CONFIG, Type.STRING, "replay", enumValidator(Mode.values()), Importance.HIGH,
        "replay: files written by our sink; records come back with their key, value, headers, "
            + "timestamp and partition from the __kafka_* columns, in offset order per original "
            + "partition. generic: any Parquet file; each row becomes a record of 'topic'.",
        GROUP_FILES, ++order, Width.SHORT, "Mode", enumRecommender(Mode.values()));
    def.define(DISCOVERY_INTERVAL_MS_CONFIG, Type.LONG, 10_000L, ConfigDef.Range.atLeast(100),
        Importance.MEDIUM, "How often the task lists the store for new files when it has "
            + "nothing left to read.", GROUP_FILES, ++order, Width.SHORT, "Discovery interval");
    def.define(FILE_NAME_PATTERN_CONFIG, Type.STRING, ".*\\.parquet", new RegexValidator(),
        Importance.MEDIUM, "A Java regular expression the whole file name (the last path "
            + "segment) must match. Directories and files whose name starts with '_' or '.' "
            + "(the sink's markers, temporary files) are always skipped.",
        GROUP_FILES, ++order, Width.MEDIUM, "File name pattern");
    def.define(AFTER_REPLAY_CONFIG, Type.STRING, "leave", enumValidator(AfterReplay.values()),
        Importance.MEDIUM, "What happens to a file once every record read from it is "
            + "acknowledged (with exactly-once support: committed): leave, delete, or move "
            + "under after.replay.move.prefix.",
        GROUP_FILES, ++order, Width.SHORT, "After replay", enumRecommender(AfterReplay.values()));
    def.define(AFTER_REPLAY_MOVE_PREFIX_CONFIG, Type.STRING, "", new KeyPrefixValidator(true),
        Importance.LOW, "With after.replay=move: the directory a replayed file is moved under, "
            + "keeping its path below topics.dir. Must not lie under topics.dir.",
        GROUP_FILES, ++order, Width.MEDIUM, "Move prefix",
        new VisibleWhen(AFTER_REPLAY_CONFIG, "move"));
    def.define(BATCH_SIZE_CONFIG, Type.INT, 2_000, ConfigDef.Range.between(1, 1_000_000),
        Importance.LOW, "The most records one poll returns.",
        GROUP_FILES, ++order, Width.SHORT, "Batch size");

    order = 0;
    def.define(TOPIC_CONFIG, Type.STRING, "", Importance.HIGH, "Generic mode: the topic every "
            + "record goes to (required there). Replay mode sends each record to its original "
            + "topic; rename topics with Connect's RegexRouter transform (docs/source.md).",
        GROUP_RECORDS, ++order, Width.MEDIUM, "Topic", new VisibleWhen(MODE_CONFIG, "generic"));
    def.define(PARTITION_MODE_CONFIG, Type.STRING, "", ConfigDef.LambdaValidator.with(
        (name, value) -> {
          // null (a JSON null) is reported by validate's null check, not as an exception here
          if (value != null && !value.toString().isEmpty()) {
            enumValidator(PartitionMode.values()).ensureValid(name, value);
          }
        }, () -> "original, key.hash, default, or empty"), Importance.MEDIUM,
        "original: the record's original partition (replay mode; the target topic needs at "
            + "least as many partitions). key.hash: a hash of the key modulo partition.count. "
            + "default: no partition, the worker's producer partitioner decides. Empty (the "
            + "default): original in replay mode, default in generic mode.",
        GROUP_RECORDS, ++order, Width.SHORT, "Partition mode",
        enumRecommender(PartitionMode.values()));
    def.define(PARTITION_COUNT_CONFIG, Type.INT, 0, ConfigDef.Range.atLeast(0), Importance.LOW,
        "With partition.mode=key.hash: the number of partitions of the target topic.",
        GROUP_RECORDS, ++order, Width.SHORT, "Partition count",
        new VisibleWhen(PARTITION_MODE_CONFIG, "key.hash"));
    def.define(KEY_FIELDS_CONFIG, Type.LIST, "", Importance.MEDIUM, "Generic mode: the top-level "
            + "column(s) whose values make the key: one column gives its value, several a "
            + "struct of them; none, a null key.",
        GROUP_RECORDS, ++order, Width.MEDIUM, "Key fields", new VisibleWhen(MODE_CONFIG, "generic"));
    def.define(TIMESTAMP_FIELD_CONFIG, Type.STRING, "", Importance.MEDIUM, "Generic mode: the "
            + "top-level column holding the record timestamp (a TIMESTAMP, DATE or INT64 epoch "
            + "milliseconds); empty for the file's modification time.",
        GROUP_RECORDS, ++order, Width.MEDIUM, "Timestamp field",
        new VisibleWhen(MODE_CONFIG, "generic"));

    order = 0;
    def.define(ERRORS_ON_CORRUPT_FILE_CONFIG, Type.STRING, "fail",
        enumValidator(OnCorruptFile.values()), Importance.MEDIUM,
        "fail: a file that cannot be read fails the task with a message naming the file and "
            + "the position. skip: the file is logged, reported to errors.topic when set, moved "
            + "under errors.quarantine.prefix when set, and the task goes on with the others.",
        GROUP_ERRORS, ++order, Width.SHORT, "On a corrupt file",
        enumRecommender(OnCorruptFile.values()));
    def.define(ERRORS_TOPIC_CONFIG, Type.STRING, "", Importance.LOW, "With skip: a topic that "
            + "receives one record per skipped file (key: the file; value: a JSON-like struct "
            + "with file, position and error).",
        GROUP_ERRORS, ++order, Width.MEDIUM, "Errors topic",
        new VisibleWhen(ERRORS_ON_CORRUPT_FILE_CONFIG, "skip"));
    def.define(ERRORS_QUARANTINE_PREFIX_CONFIG, Type.STRING, "", new KeyPrefixValidator(true),
        Importance.LOW, "With skip: the directory a skipped file is moved under (its path below "
            + "topics.dir kept); empty to leave it in place. Must not lie under topics.dir.",
        GROUP_ERRORS, ++order, Width.MEDIUM, "Quarantine prefix",
        new VisibleWhen(ERRORS_ON_CORRUPT_FILE_CONFIG, "skip"));

    order = 0;
    def.define(TRANSACTION_UNIT_CONFIG, Type.STRING, "file",
        enumValidator(TransactionUnit.values()), Importance.LOW,
        "With exactly-once source support on the worker and transaction.boundary=connector: "
            + "commit a transaction after each file (file) or after each poll batch (batch).",
        GROUP_DELIVERY, ++order, Width.SHORT, "Transaction unit",
        enumRecommender(TransactionUnit.values()));

    // The store settings, the sink's keys: checked by validate like every other key.
    StoreConfigDef.define(def);

    def.defineInternal(TASK_INDEX_CONFIG, Type.INT, 0, Importance.LOW);
    def.defineInternal(TASK_COUNT_CONFIG, Type.INT, 1, Importance.LOW);
    return def;
  }

  /**
   * Validates a proposed configuration: each key by its validator, then the rules between keys,
   * whose failures are attached to the keys they concern. A rule that involves a key whose own
   * value is invalid is skipped (that key's error says enough), the others are still checked, so
   * that one answer lists every problem. Never throws: the worker turns an exception into an
   * HTTP 500 without guidance.
   */
  public static Config validate(Map<String, String> props) {
    List<ConfigValue> values = CONFIG_DEF.validate(props);
    Map<String, ConfigValue> byName = new LinkedHashMap<>();
    for (ConfigValue v : values) {
      byName.put(v.name(), v);
    }
    for (Problem p : nullProblems(props)) {
      ConfigValue value = byName.get(p.key());
      if (value.errorMessages().isEmpty()) {
        value.addErrorMessage(p.message());
      }
    }
    ConfigValue url = byName.get(STORE_URL_CONFIG);
    if (url.errorMessages().isEmpty()) {
      String problem = StoreConfigDef.schemeProblem(props);
      if (problem != null) {
        url.addErrorMessage(problem);
      }
    }
    Set<String> invalid = new HashSet<>();
    Map<String, String> usable = new HashMap<>();
    for (ConfigValue v : values) {
      if (!v.errorMessages().isEmpty()) {
        invalid.add(v.name());
      }
    }
    props.forEach((key, value) -> {
      if (!invalid.contains(key)) {
        usable.put(key, value);
      }
    });
    // Without the invalid keys (their defaults stand in) the rest parses; rules touching an
    // invalid key are dropped below.
    ParquetSourceConfig parsed;
    try {
      parsed = new ParquetSourceConfig(usable, false);
    } catch (ConfigException e) {
      // Only a key without a default (store.url) can still fail: its own error is reported.
      return new Config(values);
    }
    for (Problem p : crossFieldProblems(parsed)) {
      if (p.involved().stream().noneMatch(invalid::contains)) {
        byName.get(p.key()).addErrorMessage(p.message());
      }
    }
    // ConfigDef validates store.url again for each key that lists it as a dependent (every
    // store setting), repeating its error: one of each is enough.
    List<ConfigValue> unique = new ArrayList<>();
    for (ConfigValue v : values) {
      ConfigValue copy = new ConfigValue(v.name(), v.value(), v.recommendedValues(),
          new ArrayList<>(new LinkedHashSet<>(v.errorMessages())));
      copy.visible(v.visible());
      unique.add(copy);
    }
    return new Config(unique);
  }

  /** A rule between keys that fails: reported on {@code key}, concerning {@code involved}. */
  private record Problem(String key, String message, Set<String> involved) {
    Problem(String key, String message, String... others) {
      this(key, message, with(key, others));
    }

    private static Set<String> with(String key, String... others) {
      Set<String> all = new HashSet<>(Arrays.asList(others));
      all.add(key);
      return all;
    }
  }

  /**
   * Keys given as {@code null} (a JSON null in the REST call): ConfigDef accepts them for keys
   * without a validator and the getters would then fail with a NullPointerException in a task.
   */
  private static List<Problem> nullProblems(Map<String, ?> props) {
    List<Problem> problems = new ArrayList<>();
    props.forEach((key, value) -> {
      if (value == null && CONFIG_DEF.configKeys().containsKey(key)) {
        problems.add(new Problem(key, key + " is null; leave it out for its default"));
      }
    });
    return problems;
  }

  private static List<Problem> crossFieldProblems(ParquetSourceConfig c) {
    List<Problem> problems = new ArrayList<>();
    Mode mode = c.mode();
    if (mode == Mode.GENERIC && c.topic().isEmpty()) {
      problems.add(new Problem(TOPIC_CONFIG, TOPIC_CONFIG + " is required in generic mode",
          MODE_CONFIG));
    }
    if (mode == Mode.GENERIC && c.partitionMode() == PartitionMode.ORIGINAL) {
      problems.add(new Problem(PARTITION_MODE_CONFIG, PARTITION_MODE_CONFIG + " original needs "
          + "replay mode (generic files have no original partition): use default or key.hash",
          MODE_CONFIG));
    }
    if (mode == Mode.REPLAY && !c.topic().isEmpty()) {
      problems.add(new Problem(TOPIC_CONFIG, TOPIC_CONFIG + " '" + c.topic() + "' applies to "
          + "generic mode only: rename replayed topics with the RegexRouter transform",
          MODE_CONFIG));
    }
    if (mode == Mode.REPLAY && (!c.keyFields().isEmpty() || !c.timestampField().isEmpty())) {
      problems.add(new Problem(c.keyFields().isEmpty() ? TIMESTAMP_FIELD_CONFIG
          : KEY_FIELDS_CONFIG, KEY_FIELDS_CONFIG + " (" + c.keyFields() + ") and "
          + TIMESTAMP_FIELD_CONFIG + " ('" + c.timestampField() + "') apply to generic mode only: "
          + "replay restores keys and timestamps from the __kafka_* columns",
          MODE_CONFIG, KEY_FIELDS_CONFIG, TIMESTAMP_FIELD_CONFIG));
    }
    if (c.partitionMode() == PartitionMode.KEY_HASH && c.partitionCount() == 0) {
      problems.add(new Problem(PARTITION_COUNT_CONFIG, PARTITION_COUNT_CONFIG + " must be set "
          + "(the target topic's partition count) with partition.mode key.hash",
          PARTITION_MODE_CONFIG));
    }
    String topicsDir = c.topicsDir();
    if (c.afterReplay() == AfterReplay.MOVE) {
      String prefix = c.afterReplayMovePrefix();
      if (prefix.isEmpty()) {
        problems.add(new Problem(AFTER_REPLAY_MOVE_PREFIX_CONFIG, AFTER_REPLAY_MOVE_PREFIX_CONFIG
            + " is required with after.replay move", AFTER_REPLAY_CONFIG));
      } else if (isUnder(prefix, topicsDir)) {
        problems.add(new Problem(AFTER_REPLAY_MOVE_PREFIX_CONFIG, AFTER_REPLAY_MOVE_PREFIX_CONFIG
            + " '" + prefix + "' must not lie under topics.dir '" + topicsDir + "', or moved "
            + "files would be found again", AFTER_REPLAY_CONFIG, TOPICS_DIR_CONFIG));
      }
    }
    String quarantine = c.quarantinePrefix();
    if (!quarantine.isEmpty() && c.onCorruptFile() != OnCorruptFile.SKIP) {
      problems.add(new Problem(ERRORS_QUARANTINE_PREFIX_CONFIG, ERRORS_QUARANTINE_PREFIX_CONFIG
          + " '" + quarantine + "' needs errors.on.corrupt.file skip",
          ERRORS_ON_CORRUPT_FILE_CONFIG));
    } else if (!quarantine.isEmpty() && isUnder(quarantine, topicsDir)) {
      problems.add(new Problem(ERRORS_QUARANTINE_PREFIX_CONFIG, ERRORS_QUARANTINE_PREFIX_CONFIG
          + " '" + quarantine + "' must not lie under topics.dir '" + topicsDir + "', or "
          + "quarantined files would be found again", TOPICS_DIR_CONFIG,
          ERRORS_ON_CORRUPT_FILE_CONFIG));
    }
    if (!c.errorsTopic().isEmpty() && c.onCorruptFile() != OnCorruptFile.SKIP) {
      problems.add(new Problem(ERRORS_TOPIC_CONFIG, ERRORS_TOPIC_CONFIG + " '" + c.errorsTopic()
          + "' needs errors.on.corrupt.file skip", ERRORS_ON_CORRUPT_FILE_CONFIG));
    }
    StoreConfigDef.problems(c::get).forEach((key, messages) -> messages.forEach(message ->
        problems.add(new Problem(key, message, StoreConfigDef.involved(key)))));
    int count = c.getInt(TASK_COUNT_CONFIG);
    int index = c.getInt(TASK_INDEX_CONFIG);
    if (count < 1 || index < 0 || index >= count) {
      problems.add(new Problem(TASK_INDEX_CONFIG, TASK_INDEX_CONFIG + " " + index
          + " is not a task of " + count, TASK_COUNT_CONFIG));
    }
    return problems;
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

  public long discoveryIntervalMs() {
    return getLong(DISCOVERY_INTERVAL_MS_CONFIG);
  }

  public Pattern fileNamePattern() {
    return fileNamePattern;
  }

  public Mode mode() {
    return parse(Mode.class, getString(MODE_CONFIG));
  }

  public PartitionMode partitionMode() {
    String value = getString(PARTITION_MODE_CONFIG);
    if (value.isEmpty()) {
      return mode() == Mode.REPLAY ? PartitionMode.ORIGINAL : PartitionMode.DEFAULT;
    }
    return parse(PartitionMode.class, value);
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
    return parse(AfterReplay.class, getString(AFTER_REPLAY_CONFIG));
  }

  public String afterReplayMovePrefix() {
    return getString(AFTER_REPLAY_MOVE_PREFIX_CONFIG);
  }

  public OnCorruptFile onCorruptFile() {
    return parse(OnCorruptFile.class, getString(ERRORS_ON_CORRUPT_FILE_CONFIG));
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
    return parse(TransactionUnit.class, getString(TRANSACTION_UNIT_CONFIG));
  }

  public int taskIndex() {
    return getInt(TASK_INDEX_CONFIG);
  }

  public int taskCount() {
    return getInt(TASK_COUNT_CONFIG);
  }

  /** The configuration's own spelling of an enum constant: lower case, '.' for '_'. */
  static String spelling(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '.');
  }

  private static <E extends Enum<E>> E parse(Class<E> type, String value) {
    return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT).replace('.', '_'));
  }

  private static ConfigDef.Validator enumValidator(Enum<?>[] constants) {
    String[] names = Arrays.stream(constants).map(ParquetSourceConfig::spelling)
        .toArray(String[]::new);
    return ConfigDef.CaseInsensitiveValidString.in(names);
  }

  private static ConfigDef.Recommender enumRecommender(Enum<?>[] constants) {
    List<Object> names = Arrays.stream(constants).map(ParquetSourceConfig::spelling)
        .map(Object.class::cast).toList();
    return new ConfigDef.Recommender() {
      @Override
      public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
        return names;
      }

      @Override
      public boolean visible(String name, Map<String, Object> parsedConfig) {
        return true;
      }
    };
  }

  /** Shows a key only when another key has a given value (in UIs that read recommenders). */
  private record VisibleWhen(String key, String value) implements ConfigDef.Recommender {
    @Override
    public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
      return List.of();
    }

    @Override
    public boolean visible(String name, Map<String, Object> parsedConfig) {
      Object v = parsedConfig.get(key);
      return v != null && value.equalsIgnoreCase(v.toString());
    }
  }

  /**
   * A URL the stores can open, without credentials: the same checks as the sink's ({@link
   * StoreUrls#problem}), so that validate refuses what a task could not open. The message never
   * repeats a value that may hold a secret.
   */
  private static final class StoreUrlValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String problem = StoreUrls.problem(value);
      if (problem != null) {
        throw new ConfigException(problem);
      }
    }

    @Override
    public String toString() {
      return "file:///abs/path, hdfs://host:port/path, s3://bucket/prefix";
    }
  }

  /** A store key prefix: empty (when allowed for the root) or a valid key. */
  private static final class KeyPrefixValidator implements ConfigDef.Validator {
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

  private static final class RegexValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      if (value == null) {
        return; // reported by the null check of validate and the constructor
      }
      try {
        Pattern.compile(value.toString());
      } catch (PatternSyntaxException e) {
        throw new ConfigException(name + " is not a valid regular expression: "
            + e.getDescription());
      }
    }

    @Override
    public String toString() {
      return "a Java regular expression";
    }
  }
}
