package dev.parquetconnect.source;

import dev.parquetconnect.config.ConfigProblem;
import dev.parquetconnect.format.filter.Predicate;
import dev.parquetconnect.format.filter.PredicateParser;
import dev.parquetconnect.format.filter.PredicateSyntaxException;
import dev.parquetconnect.source.ParquetSourceConfig.AfterReplay;
import dev.parquetconnect.source.ParquetSourceConfig.Mode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * The source's {@code replay.*} keys: which records of an archive are replayed (a time range on
 * {@code __kafka_timestamp}, offset ranges per original partition) and whether they carry their
 * original coordinates as headers. Ranges are half-open: {@code from} inclusive, {@code until}
 * exclusive, so consecutive slices never overlap.
 */
final class ReplaySelectionConfig {
  static final String FROM_TIMESTAMP_CONFIG = "replay.from.timestamp";
  static final String UNTIL_TIMESTAMP_CONFIG = "replay.until.timestamp";
  static final String FROM_OFFSET_CONFIG = "replay.from.offset";
  static final String UNTIL_OFFSET_CONFIG = "replay.until.offset";
  static final String HEADERS_ORIGINAL_CONFIG = "replay.headers.original";
  static final String FILTER_CONFIG = "replay.filter";

  private static final String GROUP = "Selection";

  private ReplaySelectionConfig() {}

  /** Adds the keys to the source's definition. */
  static void define(ConfigDef def) {
    int order = 0;
    def.define(
        FROM_TIMESTAMP_CONFIG,
        Type.STRING,
        "",
        new TimestampValidator(),
        Importance.MEDIUM,
        "Replay only records whose __kafka_timestamp is at or after this instant: ISO-8601 with"
            + " an offset (2026-11-24T00:00:00Z, 2026-11-24T01:00:00+01:00) or epoch"
            + " milliseconds. Files and row groups whose statistics lie entirely outside the"
            + " range are not read; records without a timestamp are not replayed when a time"
            + " range is set. Empty: no lower bound.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Replay from timestamp");
    def.define(
        UNTIL_TIMESTAMP_CONFIG,
        Type.STRING,
        "",
        new TimestampValidator(),
        Importance.MEDIUM,
        "Replay only records whose __kafka_timestamp is before this instant (exclusive), in the"
            + " forms of replay.from.timestamp. Empty: no upper bound.",
        GROUP,
        ++order,
        Width.MEDIUM,
        "Replay until timestamp");
    def.define(
        FROM_OFFSET_CONFIG,
        Type.LIST,
        "",
        new OffsetListValidator(),
        Importance.MEDIUM,
        "Replay mode: comma-separated topic:partition:offset entries; the records of that"
            + " original partition from that offset on (inclusive). Files whose name shows them"
            + " to end before it are not opened. Partitions not listed are replayed from their"
            + " start.",
        GROUP,
        ++order,
        Width.LONG,
        "Replay from offsets");
    def.define(
        UNTIL_OFFSET_CONFIG,
        Type.LIST,
        "",
        new OffsetListValidator(),
        Importance.MEDIUM,
        "Replay mode: comma-separated topic:partition:offset entries; the records of that"
            + " original partition before that offset (exclusive). Files whose name shows them"
            + " to start at or after it are not opened. Partitions not listed have no end.",
        GROUP,
        ++order,
        Width.LONG,
        "Replay until offsets");
    def.define(
        FILTER_CONFIG,
        Type.STRING,
        "",
        new FilterValidator(),
        Importance.MEDIUM,
        "Replay only the rows matching this predicate over the file's columns, e.g."
            + " customer = 'customer-42' AND amount >= 100 (the grammar of docs/source.md:"
            + " = <> < <= > >= IN, IS [NOT] NULL, AND, OR, NOT, parentheses; nested columns by"
            + " dotted path; string, number, boolean and TIMESTAMP '...' literals). Checked here"
            + " against the grammar only; each file is checked against it when opened (a column"
            + " it lacks or a type that does not fit fails the task naming the file). Row groups"
            + " and pages that cannot match are not fetched; bloom filters rule out row groups"
            + " for = and IN. Empty: every row.",
        GROUP,
        ++order,
        Width.LONG,
        "Replay filter");
    def.define(
        HEADERS_ORIGINAL_CONFIG,
        Type.BOOLEAN,
        false,
        Importance.LOW,
        "Replay mode: add the original coordinates to each record as headers"
            + " __original.topic (string), __original.partition (int32), __original.offset"
            + " (int64) and __original.timestamp (int64 epoch milliseconds; left out for a"
            + " record without timestamp), after the record's own headers, so consumers can"
            + " map old offsets to new ones.",
        GROUP,
        ++order,
        Width.SHORT,
        "Original coordinates as headers");
  }

  /** The selection's problems between keys, for {@link SourceConfigRules}. */
  static List<ConfigProblem> problems(ParquetSourceConfig c) {
    List<ConfigProblem> problems = new ArrayList<>();
    Long from = timestamp(c.getString(FROM_TIMESTAMP_CONFIG));
    Long until = timestamp(c.getString(UNTIL_TIMESTAMP_CONFIG));
    if (from != null && until != null && from >= until) {
      problems.add(
          ConfigProblem.about(
              UNTIL_TIMESTAMP_CONFIG,
              UNTIL_TIMESTAMP_CONFIG
                  + " must lie after "
                  + FROM_TIMESTAMP_CONFIG
                  + " (the range is from inclusive, until exclusive)",
              FROM_TIMESTAMP_CONFIG));
    }
    Map<TopicPartition, Long> fromOffsets = offsets(c.getList(FROM_OFFSET_CONFIG));
    Map<TopicPartition, Long> untilOffsets = offsets(c.getList(UNTIL_OFFSET_CONFIG));
    for (Map.Entry<TopicPartition, Long> e : untilOffsets.entrySet()) {
      Long start = fromOffsets.get(e.getKey());
      if (start != null && start >= e.getValue()) {
        problems.add(
            ConfigProblem.about(
                UNTIL_OFFSET_CONFIG,
                UNTIL_OFFSET_CONFIG
                    + " "
                    + e.getKey()
                    + ":"
                    + e.getValue()
                    + " must lie after its "
                    + FROM_OFFSET_CONFIG
                    + " "
                    + start
                    + " (from inclusive, until exclusive)",
                FROM_OFFSET_CONFIG));
      }
    }
    boolean offsetRanges = !fromOffsets.isEmpty() || !untilOffsets.isEmpty();
    if (c.mode() == Mode.GENERIC && offsetRanges) {
      problems.add(
          ConfigProblem.about(
              fromOffsets.isEmpty() ? UNTIL_OFFSET_CONFIG : FROM_OFFSET_CONFIG,
              "replay.from.offset and replay.until.offset apply to replay mode only (generic"
                  + " files have no original partition); in generic mode select rows of files"
                  + " our sink wrote with replay.filter on __kafka_offset",
              ParquetSourceConfig.MODE_CONFIG));
    }
    if (c.mode() == Mode.GENERIC && c.getBoolean(HEADERS_ORIGINAL_CONFIG)) {
      problems.add(
          ConfigProblem.about(
              HEADERS_ORIGINAL_CONFIG,
              HEADERS_ORIGINAL_CONFIG
                  + " applies to replay mode only: generic files have no original coordinates",
              ParquetSourceConfig.MODE_CONFIG));
    }
    if (c.afterReplay() != AfterReplay.LEAVE && selects(c)) {
      problems.add(
          ConfigProblem.about(
              ParquetSourceConfig.AFTER_REPLAY_CONFIG,
              "after.replay "
                  + ParquetSourceConfig.spelling(c.afterReplay())
                  + " would "
                  + (c.afterReplay() == AfterReplay.DELETE ? "delete" : "move")
                  + " files whose records a replay.* selection left out: use after.replay"
                  + " leave with a selection",
              FILTER_CONFIG,
              FROM_TIMESTAMP_CONFIG,
              UNTIL_TIMESTAMP_CONFIG,
              FROM_OFFSET_CONFIG,
              UNTIL_OFFSET_CONFIG));
    }
    return problems;
  }

  /** Whether the configuration replays less than every record. */
  static boolean selects(ParquetSourceConfig c) {
    return !c.getString(FILTER_CONFIG).isBlank()
        || !c.getString(FROM_TIMESTAMP_CONFIG).isBlank()
        || !c.getString(UNTIL_TIMESTAMP_CONFIG).isBlank()
        || !c.getList(FROM_OFFSET_CONFIG).isEmpty()
        || !c.getList(UNTIL_OFFSET_CONFIG).isEmpty();
  }

  /**
   * An instant in epoch milliseconds: digits (with an optional sign) are epoch milliseconds,
   * anything else ISO-8601 with an offset or Z. Null for empty.
   *
   * @throws ConfigException naming what is accepted
   */
  static Long timestamp(String text) {
    String t = text == null ? "" : text.trim();
    if (t.isEmpty()) {
      return null;
    }
    if (t.matches("-?\\d{1,19}")) {
      try {
        return Long.parseLong(t);
      } catch (NumberFormatException e) {
        throw new ConfigException("'" + t + "' does not fit epoch milliseconds (a long)");
      }
    }
    try {
      return OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeException | ArithmeticException e) {
      try {
        return Instant.parse(t).toEpochMilli();
      } catch (DateTimeException | ArithmeticException e2) {
        throw new ConfigException(
            "'"
                + t
                + "' is neither epoch milliseconds nor ISO-8601 with an offset"
                + " (2026-11-24T00:00:00Z, 2026-11-24T01:00:00+01:00)");
      }
    }
  }

  /**
   * {@code topic:partition:offset} entries by topic-partition, in the given order.
   *
   * @throws ConfigException naming the entry at fault
   */
  static Map<TopicPartition, Long> offsets(List<String> entries) {
    if (entries == null || entries.isEmpty()) {
      return Collections.emptyMap();
    }
    Map<TopicPartition, Long> map = new LinkedHashMap<>();
    for (String raw : entries) {
      String entry = raw.trim();
      int last = entry.lastIndexOf(':');
      int middle = last <= 0 ? -1 : entry.lastIndexOf(':', last - 1);
      if (middle <= 0) {
        throw new ConfigException("'" + entry + "' is not topic:partition:offset");
      }
      String topic = entry.substring(0, middle);
      int partition;
      long offset;
      try {
        partition = Integer.parseInt(entry.substring(middle + 1, last));
        offset = Long.parseLong(entry.substring(last + 1));
      } catch (NumberFormatException e) {
        throw new ConfigException(
            "'" + entry + "' is not topic:partition:offset (partition and offset are numbers)");
      }
      if (partition < 0 || offset < 0) {
        throw new ConfigException("'" + entry + "': partition and offset must not be negative");
      }
      if (map.put(new TopicPartition(topic, partition), offset) != null) {
        throw new ConfigException("'" + entry + "': " + topic + ":" + partition + " given twice");
      }
    }
    return map;
  }

  /**
   * {@code replay.filter} parsed, or null when empty.
   *
   * @throws ConfigException with the parser's message and position
   */
  static Predicate filter(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return PredicateParser.parse(text);
    } catch (PredicateSyntaxException e) {
      throw new ConfigException(e.getMessage());
    }
  }

  /** A predicate of the grammar, or empty; not checked against any schema. */
  static final class FilterValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        filter((String) value);
      } catch (ConfigException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "a predicate (docs/source.md, Selecting what is replayed), or empty";
    }
  }

  /** An instant as {@link #timestamp(String)} reads it, or empty. */
  static final class TimestampValidator implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        timestamp((String) value);
      } catch (ConfigException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "ISO-8601 with an offset, epoch milliseconds, or empty";
    }
  }

  /** A list of {@code topic:partition:offset}, each partition once. */
  static final class OffsetListValidator implements ConfigDef.Validator {
    @Override
    @SuppressWarnings("unchecked")
    public void ensureValid(String name, Object value) {
      try {
        offsets((List<String>) value);
      } catch (ConfigException e) {
        throw new ConfigException(name, value, e.getMessage());
      }
    }

    @Override
    public String toString() {
      return "topic:partition:offset entries, comma-separated";
    }
  }
}
