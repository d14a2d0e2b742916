package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.TimeUnit;
import java.util.Objects;

/**
 * What a file holds besides the record value, and how times are stored.
 *
 * @param kafkaMetadata the columns {@code __kafka_topic}, {@code __kafka_partition}, {@code
 *     __kafka_offset} and {@code __kafka_timestamp} ({@code store.kafka.metadata})
 * @param kafkaKey the column {@code __kafka_key} ({@code store.kafka.key})
 * @param kafkaHeaders the column {@code __kafka_headers} ({@code store.kafka.headers})
 * @param timestampUnit the unit of Connect Timestamp columns: MILLIS (Connect's own precision) or
 *     MICROS (what Spark and older Hive expect); {@code __kafka_timestamp} is always MILLIS
 * @param tombstones whether records with a null value are written (as a row with only the
 *     metadata): the value's columns are then all OPTIONAL, and a struct value gets the column
 *     {@code __kafka_tombstone} so a null value and a struct of nulls stay apart
 * @param timeLogicalType whether Connect Time columns carry Parquet's TIME(MILLIS, UTC) type; by
 *     default they are plain INT32 milliseconds of the day, because Spark (3.x and 4.0) refuses a
 *     file with a TIME column altogether. Either way the footer's Connect schema makes the source
 *     replay them as Connect Time.
 * @param kafkaTimestampMicros whether {@code __kafka_timestamp} is TIMESTAMP(MICROS, UTC) rather
 *     than MILLIS: Iceberg's timestamps are microseconds, and its readers and data file metrics
 *     take a file's INT64 timestamp as microseconds whatever its annotation says ({@link
 *     #forIcebergTables()})
 */
public record MappingOptions(
    boolean kafkaMetadata,
    boolean kafkaKey,
    boolean kafkaHeaders,
    TimeUnit timestampUnit,
    boolean tombstones,
    boolean timeLogicalType,
    boolean kafkaTimestampMicros) {

  public MappingOptions {
    Objects.requireNonNull(timestampUnit, "timestampUnit");
    if (timestampUnit != TimeUnit.MILLIS && timestampUnit != TimeUnit.MICROS) {
      throw new IllegalArgumentException(
          "Connect timestamps are stored in MILLIS or MICROS, not " + timestampUnit);
    }
  }

  /** As the canonical constructor, with {@code __kafka_timestamp} in MILLIS (the default). */
  public MappingOptions(
      boolean kafkaMetadata,
      boolean kafkaKey,
      boolean kafkaHeaders,
      TimeUnit timestampUnit,
      boolean tombstones,
      boolean timeLogicalType) {
    this(kafkaMetadata, kafkaKey, kafkaHeaders, timestampUnit, tombstones, timeLogicalType, false);
  }

  /** As the canonical constructor, with Time columns as plain INT32 (the default). */
  public MappingOptions(
      boolean kafkaMetadata,
      boolean kafkaKey,
      boolean kafkaHeaders,
      TimeUnit timestampUnit,
      boolean tombstones) {
    this(kafkaMetadata, kafkaKey, kafkaHeaders, timestampUnit, tombstones, false, false);
  }

  /** The sink's defaults: topic, partition, offset and timestamp; millisecond timestamps. */
  public static MappingOptions defaults() {
    return new MappingOptions(true, false, false, TimeUnit.MILLIS, false);
  }

  /** Every metadata column, for files the source must replay exactly. */
  public static MappingOptions fullFidelity() {
    return new MappingOptions(true, true, true, TimeUnit.MILLIS, true);
  }

  public MappingOptions withKafkaMetadata(boolean enabled) {
    return new MappingOptions(
        enabled,
        kafkaKey,
        kafkaHeaders,
        timestampUnit,
        tombstones,
        timeLogicalType,
        kafkaTimestampMicros);
  }

  public MappingOptions withKafkaKey(boolean enabled) {
    return new MappingOptions(
        kafkaMetadata,
        enabled,
        kafkaHeaders,
        timestampUnit,
        tombstones,
        timeLogicalType,
        kafkaTimestampMicros);
  }

  public MappingOptions withKafkaHeaders(boolean enabled) {
    return new MappingOptions(
        kafkaMetadata,
        kafkaKey,
        enabled,
        timestampUnit,
        tombstones,
        timeLogicalType,
        kafkaTimestampMicros);
  }

  public MappingOptions withTimestampUnit(TimeUnit unit) {
    return new MappingOptions(
        kafkaMetadata,
        kafkaKey,
        kafkaHeaders,
        unit,
        tombstones,
        timeLogicalType,
        kafkaTimestampMicros);
  }

  public MappingOptions withTimeLogicalType(boolean enabled) {
    return new MappingOptions(
        kafkaMetadata,
        kafkaKey,
        kafkaHeaders,
        timestampUnit,
        tombstones,
        enabled,
        kafkaTimestampMicros);
  }

  public MappingOptions withTombstones(boolean enabled) {
    return new MappingOptions(
        kafkaMetadata,
        kafkaKey,
        kafkaHeaders,
        timestampUnit,
        enabled,
        timeLogicalType,
        kafkaTimestampMicros);
  }

  /**
   * The files of an Iceberg table: every timestamp, {@code __kafka_timestamp} included, in
   * microseconds, the only unit of Iceberg's {@code timestamp} and {@code timestamptz} (its readers
   * and its data file metrics take an INT64 timestamp column as microseconds).
   */
  public MappingOptions forIcebergTables() {
    return new MappingOptions(
        kafkaMetadata, kafkaKey, kafkaHeaders, TimeUnit.MICROS, tombstones, timeLogicalType, true);
  }
}
