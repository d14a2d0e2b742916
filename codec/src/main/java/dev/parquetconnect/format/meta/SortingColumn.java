package dev.parquetconnect.format.meta;

/** Thrift struct {@code SortingColumn}: one sort key of a row group, by leaf column index. */
public record SortingColumn(int columnIdx, boolean descending, boolean nullsFirst) {}
