package dev.parquetconnect.sink;

import dev.parquetconnect.config.ConnectorStoreSettings;
import dev.parquetconnect.config.ConnectorValidation;
import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.connect.json.JsonInputConfig;
import dev.parquetconnect.connect.json.JsonRecordDecoder;
import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.sink.commit.iceberg.IcebergSettings;
import dev.parquetconnect.sink.partition.PartitionerPresets;
import dev.parquetconnect.sink.partition.RecordTime;
import dev.parquetconnect.storage.DelegatedCredentials;
import dev.parquetconnect.storage.StoreSettings;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The configuration of {@link ParquetSinkConnector} and its tasks, typed: the key names, the
 * getters, and the store settings ({@link #storeSettings()}). Its one {@link ConfigDef} is {@link
 * SinkConfigDef} (every key typed, documented and validated); the rules between keys are {@link
 * SinkConfigRules}, which {@link ParquetSinkConnector#validate} reports per key (so the REST
 * validate call shows them) and the constructor enforces, both through {@link ConnectorValidation}.
 */
public final class ParquetSinkConfig extends AbstractConfig {

  // ---- storage
  public static final String STORE_URL_CONFIG = "store.url";
  public static final String TOPICS_DIR_CONFIG = "topics.dir";
  public static final String TOPICS_DIR_DEFAULT = "topics";

  /** Any Hadoop property, passed to the HDFS store with this prefix removed. */
  public static final String HADOOP_CONFIG_PREFIX = StoreConfigDef.HADOOP_CONFIG_PREFIX;

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
  public static final String PARTITION_DURATION_MS_CONFIG = "partition.duration.ms";
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
    NONE,
    BACKWARD,
    FORWARD,
    FULL;

    static SchemaCompatibility parse(String text) {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
  }

  /** The codecs the writer offers (LZO is never written). */
  static final List<String> CODECS =
      List.of("uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "lz4", "brotli");

  public static final ConfigDef CONFIG_DEF = configDef();

  private final DelegatedCredentials vendedCredentials = new DelegatedCredentials();

  public ParquetSinkConfig(Map<String, String> props) {
    super(CONFIG_DEF, props);
    ConnectorValidation.requireValid(CONFIG_DEF, props, () -> SinkConfigRules.problems(this::get));
  }

  /** The definition of every key; {@code docs/configuration.md} is generated from it. */
  public static ConfigDef configDef() {
    return SinkConfigDef.build();
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
   * The settings the store is opened with ({@link ConnectorStoreSettings}: the store keys with
   * secrets as {@code Secret}s, and the {@code hadoop.config.*} pass-through keys).
   */
  public StoreSettings storeSettings() {
    StoreSettings settings = ConnectorStoreSettings.of(this);
    return icebergTables()
        ? settings.with(StoreSettings.DELEGATED_CREDENTIALS, vendedCredentials)
        : settings;
  }

  /**
   * Where table mode puts the credentials a catalog vends with a table, for the store of {@link
   * #storeSettings()} to sign with ({@code IcebergTables.shareVendedCredentials}).
   */
  public DelegatedCredentials vendedCredentials() {
    return vendedCredentials;
  }

  /**
   * The partitioner: kafka, field, time, header or a class name, with the presets and Confluent's
   * partitioner class names resolved to ours ({@link PartitionerPresets}).
   */
  public String partitioner() {
    return PartitionerPresets.resolve(getString(PARTITIONER_CONFIG));
  }

  public List<String> partitionFields() {
    return nonBlank(getList(PARTITION_FIELDS_CONFIG));
  }

  public List<String> partitionHeaders() {
    return nonBlank(getList(PARTITION_HEADERS_CONFIG));
  }

  /** The java.time path format of the time partitioner, a preset's or a translated one included. */
  public String pathFormat() {
    return PartitionerPresets.pathFormat(
        getString(PARTITIONER_CONFIG), getString(PATH_FORMAT_CONFIG));
  }

  /** What the time partitioner floors record times to, in ms; -1 for no flooring. */
  public long partitionDurationMs() {
    return PartitionerPresets.durationMs(
        getString(PARTITIONER_CONFIG), getLong(PARTITION_DURATION_MS_CONFIG));
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

  /** Whether the files are committed into Iceberg tables ({@code table.format=iceberg}). */
  public boolean icebergTables() {
    return IcebergConfig.isIceberg(this);
  }

  /** The table keys, typed (meaningful when {@link #icebergTables}). */
  public IcebergSettings iceberg() {
    return IcebergConfig.settings(this);
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

  /** The {@code parquet.column.*} settings. */
  ColumnTuning columnTuning() {
    return ColumnTuning.of(this::get);
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

  /**
   * The reader of raw JSON records under {@code input.format=json}; null under {@code connect}
   * (records are taken as the converters made them).
   */
  public JsonRecordDecoder jsonInput() {
    if (!getString(JsonInputConfig.INPUT_FORMAT_CONFIG)
        .trim()
        .equalsIgnoreCase(JsonInputConfig.FORMAT_JSON)) {
      return null;
    }
    return new JsonRecordDecoder(
        getBoolean(JsonInputConfig.INPUT_JSON_SCHEMAS_ENABLE_CONFIG),
        storeKafkaKey() && getBoolean(JsonInputConfig.INPUT_JSON_KEY_CONFIG));
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

  /** The values that are not blank, trimmed. */
  static List<String> nonBlank(List<String> values) {
    List<String> out = new ArrayList<>();
    for (String v : values) {
      if (!v.isBlank()) {
        out.add(v.trim());
      }
    }
    return out;
  }
}
