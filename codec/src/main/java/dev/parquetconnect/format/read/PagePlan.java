package dev.parquetconnect.format.read;

import dev.parquetconnect.format.filter.RowRanges;
import dev.parquetconnect.format.meta.PageLocation;
import java.util.List;

/**
 * The data pages of a column chunk to read when only some rows are wanted: those of its offset
 * index whose rows overlap the wanted ranges, with where each is, how large, and which rows it
 * holds. Pages the plan leaves out are never fetched.
 */
final class PagePlan {
  private final long firstPageOffset;
  private final long[] offsets;
  private final int[] sizes;
  private final long[] firstRows;
  private final long[] endRows;
  private final int count;

  private PagePlan(
      long firstPageOffset,
      long[] offsets,
      int[] sizes,
      long[] firstRows,
      long[] endRows,
      int count) {
    this.firstPageOffset = firstPageOffset;
    this.offsets = offsets;
    this.sizes = sizes;
    this.firstRows = firstRows;
    this.endRows = endRows;
    this.count = count;
  }

  /**
   * The pages of {@code pages} (an offset index already checked with {@code PageRows.consistent})
   * that hold rows of {@code wanted}, in a row group of {@code rowCount} rows.
   */
  static PagePlan of(List<PageLocation> pages, RowRanges wanted, long rowCount) {
    int n = pages.size();
    long[] offsets = new long[n];
    int[] sizes = new int[n];
    long[] firstRows = new long[n];
    long[] endRows = new long[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      long start = pages.get(i).firstRowIndex();
      long end = i + 1 < n ? pages.get(i + 1).firstRowIndex() : rowCount;
      if (wanted.overlaps(start, end)) {
        offsets[count] = pages.get(i).offset();
        sizes[count] = pages.get(i).compressedPageSize();
        firstRows[count] = start;
        endRows[count] = end;
        count++;
      }
    }
    return new PagePlan(pages.get(0).offset(), offsets, sizes, firstRows, endRows, count);
  }

  long firstPageOffset() {
    return firstPageOffset;
  }

  int count() {
    return count;
  }

  long offset(int page) {
    return offsets[page];
  }

  int size(int page) {
    return sizes[page];
  }

  long firstRow(int page) {
    return firstRows[page];
  }

  long endRow(int page) {
    return endRows[page];
  }
}
