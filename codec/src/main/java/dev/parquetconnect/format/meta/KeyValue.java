package dev.parquetconnect.format.meta;

import java.util.Objects;

/** Thrift struct {@code KeyValue}: application metadata; the value is optional (null). */
public record KeyValue(String key, String value) {
  public KeyValue {
    Objects.requireNonNull(key, "key");
  }
}
