package dev.parquetconnect.format.meta;

/**
 * Thrift enum {@code ConvertedType}: the legacy annotation on a schema element, superseded by
 * {@link LogicalType} but still written beside it for old readers. The list is frozen upstream, so
 * a value outside it means damaged metadata rather than a newer writer.
 */
public enum ConvertedType {
  UTF8(0),
  MAP(1),
  MAP_KEY_VALUE(2),
  LIST(3),
  ENUM(4),
  DECIMAL(5),
  DATE(6),
  TIME_MILLIS(7),
  TIME_MICROS(8),
  TIMESTAMP_MILLIS(9),
  TIMESTAMP_MICROS(10),
  UINT_8(11),
  UINT_16(12),
  UINT_32(13),
  UINT_64(14),
  INT_8(15),
  INT_16(16),
  INT_32(17),
  INT_64(18),
  JSON(19),
  BSON(20),
  INTERVAL(21);

  private static final ConvertedType[] BY_VALUE = values();

  private final int value;

  ConvertedType(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  /** The constant for a wire value, or null when the value is not defined. */
  public static ConvertedType fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }
}
