package dev.parquetconnect.format.write;

import dev.parquetconnect.format.meta.ColumnIndex;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.OffsetIndex;

/**
 * A column chunk once its pages are in the file: its metadata, and what the file writer stores
 * later, apart from the pages (indexes; the bloom filter).
 *
 * @param columnIndex null when the column cannot have one or page indexes are off
 * @param offsetIndex null when page indexes are off
 * @param bloomFilter null when the column has none or it has been written
 */
record WrittenChunk(
    ColumnMetaData metaData,
    ColumnIndex columnIndex,
    OffsetIndex offsetIndex,
    SplitBlockBloomFilter bloomFilter) {

  /** The chunk after its bloom filter was written at {@code offset}: the filter is let go. */
  WrittenChunk withBloomFilterAt(long offset, int length) {
    ColumnMetaData m = metaData;
    return new WrittenChunk(
        new ColumnMetaData(
            m.type(),
            m.encodings(),
            m.pathInSchema(),
            m.codec(),
            m.numValues(),
            m.totalUncompressedSize(),
            m.totalCompressedSize(),
            m.keyValueMetadata(),
            m.dataPageOffset(),
            m.indexPageOffset(),
            m.dictionaryPageOffset(),
            m.statistics(),
            m.encodingStats(),
            offset,
            length,
            m.sizeStatistics(),
            m.geospatialStatistics()),
        columnIndex,
        offsetIndex,
        null);
  }
}
