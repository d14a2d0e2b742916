package dev.parquetconnect.format.meta;

import java.util.List;
import java.util.Objects;

/**
 * Thrift struct {@code ColumnMetaData}: where a column chunk's pages are and how they are coded.
 * Optional fields are null when absent. {@code encodings} holds only the encodings this codec
 * knows; values a newer writer added are dropped on read.
 */
public record ColumnMetaData(
    PhysicalType type,
    List<Encoding> encodings,
    List<String> pathInSchema,
    CompressionCodec codec,
    long numValues,
    long totalUncompressedSize,
    long totalCompressedSize,
    List<KeyValue> keyValueMetadata,
    long dataPageOffset,
    Long indexPageOffset,
    Long dictionaryPageOffset,
    Statistics statistics,
    List<PageEncodingStats> encodingStats,
    Long bloomFilterOffset,
    Integer bloomFilterLength,
    SizeStatistics sizeStatistics,
    GeospatialStatistics geospatialStatistics) {

  public ColumnMetaData {
    Objects.requireNonNull(type, "type");
    encodings = Lists.copy(encodings, "encodings");
    pathInSchema = Lists.copy(pathInSchema, "pathInSchema");
    Objects.requireNonNull(codec, "codec");
    keyValueMetadata = Lists.copyOrNull(keyValueMetadata);
    encodingStats = Lists.copyOrNull(encodingStats);
  }
}
