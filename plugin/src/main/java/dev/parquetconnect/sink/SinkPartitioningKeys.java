package dev.parquetconnect.sink;

import static dev.parquetconnect.sink.ParquetSinkConfig.LOCALE_CONFIG;
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
import static dev.parquetconnect.sink.ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.TIMESTAMP_FIELD_CONFIG;
import static dev.parquetconnect.sink.ParquetSinkConfig.TIMEZONE_CONFIG;

import dev.parquetconnect.config.LanguageTagValidator;
import dev.parquetconnect.config.OfferedValues;
import dev.parquetconnect.config.VisibleWhen;
import dev.parquetconnect.config.ZoneIdValidator;
import dev.parquetconnect.sink.partition.PartitionerPresets;
import dev.parquetconnect.sink.partition.RecordTime;
import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The sink's partitioning keys ({@code partitioner.class} and what each partitioner reads), group
 * "Partitioning" of {@code docs/configuration.md}. Presets and Confluent's partitioner class names
 * count as the partitioner they resolve to ({@link PartitionerPresets}), so their keys show too.
 */
final class SinkPartitioningKeys {
  private static final String GROUP_PARTITION = "Partitioning";

  private SinkPartitioningKeys() {}

  /** Shows a key for a partitioner, presets and Confluent's class names resolved to ours. */
  private static VisibleWhen partitionerIs(String partitioner) {
    return VisibleWhen.matching(
        PARTITIONER_CONFIG,
        value -> value != null && partitioner.equals(PartitionerPresets.resolve(value.toString())));
  }

  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        PARTITIONER_CONFIG,
        Type.STRING,
        PARTITIONER_KAFKA,
        Importance.HIGH,
        "How records are spread over directories, each level Hive style (name=value) so that "
            + "engines prune by it: 'kafka' (partition=<Kafka partition>), 'field' (the values of "
            + "partition.field.name), 'time' (the record time formatted by path.format), 'header' "
            + "(the values of partition.header.name), or the class name of an implementation of "
            + "dev.parquetconnect.sink.partition.Partitioner. 'daily' and 'hourly' are time with "
            + "the path 'year'=yyyy/'month'=MM/'day'=dd[/'hour'=HH] and a day or an hour of "
            + "partition.duration.ms; the class names of Confluent's Default, Field, TimeBased, "
            + "Daily and Hourly partitioners mean kafka, field, time (path.format read as "
            + "Joda-Time), daily and hourly (docs/migrating.md). Values are percent-encoded and "
            + "capped, so no value can place a file outside the topic's directory; null and empty "
            + "values go to __HIVE_DEFAULT_PARTITION__. What engines read back: "
            + "docs/compatibility.md, Partition directories.",
        GROUP_PARTITION,
        ++order,
        Width.MEDIUM,
        "Partitioner",
        new OfferedValues(
            List.of(
                PARTITIONER_KAFKA,
                PARTITIONER_FIELD,
                PARTITIONER_TIME,
                PARTITIONER_HEADER,
                PartitionerPresets.DAILY,
                PartitionerPresets.HOURLY)));
    def.define(
        PARTITION_FIELDS_CONFIG,
        Type.LIST,
        "",
        Importance.MEDIUM,
        "For partitioner.class=field: the value fields to partition by, outermost first; nested "
            + "fields as a.b.c. Each becomes a directory level named after its last element. Works "
            + "with structs and with schemaless JSON maps.",
        GROUP_PARTITION,
        ++order,
        Width.LONG,
        "Partition fields",
        List.of(PARTITIONER_CONFIG),
        partitionerIs(PARTITIONER_FIELD));
    def.define(
        PARTITION_HEADERS_CONFIG,
        Type.LIST,
        "",
        Importance.MEDIUM,
        "For partitioner.class=header: the record headers to partition by, outermost first. A "
            + "missing header goes to __HIVE_DEFAULT_PARTITION__.",
        GROUP_PARTITION,
        ++order,
        Width.LONG,
        "Partition headers",
        List.of(PARTITIONER_CONFIG),
        partitionerIs(PARTITIONER_HEADER));
    def.define(
        PATH_FORMAT_CONFIG,
        Type.STRING,
        PATH_FORMAT_DEFAULT,
        Importance.MEDIUM,
        "For partitioner.class=time: a java.time DateTimeFormatter pattern whose '/'-separated "
            + "segments each print name=value, e.g. 'dt'=yyyy-MM-dd/'hour'=HH. Use yyyy (year): "
            + "YYYY, the week-based year, is refused unless the format prints the week (w). With "
            + "partitioner.class=io.confluent.connect.storage.partitioner.TimeBasedPartitioner it "
            + "is read as Confluent's (Joda-Time) pattern, where YYYY is the year; daily and hourly "
            + "bring their own. See docs/migrating.md.",
        GROUP_PARTITION,
        ++order,
        Width.LONG,
        "Path format",
        List.of(PARTITIONER_CONFIG),
        partitionerIs(PARTITIONER_TIME));
    def.define(
        PARTITION_DURATION_MS_CONFIG,
        Type.LONG,
        -1L,
        ConfigDef.Range.atLeast(-1L),
        Importance.MEDIUM,
        "For partitioner.class=time: the record time is floored to a multiple of this many "
            + "milliseconds, counted in local time of the time zone (a day starts at local "
            + "midnight), before path.format prints it: 900000 with 'minute'=mm gives quarter "
            + "hours, 21600000 with 'hour'=HH six-hour directories. -1 (the default) floors to "
            + "nothing but what path.format prints. The daily and hourly presets use a day and an "
            + "hour, as Confluent's daily and hourly partitioners do.",
        GROUP_PARTITION,
        ++order,
        Width.SHORT,
        "Partition duration (ms)",
        List.of(PARTITIONER_CONFIG),
        partitionerIs(PARTITIONER_TIME));
    def.define(
        TIMEZONE_CONFIG,
        Type.STRING,
        "UTC",
        new ZoneIdValidator(),
        Importance.MEDIUM,
        "The time zone of path.format, as a java.time zone id (UTC, Europe/Paris, +02:00).",
        GROUP_PARTITION,
        ++order,
        Width.SHORT,
        "Time zone",
        List.of(PARTITIONER_CONFIG),
        partitionerIs(PARTITIONER_TIME));
    def.define(
        LOCALE_CONFIG,
        Type.STRING,
        "en",
        new LanguageTagValidator(),
        Importance.LOW,
        "The locale of path.format (month and day names), as a BCP 47 language tag (en, fr-FR).",
        GROUP_PARTITION,
        ++order,
        Width.SHORT,
        "Locale",
        List.of(PARTITIONER_CONFIG),
        partitionerIs(PARTITIONER_TIME));
    def.define(
        TIMESTAMP_EXTRACTOR_CONFIG,
        Type.STRING,
        "record",
        ConfigDef.CaseInsensitiveValidString.in("record", "field", "wallclock", "recordfield"),
        Importance.MEDIUM,
        "The time of a record for partitioner.class=time and rotate.interval.ms: 'record' (the "
            + "Kafka record timestamp), 'field' (timestamp.field of the value) or 'wallclock' (the "
            + "time the task writes it; not reproducible after a restart, but still exactly once). "
            + "Confluent's names Record, RecordField and Wallclock mean the same; note that "
            + "Confluent's default is Wallclock, ours record.",
        GROUP_PARTITION,
        ++order,
        Width.SHORT,
        "Timestamp extractor");
    def.define(
        TIMESTAMP_FIELD_CONFIG,
        Type.STRING,
        "",
        Importance.MEDIUM,
        "For timestamp.extractor=field: the value field holding the time (a Connect Timestamp, "
            + "epoch milliseconds, or an ISO-8601 string with offset); nested as a.b.c.",
        GROUP_PARTITION,
        ++order,
        Width.MEDIUM,
        "Timestamp field",
        List.of(TIMESTAMP_EXTRACTOR_CONFIG),
        VisibleWhen.matching(
            TIMESTAMP_EXTRACTOR_CONFIG,
            value -> value != null && RecordTime.Source.isField(value.toString())));
  }
}
