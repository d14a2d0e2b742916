package dev.parquetconnect.sink;

import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.sink.partition.Partitioners;
import dev.parquetconnect.sink.partition.RecordFields;
import dev.parquetconnect.sink.partition.RecordTime;
import dev.parquetconnect.sink.partition.TimePartitioner;
import dev.parquetconnect.storage.StoreConfigDef;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.StoreUrls;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The configuration of {@link ParquetSinkConnector} and its tasks: one {@link ConfigDef} with
 * every key typed, documented and validated, and typed getters. Checks that involve several keys
 * live in {@link #crossFieldErrors()}, which {@link ParquetSinkConnector#validate} reports per key
 * (so the REST validate call shows them) and the constructor enforces.
 */
public final class ParquetSinkConfig extends AbstractConfig {

  // ---- storage
  public static final String STORE_URL_CONFIG = "store.url";
  public static final String TOPICS_DIR_CONFIG = "topics.dir";
  public static final String TOPICS_DIR_DEFAULT = "topics";
  /** Any Hadoop property, passed to the HDFS store with this prefix removed. */
  public static final String HADOOP_CONFIG_PREFIX = "hadoop.config.";

  // ---- partitioning
  public static final String PARTITIONER_CONFIG = "partitioner.class";
  public static final String PARTITIONER_KAFKA = "kafka";
  public static final String PARTITIONER_FIELD = "field";
  public static final String PARTITIONER_TIME = "time";
  public static final String PARTITIONER_HEADER = "header";
  public static final String PARTITION_FIELDS_CONFIG = "partition.field.name";
  public static final String PARTITION_HEADERS_CONFIG = "partition.header.name";
  public static final String PATH_FORMAT_CONFIG = "path.format";
  public static final String PATH_FORMAT_DEFAULT = "'year'=yyyy/'month'=MM/'day'=dd/'hour'=HH";
  public static final String TIMEZONE_CONFIG = "timezone";
  public static final String LOCALE_CONFIG = "locale";
  public static final String TIMESTAMP_EXTRACTOR_CONFIG = "timestamp.extractor";
  public static final String TIMESTAMP_FIELD_CONFIG = "timestamp.field";

  // ---- rotation
  public static final String FLUSH_SIZE_CONFIG = "flush.size";
  public static final String FILE_MAX_BYTES_CONFIG = "file.max.bytes";
  public static final String ROTATE_INTERVAL_MS_CONFIG = "rotate.interval.ms";
  public static final String ROTATE_SCHEDULE_INTERVAL_MS_CONFIG = "rotate.schedule.interval.ms";

  // ---- parquet
  public static final String PARQUET_CODEC_CONFIG = "parquet.codec";
  public static final String PARQUET_CODEC_LEVEL_CONFIG = "parquet.codec.level";
  public static final String PARQUET_PAGE_VERSION_CONFIG = "parquet.page.version";
  public static final String PARQUET_ENCODING_POLICY_CONFIG = "parquet.encoding.policy";
  public static final String PARQUET_ROW_GROUP_BYTES_CONFIG = "parquet.row.group.bytes";
  public static final String PARQUET_PAGE_BYTES_CONFIG = "parquet.page.bytes";
  public static final String PARQUET_PAGE_ROWS_CONFIG = "parquet.page.rows";
  public static final String PARQUET_DICTIONARY_BYTES_CONFIG = "parquet.dictionary.bytes";
  public static final String PARQUET_BLOOM_FILTER_COLUMNS_CONFIG = "parquet.bloom.filter.columns";
  public static final String PARQUET_BLOOM_FILTER_FPP_CONFIG = "parquet.bloom.filter.fpp";
  public static final String PARQUET_BLOOM_FILTER_NDV_CONFIG = "parquet.bloom.filter.ndv";
  public static final String PARQUET_TIMESTAMP_UNIT_CONFIG = "parquet.timestamp.unit";
  public static final String PARQUET_TIME_TYPE_CONFIG = "parquet.time.type";

  // ---- record content
  public static final String STORE_KAFKA_METADATA_CONFIG = "store.kafka.metadata";
  public static final String STORE_KAFKA_KEY_CONFIG = "store.kafka.key";
  public static final String STORE_KAFKA_HEADERS_CONFIG = "store.kafka.headers";
  public static final String SCHEMA_COMPATIBILITY_CONFIG = "schema.compatibility";
  public static final String BEHAVIOR_ON_NULL_VALUES_CONFIG = "behavior.on.null.values";
  public static final String SCHEMALESS_TYPE_CONFLICT_CONFIG = "schemaless.type.conflict";
  /**
   * Kafka Connect's own key (defined and validated by the worker for every connector); the task
   * reads it to decide between the dead letter queue and failing.
   */
  public static final String ERRORS_TOLERANCE_CONFIG = "errors.tolerance";

  // ---- memory and exactly-once
  public static final String BUFFER_MAX_BYTES_CONFIG = "buffer.max.bytes";
  public static final String COMMIT_TIMEOUT_MS_CONFIG = "commit.timeout.ms";
  public static final String ORPHAN_MIN_AGE_MS_CONFIG = "cleanup.orphans.min.age.ms";

  /** The Connect framework key naming the connector; part of the marker prefix. */
  public static final String CONNECTOR_NAME_CONFIG = "name";

  private static final String GROUP_STORE = "Storage";
  private static final String GROUP_PARTITION = "Partitioning";
  private static final String GROUP_ROTATION = "Rotation";
  private static final String GROUP_PARQUET = "Parquet";
  private static final String GROUP_CONTENT = "Record content";
  private static final String GROUP_DELIVERY = "Delivery and memory";

  private static final long MIB = 1024L * 1024;

  /** What happens to a record whose value is null (a tombstone). */
  public enum NullValueBehavior {
    /** Fail the record (the dead letter queue takes it when {@code errors.tolerance=all}). */
    FAIL,
    /** Skip it; its offset still counts as written. */
    IGNORE,
    /** Write a row with only the Kafka metadata (and key and headers when stored). */
    WRITE;

    static NullValueBehavior parse(String text) {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
  }

  /** How records of different value schemas share a file. */
  public enum SchemaCompatibility {
    NONE, BACKWARD, FORWARD, FULL;

    static SchemaCompatibility parse(String text) {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
  }

  /** The codecs the writer offers (LZO is never written). */
  static final List<String> CODECS =
      List.of("uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "lz4", "brotli");

  public static final ConfigDef CONFIG_DEF = configDef();

  public ParquetSinkConfig(Map<String, String> props) {
    super(CONFIG_DEF, props);
    List<String> errors = new ArrayList<>();
    Map<String, List<String>> problems = nullErrors(props);
    if (problems.isEmpty()) {
      problems = crossFieldErrors();
      String scheme = StoreConfigDef.schemeProblem(props);
      if (scheme != null) {
        add(problems, STORE_URL_CONFIG, scheme);
      }
    }
    // Every message names its key (see add).
    problems.values().forEach(errors::addAll);
    if (!errors.isEmpty()) {
      throw new ConfigException(String.join("; ", errors));
    }
  }

  /** The definition of every key; {@code docs/configuration.md} is generated from it. */
  public static ConfigDef configDef() {
    ConfigDef def = new ConfigDef();
    defineStorage(def);
    definePartitioning(def);
    defineRotation(def);
    defineParquet(def);
    defineContent(def);
    defineDelivery(def);
    StoreConfigDef.define(def);
    return def;
  }

  private static void defineStorage(ConfigDef def) {
    int order = 0;
    def.define(STORE_URL_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT_VALUE, new StoreUrlValidator(),
        Importance.HIGH,
        "Where files go: file:///absolute/path (local or mounted file system), "
            + "hdfs://namenode:8020/path (and any other Hadoop scheme whose jars are on the plugin "
            + "path) or s3://bucket/prefix (AWS S3 and S3-compatible stores, see the S3 keys). "
            + "Credentials never go in the URL.",
        GROUP_STORE, ++order, Width.LONG, "Store URL");
    def.define(TOPICS_DIR_CONFIG, Type.STRING, TOPICS_DIR_DEFAULT, new PrefixValidator(),
        Importance.HIGH,
        "The directory under store.url that holds one directory per topic "
            + "(<topics.dir>/<topic>/<partition path>/<file>) and the commit markers "
            + "(<topics.dir>/_markers/<connector name>/...). A relative path without '.' or '..' "
            + "segments.",
        GROUP_STORE, ++order, Width.MEDIUM, "Topics directory");
  }

  private static void definePartitioning(ConfigDef def) {
    int order = 0;
    def.define(PARTITIONER_CONFIG, Type.STRING, PARTITIONER_KAFKA, Importance.HIGH,
        "How records are spread over directories, each level Hive style (name=value) so that "
            + "engines prune by it: 'kafka' (partition=<Kafka partition>), 'field' (the values of "
            + "partition.field.name), 'time' (the record time formatted by path.format), 'header' "
            + "(the values of partition.header.name), or the class name of an implementation of "
            + "dev.parquetconnect.sink.partition.Partitioner. Values are percent-encoded and "
            + "capped, so no value can place a file outside the topic's directory; null and empty "
            + "values go to __HIVE_DEFAULT_PARTITION__. What engines read back: "
            + "docs/compatibility.md, "
            + "Partition directories.",
        GROUP_PARTITION, ++order, Width.MEDIUM, "Partitioner", new PartitionerRecommender());
    def.define(PARTITION_FIELDS_CONFIG, Type.LIST, "", Importance.MEDIUM,
        "For partitioner.class=field: the value fields to partition by, outermost first; nested "
            + "fields as a.b.c. Each becomes a directory level named after its last element. Works "
            + "with structs and with schemaless JSON maps.",
        GROUP_PARTITION, ++order, Width.LONG, "Partition fields",
        List.of(PARTITIONER_CONFIG), new VisibleFor(PARTITIONER_CONFIG, PARTITIONER_FIELD));
    def.define(PARTITION_HEADERS_CONFIG, Type.LIST, "", Importance.MEDIUM,
        "For partitioner.class=header: the record headers to partition by, outermost first. A "
            + "missing header goes to __HIVE_DEFAULT_PARTITION__.",
        GROUP_PARTITION, ++order, Width.LONG, "Partition headers",
        List.of(PARTITIONER_CONFIG), new VisibleFor(PARTITIONER_CONFIG, PARTITIONER_HEADER));
    def.define(PATH_FORMAT_CONFIG, Type.STRING, PATH_FORMAT_DEFAULT, Importance.MEDIUM,
        "For partitioner.class=time: a java.time DateTimeFormatter pattern whose '/'-separated "
            + "segments each print name=value, e.g. 'dt'=yyyy-MM-dd/'hour'=HH. Use yyyy (year), "
            + "not YYYY (week-based year).",
        GROUP_PARTITION, ++order, Width.LONG, "Path format",
        List.of(PARTITIONER_CONFIG), new VisibleFor(PARTITIONER_CONFIG, PARTITIONER_TIME));
    def.define(TIMEZONE_CONFIG, Type.STRING, "UTC", new ZoneValidator(), Importance.MEDIUM,
        "The time zone of path.format, as a java.time zone id (UTC, Europe/Paris, +02:00).",
        GROUP_PARTITION, ++order, Width.SHORT, "Time zone",
        List.of(PARTITIONER_CONFIG), new VisibleFor(PARTITIONER_CONFIG, PARTITIONER_TIME));
    def.define(LOCALE_CONFIG, Type.STRING, "en", new LocaleValidator(), Importance.LOW,
        "The locale of path.format (month and day names), as a BCP 47 language tag (en, fr-FR).",
        GROUP_PARTITION, ++order, Width.SHORT, "Locale",
        List.of(PARTITIONER_CONFIG), new VisibleFor(PARTITIONER_CONFIG, PARTITIONER_TIME));
    def.define(TIMESTAMP_EXTRACTOR_CONFIG, Type.STRING, "record",
        ConfigDef.CaseInsensitiveValidString.in("record", "field", "wallclock"), Importance.MEDIUM,
        "The time of a record for partitioner.class=time and rotate.interval.ms: 'record' (the "
            + "Kafka record timestamp), 'field' (timestamp.field of the value) or 'wallclock' (the "
            + "time the task writes it; not reproducible after a restart, but still exactly once).",
        GROUP_PARTITION, ++order, Width.SHORT, "Timestamp extractor");
    def.define(TIMESTAMP_FIELD_CONFIG, Type.STRING, "", Importance.MEDIUM,
        "For timestamp.extractor=field: the value field holding the time (a Connect Timestamp, "
            + "epoch milliseconds, or an ISO-8601 string with offset); nested as a.b.c.",
        GROUP_PARTITION, ++order, Width.MEDIUM, "Timestamp field",
        List.of(TIMESTAMP_EXTRACTOR_CONFIG), new VisibleFor(TIMESTAMP_EXTRACTOR_CONFIG, "field"));
  }

  private static void defineRotation(ConfigDef def) {
    int order = 0;
    def.define(FLUSH_SIZE_CONFIG, Type.LONG, 100_000L, Range.atLeast(1), Importance.HIGH,
        "Records of one Kafka partition per commit: when this many have been read since the last "
            + "commit (written, skipped tombstones and dead-lettered ones alike), that partition's "
            + "files are committed. With a field or time partitioner the records of a commit are "
            + "spread over several files.",
        GROUP_ROTATION, ++order, Width.SHORT, "Flush size");
    def.define(FILE_MAX_BYTES_CONFIG, Type.LONG, 256 * MIB, Range.atLeast(64 * 1024),
        Importance.MEDIUM,
        "A file reaching this many bytes (written plus still buffered) commits its Kafka "
            + "partition's files.",
        GROUP_ROTATION, ++order, Width.SHORT, "Maximum file size");
    def.define(ROTATE_INTERVAL_MS_CONFIG, Type.LONG, -1L, Range.atLeast(-1), Importance.MEDIUM,
        "Commit a Kafka partition's files when a record's time (timestamp.extractor) is this many "
            + "milliseconds past the time of the first record since the last commit. Depends only "
            + "on the records (unless the extractor is wallclock); checked when a record arrives. "
            + "-1 disables it.",
        GROUP_ROTATION, ++order, Width.SHORT, "Rotate interval (record time)");
    def.define(ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Type.LONG, -1L, Range.atLeast(-1),
        Importance.MEDIUM,
        "Commit open files on wall-clock boundaries: each multiple of this interval since the "
            + "epoch (UTC) commits the files opened before it, even when no record arrives, so a "
            + "quiet partition's data becomes visible within about one interval. -1 disables it.",
        GROUP_ROTATION, ++order, Width.SHORT, "Rotate schedule interval (wall clock)");
  }

  private static void defineParquet(ConfigDef def) {
    int order = 0;
    def.define(PARQUET_CODEC_CONFIG, Type.STRING, "zstd",
        ConfigDef.CaseInsensitiveValidString.in(CODECS.toArray(String[]::new)), Importance.MEDIUM,
        "The compression codec of every column: " + String.join(", ", CODECS) + ".",
        GROUP_PARQUET, ++order, Width.SHORT, "Codec");
    def.define(PARQUET_CODEC_LEVEL_CONFIG, Type.INT, null, Importance.LOW,
        "The codec's level (zstd 1-22, gzip 1-9, brotli 0-11); empty for the codec's default "
            + "(zstd " + Codecs.ZSTD_DEFAULT_LEVEL + ", gzip " + Codecs.GZIP_DEFAULT_LEVEL
            + ", brotli " + Codecs.BROTLI_DEFAULT_LEVEL + ").",
        GROUP_PARQUET, ++order, Width.SHORT, "Codec level");
    def.define(PARQUET_PAGE_VERSION_CONFIG, Type.STRING, "v1",
        ConfigDef.CaseInsensitiveValidString.in("v1", "v2"), Importance.LOW,
        "Data page format: v1 (read by every engine) or v2 (levels uncompressed, faster to skip).",
        GROUP_PARQUET, ++order, Width.SHORT, "Page version");
    def.define(PARQUET_ENCODING_POLICY_CONFIG, Type.STRING, "adaptive",
        ConfigDef.CaseInsensitiveValidString.in("adaptive", "extended", "compatible"),
        Importance.LOW,
        "adaptive: dictionary first, then per column the smallest of the delta and plain "
            + "encodings (read by Spark 3.3+, Trino, Arrow C++, DuckDB, parquet-java); extended: "
            + "also byte-stream-split for floats, which Spark before 4.1 and Trino cannot read; "
            + "compatible: dictionary and plain only, for readers older than the delta encodings "
            + "(see docs/compatibility.md).",
        GROUP_PARQUET, ++order, Width.SHORT, "Encoding policy");
    def.define(PARQUET_ROW_GROUP_BYTES_CONFIG, Type.LONG, 64 * MIB, Range.atLeast(64 * 1024),
        Importance.MEDIUM,
        "A row group is written out once its buffered bytes reach this target (or earlier when "
            + "buffer.max.bytes is reached).",
        GROUP_PARQUET, ++order, Width.SHORT, "Row group bytes");
    def.define(PARQUET_PAGE_BYTES_CONFIG, Type.INT, (int) MIB, Range.between(1024, 64 * MIB),
        Importance.LOW, "The target size of a data page.",
        GROUP_PARQUET, ++order, Width.SHORT, "Page bytes");
    def.define(PARQUET_PAGE_ROWS_CONFIG, Type.INT, 0, Range.atLeast(0), Importance.LOW,
        "The most rows a data page holds; 0 cuts pages by parquet.page.bytes only (the smallest "
            + "files). A cap such as 20000 (parquet-java's default) gives narrow sorted columns "
            + "(offsets, ids, timestamps) more pages, so engines that skip pages through the page "
            + "index skip in finer steps, for 0.5-3% larger files.",
        GROUP_PARQUET, ++order, Width.SHORT, "Page rows");
    def.define(PARQUET_DICTIONARY_BYTES_CONFIG, Type.INT, (int) MIB, Range.between(1024, 64 * MIB),
        Importance.LOW,
        "A column's dictionary passing this size makes the column fall back to another encoding.",
        GROUP_PARQUET, ++order, Width.SHORT, "Dictionary bytes");
    def.define(PARQUET_BLOOM_FILTER_COLUMNS_CONFIG, Type.LIST, "", Importance.LOW,
        "Columns (dotted paths, e.g. customer.id) that get a split-block bloom filter per row "
            + "group.",
        GROUP_PARQUET, ++order, Width.LONG, "Bloom filter columns");
    def.define(PARQUET_BLOOM_FILTER_FPP_CONFIG, Type.DOUBLE, 0.01, Range.between(1e-6, 0.5),
        Importance.LOW, "The false positive probability the bloom filters are sized for.",
        GROUP_PARQUET, ++order, Width.SHORT, "Bloom filter FPP");
    def.define(PARQUET_BLOOM_FILTER_NDV_CONFIG, Type.LONG, 100_000L, Range.atLeast(1),
        Importance.LOW, "The distinct values per row group the bloom filters are sized for.",
        GROUP_PARQUET, ++order, Width.SHORT, "Bloom filter distinct values");
    def.define(PARQUET_TIMESTAMP_UNIT_CONFIG, Type.STRING, "millis",
        ConfigDef.CaseInsensitiveValidString.in("millis", "micros"), Importance.LOW,
        "The unit of the TIMESTAMP columns of Connect Timestamp fields: millis (Connect's own "
            + "precision) or micros (what Spark and older Hive expect). __kafka_timestamp is "
            + "always millis.",
        GROUP_PARQUET, ++order, Width.SHORT, "Timestamp unit");
    def.define(PARQUET_TIME_TYPE_CONFIG, Type.STRING, "int32",
        ConfigDef.CaseInsensitiveValidString.in("int32", "time-millis"), Importance.LOW,
        "How Connect Time fields are stored: int32 (plain INT32 milliseconds of the day, read by "
            + "every engine, Spark included) or time-millis (INT32 annotated TIME(MILLIS, UTC), "
            + "which Spark 3.x and 4.0 refuse to read at all). The source replays both as "
            + "Connect Time.",
        GROUP_PARQUET, ++order, Width.SHORT, "Time type");
  }

  private static void defineContent(ConfigDef def) {
    int order = 0;
    def.define(STORE_KAFKA_METADATA_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM,
        "Add the columns __kafka_topic, __kafka_partition, __kafka_offset and __kafka_timestamp.",
        GROUP_CONTENT, ++order, Width.SHORT, "Store Kafka metadata");
    def.define(STORE_KAFKA_KEY_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM,
        "Add the record key as the column __kafka_key, so the source connector can restore it.",
        GROUP_CONTENT, ++order, Width.SHORT, "Store Kafka key");
    def.define(STORE_KAFKA_HEADERS_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM,
        "Add the record headers as the column __kafka_headers (a list of key/value pairs, in "
            + "order, repeats kept).",
        GROUP_CONTENT, ++order, Width.SHORT, "Store Kafka headers");
    def.define(SCHEMA_COMPATIBILITY_CONFIG, Type.STRING, "NONE",
        ConfigDef.CaseInsensitiveValidString.in("NONE", "BACKWARD", "FORWARD", "FULL"),
        Importance.MEDIUM,
        "When a record's value schema differs from its file's: NONE starts a new file (a commit "
            + "of the Kafka partition); BACKWARD and FULL keep the newest schema in a file, FORWARD "
            + "the oldest, and project records of other versions to it where they can, so "
            + "interleaved schema versions share a file; new files start from the schema the task "
            + "learned for the topic (the newest, or oldest, version seen), in every directory.",
        GROUP_CONTENT, ++order, Width.SHORT, "Schema compatibility");
    def.define(SCHEMALESS_TYPE_CONFLICT_CONFIG, Type.STRING, "string",
        ConfigDef.CaseInsensitiveValidString.in("string", "fail"), Importance.MEDIUM,
        "Schemaless values (JsonConverter with schemas.enable=false) get a schema inferred and "
            + "learned per topic (new files start from it), widening int to long to double and "
            + "adding a column per new key. A field whose type conflicts between records (a number "
            + "here, an object there): 'string' stores it as text (JSON text for non-strings), "
            + "'fail' makes the record that brings the conflict (with its file, or, when it does "
            + "not fit its file, with what the topic learned) a bad record (dead letter queue, or "
            + "a failed task). An object with an empty key (\"\") cannot be a struct and counts "
            + "as such a conflict.",
        GROUP_CONTENT, ++order, Width.SHORT, "Schemaless type conflicts");
    def.define(BEHAVIOR_ON_NULL_VALUES_CONFIG, Type.STRING, "fail",
        ConfigDef.CaseInsensitiveValidString.in("fail", "ignore", "write"), Importance.MEDIUM,
        "Records with a null value (tombstones): fail (an error: the dead letter queue takes them "
            + "when errors.tolerance=all, else the task fails), ignore (skip them), write (a row "
            + "with only the Kafka metadata, key and headers).",
        GROUP_CONTENT, ++order, Width.SHORT, "Behavior on null values");
  }

  private static void defineDelivery(ConfigDef def) {
    int order = 0;
    def.define(BUFFER_MAX_BYTES_CONFIG, Type.LONG, 128 * MIB, Range.atLeast(MIB),
        Importance.HIGH,
        "The heap a task may use for its open files (encoded pages, row groups not yet written, "
            + "the stores' upload buffers). Reaching it writes the largest files' row groups "
            + "early, "
            + "then commits the Kafka partitions holding the most. Keep it well below the worker "
            + "heap divided by the tasks per worker.",
        GROUP_DELIVERY, ++order, Width.SHORT, "Buffer budget");
    def.define(COMMIT_TIMEOUT_MS_CONFIG, Type.LONG, 300_000L, Range.atLeast(1000),
        Importance.LOW,
        "Exactly-once fencing: a task stops committing a set of files once half this time has "
            + "passed since it announced the commit (and rolls it back), and a new owner of the "
            + "Kafka partition rolls back an unfinished commit it has seen for this long. Keep "
            + "half of it well above the slowest commit (every file of one Kafka partition made "
            + "visible: a thousand S3 uploads completed one after the other take about a minute), "
            + "else commits never finish; it is how long a partition waits after a crash in the "
            + "middle of a commit. A commit slower than a quarter of it is logged. See "
            + "docs/exactly-once.md.",
        GROUP_DELIVERY, ++order, Width.SHORT, "Commit timeout");
    def.define(ORPHAN_MIN_AGE_MS_CONFIG, Type.LONG, 3_600_000L, Range.atLeast(0),
        Importance.LOW,
        "Temporary files and unfinished uploads of crashed writers are removed when a task first "
            + "writes to a topic, if they are older than this. Files stay open until their commit, "
            + "so this must be longer than the longest a file stays open (bound that with "
            + "rotate.schedule.interval.ms); a file removed under a live writer only makes that "
            + "writer roll back and rewrite its commit.",
        GROUP_DELIVERY, ++order, Width.SHORT, "Orphan minimum age");
  }

  // ---------------------------------------------------------------------------------------------
  // Cross-field checks

  /**
   * Keys given as {@code null} (a JSON null in the REST call): ConfigDef accepts them for keys
   * without a validator, and the getters would then fail with a NullPointerException when the
   * connector or a task starts.
   */
  static Map<String, List<String>> nullErrors(Map<String, ?> props) {
    Map<String, List<String>> errors = new LinkedHashMap<>();
    props.forEach((key, value) -> {
      if (value == null && CONFIG_DEF.configKeys().containsKey(key)) {
        add(errors, key, "is null; leave it out for its default");
      }
    });
    return errors;
  }

  /**
   * Problems that involve more than one key, by the key to report them on. Empty when the
   * configuration is consistent.
   */
  Map<String, List<String>> crossFieldErrors() {
    return crossFieldErrors(this::get);
  }

  /**
   * The cross-field problems of parsed values, looked up by key ({@code null} for a key whose
   * own value is invalid: checks that need it are skipped, its own error says enough).
   */
  static Map<String, List<String>> crossFieldErrors(Function<String, Object> parsed) {
    Map<String, List<String>> errors = new LinkedHashMap<>();
    String partitioner = text(parsed, PARTITIONER_CONFIG);
    if (partitioner != null) {
      switch (partitioner.toLowerCase(Locale.ROOT)) {
        case PARTITIONER_KAFKA:
          break;
        case PARTITIONER_FIELD:
          checkFieldList(list(parsed, PARTITION_FIELDS_CONFIG), errors);
          break;
        case PARTITIONER_HEADER:
          if (nonBlank(list(parsed, PARTITION_HEADERS_CONFIG)).isEmpty()) {
            add(errors, PARTITION_HEADERS_CONFIG,
                "partitioner.class=header needs at least one header");
          }
          break;
        case PARTITIONER_TIME:
          String format = text(parsed, PATH_FORMAT_CONFIG);
          String zone = text(parsed, TIMEZONE_CONFIG);
          String locale = text(parsed, LOCALE_CONFIG);
          if (format != null) {
            // An invalid timezone or locale has its own error; the pattern's shape (name=value
            // segments) does not depend on them, so it is still checked, with UTC and ROOT.
            try {
              TimePartitioner.parse(format, zone == null ? ZoneOffset.UTC : ZoneId.of(zone),
                  locale == null ? Locale.ROOT : Locale.forLanguageTag(locale));
            } catch (IllegalArgumentException | DateTimeException e) {
              // The whole pattern too: the worker's answer to a PUT shows the message alone.
              add(errors, PATH_FORMAT_CONFIG, PATH_FORMAT_CONFIG + " '" + format + "': "
                  + e.getMessage());
            }
          }
          break;
        default:
          String problem = Partitioners.checkCustomClass(partitioner);
          if (problem != null) {
            add(errors, PARTITIONER_CONFIG, problem);
          }
      }
    }
    Object rotateInterval = parsed.apply(ROTATE_INTERVAL_MS_CONFIG);
    boolean usesRecordTime = PARTITIONER_TIME.equalsIgnoreCase(partitioner)
        || (rotateInterval instanceof Long ms && ms > 0);
    if (usesRecordTime && "field".equalsIgnoreCase(text(parsed, TIMESTAMP_EXTRACTOR_CONFIG))) {
      String field = text(parsed, TIMESTAMP_FIELD_CONFIG);
      try {
        RecordFields.FieldPath.parse(field == null ? "" : field);
      } catch (IllegalArgumentException e) {
        add(errors, TIMESTAMP_FIELD_CONFIG, "timestamp.extractor=field needs a field: "
            + e.getMessage());
      }
    }
    for (String key : List.of(ROTATE_INTERVAL_MS_CONFIG, ROTATE_SCHEDULE_INTERVAL_MS_CONFIG)) {
      if (Long.valueOf(0).equals(parsed.apply(key))) {
        add(errors, key, "must be positive, or -1 to disable it, not 0");
      }
    }
    for (String column : list(parsed, PARQUET_BLOOM_FILTER_COLUMNS_CONFIG)) {
      if (column.isBlank()) {
        add(errors, PARQUET_BLOOM_FILTER_COLUMNS_CONFIG, "has an empty column name");
      }
    }
    String codec = text(parsed, PARQUET_CODEC_CONFIG);
    if (parsed.apply(PARQUET_CODEC_LEVEL_CONFIG) instanceof Integer level && codec != null) {
      String problem = codecLevelProblem(codec, level);
      if (problem != null) {
        add(errors, PARQUET_CODEC_LEVEL_CONFIG, problem);
      }
    }
    StoreConfigDef.problems(parsed).forEach((key, messages) ->
        messages.forEach(message -> add(errors, key, message)));
    return errors;
  }

  private static String text(Function<String, Object> parsed, String key) {
    Object value = parsed.apply(key);
    return value == null ? null : value.toString().trim();
  }

  @SuppressWarnings("unchecked")
  private static List<String> list(Function<String, Object> parsed, String key) {
    Object value = parsed.apply(key);
    return value instanceof List<?> l ? (List<String>) l : List.of();
  }

  private static String codecLevelProblem(String codec, int level) {
    switch (codec.toLowerCase(Locale.ROOT)) {
      case "zstd":
        return level < 1 || level > 22 ? "zstd levels are 1 to 22, not " + level : null;
      case "gzip":
        return level < 1 || level > 9 ? "gzip levels are 1 to 9, not " + level : null;
      case "brotli":
        return level < 0 || level > 11 ? "brotli levels are 0 to 11, not " + level : null;
      default:
        return codec + " has no level; leave parquet.codec.level empty (not " + level + ")";
    }
  }

  private static void checkFieldList(List<String> configured, Map<String, List<String>> errors) {
    List<String> fields = nonBlank(configured);
    if (fields.isEmpty()) {
      add(errors, PARTITION_FIELDS_CONFIG, "partitioner.class=field needs at least one field");
    }
    for (String field : fields) {
      try {
        RecordFields.FieldPath.parse(field);
      } catch (IllegalArgumentException e) {
        add(errors, PARTITION_FIELDS_CONFIG, e.getMessage());
      }
    }
  }

  private static List<String> nonBlank(List<String> values) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      if (!v.isBlank()) {
        out.add(v.trim());
      }
    }
    return out;
  }

  /**
   * Reports a message on a key. A message that does not name the key gets it as a prefix: the
   * worker's answer to a refused PUT lists the messages without their keys.
   */
  private static void add(Map<String, List<String>> errors, String key, String message) {
    errors.computeIfAbsent(key, k -> new ArrayList<>())
        .add(message.contains(key) ? message : key + ": " + message);
  }

  // ---------------------------------------------------------------------------------------------
  // Typed getters

  public String storeUrl() {
    return getString(STORE_URL_CONFIG).trim();
  }

  public String topicsDir() {
    return trimSlashes(getString(TOPICS_DIR_CONFIG));
  }

  /** The connector's name (Connect passes it to every task), for the marker prefix and logs. */
  public String connectorName() {
    // originals(), not originalsStrings(): the latter throws a ClassCastException for any key
    // given as null.
    Object name = originals().get(CONNECTOR_NAME_CONFIG);
    return name instanceof String s && !s.isBlank() ? s : "parquet-sink";
  }

  /**
   * The settings the store is opened with: every storage key with its parsed value (secrets stay
   * {@link Password}s) and the {@code hadoop.config.*} pass-through keys.
   */
  public Map<String, Object> storeSettings() {
    Map<String, Object> settings = new LinkedHashMap<>();
    for (String key : CONFIG_DEF.names()) {
      String group = CONFIG_DEF.configKeys().get(key).group;
      if (StoreConfigDef.GROUPS.contains(group) && get(key) != null) {
        settings.put(key, get(key));
      }
    }
    originals().forEach((key, value) -> {
      if (key.startsWith(HADOOP_CONFIG_PREFIX) && value instanceof String) {
        settings.put(key, value);
      }
    });
    return settings;
  }

  public String partitioner() {
    return getString(PARTITIONER_CONFIG).trim();
  }

  public List<String> partitionFields() {
    return nonBlank(getList(PARTITION_FIELDS_CONFIG));
  }

  public List<String> partitionHeaders() {
    return nonBlank(getList(PARTITION_HEADERS_CONFIG));
  }

  public String pathFormat() {
    return getString(PATH_FORMAT_CONFIG);
  }

  public ZoneId timezone() {
    return ZoneId.of(getString(TIMEZONE_CONFIG).trim());
  }

  public Locale locale() {
    return Locale.forLanguageTag(getString(LOCALE_CONFIG).trim());
  }

  public RecordTime.Source timestampSource() {
    return RecordTime.Source.parse(getString(TIMESTAMP_EXTRACTOR_CONFIG));
  }

  public String timestampField() {
    return getString(TIMESTAMP_FIELD_CONFIG).trim();
  }

  public long flushSize() {
    return getLong(FLUSH_SIZE_CONFIG);
  }

  public long fileMaxBytes() {
    return getLong(FILE_MAX_BYTES_CONFIG);
  }

  /** Milliseconds of record time per commit, or -1. */
  public long rotateIntervalMs() {
    return getLong(ROTATE_INTERVAL_MS_CONFIG);
  }

  /** Milliseconds of wall-clock time between scheduled commits, or -1. */
  public long rotateScheduleIntervalMs() {
    return getLong(ROTATE_SCHEDULE_INTERVAL_MS_CONFIG);
  }

  public CompressionCodec codec() {
    String codec = getString(PARQUET_CODEC_CONFIG).trim().toUpperCase(Locale.ROOT);
    return CompressionCodec.valueOf(codec);
  }

  /** The codec level, {@link Codecs#DEFAULT_LEVEL} for the codec's default. */
  public int codecLevel() {
    Integer level = getInt(PARQUET_CODEC_LEVEL_CONFIG);
    return level == null ? Codecs.DEFAULT_LEVEL : level;
  }

  /** {@code v1} or {@code v2}. */
  public String pageVersion() {
    return getString(PARQUET_PAGE_VERSION_CONFIG).trim().toLowerCase(Locale.ROOT);
  }

  /** {@code adaptive} or {@code compatible}. */
  public String encodingPolicy() {
    return getString(PARQUET_ENCODING_POLICY_CONFIG).trim().toLowerCase(Locale.ROOT);
  }

  public long rowGroupBytes() {
    return getLong(PARQUET_ROW_GROUP_BYTES_CONFIG);
  }

  public int pageBytes() {
    return getInt(PARQUET_PAGE_BYTES_CONFIG);
  }

  /** The page row cap, or 0 for none. */
  public int pageRows() {
    return getInt(PARQUET_PAGE_ROWS_CONFIG);
  }

  public int dictionaryBytes() {
    return getInt(PARQUET_DICTIONARY_BYTES_CONFIG);
  }

  public List<String> bloomFilterColumns() {
    return nonBlank(getList(PARQUET_BLOOM_FILTER_COLUMNS_CONFIG));
  }

  public double bloomFilterFpp() {
    return getDouble(PARQUET_BLOOM_FILTER_FPP_CONFIG);
  }

  public long bloomFilterNdv() {
    return getLong(PARQUET_BLOOM_FILTER_NDV_CONFIG);
  }

  /** Whether Connect Time columns carry the TIME logical type ({@code parquet.time.type}). */
  public boolean timeLogicalType() {
    return getString(PARQUET_TIME_TYPE_CONFIG).trim().equalsIgnoreCase("time-millis");
  }

  /** {@code millis} or {@code micros}. */
  public String timestampUnit() {
    return getString(PARQUET_TIMESTAMP_UNIT_CONFIG).trim().toLowerCase(Locale.ROOT);
  }

  public boolean storeKafkaMetadata() {
    return getBoolean(STORE_KAFKA_METADATA_CONFIG);
  }

  public boolean storeKafkaKey() {
    return getBoolean(STORE_KAFKA_KEY_CONFIG);
  }

  public boolean storeKafkaHeaders() {
    return getBoolean(STORE_KAFKA_HEADERS_CONFIG);
  }

  public SchemaCompatibility schemaCompatibility() {
    return SchemaCompatibility.parse(getString(SCHEMA_COMPATIBILITY_CONFIG));
  }

  /** Whether a type conflict of schemaless values becomes a text column (else a bad record). */
  public boolean schemalessConflictsAsText() {
    return getString(SCHEMALESS_TYPE_CONFLICT_CONFIG).trim().equalsIgnoreCase("string");
  }

  public NullValueBehavior nullValueBehavior() {
    return NullValueBehavior.parse(getString(BEHAVIOR_ON_NULL_VALUES_CONFIG));
  }

  /** Whether Connect's {@code errors.tolerance} is {@code all} (bad records are skipped). */
  public boolean toleratesErrors() {
    Object tolerance = originals().get(ERRORS_TOLERANCE_CONFIG); // may be null, see connectorName
    return tolerance instanceof String s && s.trim().equalsIgnoreCase("all");
  }

  public long bufferMaxBytes() {
    return getLong(BUFFER_MAX_BYTES_CONFIG);
  }

  public long commitTimeoutMs() {
    return getLong(COMMIT_TIMEOUT_MS_CONFIG);
  }

  public long orphanMinAgeMs() {
    return getLong(ORPHAN_MIN_AGE_MS_CONFIG);
  }

  static String trimSlashes(String path) {
    String p = path.trim();
    while (p.startsWith("/")) {
      p = p.substring(1);
    }
    while (p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p;
  }

  // ---------------------------------------------------------------------------------------------
  // Validators and recommenders

  /**
   * A URL the stores can open, without credentials: {@link StoreUrls#problem}, shared with the
   * source connector. The message never repeats a value that may hold a secret.
   */
  static final class StoreUrlValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String problem = StoreUrls.problem(value);
      if (problem != null) {
        throw new ConfigException(problem);
      }
    }

    @Override
    public String toString() {
      return "file:///path, hdfs://namenode:port/path, s3://bucket/prefix";
    }
  }

  /** A relative key prefix the stores accept. */
  static final class PrefixValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String prefix = trimSlashes(value == null ? "" : (String) value);
      if (prefix.isEmpty()) {
        throw new ConfigException(name, value, "must name a directory");
      }
      try {
        StoreKeys.checkPrefix(prefix);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
      for (String segment : prefix.split("/")) {
        if (segment.startsWith("_") || segment.startsWith(".")) {
          throw new ConfigException(name, value, "a segment starting with '_' or '.' hides the "
              + "files from query engines");
        }
      }
    }

    @Override
    public String toString() {
      return "a relative path";
    }
  }

  static final class ZoneValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        ZoneId.of(((String) value).trim());
      } catch (DateTimeException | NullPointerException e) {
        throw new ConfigException(name, value, "not a time zone id (UTC, Europe/Paris, +02:00)");
      }
    }

    @Override
    public String toString() {
      return "a java.time zone id";
    }
  }

  static final class LocaleValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String tag = value == null ? "" : ((String) value).trim();
      if (tag.isEmpty() || Locale.forLanguageTag(tag).toLanguageTag().equals("und")) {
        throw new ConfigException(name, value, "not a BCP 47 language tag (en, fr-FR)");
      }
    }

    @Override
    public String toString() {
      return "a BCP 47 language tag";
    }
  }

  private interface Recommender extends ConfigDef.Recommender {
    @Override
    default List<Object> validValues(String name, Map<String, Object> parsedConfig) {
      return List.of();
    }
  }

  /** Lists the built-in partitioners. */
  static final class PartitionerRecommender implements Recommender {
    @Override
    public List<Object> validValues(String name, Map<String, Object> parsedConfig) {
      return Arrays.asList(PARTITIONER_KAFKA, PARTITIONER_FIELD, PARTITIONER_TIME,
          PARTITIONER_HEADER);
    }

    @Override
    public boolean visible(String name, Map<String, Object> parsedConfig) {
      return true;
    }
  }

  /** Visible when {@code key} has the value {@code expected}. */
  static final class VisibleFor implements Recommender {
    private final String key;
    private final String expected;

    VisibleFor(String key, String expected) {
      this.key = key;
      this.expected = expected;
    }

    @Override
    public boolean visible(String name, Map<String, Object> parsedConfig) {
      Object value = parsedConfig.get(key);
      return value != null && expected.equalsIgnoreCase(value.toString().trim());
    }
  }

}
