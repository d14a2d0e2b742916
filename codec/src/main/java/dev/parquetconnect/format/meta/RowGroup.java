package dev.parquetconnect.format.meta;

import java.util.List;

/**
 * Thrift struct {@code RowGroup}: its column chunks and sizes. Optional fields are null when
 * absent.
 */
public record RowGroup(
    List<ColumnChunk> columns,
    long totalByteSize,
    long numRows,
    List<SortingColumn> sortingColumns,
    Long fileOffset,
    Long totalCompressedSize,
    Short ordinal) {

  public RowGroup {
    columns = Lists.copy(columns, "columns");
    sortingColumns = Lists.copyOrNull(sortingColumns);
  }
}
