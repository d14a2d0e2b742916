package dev.parquetconnect.sink.partition;

import java.time.Instant;
import java.time.ZoneId;
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
 * configured time zone and locale.
 */
public final class TimePartitioner implements Partitioner {
  private final List<DateTimeFormatter> segments;
  private final RecordTime time;

  TimePartitioner(String pathFormat, ZoneId zone, Locale locale, RecordTime time) {
    this.segments = parse(pathFormat, zone, locale);
    this.time = time;
  }

  /**
   * Checks a path format: every segment must print {@code name=value}.
   *
   * @throws IllegalArgumentException naming the segment at fault
   */
  public static List<DateTimeFormatter> parse(String pathFormat, ZoneId zone, Locale locale) {
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
  public List<PartitionColumn> partition(SinkRecord record) {
    Instant instant = Instant.ofEpochMilli(time.of(record));
    List<PartitionColumn> columns = new ArrayList<>(segments.size());
    for (DateTimeFormatter segment : segments) {
      String text = segment.format(instant);
      int eq = text.indexOf('=');
      columns.add(new PartitionColumn(text.substring(0, eq), text.substring(eq + 1)));
    }
    return columns;
  }
}
