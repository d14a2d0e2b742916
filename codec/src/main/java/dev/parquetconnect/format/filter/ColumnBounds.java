package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnIndex;
import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.SortOrder;
import java.util.List;

/**
 * What the metadata says about the values of a column chunk or a page: the bounds, when they can be
 * trusted for the column's type, and the counts, -1 where unknown. Built from the chunk's {@link
 * Statistics} or one page of its {@link ColumnIndex}.
 *
 * <p>Which bounds are trusted: {@code min_value}/{@code max_value} (and the column index) when the
 * column order is the type's own, or when the file predates column orders; the deprecated {@code
 * min}/{@code max} only for types ordered as signed numbers (old writers compared byte strings as
 * signed bytes); none for types without an order (INT96, INTERVAL, unknown annotations, FLOAT16),
 * none when a floating bound is NaN or a bound does not have the width of its type.
 */
final class ColumnBounds {
  boolean hasMinMax;
  long minLong;
  long maxLong;
  double minDouble;
  double maxDouble;
  byte[] minBytes;
  byte[] maxBytes;

  /** Nulls, NaNs and values (nulls included), each -1 when unknown. */
  long nullCount = -1;

  long nanCount = -1;
  long valueCount = -1;
  boolean nullPage;

  /** Whether every value is null, as far as the metadata tells. */
  boolean allNull() {
    return nullPage || (nullCount >= 0 && valueCount >= 0 && nullCount >= valueCount);
  }

  /** Bounds of a whole column chunk from its statistics ({@code numValues}: the chunk's). */
  static ColumnBounds ofStatistics(
      Statistics stats,
      ColumnDescriptor column,
      Leaf.Kind kind,
      ColumnOrder order,
      long numValues) {
    ColumnBounds b = new ColumnBounds();
    b.valueCount = numValues;
    if (stats == null) {
      return b;
    }
    b.nullCount = stats.nullCount() == null ? -1 : stats.nullCount();
    b.nanCount = stats.nanCount() == null ? -1 : stats.nanCount();
    SortOrder sortOrder = column.primitive().sortOrder();
    if (stats.minValue() != null && stats.maxValue() != null && trustsTypeOrder(order, sortOrder)) {
      b.setBounds(stats.minValue(), stats.maxValue(), column, kind);
    } else if (stats.min() != null
        && stats.max() != null
        && sortOrder == SortOrder.SIGNED
        && !isBinary(column.primitive().type())) {
      b.setBounds(stats.min(), stats.max(), column, kind);
    }
    return b;
  }

  /** Bounds of page {@code page} of a column index; {@code rows}: the page's rows. */
  static ColumnBounds ofPage(
      ColumnIndex index,
      int page,
      ColumnDescriptor column,
      Leaf.Kind kind,
      ColumnOrder order,
      long rows) {
    ColumnBounds b = new ColumnBounds();
    b.valueCount = rows;
    b.nullPage = index.nullPages().get(page);
    List<Long> nulls = index.nullCounts();
    if (nulls != null && nulls.size() > page && nulls.get(page) != null) {
      b.nullCount = nulls.get(page);
    }
    List<Long> nans = index.nanCounts();
    if (nans != null && nans.size() > page && nans.get(page) != null) {
      b.nanCount = nans.get(page);
    }
    if (!b.nullPage && trustsTypeOrder(order, column.primitive().sortOrder())) {
      b.setBounds(index.minValues().get(page), index.maxValues().get(page), column, kind);
    }
    return b;
  }

  /**
   * Whether bounds written in {@code order} are in the order this reader compares in: the type's
   * own order; a file without column orders predates them (min_value and the column index came with
   * them, so their writers already used the type's order).
   */
  private static boolean trustsTypeOrder(ColumnOrder order, SortOrder sortOrder) {
    if (sortOrder == SortOrder.UNDEFINED || sortOrder == SortOrder.FLOAT16) {
      return false;
    }
    return order == null || order == ColumnOrder.TYPE_DEFINED;
  }

  private static boolean isBinary(PhysicalType type) {
    return type == PhysicalType.BYTE_ARRAY || type == PhysicalType.FIXED_LEN_BYTE_ARRAY;
  }

  private void setBounds(ByteString min, ByteString max, ColumnDescriptor column, Leaf.Kind kind) {
    PhysicalType type = column.primitive().type();
    switch (type) {
      case BOOLEAN -> {
        if (min.length() != 1 || max.length() != 1) {
          return;
        }
        minLong = min.byteAt(0) & 1;
        maxLong = max.byteAt(0) & 1;
      }
      case INT32 -> {
        if (min.length() != 4 || max.length() != 4) {
          return;
        }
        minLong = LittleEndian.getInt(min.toByteArray(), 0);
        maxLong = LittleEndian.getInt(max.toByteArray(), 0);
        if (kind == Leaf.Kind.UNSIGNED_INT32) {
          minLong &= 0xFFFFFFFFL;
          maxLong &= 0xFFFFFFFFL;
        }
      }
      case INT64 -> {
        if (min.length() != 8 || max.length() != 8) {
          return;
        }
        minLong = LittleEndian.getLong(min.toByteArray(), 0);
        maxLong = LittleEndian.getLong(max.toByteArray(), 0);
      }
      case FLOAT -> {
        if (min.length() != 4 || max.length() != 4) {
          return;
        }
        minDouble = Float.intBitsToFloat(LittleEndian.getInt(min.toByteArray(), 0));
        maxDouble = Float.intBitsToFloat(LittleEndian.getInt(max.toByteArray(), 0));
        if (Double.isNaN(minDouble) || Double.isNaN(maxDouble)) {
          return;
        }
      }
      case DOUBLE -> {
        if (min.length() != 8 || max.length() != 8) {
          return;
        }
        minDouble = Double.longBitsToDouble(LittleEndian.getLong(min.toByteArray(), 0));
        maxDouble = Double.longBitsToDouble(LittleEndian.getLong(max.toByteArray(), 0));
        if (Double.isNaN(minDouble) || Double.isNaN(maxDouble)) {
          return;
        }
      }
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> {
        minBytes = min.toByteArray();
        maxBytes = max.toByteArray();
      }
      default -> {
        return;
      }
    }
    hasMinMax = true;
  }
}
