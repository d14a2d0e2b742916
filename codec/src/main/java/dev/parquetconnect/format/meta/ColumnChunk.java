package dev.parquetconnect.format.meta;

/**
 * Thrift struct {@code ColumnChunk}: one column of a row group. Optional fields are null when
 * absent. {@code cryptoMetadata} or {@code encryptedColumnMetadata} being set means the column is
 * encrypted; see {@link #isEncrypted()}.
 */
public record ColumnChunk(
    String filePath,
    long fileOffset,
    ColumnMetaData metaData,
    Long offsetIndexOffset,
    Integer offsetIndexLength,
    Long columnIndexOffset,
    Integer columnIndexLength,
    ColumnCryptoMetaData cryptoMetadata,
    ByteString encryptedColumnMetadata) {

  /** Whether this chunk uses Parquet modular encryption, which this project does not read. */
  public boolean isEncrypted() {
    return cryptoMetadata != null || encryptedColumnMetadata != null;
  }
}
