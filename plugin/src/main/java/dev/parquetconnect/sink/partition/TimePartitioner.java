package dev.parquetconnect.sink.partition;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Directories by record time: {@code path.format} is a {@link DateTimeFormatter} pattern whose
 * {@code /}-separated segments each print {@code name=value}, e.g. the default {@code
 * 'year'=yyyy/'month'=MM/'day'=dd/'hour'=HH}. The time comes from {@link RecordTime}, in the
 * configured time zone and locale. With {@code partition.duration.ms}, the time is first floored to
 * a multiple of that duration counted in local time (so a day starts at local midnight), as
 * Confluent's time-based partitioner does: {@code 'minute'=mm} with 15 minutes prints 00, 15, 30,
 * 45.
 */
public final class TimePartitioner implements Partitioner {
  private final List<DateTimeFormatter> segments;
  private final RecordTime time;
  private final ZoneId zone;
  private final long durationMs;

  TimePartitioner(String pathFormat, ZoneId zone, Locale locale, RecordTime time, long durationMs) {
    this.segments = parse(pathFormat, zone, locale);
    this.time = time;
    this.zone = zone;
    this.durationMs = durationMs;
  }

  /**
   * Checks a path format: every segment must print {@code name=value}.
   *
   * @throws IllegalArgumentException naming the segment at fault
   */
  public static List<DateTimeFormatter> parse(String pathFormat, ZoneId zone, Locale locale) {
    checkWeekBasedYear(pathFormat);
    List<DateTimeFormatter> formatters = new ArrayList<>();
    for (String pattern : splitOutsideQuotes(pathFormat)) {
      DateTimeFormatter formatter;
      try {
        formatter = DateTimeFormatter.ofPattern(pattern, locale).withZone(zone);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "path.format segment '"
                + pattern
                + "' is not a "
                + "DateTimeFormatter pattern: "
                + e.getMessage());
      }
      String sample = formatter.format(Instant.EPOCH);
      int eq = sample.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            "path.format segment '"
                + pattern
                + "' prints '"
                + sample
                + "', not name=value (quote the name: 'year'=yyyy)");
      }
      formatters.add(formatter);
    }
    if (formatters.isEmpty()) {
      throw new IllegalArgumentException("path.format is empty");
    }
    return List.copyOf(formatters);
  }

  /**
   * Refuses java.time's week-based year without the week: {@code YYYY} is what Confluent's
   * (Joda-Time) formats write for the year, but here it prints the next year from the last days of
   * December, filing those records under the wrong year.
   */
  private static void checkWeekBasedYear(String format) {
    boolean quoted = false;
    boolean weekYear = false;
    boolean week = false;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      } else if (!quoted && c == 'Y') {
        weekYear = true;
      } else if (!quoted && c == 'w') {
        week = true;
      }
    }
    if (weekYear && !week) {
      throw new IllegalArgumentException(
          "path.format uses Y, the week-based year, which prints the next year in the last days "
              + "of some Decembers (2027 for 2026-12-28 with locale en-US): write yyyy for the year (Confluent's YYYY is Joda-Time's year; partitioner.class="
              + "io.confluent.connect.storage.partitioner.TimeBasedPartitioner reads the format as "
              + "Joda-Time)");
    }
  }

  private static List<String> splitOutsideQuotes(String format) {
    List<String> parts = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < format.length(); i++) {
      char c = format.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
      }
      if (c == '/' && !quoted) {
        addSegment(parts, current, format);
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    addSegment(parts, current, format);
    return parts;
  }

  private static void addSegment(List<String> parts, StringBuilder segment, String format) {
    if (segment.length() == 0) {
      throw new IllegalArgumentException("path.format '" + format + "' has an empty segment");
    }
    parts.add(segment.toString());
  }

  @Override
  public void configure(Map<String, String> config) {}

  @Override
  public boolean readsValue() {
    return time.readsValue();
  }

  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    Instant instant = floor(time.of(record));
    List<PartitionColumn> columns = new ArrayList<>(segments.size());
    for (DateTimeFormatter segment : segments) {
      String text = segment.format(instant);
      int eq = text.indexOf('=');
      columns.add(new PartitionColumn(text.substring(0, eq), text.substring(eq + 1)));
    }
    return columns;
  }

  /** The instant whose local time starts the duration holding {@code epochMs}. */
  Instant floor(long epochMs) {
    Instant instant = Instant.ofEpochMilli(epochMs);
    if (durationMs <= 0) {
      return instant;
    }
    LocalDateTime local = LocalDateTime.ofInstant(instant, zone);
    long localMs = local.toInstant(ZoneOffset.UTC).toEpochMilli();
    long flooredMs = Math.floorDiv(localMs, durationMs) * durationMs;
    LocalDateTime floored =
        LocalDateTime.ofInstant(Instant.ofEpochMilli(flooredMs), ZoneOffset.UTC);
    // A floored local time inside a daylight-saving gap moves forward by the gap.
    return ZonedDateTime.ofLocal(floored, zone, null).toInstant();
  }
}
