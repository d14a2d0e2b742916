package dev.parquetconnect.format.write;

import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SortOrder;
import java.util.Arrays;

/**
 * Turns a column's {@link ValueStatistics} into what the file stores: the Thrift {@code Statistics}
 * of a chunk (or page header) and the bounds of a column index entry.
 *
 * <ul>
 *   <li>min_value/max_value are always written when there is a bound; BYTE_ARRAY bounds in byte
 *       order are truncated to the configured length ({@link BoundTruncation}) and flagged inexact.
 *       FIXED_LEN_BYTE_ARRAY bounds are never truncated (a shorter value would not be a value of
 *       the type), nor are DECIMAL ones (a prefix of a number is another number).
 *   <li>The deprecated min/max are written where parquet-java writes them, for old readers: when
 *       the column's order is signed in parquet-java's view (integers, dates, times, floats,
 *       FLOAT16, booleans; not DECIMAL, which it leaves unordered), or when min equals max.
 *   <li>null_count always; nan_count always for FLOAT, DOUBLE and FLOAT16.
 *   <li>No min/max at all for values that include a NaN, as parquet-java's reader treats a NaN
 *       bound. Readers that know no nan_count (parquet-java up to 1.16, so Spark's filter and
 *       aggregate pushdown) take min/max as covering every value, and order NaN above every number:
 *       with NaN left out of the bounds, {@code x = NaN} and {@code x > 5} skip chunks that hold
 *       NaN, and MAX(x) from the footer is a number where a scan gives NaN.
 * </ul>
 */
final class StatisticsFormat {
  private final int truncateLength;
  private final boolean truncatable;
  private final boolean utf8;
  private final boolean deprecatedMinMax;
  private final boolean countsNans;

  StatisticsFormat(PrimitiveNode column, int truncateLength) {
    this.truncateLength = truncateLength;
    SortOrder order = column.sortOrder();
    this.truncatable = column.type() == PhysicalType.BYTE_ARRAY && order == SortOrder.UNSIGNED;
    this.utf8 = isText(column);
    boolean decimal = column.logicalType() instanceof LogicalType.DecimalType;
    this.deprecatedMinMax = (order == SortOrder.SIGNED && !decimal) || order == SortOrder.FLOAT16;
    this.countsNans = ValueStatistics.countsNans(column);
  }

  private static boolean isText(PrimitiveNode column) {
    LogicalType t = column.logicalType();
    if (t instanceof LogicalType.StringType
        || t instanceof LogicalType.EnumType
        || t instanceof LogicalType.JsonType) {
      return true;
    }
    ConvertedType c = column.convertedType();
    return c == ConvertedType.UTF8 || c == ConvertedType.ENUM || c == ConvertedType.JSON;
  }

  /** The statistics to store for {@code stats}. */
  Statistics toThrift(ValueStatistics stats) {
    Long nans = countsNans ? stats.nanCount : null;
    if (!stats.hasMinMax() || stats.nanCount > 0) {
      return new Statistics(null, null, stats.nullCount, null, null, null, null, null, nans);
    }
    byte[] min = stats.min();
    byte[] max = stats.max();
    byte[] lower = lowerBound(min);
    byte[] upper = upperBound(max);
    boolean minExact = lower == min;
    boolean maxExact = upper == max;
    boolean deprecated = deprecatedMinMax || (minExact && maxExact && Arrays.equals(min, max));
    ByteString lo = ByteString.copyOf(lower);
    ByteString hi = ByteString.copyOf(upper);
    return new Statistics(
        deprecated ? hi : null,
        deprecated ? lo : null,
        stats.nullCount,
        null,
        hi,
        lo,
        maxExact,
        minExact,
        nans);
  }

  /** The minimum as a column index or statistics lower bound: truncated when allowed. */
  byte[] lowerBound(byte[] min) {
    return truncatable ? BoundTruncation.truncateMin(min, truncateLength, utf8) : min;
  }

  /** The maximum as an upper bound: truncated and incremented when allowed. */
  byte[] upperBound(byte[] max) {
    return truncatable ? BoundTruncation.truncateMax(max, truncateLength, utf8) : max;
  }

  boolean countsNans() {
    return countsNans;
  }
}
