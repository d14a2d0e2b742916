package dev.parquetconnect.format.write;

import dev.parquetconnect.format.meta.BoundaryOrder;
import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnIndex;
import dev.parquetconnect.format.meta.OffsetIndex;
import dev.parquetconnect.format.meta.PageLocation;
import java.util.ArrayList;
import java.util.List;

/**
 * The page index of one column chunk, page by page: where each data page is (OffsetIndex) and what
 * bounds its values (ColumnIndex). Page offsets are kept relative to the first data page and made
 * absolute when the chunk's place in the file is known.
 *
 * <p>No column index is produced for a column without an order (nothing could be put in
 * min_values), nor when a page has values but no bounds (all NaN): parquet.thrift forbids both. Nor
 * when any page holds a NaN: a column index has no way to say "and NaN" that readers without
 * nan_count understand (parquet-java 1.16, so Spark, would skip the page for {@code x = NaN} and
 * {@code x > 5}), so it is left out, as parquet-java's writer does when it meets one.
 */
final class PageIndexBuilder {
  private final ValueStatistics order;
  private final StatisticsFormat format;
  private final boolean ordered;
  private final boolean recordsNans;
  private final boolean byteArray;

  /** Histogram widths, 0 when the histogram is not recorded. */
  private final int repetitionWidth;

  private final int definitionWidth;

  private final List<Long> relativeOffsets = new ArrayList<>();
  private final List<Integer> sizes = new ArrayList<>();
  private final List<Long> firstRows = new ArrayList<>();
  private final List<Boolean> nullPages = new ArrayList<>();
  private final List<ByteString> mins = new ArrayList<>();
  private final List<ByteString> maxes = new ArrayList<>();
  private final List<byte[]> rawMins = new ArrayList<>();
  private final List<byte[]> rawMaxes = new ArrayList<>();
  private final List<Long> nullCounts = new ArrayList<>();
  private final List<Long> nanCounts = new ArrayList<>();
  private final List<Long> repetitionHistograms = new ArrayList<>();
  private final List<Long> definitionHistograms = new ArrayList<>();
  private final List<Long> unencodedBytes = new ArrayList<>();
  private boolean boundsMissing;

  PageIndexBuilder(
      ValueStatistics order,
      StatisticsFormat format,
      boolean byteArray,
      int repetitionWidth,
      int definitionWidth) {
    this.order = order;
    this.format = format;
    this.ordered = !(order instanceof UnorderedStatistics);
    this.recordsNans = format.countsNans();
    this.byteArray = byteArray;
    this.repetitionWidth = repetitionWidth;
    this.definitionWidth = definitionWidth;
  }

  int pageCount() {
    return sizes.size();
  }

  /**
   * Records a data page.
   *
   * @param relativeOffset the page's offset from the first data page of the chunk
   * @param size the page's bytes, header included
   * @param page the page's statistics
   * @param values the page's non-null values
   */
  void addPage(
      long relativeOffset,
      int size,
      long firstRow,
      ValueStatistics page,
      int values,
      long[] repetitionHistogram,
      long[] definitionHistogram,
      long unencodedByteArrayBytes) {
    relativeOffsets.add(relativeOffset);
    sizes.add(size);
    firstRows.add(firstRow);
    boolean nullPage = values == 0;
    nullPages.add(nullPage);
    boundsMissing |= page.nanCount > 0;
    if (ordered && !nullPage && page.hasMinMax()) {
      byte[] lower = format.lowerBound(page.min());
      byte[] upper = format.upperBound(page.max());
      rawMins.add(lower);
      rawMaxes.add(upper);
      mins.add(ByteString.copyOf(lower));
      maxes.add(ByteString.copyOf(upper));
    } else {
      boundsMissing |= !nullPage;
      rawMins.add(null);
      rawMaxes.add(null);
      mins.add(ByteString.EMPTY);
      maxes.add(ByteString.EMPTY);
    }
    nullCounts.add(page.nullCount);
    nanCounts.add(page.nanCount);
    for (int i = 0; i < repetitionWidth; i++) {
      repetitionHistograms.add(repetitionHistogram[i]);
    }
    for (int i = 0; i < definitionWidth; i++) {
      definitionHistograms.add(definitionHistogram[i]);
    }
    unencodedBytes.add(unencodedByteArrayBytes);
  }

  /** The column index, or null when the column cannot have one. */
  ColumnIndex columnIndex() {
    if (!ordered || boundsMissing || sizes.isEmpty()) {
      return null;
    }
    return new ColumnIndex(
        nullPages,
        mins,
        maxes,
        boundaryOrder(),
        nullCounts,
        repetitionWidth > 0 ? repetitionHistograms : null,
        definitionWidth > 0 ? definitionHistograms : null,
        recordsNans ? nanCounts : null);
  }

  /** Whether the non-null pages' bounds ascend, descend or neither (all equal: ascending). */
  private BoundaryOrder boundaryOrder() {
    boolean ascending = true;
    boolean descending = true;
    byte[] previousMin = null;
    byte[] previousMax = null;
    for (int i = 0; i < rawMins.size(); i++) {
      byte[] min = rawMins.get(i);
      if (min == null) {
        continue;
      }
      byte[] max = rawMaxes.get(i);
      if (previousMin != null) {
        int byMin = order.compareBounds(previousMin, min);
        int byMax = order.compareBounds(previousMax, max);
        ascending &= byMin <= 0 && byMax <= 0;
        descending &= byMin >= 0 && byMax >= 0;
      }
      previousMin = min;
      previousMax = max;
    }
    return ascending
        ? BoundaryOrder.ASCENDING
        : descending ? BoundaryOrder.DESCENDING : BoundaryOrder.UNORDERED;
  }

  /** The offset index, with the first data page at {@code firstDataPageOffset} in the file. */
  OffsetIndex offsetIndex(long firstDataPageOffset) {
    List<PageLocation> locations = new ArrayList<>(sizes.size());
    for (int i = 0; i < sizes.size(); i++) {
      locations.add(
          new PageLocation(
              firstDataPageOffset + relativeOffsets.get(i), sizes.get(i), firstRows.get(i)));
    }
    return new OffsetIndex(locations, byteArray ? unencodedBytes : null);
  }

  void clear() {
    relativeOffsets.clear();
    sizes.clear();
    firstRows.clear();
    nullPages.clear();
    mins.clear();
    maxes.clear();
    rawMins.clear();
    rawMaxes.clear();
    nullCounts.clear();
    nanCounts.clear();
    repetitionHistograms.clear();
    definitionHistograms.clear();
    unencodedBytes.clear();
    boundsMissing = false;
  }
}
