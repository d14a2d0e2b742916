package dev.parquetconnect.format.meta;

import java.util.Objects;

/** Thrift struct {@code DataPageHeader} (v1 data page); {@code statistics} is optional (null). */
public record DataPageHeader(
    int numValues,
    Encoding encoding,
    Encoding definitionLevelEncoding,
    Encoding repetitionLevelEncoding,
    Statistics statistics) {

  public DataPageHeader {
    Objects.requireNonNull(encoding, "encoding");
    Objects.requireNonNull(definitionLevelEncoding, "definitionLevelEncoding");
    Objects.requireNonNull(repetitionLevelEncoding, "repetitionLevelEncoding");
  }
}
