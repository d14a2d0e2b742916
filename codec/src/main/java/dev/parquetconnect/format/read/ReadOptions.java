package dev.parquetconnect.format.read;

/**
 * Limits and switches of the reader. Every limit bounds what one untrusted number in a file can
 * make the reader allocate or do; a file that needs more is refused with an {@link
 * dev.parquetconnect.format.UnsupportedFeatureException} naming the option to raise.
 *
 * @param verifyChecksums whether page CRCs are checked when a page carries one (default on)
 * @param maxPageSize the most bytes one page may hold, compressed or uncompressed (default 256
 *     MiB): the reader holds one such page per projected column
 * @param maxPageHeaderSize the largest page header accepted (default 16 MiB, as parquet-cpp)
 * @param maxFooterSize the largest footer accepted (default 256 MiB)
 * @param footerReadSize how many bytes at the end of the file are read at once to get the footer
 *     without a second request in the common case (default 64 KiB)
 * @param batchSize how many levels a column reader decodes per batch for record assembly (default
 *     4096)
 * @param maxRecordValues the most leaf values (including nulls and empty lists) one assembled
 *     record may hold (default 16 Mi): a few bytes of run-length levels can describe a record far
 *     larger than the heap, which the columnar API reads in batches but a record cannot be
 */
public record ReadOptions(
    boolean verifyChecksums,
    int maxPageSize,
    int maxPageHeaderSize,
    int maxFooterSize,
    int footerReadSize,
    int batchSize,
    int maxRecordValues) {

  public static final int DEFAULT_MAX_PAGE_SIZE = 256 << 20;
  public static final int DEFAULT_MAX_PAGE_HEADER_SIZE = 16 << 20;
  public static final int DEFAULT_MAX_FOOTER_SIZE = 256 << 20;
  public static final int DEFAULT_FOOTER_READ_SIZE = 64 << 10;
  public static final int DEFAULT_BATCH_SIZE = 4096;
  public static final int DEFAULT_MAX_RECORD_VALUES = 16 << 20;

  public ReadOptions {
    requirePositive(maxPageSize, "maxPageSize");
    requirePositive(maxPageHeaderSize, "maxPageHeaderSize");
    requirePositive(maxFooterSize, "maxFooterSize");
    if (footerReadSize < 8) {
      throw new IllegalArgumentException("footerReadSize " + footerReadSize + " < 8");
    }
    requirePositive(batchSize, "batchSize");
    requirePositive(maxRecordValues, "maxRecordValues");
  }

  private static void requirePositive(int value, String name) {
    if (value <= 0) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }

  public static ReadOptions defaults() {
    return new ReadOptions(
        true,
        DEFAULT_MAX_PAGE_SIZE,
        DEFAULT_MAX_PAGE_HEADER_SIZE,
        DEFAULT_MAX_FOOTER_SIZE,
        DEFAULT_FOOTER_READ_SIZE,
        DEFAULT_BATCH_SIZE,
        DEFAULT_MAX_RECORD_VALUES);
  }

  public ReadOptions withVerifyChecksums(boolean verify) {
    return new ReadOptions(
        verify,
        maxPageSize,
        maxPageHeaderSize,
        maxFooterSize,
        footerReadSize,
        batchSize,
        maxRecordValues);
  }

  public ReadOptions withMaxPageSize(int bytes) {
    return new ReadOptions(
        verifyChecksums,
        bytes,
        maxPageHeaderSize,
        maxFooterSize,
        footerReadSize,
        batchSize,
        maxRecordValues);
  }

  public ReadOptions withMaxPageHeaderSize(int bytes) {
    return new ReadOptions(
        verifyChecksums,
        maxPageSize,
        bytes,
        maxFooterSize,
        footerReadSize,
        batchSize,
        maxRecordValues);
  }

  public ReadOptions withMaxFooterSize(int bytes) {
    return new ReadOptions(
        verifyChecksums,
        maxPageSize,
        maxPageHeaderSize,
        bytes,
        footerReadSize,
        batchSize,
        maxRecordValues);
  }

  public ReadOptions withFooterReadSize(int bytes) {
    return new ReadOptions(
        verifyChecksums,
        maxPageSize,
        maxPageHeaderSize,
        maxFooterSize,
        bytes,
        batchSize,
        maxRecordValues);
  }

  public ReadOptions withBatchSize(int levels) {
    return new ReadOptions(
        verifyChecksums,
        maxPageSize,
        maxPageHeaderSize,
        maxFooterSize,
        footerReadSize,
        levels,
        maxRecordValues);
  }

  public ReadOptions withMaxRecordValues(int values) {
    return new ReadOptions(
        verifyChecksums,
        maxPageSize,
        maxPageHeaderSize,
        maxFooterSize,
        footerReadSize,
        batchSize,
        values);
  }
}
