package dev.parquetconnect.format.filter;

import java.util.Arrays;

/**
 * A set of row indexes of a row group as sorted, disjoint, non-adjacent ranges {@code [start,
 * end)}: the rows a predicate may match after pruning, or the rows a page covers. Immutable.
 */
public final class RowRanges {
  private static final RowRanges EMPTY = new RowRanges(new long[0], new long[0], 0);

  private final long[] starts;
  private final long[] ends;
  private final int count;

  private RowRanges(long[] starts, long[] ends, int count) {
    this.starts = starts;
    this.ends = ends;
    this.count = count;
  }

  public static RowRanges empty() {
    return EMPTY;
  }

  /** Every row of a row group of {@code rows} rows. */
  public static RowRanges all(long rows) {
    return of(0, rows);
  }

  /** The rows {@code [start, end)}. */
  public static RowRanges of(long start, long end) {
    if (start < 0 || end < start) {
      throw new IllegalArgumentException("row range [" + start + ", " + end + ")");
    }
    return start == end ? EMPTY : new RowRanges(new long[] {start}, new long[] {end}, 1);
  }

  /** Collects ranges given in increasing order of start (overlapping or adjacent ones merge). */
  public static final class Builder {
    private long[] starts = new long[8];
    private long[] ends = new long[8];
    private int count;

    /** Adds {@code [start, end)}; {@code start} must not be below the previous range's start. */
    public Builder add(long start, long end) {
      if (start >= end) {
        return this;
      }
      if (count > 0 && start < starts[count - 1]) {
        throw new IllegalArgumentException("row ranges added out of order");
      }
      if (count > 0 && start <= ends[count - 1]) {
        ends[count - 1] = Math.max(ends[count - 1], end);
        return this;
      }
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
        ends = Arrays.copyOf(ends, count * 2);
      }
      starts[count] = start;
      ends[count] = end;
      count++;
      return this;
    }

    public RowRanges build() {
      return count == 0 ? EMPTY : new RowRanges(starts, ends, count);
    }
  }

  public int rangeCount() {
    return count;
  }

  public long start(int range) {
    return starts[range];
  }

  public long end(int range) {
    return ends[range];
  }

  public boolean isEmpty() {
    return count == 0;
  }

  /** How many rows the ranges hold. */
  public long rowCount() {
    long rows = 0;
    for (int i = 0; i < count; i++) {
      rows += ends[i] - starts[i];
    }
    return rows;
  }

  /** Whether any row of {@code [start, end)} is in these ranges. */
  public boolean overlaps(long start, long end) {
    int i = firstEndingAfter(start);
    return i < count && starts[i] < end;
  }

  public boolean contains(long row) {
    int i = firstEndingAfter(row);
    return i < count && starts[i] <= row;
  }

  /** The smallest row at or after {@code row} in these ranges, or -1 when there is none. */
  public long nextRow(long row) {
    int i = firstEndingAfter(row);
    if (i == count) {
      return -1;
    }
    return Math.max(row, starts[i]);
  }

  /** The index of the first range whose end is past {@code row} ({@code count} when none). */
  private int firstEndingAfter(long row) {
    int lo = 0;
    int hi = count;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ends[mid] <= row) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  public RowRanges union(RowRanges other) {
    Builder b = new Builder();
    int i = 0;
    int j = 0;
    while (i < count || j < other.count) {
      if (j == other.count || (i < count && starts[i] <= other.starts[j])) {
        b.add(starts[i], ends[i]);
        i++;
      } else {
        b.add(other.starts[j], other.ends[j]);
        j++;
      }
    }
    return b.build();
  }

  public RowRanges intersect(RowRanges other) {
    Builder b = new Builder();
    int i = 0;
    int j = 0;
    while (i < count && j < other.count) {
      long start = Math.max(starts[i], other.starts[j]);
      long end = Math.min(ends[i], other.ends[j]);
      b.add(start, end);
      if (ends[i] < other.ends[j]) {
        i++;
      } else {
        j++;
      }
    }
    return b.build();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RowRanges r) || r.count != count) {
      return false;
    }
    for (int i = 0; i < count; i++) {
      if (starts[i] != r.starts[i] || ends[i] != r.ends[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = count;
    for (int i = 0; i < count; i++) {
      h = 31 * h + Long.hashCode(starts[i]);
      h = 31 * h + Long.hashCode(ends[i]);
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("[");
    for (int i = 0; i < count; i++) {
      s.append(i == 0 ? "" : ", ").append('[').append(starts[i]).append(", ").append(ends[i]);
      s.append(')');
    }
    return s.append(']').toString();
  }
}
