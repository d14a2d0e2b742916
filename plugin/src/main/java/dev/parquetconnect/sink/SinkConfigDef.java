package dev.parquetconnect.sink;

import static dev.parquetconnect.sink.ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.BUFFER_MAX_BYTES_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.CODECS;
import static dev.parquetconnect.sink.ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.FILE_MAX_BYTES_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.FLUSH_SIZE_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_BLOOM_FILTER_COLUMNS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_BLOOM_FILTER_FPP_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_BLOOM_FILTER_NDV_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_CODEC_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_CODEC_LEVEL_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_DICTIONARY_BYTES_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_ENCODING_POLICY_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_PAGE_BYTES_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_PAGE_VERSION_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_ROW_GROUP_BYTES_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_TIMESTAMP_UNIT_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_TIME_TYPE_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.ROTATE_INTERVAL_MS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.SCHEMALESS_TYPE_CONFLICT_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.SCHEMA_COMPATIBILITY_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.STORE_KAFKA_METADATA_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.STORE_URL_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.TOPICS_DIR_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.TOPICS_DIR_DEFAULT;

import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.config.StoreUrlValidator;
import dev.parquetconnect.connect.json.JsonInputConfig;
import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.storage.StoreKeys;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The sink's keys: type, default, validator, documentation, group and display of each, in the order
 * {@code docs/configuration.md} shows them (it is generated from this definition). The store keys
 * come from {@link StoreConfigDef}, shared with the source.
 */
final class SinkConfigDef {
  private static final String GROUP_STORE = "Storage";
  private static final String GROUP_ROTATION = "Rotation";
  private static final String GROUP_PARQUET = "Parquet";
  private static final String GROUP_CONTENT = "Record content";
  private static final String GROUP_DELIVERY = "Delivery and memory";

  private static final long MIB = 1024L * 1024;

  private SinkConfigDef() {}

  /** A new definition of every key. */
  static ConfigDef build() {
    ConfigDef def = new ConfigDef();
    defineStorage(def);
    SinkPartitioningKeys.define(def);
    defineRotation(def);
    defineParquet(def);
    defineContent(def);
    defineDelivery(def);
    JsonInputConfig.define(def);
    StoreConfigDef.define(def);
    IcebergConfig.define(def);
    return def;
  }

  private static void defineStorage(ConfigDef def) {
    int order = 0;
    def.define(
        STORE_URL_CONFIG,
        Type.STRING,
        ConfigDef.NO_DEFAULT_VALUE,
        new StoreUrlValidator("file:///path, hdfs://namenode:port/path, s3://bucket/prefix"),
        Importance.HIGH,
        "Where files go: file:///absolute/path (local or mounted file system), "
            + "hdfs://namenode:8020/path (and any other Hadoop scheme whose jars are on the plugin "
            + "path) or s3://bucket/prefix (AWS S3 and S3-compatible stores, see the S3 keys). "
            + "Credentials never go in the URL.",
        GROUP_STORE,
        ++order,
        Width.LONG,
        "Store URL");
    def.define(
        TOPICS_DIR_CONFIG,
        Type.STRING,
        TOPICS_DIR_DEFAULT,
        new TopicsDirValidator(),
        Importance.HIGH,
        "The directory under store.url that holds one directory per topic "
            + "(<topics.dir>/<topic>/<partition path>/<file>) and the commit markers "
            + "(<topics.dir>/_markers/<connector name>/...). A relative path without '.' or '..' "
            + "segments.",
        GROUP_STORE,
        ++order,
        Width.MEDIUM,
        "Topics directory");
  }

  private static void defineRotation(ConfigDef def) {
    int order = 0;
    def.define(
        FLUSH_SIZE_CONFIG,
        Type.LONG,
        100_000L,
        Range.atLeast(1),
        Importance.HIGH,
        "Records of one Kafka partition per commit: when this many have been read since the last "
            + "commit (written, skipped tombstones and dead-lettered ones alike), that partition's "
            + "files are committed. With a field or time partitioner the records of a commit are "
            + "spread over several files.",
        GROUP_ROTATION,
        ++order,
        Width.SHORT,
        "Flush size");
    def.define(
        FILE_MAX_BYTES_CONFIG,
        Type.LONG,
        256 * MIB,
        Range.atLeast(64 * 1024),
        Importance.MEDIUM,
        "A file reaching this many bytes (written plus still buffered) commits its Kafka "
            + "partition's files.",
        GROUP_ROTATION,
        ++order,
        Width.SHORT,
        "Maximum file size");
    def.define(
        ROTATE_INTERVAL_MS_CONFIG,
        Type.LONG,
        -1L,
        Range.atLeast(-1),
        Importance.MEDIUM,
        "Commit a Kafka partition's files when a record's time (timestamp.extractor) is this many "
            + "milliseconds past the time of the first record since the last commit. Depends only "
            + "on the records (unless the extractor is wallclock); checked when a record arrives. "
            + "-1 disables it.",
        GROUP_ROTATION,
        ++order,
        Width.SHORT,
        "Rotate interval (record time)");
    def.define(
        ROTATE_SCHEDULE_INTERVAL_MS_CONFIG,
        Type.LONG,
        -1L,
        Range.atLeast(-1),
        Importance.MEDIUM,
        "Commit open files on wall-clock boundaries: each multiple of this interval since the "
            + "epoch (UTC) commits the files opened before it, even when no record arrives, so a "
            + "quiet partition's data becomes visible within about one interval. -1 disables it.",
        GROUP_ROTATION,
        ++order,
        Width.SHORT,
        "Rotate schedule interval (wall clock)");
  }

  private static void defineParquet(ConfigDef def) {
    int order = 0;
    def.define(
        PARQUET_CODEC_CONFIG,
        Type.STRING,
        "zstd",
        ConfigDef.CaseInsensitiveValidString.in(CODECS.toArray(String[]::new)),
        Importance.MEDIUM,
        "The compression codec of every column: " + String.join(", ", CODECS) + ".",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Codec");
    def.define(
        PARQUET_CODEC_LEVEL_CONFIG,
        Type.INT,
        null,
        Importance.LOW,
        "The codec's level (zstd 1-22, gzip 1-9, brotli 0-11); empty for the codec's default "
            + "(zstd "
            + Codecs.ZSTD_DEFAULT_LEVEL
            + ", gzip "
            + Codecs.GZIP_DEFAULT_LEVEL
            + ", brotli "
            + Codecs.BROTLI_DEFAULT_LEVEL
            + ").",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Codec level");
    def.define(
        PARQUET_PAGE_VERSION_CONFIG,
        Type.STRING,
        "v1",
        ConfigDef.CaseInsensitiveValidString.in("v1", "v2"),
        Importance.LOW,
        "Data page format: v1 (read by every engine) or v2 (levels uncompressed, faster to skip).",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Page version");
    def.define(
        PARQUET_ENCODING_POLICY_CONFIG,
        Type.STRING,
        "adaptive",
        ConfigDef.CaseInsensitiveValidString.in("adaptive", "extended", "compatible"),
        Importance.LOW,
        "adaptive: dictionary first, then per column the smallest of the delta and plain "
            + "encodings (read by Spark 3.3+, Trino, Arrow C++, DuckDB, parquet-java); extended: "
            + "also byte-stream-split for floats, which Spark before 4.1 and Trino cannot read; "
            + "compatible: dictionary and plain only, for readers older than the delta encodings "
            + "(see docs/compatibility.md).",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Encoding policy");
    def.define(
        PARQUET_ROW_GROUP_BYTES_CONFIG,
        Type.LONG,
        64 * MIB,
        Range.atLeast(64 * 1024),
        Importance.MEDIUM,
        "A row group is written out once its buffered bytes reach this target (or earlier when "
            + "buffer.max.bytes is reached).",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Row group bytes");
    def.define(
        PARQUET_PAGE_BYTES_CONFIG,
        Type.INT,
        (int) MIB,
        Range.between(1024, 64 * MIB),
        Importance.LOW,
        "The target size of a data page.",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Page bytes");
    def.define(
        PARQUET_PAGE_ROWS_CONFIG,
        Type.INT,
        0,
        Range.atLeast(0),
        Importance.LOW,
        "The most rows a data page holds; 0 cuts pages by parquet.page.bytes only (the smallest "
            + "files). A cap such as 20000 (parquet-java's default) gives narrow sorted columns "
            + "(offsets, ids, timestamps) more pages, so engines that skip pages through the page "
            + "index skip in finer steps, for 0.5-3% larger files.",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Page rows");
    def.define(
        PARQUET_DICTIONARY_BYTES_CONFIG,
        Type.INT,
        (int) MIB,
        Range.between(1024, 64 * MIB),
        Importance.LOW,
        "A column's dictionary passing this size makes the column fall back to another encoding.",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Dictionary bytes");
    def.define(
        PARQUET_BLOOM_FILTER_COLUMNS_CONFIG,
        Type.LIST,
        "",
        Importance.LOW,
        "Columns (dotted paths, e.g. customer.id) that get a split-block bloom filter per row "
            + "group.",
        GROUP_PARQUET,
        ++order,
        Width.LONG,
        "Bloom filter columns");
    def.define(
        PARQUET_BLOOM_FILTER_FPP_CONFIG,
        Type.DOUBLE,
        0.01,
        Range.between(1e-6, 0.5),
        Importance.LOW,
        "The false positive probability the bloom filters are sized for.",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Bloom filter FPP");
    def.define(
        PARQUET_BLOOM_FILTER_NDV_CONFIG,
        Type.LONG,
        100_000L,
        Range.atLeast(1),
        Importance.LOW,
        "The distinct values per row group the bloom filters are sized for.",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Bloom filter distinct values");
    def.define(
        PARQUET_TIMESTAMP_UNIT_CONFIG,
        Type.STRING,
        "millis",
        ConfigDef.CaseInsensitiveValidString.in("millis", "micros"),
        Importance.LOW,
        "The unit of the TIMESTAMP columns of Connect Timestamp fields: millis (Connect's own "
            + "precision) or micros (what Spark and older Hive expect). __kafka_timestamp is "
            + "always millis.",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Timestamp unit");
    def.define(
        PARQUET_TIME_TYPE_CONFIG,
        Type.STRING,
        "int32",
        ConfigDef.CaseInsensitiveValidString.in("int32", "time-millis"),
        Importance.LOW,
        "How Connect Time fields are stored: int32 (plain INT32 milliseconds of the day, read by "
            + "every engine, Spark included) or time-millis (INT32 annotated TIME(MILLIS, UTC), "
            + "which Spark 3.x and 4.0 refuse to read at all). The source replays both as "
            + "Connect Time.",
        GROUP_PARQUET,
        ++order,
        Width.SHORT,
        "Time type");
    ColumnTuning.define(def, GROUP_PARQUET, order);
  }

  private static void defineContent(ConfigDef def) {
    int order = 0;
    def.define(
        STORE_KAFKA_METADATA_CONFIG,
        Type.BOOLEAN,
        true,
        Importance.MEDIUM,
        "Add the columns __kafka_topic, __kafka_partition, __kafka_offset and __kafka_timestamp.",
        GROUP_CONTENT,
        ++order,
        Width.SHORT,
        "Store Kafka metadata");
    def.define(
        STORE_KAFKA_KEY_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.MEDIUM,
        "Add the record key as the column __kafka_key, so the source connector can restore it.",
        GROUP_CONTENT,
        ++order,
        Width.SHORT,
        "Store Kafka key");
    def.define(
        STORE_KAFKA_HEADERS_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.MEDIUM,
        "Add the record headers as the column __kafka_headers (a list of key/value pairs, in "
            + "order, repeats kept).",
        GROUP_CONTENT,
        ++order,
        Width.SHORT,
        "Store Kafka headers");
    def.define(
        SCHEMA_COMPATIBILITY_CONFIG,
        Type.STRING,
        "NONE",
        ConfigDef.CaseInsensitiveValidString.in("NONE", "BACKWARD", "FORWARD", "FULL"),
        Importance.MEDIUM,
        "When a record's value schema differs from its file's: NONE starts a new file (a commit "
            + "of the Kafka partition); BACKWARD and FULL keep the newest schema in a file, FORWARD "
            + "the oldest, and project records of other versions to it where they can, so "
            + "interleaved schema versions share a file; new files start from the schema the task "
            + "learned for the topic (the newest, or oldest, version seen), in every directory. "
            + "Docs and other converter metadata in schema parameters do not stop a projection; a "
            + "decimal's scale and precision must match, and an enum's symbols must be among the "
            + "file's (BACKWARD and FULL take versions that add symbols, FORWARD ones that remove "
            + "them). NONE compares whole schemas, docs and versions included.",
        GROUP_CONTENT,
        ++order,
        Width.SHORT,
        "Schema compatibility");
    def.define(
        SCHEMALESS_TYPE_CONFLICT_CONFIG,
        Type.STRING,
        "string",
        ConfigDef.CaseInsensitiveValidString.in("string", "fail"),
        Importance.MEDIUM,
        "Schemaless values (JsonConverter with schemas.enable=false) get a schema inferred and "
            + "learned per topic (new files start from it), widening int to long to double and "
            + "adding a column per new key. A field whose type conflicts between records (a number "
            + "here, an object there): 'string' stores it as text (JSON text for non-strings), "
            + "'fail' makes the record that brings the conflict (with its file, or, when it does "
            + "not fit its file, with what the topic learned) a bad record (dead letter queue, or "
            + "a failed task). An object with an empty key (\"\") cannot be a struct and counts "
            + "as such a conflict.",
        GROUP_CONTENT,
        ++order,
        Width.SHORT,
        "Schemaless type conflicts");
    def.define(
        BEHAVIOR_ON_NULL_VALUES_CONFIG,
        Type.STRING,
        "fail",
        ConfigDef.CaseInsensitiveValidString.in("fail", "ignore", "write"),
        Importance.MEDIUM,
        "Records with a null value (tombstones): fail (an error: the dead letter queue takes them "
            + "when errors.tolerance=all, else the task fails), ignore (skip them), write (a row "
            + "with only the Kafka metadata, key and headers).",
        GROUP_CONTENT,
        ++order,
        Width.SHORT,
        "Behavior on null values");
  }

  private static void defineDelivery(ConfigDef def) {
    int order = 0;
    def.define(
        BUFFER_MAX_BYTES_CONFIG,
        Type.LONG,
        128 * MIB,
        Range.atLeast(MIB),
        Importance.HIGH,
        "The heap a task may use for its open files (encoded pages, row groups not yet written, "
            + "the stores' upload buffers). Reaching it writes the largest files' row groups "
            + "early, "
            + "then commits the Kafka partitions holding the most. Keep it well below the worker "
            + "heap divided by the tasks per worker.",
        GROUP_DELIVERY,
        ++order,
        Width.SHORT,
        "Buffer budget");
    def.define(
        COMMIT_TIMEOUT_MS_CONFIG,
        Type.LONG,
        300_000L,
        Range.atLeast(1000),
        Importance.LOW,
        "Exactly-once fencing: a task stops committing a set of files once half this time has "
            + "passed since it announced the commit (and rolls it back), and a new owner of the "
            + "Kafka partition rolls back an unfinished commit it has seen for this long. Keep "
            + "half of it well above the slowest commit (every file of one Kafka partition made "
            + "visible: a thousand S3 uploads completed one after the other take about a minute), "
            + "else commits never finish; it is how long a partition waits after a crash in the "
            + "middle of a commit. A commit slower than a quarter of it is logged. See "
            + "docs/exactly-once.md.",
        GROUP_DELIVERY,
        ++order,
        Width.SHORT,
        "Commit timeout");
    def.define(
        ORPHAN_MIN_AGE_MS_CONFIG,
        Type.LONG,
        3_600_000L,
        Range.atLeast(0),
        Importance.LOW,
        "Temporary files and unfinished uploads of crashed writers are removed when a task first "
            + "writes to a topic, if they are older than this. Files stay open until their commit, "
            + "so this must be longer than the longest a file stays open (bound that with "
            + "rotate.schedule.interval.ms); a file removed under a live writer only makes that "
            + "writer roll back and rewrite its commit.",
        GROUP_DELIVERY,
        ++order,
        Width.SHORT,
        "Orphan minimum age");
  }

  /**
   * A relative key prefix the stores accept, for the directory the sink writes under: not empty and
   * without segments that hide files from query engines (the source, which only reads, accepts
   * more: {@code SourceConfigDef}).
   */
  static final class TopicsDirValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      String prefix = ParquetSinkConfig.trimSlashes(value == null ? "" : (String) value);
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
          throw new ConfigException(
              name,
              value,
              "a segment starting with '_' or '.' hides the " + "files from query engines");
        }
      }
    }

    @Override
    public String toString() {
      return "a relative path";
    }
  }
}
