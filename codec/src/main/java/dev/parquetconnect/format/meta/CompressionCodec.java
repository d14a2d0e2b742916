package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.UnsupportedFeatureException;

/** Thrift enum {@code CompressionCodec}, with its wire values. */
public enum CompressionCodec {
  UNCOMPRESSED(0),
  SNAPPY(1),
  GZIP(2),
  LZO(3),
  BROTLI(4),
  LZ4(5),
  ZSTD(6),
  LZ4_RAW(7);

  private static final CompressionCodec[] BY_VALUE = values();

  private final int value;

  CompressionCodec(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  public static CompressionCodec fromValue(int value) throws UnsupportedFeatureException {
    CompressionCodec c = fromValueOrNull(value);
    if (c == null) {
      throw new UnsupportedFeatureException("unknown compression codec " + value);
    }
    return c;
  }

  /** The constant for a wire value, or null for a codec a newer writer may define. */
  public static CompressionCodec fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }
}
