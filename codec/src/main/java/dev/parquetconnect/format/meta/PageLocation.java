package dev.parquetconnect.format.meta;

/**
 * Thrift struct {@code PageLocation} of the offset index: a page's file offset, its size including
 * the page header, and the index of its first row in the row group.
 */
public record PageLocation(long offset, int compressedPageSize, long firstRowIndex) {}
