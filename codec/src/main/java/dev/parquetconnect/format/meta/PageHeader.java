package dev.parquetconnect.format.meta;

import java.util.Objects;

/**
 * Thrift struct {@code PageHeader}. {@code crc} and the per-type headers are optional (null when
 * absent); the one matching {@code type} is normally set, but the format does not force it, so
 * readers check. Page sizes are never negative (the codec rejects such headers as corrupt).
 */
public record PageHeader(
    PageType type,
    int uncompressedPageSize,
    int compressedPageSize,
    Integer crc,
    DataPageHeader dataPageHeader,
    IndexPageHeader indexPageHeader,
    DictionaryPageHeader dictionaryPageHeader,
    DataPageHeaderV2 dataPageHeaderV2) {

  public PageHeader {
    Objects.requireNonNull(type, "type");
    if (uncompressedPageSize < 0 || compressedPageSize < 0) {
      throw new IllegalArgumentException(
          "negative page size: uncompressed "
              + uncompressedPageSize
              + ", compressed "
              + compressedPageSize);
    }
  }
}
