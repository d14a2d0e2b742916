package dev.parquetconnect.format.meta;

import java.util.Objects;

/**
 * Thrift struct {@code DataPageHeaderV2}. {@code isCompressed} and {@code statistics} are optional
 * (null when absent); an absent {@code isCompressed} means compressed, see {@link
 * #valuesCompressed()}.
 */
public record DataPageHeaderV2(
    int numValues,
    int numNulls,
    int numRows,
    Encoding encoding,
    int definitionLevelsByteLength,
    int repetitionLevelsByteLength,
    Boolean isCompressed,
    Statistics statistics) {

  public DataPageHeaderV2 {
    Objects.requireNonNull(encoding, "encoding");
  }

  /**
   * Whether the values section is compressed with the chunk's codec (the Thrift default is true).
   */
  public boolean valuesCompressed() {
    return isCompressed == null || isCompressed;
  }
}
