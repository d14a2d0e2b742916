package dev.parquetconnect.format.write;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SortOrder;

/**
 * Min, max, null and NaN counts of a page or a column chunk, in the sort order of the column's
 * logical type. A page's values are folded in one typed loop when the page closes ({@link
 * #addValues}); a chunk's statistics are the merge of its pages'. Bounds come out PLAIN-encoded
 * (byte strings without a length prefix), untruncated; {@link StatisticsFormat} truncates them.
 */
abstract sealed class ValueStatistics
    permits BooleanStatistics,
        IntStatistics,
        LongStatistics,
        FloatStatistics,
        DoubleStatistics,
        BinaryStatistics,
        Float16Statistics,
        UnorderedStatistics {

  long nullCount;
  long nanCount;

  /** The statistics class for {@code column}'s physical type and sort order. */
  static ValueStatistics forColumn(PrimitiveNode column) {
    SortOrder order = column.sortOrder();
    if (order == SortOrder.UNDEFINED) {
      return new UnorderedStatistics();
    }
    PhysicalType type = column.type();
    return switch (type) {
      case BOOLEAN -> new BooleanStatistics();
      case INT32 -> new IntStatistics(order == SortOrder.UNSIGNED);
      case INT64 -> new LongStatistics(order == SortOrder.UNSIGNED);
      case FLOAT -> new FloatStatistics();
      case DOUBLE -> new DoubleStatistics();
      case FIXED_LEN_BYTE_ARRAY, BYTE_ARRAY ->
          order == SortOrder.FLOAT16
              ? new Float16Statistics()
              : new BinaryStatistics(order == SortOrder.SIGNED);
      case INT96 -> new UnorderedStatistics();
    };
  }

  /** Whether NaN counts belong to this column's statistics (FLOAT, DOUBLE, FLOAT16). */
  static boolean countsNans(PrimitiveNode column) {
    return column.type() == PhysicalType.FLOAT
        || column.type() == PhysicalType.DOUBLE
        || (column.logicalType() instanceof LogicalType.Float16Type
            && column.sortOrder() == SortOrder.FLOAT16);
  }

  /** Folds in the page's non-null values. */
  abstract void addValues(PageBuffer page);

  /** Folds in another accumulator of the same column (a closed page into its chunk). */
  final void merge(ValueStatistics other) {
    nullCount += other.nullCount;
    nanCount += other.nanCount;
    if (other.hasMinMax()) {
      mergeMinMax(other);
    }
  }

  abstract void mergeMinMax(ValueStatistics other);

  /** Whether a min and max exist: some value was non-null (and not NaN). */
  abstract boolean hasMinMax();

  /** The minimum, PLAIN-encoded; only when {@link #hasMinMax()}. */
  abstract byte[] min();

  /** The maximum, PLAIN-encoded; only when {@link #hasMinMax()}. */
  abstract byte[] max();

  /** Compares two PLAIN-encoded bounds (possibly truncated) in this column's order. */
  abstract int compareBounds(byte[] a, byte[] b);

  /** Starts over, for the next page or chunk. */
  void reset() {
    nullCount = 0;
    nanCount = 0;
    resetMinMax();
  }

  abstract void resetMinMax();
}
