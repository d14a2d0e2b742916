package dev.parquetconnect.format.meta;

import java.util.Objects;

/** Thrift struct {@code DictionaryPageHeader}; {@code isSorted} is optional (null when absent). */
public record DictionaryPageHeader(int numValues, Encoding encoding, Boolean isSorted) {
  public DictionaryPageHeader {
    Objects.requireNonNull(encoding, "encoding");
  }
}
