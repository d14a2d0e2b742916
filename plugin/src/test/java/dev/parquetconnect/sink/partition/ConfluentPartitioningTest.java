package dev.parquetconnect.sink.partition;

import static dev.parquetconnect.sink.partition.PartitionersTest.col;
import static dev.parquetconnect.sink.partition.PartitionersTest.config;
import static dev.parquetconnect.sink.partition.PartitionersTest.order;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.ParquetSinkConfig;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * A configuration written for Confluent's S3 or HDFS sink keeps its meaning: its partitioner class
 * names, its daily and hourly partitioners, {@code partition.duration.ms} and its Joda-Time {@code
 * path.format} give the directories Confluent's sink gives (docs/migrating.md).
 */
final class ConfluentPartitioningTest {
  private static final String CONFLUENT = "io.confluent.connect.storage.partitioner.";

  private static SinkRecord at(String instant) {
    long ts = Instant.parse(instant).toEpochMilli();
    return new SinkRecord(
        "t", 0, null, null, Schema.STRING_SCHEMA, "v", 1, ts, TimestampType.CREATE_TIME);
  }

  private static List<PartitionColumn> partition(SinkRecord record, String... keyValues) {
    return Partitioners.create(config(keyValues), () -> 0L).partition(record);
  }

  @Test
  void dailyAndHourlyPresetsWriteConfluentsDirectories() {
    assertEquals(
        List.of(col("year", "2026"), col("month", "11"), col("day", "26")),
        partition(at("2026-11-26T17:05:00Z"), "partitioner.class", "daily"));
    assertEquals(
        List.of(col("year", "2026"), col("month", "11"), col("day", "26"), col("hour", "17")),
        partition(at("2026-11-26T17:05:00Z"), "partitioner.class", "hourly"));
    assertEquals(
        List.of(col("year", "2026"), col("month", "11"), col("day", "26")),
        partition(at("2026-11-26T17:05:00Z"), "partitioner.class", CONFLUENT + "DailyPartitioner"));
  }

  @Test
  void confluentClassNamesMeanOurPartitioners() {
    assertEquals(
        "kafka", config("partitioner.class", CONFLUENT + "DefaultPartitioner").partitioner());
    assertEquals(
        List.of(col("partition", "3")),
        partition(order(), "partitioner.class", CONFLUENT + "DefaultPartitioner"));
    assertEquals(
        List.of(col("region", "eu/west")),
        partition(
            order(),
            "partitioner.class",
            CONFLUENT + "FieldPartitioner",
            "partition.field.name",
            "region"));
  }

  @Test
  void timeBasedPartitionerReadsPathFormatAsJodaTimeWhereYyyyIsTheYear() {
    // 2026-12-28 is in week 1 of week-based year 2027: Joda's YYYY is still 2026.
    assertEquals(
        List.of(col("year", "2026"), col("month", "12"), col("day", "28")),
        partition(
            at("2026-12-28T10:00:00Z"),
            "partitioner.class",
            CONFLUENT + "TimeBasedPartitioner",
            "path.format",
            "'year'=YYYY/'month'=MM/'day'=dd",
            "partition.duration.ms",
            "86400000"));
  }

  @Test
  void weekBasedYearIsRefusedInOurOwnFormat() {
    ConfigException e =
        assertThrows(
            ConfigException.class,
            () ->
                partition(
                    at("2026-12-28T10:00:00Z"),
                    "partitioner.class",
                    "time",
                    "path.format",
                    "'year'=YYYY/'month'=MM"));
    assertTrue(e.getMessage().contains("write yyyy"), e.getMessage());
    // With the week printed, the week-based year is what is meant (en-US weeks start on Sunday,
    // and week 1 of 2027 holds 2027-01-01, a Friday).
    assertEquals(
        List.of(col("wy", "2027"), col("week", "01")),
        partition(
            at("2026-12-28T10:00:00Z"),
            "partitioner.class",
            "time",
            "path.format",
            "'wy'=YYYY/'week'=ww",
            "locale",
            "en-US"));
  }

  @Test
  void durationFloorsInLocalTime() {
    assertEquals(
        List.of(col("hour", "12"), col("minute", "45")),
        partition(
            at("2026-11-26T12:59:59.999Z"),
            "partitioner.class",
            "time",
            "path.format",
            "'hour'=HH/'minute'=mm",
            "partition.duration.ms",
            "900000"));
    // Six-hour buckets start at local midnight: 05:30 in Kolkata (UTC+05:30) is the 00 bucket.
    assertEquals(
        List.of(col("day", "2026-11-27"), col("hour", "00")),
        partition(
            at("2026-11-27T00:00:00Z"),
            "partitioner.class",
            "time",
            "path.format",
            "'day'=yyyy-MM-dd/'hour'=HH",
            "timezone",
            "Asia/Kolkata",
            "partition.duration.ms",
            "21600000"));
    // Before the epoch, floors go down, not toward zero.
    assertEquals(
        List.of(col("minute", "1969-12-31T23:45")),
        partition(
            at("1969-12-31T23:59:00Z"),
            "partitioner.class",
            "time",
            "path.format",
            "'minute'=yyyy-MM-dd'T'HH:mm",
            "partition.duration.ms",
            "900000"));
  }

  @Test
  void dailyKeepsItsOwnDurationAndFormat() {
    ParquetSinkConfig daily = config("partitioner.class", "DAILY");
    assertEquals("time", daily.partitioner());
    assertEquals(PartitionerPresets.DAY_MS, daily.partitionDurationMs());
    assertEquals("'year'=yyyy/'month'=MM/'day'=dd", daily.pathFormat());
  }
}
