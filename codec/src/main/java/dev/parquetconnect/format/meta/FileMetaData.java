package dev.parquetconnect.format.meta;

import java.util.List;

/**
 * Thrift struct {@code FileMetaData}: the footer. Optional fields are null when absent, and an
 * absent list is kept apart from an empty one so the footer writes back byte for byte.
 */
public record FileMetaData(
    int version,
    List<SchemaElement> schema,
    long numRows,
    List<RowGroup> rowGroups,
    List<KeyValue> keyValueMetadata,
    String createdBy,
    List<ColumnOrder> columnOrders,
    EncryptionAlgorithm encryptionAlgorithm,
    ByteString footerSigningKeyMetadata) {

  public FileMetaData {
    schema = Lists.copy(schema, "schema");
    rowGroups = Lists.copy(rowGroups, "rowGroups");
    keyValueMetadata = Lists.copyOrNull(keyValueMetadata);
    columnOrders = Lists.copyOrNull(columnOrders);
  }

  /**
   * Whether the file uses Parquet modular encryption with a plaintext footer (an encrypted footer
   * never reaches this class: such files end in {@code PARE}). Readers refuse these files.
   */
  public boolean usesEncryption() {
    if (encryptionAlgorithm != null || footerSigningKeyMetadata != null) {
      return true;
    }
    for (RowGroup rowGroup : rowGroups) {
      for (ColumnChunk column : rowGroup.columns()) {
        if (column.isEncrypted()) {
          return true;
        }
      }
    }
    return false;
  }
}
