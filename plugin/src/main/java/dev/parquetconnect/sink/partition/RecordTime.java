package dev.parquetconnect.sink.partition;

import dev.parquetconnect.sink.partition.RecordFields.FieldPath;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Date;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The time of a record for the time partitioner and for {@code rotate.interval.ms}: the Kafka
 * record timestamp, a value field, or the wall clock ({@code timestamp.extractor}).
 */
public final class RecordTime {
  /** Where the time comes from. */
  public enum Source {
    RECORD,
    FIELD,
    WALLCLOCK;

    /** Ours, or Confluent's extractor names (Record, RecordField, Wallclock), in any case. */
    public static Source parse(String name) {
      String upper = name.trim().toUpperCase(Locale.ROOT);
      return upper.equals("RECORDFIELD") ? FIELD : valueOf(upper);
    }

    /** Whether a configured name means {@link #FIELD}; false for names that are no extractor. */
    public static boolean isField(String name) {
      try {
        return parse(name) == FIELD;
      } catch (IllegalArgumentException e) {
        return false;
      }
    }
  }

  private final Source source;
  private final FieldPath field;
  private final LongSupplier clock;

  RecordTime(Source source, String fieldName, LongSupplier clock) {
    this.source = source;
    this.field = source == Source.FIELD ? FieldPath.parse(fieldName) : null;
    this.clock = clock;
  }

  /** Whether the time depends only on the record (not on when it is written). */
  boolean deterministic() {
    return source != Source.WALLCLOCK;
  }

  /** Whether the time is read from the record's value (a field). */
  public boolean readsValue() {
    return source == Source.FIELD;
  }

  /** Milliseconds since the epoch. */
  public long of(SinkRecord record) {
    switch (source) {
      case WALLCLOCK:
        return clock.getAsLong();
      case RECORD:
        if (record.timestamp() == null) {
          throw new DataException("the record has no timestamp (timestamp.extractor=record)");
        }
        return record.timestamp();
      default:
        return fromField(record);
    }
  }

  private long fromField(SinkRecord record) {
    Object value = RecordFields.find(record.value(), field).value();
    if (value instanceof Date date) {
      return date.getTime();
    }
    if (value instanceof Long || value instanceof Integer) {
      return ((Number) value).longValue();
    }
    if (value instanceof String text) {
      try {
        return OffsetDateTime.parse(text).toInstant().toEpochMilli();
      } catch (DateTimeParseException notOffset) {
        try {
          return Instant.parse(text).toEpochMilli();
        } catch (DateTimeParseException e) {
          throw new DataException(
              "timestamp field '"
                  + field.dotted()
                  + "' holds '"
                  + text
                  + "', not an ISO-8601 date-time with offset");
        }
      }
    }
    throw new DataException(
        "timestamp field '"
            + field.dotted()
            + "' is "
            + (value == null ? "null" : "a " + value.getClass().getSimpleName())
            + "; it must be a Timestamp, epoch milliseconds or an ISO-8601 string");
  }
}
