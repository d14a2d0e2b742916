package dev.parquetconnect.sink.partition;

import java.util.Locale;
import java.util.Map;

/**
 * The names {@code partitioner.class} accepts besides our own four and custom classes: the {@code
 * daily} and {@code hourly} presets, and the class names of Confluent's storage partitioners, so
 * that a configuration written for Confluent's S3 or HDFS sink keeps its meaning here. Each is
 * resolved once, at configuration, into one of our partitioners with its path format and duration;
 * nothing downstream knows a preset was used.
 *
 * <p>Confluent's time partitioners read {@code path.format} as a Joda-Time pattern ({@link
 * JodaPatterns}); ours, and the presets, as a java.time pattern.
 */
public final class PartitionerPresets {
  public static final String DAILY = "daily";
  public static final String HOURLY = "hourly";

  /** Confluent's daily and hourly partitioners floor to these, as does a preset. */
  public static final long DAY_MS = 24L * 60 * 60 * 1000;

  public static final long HOUR_MS = 60L * 60 * 1000;

  static final String DAILY_FORMAT = "'year'=yyyy/'month'=MM/'day'=dd";
  static final String HOURLY_FORMAT = DAILY_FORMAT + "/'hour'=HH";

  private static final String CONFLUENT = "io.confluent.connect.storage.partitioner.";

  /**
   * What a name stands for: our partitioner, and for time, where its format and duration come from.
   */
  private enum Kind {
    KAFKA("kafka"),
    FIELD("field"),
    TIME_JODA("time"),
    DAILY_PRESET("time"),
    HOURLY_PRESET("time");

    final String ours;

    Kind(String ours) {
      this.ours = ours;
    }
  }

  private static final Map<String, Kind> NAMES =
      Map.of(
          DAILY,
          Kind.DAILY_PRESET,
          HOURLY,
          Kind.HOURLY_PRESET,
          CONFLUENT + "DefaultPartitioner",
          Kind.KAFKA,
          CONFLUENT + "FieldPartitioner",
          Kind.FIELD,
          CONFLUENT + "TimeBasedPartitioner",
          Kind.TIME_JODA,
          CONFLUENT + "DailyPartitioner",
          Kind.DAILY_PRESET,
          CONFLUENT + "HourlyPartitioner",
          Kind.HOURLY_PRESET);

  private PartitionerPresets() {}

  /**
   * The partitioner a configured name means: {@code kafka}, {@code field} or {@code time} for a
   * preset or one of Confluent's class names; the name itself (trimmed) otherwise.
   */
  public static String resolve(String configured) {
    Kind kind = kind(configured);
    return kind == null ? configured.trim() : kind.ours;
  }

  /** Whether the name is a preset or a Confluent class name that {@link #resolve} translates. */
  public static boolean isPreset(String configured) {
    return kind(configured) != null;
  }

  /**
   * The java.time path format a time partitioner uses: the preset's own for {@code daily} and
   * {@code hourly} (and Confluent's daily and hourly partitioners), the configured Joda-Time
   * pattern translated for Confluent's {@code TimeBasedPartitioner}, the configured one otherwise.
   *
   * @throws IllegalArgumentException when a Joda-Time pattern uses a letter without a faithful
   *     java.time translation
   */
  public static String pathFormat(String configured, String pathFormat) {
    Kind kind = kind(configured);
    if (kind == null) {
      return pathFormat;
    }
    return switch (kind) {
      case DAILY_PRESET -> DAILY_FORMAT;
      case HOURLY_PRESET -> HOURLY_FORMAT;
      case TIME_JODA -> JodaPatterns.toJavaTime(pathFormat);
      case KAFKA, FIELD -> pathFormat;
    };
  }

  /**
   * The duration a time partitioner floors record times to: a day or an hour for the daily and
   * hourly presets, the configured {@code partition.duration.ms} otherwise (-1: no flooring beyond
   * what the path format prints).
   */
  public static long durationMs(String configured, long durationMs) {
    Kind kind = kind(configured);
    if (kind == Kind.DAILY_PRESET) {
      return DAY_MS;
    }
    if (kind == Kind.HOURLY_PRESET) {
      return HOUR_MS;
    }
    return durationMs;
  }

  /**
   * Why the configured {@code path.format} cannot go with the configured name, or null: a preset
   * brings its own format, so a different one set beside it would be silently ignored.
   */
  public static String pathFormatConflict(String configured, String pathFormat, boolean isDefault) {
    Kind kind = kind(configured);
    if (isDefault || (kind != Kind.DAILY_PRESET && kind != Kind.HOURLY_PRESET)) {
      return null;
    }
    String own = kind == Kind.DAILY_PRESET ? DAILY_FORMAT : HOURLY_FORMAT;
    if (own.equals(pathFormat.trim())) {
      return null;
    }
    return "partitioner.class="
        + configured.trim()
        + " writes "
        + own
        + "; remove path.format, or use partitioner.class=time with path.format and "
        + "partition.duration.ms";
  }

  /**
   * Why the configured {@code partition.duration.ms} cannot go with the configured name, or null:
   * the presets bring their own duration.
   */
  public static String durationConflict(String configured, long durationMs) {
    Kind kind = kind(configured);
    long own = kind == Kind.DAILY_PRESET ? DAY_MS : kind == Kind.HOURLY_PRESET ? HOUR_MS : -1;
    if (own < 0 || durationMs < 0 || durationMs == own) {
      return null;
    }
    return "partitioner.class="
        + configured.trim()
        + " floors times to "
        + own
        + " ms; remove partition.duration.ms, or use partitioner.class=time";
  }

  private static Kind kind(String configured) {
    if (configured == null) {
      return null;
    }
    String name = configured.trim();
    Kind kind = NAMES.get(name);
    return kind != null ? kind : NAMES.get(name.toLowerCase(Locale.ROOT));
  }
}
