package dev.parquetconnect.source;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.format.filter.Literal;
import dev.parquetconnect.format.filter.Predicate;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.header.Headers;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Which records a task replays ({@link ReplaySelectionConfig}): a time range and offset ranges per
 * original partition, half-open ({@code from} inclusive, {@code until} exclusive). It prunes at
 * three levels, each only where it can prove that nothing selected is left out: files by the
 * offsets in their names, row groups by the footer statistics of {@code __kafka_offset} and {@code
 * __kafka_timestamp}, then every record exactly.
 */
final class ReplaySelection {
  static final String ORIGINAL_TOPIC = "__original.topic";
  static final String ORIGINAL_PARTITION = "__original.partition";
  static final String ORIGINAL_OFFSET = "__original.offset";
  static final String ORIGINAL_TIMESTAMP = "__original.timestamp";

  /** No lower bound on an offset: every offset is at or above it. */
  static final long NO_FROM = -1;

  private final long fromTimestamp;
  private final long untilTimestamp;
  private final boolean timeRange;
  private final Map<TopicPartition, Long> fromOffsets;
  private final Map<TopicPartition, Long> untilOffsets;
  private final boolean originalHeaders;

  /** {@code replay.filter}, parsed; null for none. */
  private final Predicate filter;

  private ReplaySelection(
      Long fromTimestamp,
      Long untilTimestamp,
      Map<TopicPartition, Long> fromOffsets,
      Map<TopicPartition, Long> untilOffsets,
      boolean originalHeaders,
      Predicate filter) {
    this.filter = filter;
    this.timeRange = fromTimestamp != null || untilTimestamp != null;
    this.fromTimestamp = fromTimestamp == null ? Long.MIN_VALUE : fromTimestamp;
    this.untilTimestamp = untilTimestamp == null ? Long.MAX_VALUE : untilTimestamp;
    this.fromOffsets = Map.copyOf(fromOffsets);
    this.untilOffsets = Map.copyOf(untilOffsets);
    this.originalHeaders = originalHeaders;
  }

  static ReplaySelection of(ParquetSourceConfig c) {
    return new ReplaySelection(
        ReplaySelectionConfig.timestamp(c.getString(ReplaySelectionConfig.FROM_TIMESTAMP_CONFIG)),
        ReplaySelectionConfig.timestamp(c.getString(ReplaySelectionConfig.UNTIL_TIMESTAMP_CONFIG)),
        ReplaySelectionConfig.offsets(c.getList(ReplaySelectionConfig.FROM_OFFSET_CONFIG)),
        ReplaySelectionConfig.offsets(c.getList(ReplaySelectionConfig.UNTIL_OFFSET_CONFIG)),
        c.getBoolean(ReplaySelectionConfig.HEADERS_ORIGINAL_CONFIG),
        ReplaySelectionConfig.filter(c.getString(ReplaySelectionConfig.FILTER_CONFIG)));
  }

  /** {@code replay.filter}, or null for none. */
  Predicate filter() {
    return filter;
  }

  /** Applies {@code replay.filter} to a file opened for replay (nothing without one). */
  void filter(FileCursor cursor) {
    if (filter != null) {
      cursor.filter(filter);
    }
  }

  /**
   * Applies {@code replay.filter} and keeps only the rows of one original partition: for a file
   * that holds several (an Iceberg table's compacted file), read once per partition.
   */
  void filter(FileCursor cursor, String topic, int partition) {
    Predicate own =
        new Predicate.And(
            new Predicate.Compare(
                FileLayout.TOPIC_COLUMN, Predicate.Op.EQ, new Literal.TextValue(topic)),
            new Predicate.Compare(
                FileLayout.PARTITION_COLUMN,
                Predicate.Op.EQ,
                new Literal.IntegerValue(BigInteger.valueOf(partition))));
    cursor.filter(filter == null ? own : new Predicate.And(own, filter));
  }

  /**
   * Leaves out the pages of a replay-mode file of original partition {@code topic}-{@code
   * partition} whose page indexes put them outside the offset and time ranges (every record is
   * still checked exactly by {@link #selected}).
   */
  void skipPagesOutside(FileCursor cursor, String topic, int partition) {
    Predicate range = range(cursor.schema(), topic, partition);
    if (range != null) {
      cursor.skipPagesOutside(range);
    }
  }

  /**
   * The offset and time ranges of an original partition as a predicate on {@code __kafka_offset}
   * and {@code __kafka_timestamp}, true exactly for the records {@link #selected} keeps; null when
   * nothing is limited. A timestamp column annotated TIMESTAMP (an Iceberg table's, in
   * microseconds) takes an instant, a plain INT64 one epoch milliseconds.
   */
  Predicate range(MessageType schema, String topic, int partition) {
    Predicate range = null;
    long from = fromOffset(topic, partition);
    long until = untilOffset(topic, partition);
    if (from != NO_FROM) {
      range = and(range, compare(FileLayout.OFFSET_COLUMN, Predicate.Op.GE, integer(from)));
    }
    if (until != Long.MAX_VALUE) {
      range = and(range, compare(FileLayout.OFFSET_COLUMN, Predicate.Op.LT, integer(until)));
    }
    return and(range, timeRange(schema, FileLayout.TIMESTAMP_COLUMN));
  }

  /**
   * Leaves out the pages of a generic-mode file whose page indexes put every value of {@code
   * timestamp.field} (a top-level column) outside the time range; nothing without a time range or
   * without the field (the file's modification time is each record's timestamp then).
   */
  void skipPagesOutsideTime(FileCursor cursor, String timestampField) {
    if (!timestampField.isEmpty()) {
      Predicate range = timeRange(cursor.schema(), timestampField);
      if (range != null) {
        cursor.skipPagesOutside(range);
      }
    }
  }

  /**
   * The time range on top-level column {@code column} in epoch milliseconds, or null without one. A
   * column annotated TIMESTAMP (of any unit) takes instants, which a record's millisecond timestamp
   * (rounded down) satisfies exactly when the column's value does; an INT64 one epoch milliseconds;
   * another type does not bind and the pages are not pruned by it.
   */
  private Predicate timeRange(MessageType schema, String column) {
    if (!timeRange) {
      return null;
    }
    int field = schema.root().fieldIndex(column);
    boolean instants =
        field >= 0
            && schema.root().fields().get(field).logicalType() instanceof LogicalType.TimestampType;
    Predicate range = null;
    if (fromTimestamp != Long.MIN_VALUE) {
      range =
          compare(
              column, Predicate.Op.GE, instants ? instant(fromTimestamp) : integer(fromTimestamp));
    }
    if (untilTimestamp != Long.MAX_VALUE) {
      range =
          and(
              range,
              compare(
                  column,
                  Predicate.Op.LT,
                  instants ? instant(untilTimestamp) : integer(untilTimestamp)));
    }
    return range;
  }

  /** Both, either when the other is null (nothing), or null. */
  private static Predicate and(Predicate left, Predicate right) {
    if (left == null || right == null) {
      return left == null ? right : left;
    }
    return new Predicate.And(left, right);
  }

  private static Predicate compare(String column, Predicate.Op op, Literal value) {
    return new Predicate.Compare(column, op, value);
  }

  private static Literal integer(long value) {
    return new Literal.IntegerValue(BigInteger.valueOf(value));
  }

  private static Literal instant(long epochMillis) {
    return new Literal.TimestampValue(Instant.ofEpochMilli(epochMillis));
  }

  boolean originalHeaders() {
    return originalHeaders;
  }

  boolean hasTimeRange() {
    return timeRange;
  }

  /** The first offset replayed of an original partition, or {@link #NO_FROM}. */
  long fromOffset(String topic, int partition) {
    Long from = fromOffsets.get(new TopicPartition(topic, partition));
    return from == null ? NO_FROM : from;
  }

  /** The offset an original partition's replay stops before ({@code Long.MAX_VALUE}: none). */
  long untilOffset(String topic, int partition) {
    Long until = untilOffsets.get(new TopicPartition(topic, partition));
    return until == null ? Long.MAX_VALUE : until;
  }

  /** Whether a record timestamp (null: none) lies in the time range. */
  boolean timeSelected(Long timestamp) {
    if (!timeRange) {
      return true;
    }
    return timestamp != null && timestamp >= fromTimestamp && timestamp < untilTimestamp;
  }

  /** Whether a record of an original partition is selected. */
  boolean selected(String topic, int partition, long offset, Long timestamp) {
    return offset >= fromOffset(topic, partition)
        && offset < untilOffset(topic, partition)
        && timeSelected(timestamp);
  }

  /**
   * Whether a file named with offsets {@code first..last} ({@code last} -1 when the name does not
   * say) may hold a selected record of its partition.
   */
  boolean fileMayMatch(String topic, int partition, long first, long last) {
    if (first >= untilOffset(topic, partition)) {
      return false;
    }
    return last < 0 || last >= fromOffset(topic, partition);
  }

  /**
   * The row groups of a replay-mode file of original partition {@code topic}-{@code partition} that
   * statistics do not rule out. A row group without usable statistics is kept.
   */
  IntPredicate rowGroups(MessageType schema, List<RowGroup> groups, String topic, int partition) {
    int offsetColumn = int64Column(schema, FileLayout.OFFSET_COLUMN);
    int timestampColumn = timeRange ? int64Column(schema, FileLayout.TIMESTAMP_COLUMN) : -1;
    long from = fromOffset(topic, partition);
    long until = untilOffset(topic, partition);
    boolean offsetRange = from != NO_FROM || until != Long.MAX_VALUE;
    // An Iceberg table's files hold __kafka_timestamp in microseconds: bounds in milliseconds.
    long unit = timestampColumn >= 0 && micros(schema, FileLayout.TIMESTAMP_COLUMN) ? 1000L : 1L;
    return g -> {
      RowGroup group = groups.get(g);
      if (offsetRange && offsetColumn >= 0) {
        Long min = bound(group.columns().get(offsetColumn), false);
        Long max = bound(group.columns().get(offsetColumn), true);
        if ((min != null && min >= until) || (max != null && max < from)) {
          return false;
        }
      }
      if (timestampColumn >= 0) {
        ColumnChunk chunk = group.columns().get(timestampColumn);
        if (allNull(chunk, group.numRows())) {
          return false; // a record without timestamp is outside every time range
        }
        Long min = bound(chunk, false);
        Long max = bound(chunk, true);
        min = min == null ? null : Math.floorDiv(min, unit);
        max = max == null ? null : Math.floorDiv(max, unit);
        if ((min != null && min >= untilTimestamp) || (max != null && max < fromTimestamp)) {
          return false;
        }
      }
      return true;
    };
  }

  /** Adds the original coordinates of a replayed record as headers, when configured. */
  void addOriginalHeaders(SourceRecord record, String topic, int partition, long offset) {
    if (!originalHeaders) {
      return;
    }
    Headers headers = record.headers();
    headers.addString(ORIGINAL_TOPIC, topic);
    headers.addInt(ORIGINAL_PARTITION, partition);
    headers.addLong(ORIGINAL_OFFSET, offset);
    if (record.timestamp() != null) {
      headers.addLong(ORIGINAL_TIMESTAMP, record.timestamp());
    }
  }

  /** The index of a top-level INT64 leaf column, or -1. */
  private static int int64Column(MessageType schema, String name) {
    int field = schema.root().fieldIndex(name);
    if (field < 0) {
      return -1;
    }
    SchemaNode node = schema.root().fields().get(field);
    if (!(node instanceof PrimitiveNode p) || p.type() != PhysicalType.INT64) {
      return -1;
    }
    try {
      return schema.column(name).index();
    } catch (IllegalArgumentException e) {
      return -1;
    }
  }

  /** Whether a top-level column is a TIMESTAMP(MICROS). */
  private static boolean micros(MessageType schema, String name) {
    int field = schema.root().fieldIndex(name);
    return field >= 0
        && schema.root().fields().get(field).logicalType() instanceof LogicalType.TimestampType ts
        && ts.unit() == TimeUnit.MICROS;
  }

  private static boolean allNull(ColumnChunk chunk, long rows) {
    if (chunk.metaData() == null || chunk.metaData().statistics() == null) {
      return false;
    }
    Long nulls = chunk.metaData().statistics().nullCount();
    return nulls != null && rows > 0 && nulls == rows;
  }

  /**
   * The minimum or maximum of a signed INT64 chunk by its statistics, or null when unknown. The
   * deprecated {@code min}/{@code max} of old writers are signed for INT64 too, so either serves.
   */
  static Long bound(ColumnChunk chunk, boolean max) {
    if (chunk.metaData() == null || chunk.metaData().statistics() == null) {
      return null;
    }
    Statistics s = chunk.metaData().statistics();
    ByteString value =
        max
            ? (s.maxValue() != null ? s.maxValue() : s.max())
            : (s.minValue() != null ? s.minValue() : s.min());
    if (value == null || value.length() != Long.BYTES) {
      return null;
    }
    return LittleEndian.getLong(value.toByteArray(), 0);
  }
}
