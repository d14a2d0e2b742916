package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.CorruptDataException;

/** Thrift enum {@code Type}: the eight physical types, with their wire values. */
public enum PhysicalType {
  BOOLEAN(0),
  INT32(1),
  INT64(2),
  INT96(3),
  FLOAT(4),
  DOUBLE(5),
  BYTE_ARRAY(6),
  FIXED_LEN_BYTE_ARRAY(7);

  private static final PhysicalType[] BY_VALUE = values();

  private final int value;

  PhysicalType(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  public static PhysicalType fromValue(int value) throws CorruptDataException {
    PhysicalType t = fromValueOrNull(value);
    if (t == null) {
      throw new CorruptDataException("unknown physical type " + value);
    }
    return t;
  }

  /** The constant for a wire value, or null when the value is not defined. */
  public static PhysicalType fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }
}
