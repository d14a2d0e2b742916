package dev.parquetconnect.format.meta;

/** Thrift struct {@code IndexPageHeader}: empty in the format, index pages are never written. */
public record IndexPageHeader() {
  public static final IndexPageHeader INSTANCE = new IndexPageHeader();
}
