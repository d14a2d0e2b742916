package dev.parquetconnect.sink;

import static dev.parquetconnect.sink.ParquetSinkConfig.LOCALE_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_BLOOM_FILTER_COLUMNS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_CODEC_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARQUET_CODEC_LEVEL_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITIONER_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITIONER_FIELD;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITIONER_HEADER;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITIONER_KAFKA;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITIONER_TIME;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITION_DURATION_MS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITION_FIELDS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PARTITION_HEADERS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PATH_FORMAT_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.PATH_FORMAT_DEFAULT;
import static dev.parquetconnect.sink.ParquetSinkConfig.ROTATE_INTERVAL_MS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.TIMESTAMP_FIELD_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.TIMEZONE_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.nonBlank;

import dev.parquetconnect.config.ConfigProblem;
import dev.parquetconnect.config.StoreConfigDef;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.sink.partition.PartitionerPresets;
import dev.parquetconnect.sink.partition.Partitioners;
import dev.parquetconnect.sink.partition.RecordFields;
import dev.parquetconnect.sink.partition.TimePartitioner;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The sink's rules between keys, which {@code ParquetSinkConnector.validate} reports on the key at
 * fault and the {@link ParquetSinkConfig} constructor enforces. A rule reads a key whose own value
 * is invalid as absent and decides for itself whether it can still say something (a
 * time-partitioner pattern is checked with UTC when the time zone is invalid), so its problems name
 * no involved keys; the store rules ({@link StoreConfigDef#problems}), shared with the source, do.
 */
final class SinkConfigRules {
  private SinkConfigRules() {}

  /**
   * The problems of parsed values, looked up by key ({@code null} for a key whose own value is
   * invalid: checks that need it are skipped, or run without it, so that every problem that does
   * not depend on it is still reported).
   */
  static List<ConfigProblem> problems(Function<String, Object> parsed) {
    List<ConfigProblem> errors = new ArrayList<>();
    String configuredPartitioner = text(parsed, PARTITIONER_CONFIG);
    String partitioner =
        configuredPartitioner == null ? null : PartitionerPresets.resolve(configuredPartitioner);
    if (partitioner != null) {
      switch (partitioner.toLowerCase(Locale.ROOT)) {
        case PARTITIONER_KAFKA:
          break;
        case PARTITIONER_FIELD:
          checkFieldList(list(parsed, PARTITION_FIELDS_CONFIG), errors);
          break;
        case PARTITIONER_HEADER:
          if (nonBlank(list(parsed, PARTITION_HEADERS_CONFIG)).isEmpty()) {
            add(
                errors,
                PARTITION_HEADERS_CONFIG,
                "partitioner.class=header needs at least one header");
          }
          break;
        case PARTITIONER_TIME:
          String configuredFormat = text(parsed, PATH_FORMAT_CONFIG);
          String zone = text(parsed, TIMEZONE_CONFIG);
          String locale = text(parsed, LOCALE_CONFIG);
          checkPreset(configuredPartitioner, configuredFormat, parsed, errors);
          String format = null;
          if (configuredFormat != null) {
            try {
              format = PartitionerPresets.pathFormat(configuredPartitioner, configuredFormat);
            } catch (IllegalArgumentException e) {
              add(errors, PATH_FORMAT_CONFIG, e.getMessage());
            }
          }
          if (format != null) {
            // An invalid timezone or locale has its own error; the pattern's shape (name=value
            // segments) does not depend on them, so it is still checked, with UTC and ROOT.
            try {
              TimePartitioner.parse(
                  format,
                  zone == null ? ZoneOffset.UTC : ZoneId.of(zone),
                  locale == null ? Locale.ROOT : Locale.forLanguageTag(locale));
            } catch (IllegalArgumentException | DateTimeException e) {
              // The whole pattern too: the worker's answer to a PUT shows the message alone.
              add(
                  errors,
                  PATH_FORMAT_CONFIG,
                  PATH_FORMAT_CONFIG + " '" + format + "': " + e.getMessage());
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
    boolean usesRecordTime =
        PARTITIONER_TIME.equalsIgnoreCase(partitioner)
            || (rotateInterval instanceof Long ms && ms > 0);
    String extractor = text(parsed, TIMESTAMP_EXTRACTOR_CONFIG);
    if (usesRecordTime
        && extractor != null
        && ("field".equalsIgnoreCase(extractor) || "recordfield".equalsIgnoreCase(extractor))) {
      String field = text(parsed, TIMESTAMP_FIELD_CONFIG);
      try {
        RecordFields.FieldPath.parse(field == null ? "" : field);
      } catch (IllegalArgumentException e) {
        add(
            errors,
            TIMESTAMP_FIELD_CONFIG,
            "timestamp.extractor=field needs a field: " + e.getMessage());
      }
    }
    for (String key :
        List.of(
            ROTATE_INTERVAL_MS_CONFIG,
            ROTATE_SCHEDULE_INTERVAL_MS_CONFIG,
            PARTITION_DURATION_MS_CONFIG)) {
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
    errors.addAll(ColumnTuning.problems(parsed));
    errors.addAll(StoreConfigDef.problems(parsed));
    errors.addAll(IcebergConfig.problems(parsed));
    return errors;
  }

  /** A preset brings its own path format and duration: a different one beside it is refused. */
  private static void checkPreset(
      String partitioner,
      String format,
      Function<String, Object> parsed,
      List<ConfigProblem> errors) {
    if (format != null) {
      String conflict =
          PartitionerPresets.pathFormatConflict(
              partitioner, format, PATH_FORMAT_DEFAULT.equals(format));
      if (conflict != null) {
        add(errors, PATH_FORMAT_CONFIG, conflict);
      }
    }
    if (parsed.apply(PARTITION_DURATION_MS_CONFIG) instanceof Long duration) {
      String conflict = PartitionerPresets.durationConflict(partitioner, duration);
      if (conflict != null) {
        add(errors, PARTITION_DURATION_MS_CONFIG, conflict);
      }
    }
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

  private static void checkFieldList(List<String> configured, List<ConfigProblem> errors) {
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

  /** Reports a message on a key, whatever the errors of the keys the check read. */
  private static void add(List<ConfigProblem> errors, String key, String message) {
    errors.add(ConfigProblem.on(key, message));
  }
}
