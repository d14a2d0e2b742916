package dev.parquetconnect.format.meta;

import java.util.List;
import java.util.Objects;

/**
 * Thrift struct {@code ColumnIndex}: per-page min/max bounds of a column chunk, for page skipping.
 * The first four fields are required; the counts and level histograms are optional (null when
 * absent). {@code nanCounts} (field 8) is newer than some writers and readers.
 */
public record ColumnIndex(
    List<Boolean> nullPages,
    List<ByteString> minValues,
    List<ByteString> maxValues,
    BoundaryOrder boundaryOrder,
    List<Long> nullCounts,
    List<Long> repetitionLevelHistograms,
    List<Long> definitionLevelHistograms,
    List<Long> nanCounts) {

  public ColumnIndex {
    nullPages = Lists.copy(nullPages, "nullPages");
    minValues = Lists.copy(minValues, "minValues");
    maxValues = Lists.copy(maxValues, "maxValues");
    Objects.requireNonNull(boundaryOrder, "boundaryOrder");
    nullCounts = Lists.copyOrNull(nullCounts);
    repetitionLevelHistograms = Lists.copyOrNull(repetitionLevelHistograms);
    definitionLevelHistograms = Lists.copyOrNull(definitionLevelHistograms);
    nanCounts = Lists.copyOrNull(nanCounts);
  }
}
