package dev.parquetconnect.format.meta;

/** Thrift enum {@code BoundaryOrder}: how a column index's per-page min/max values are ordered. */
public enum BoundaryOrder {
  UNORDERED(0),
  ASCENDING(1),
  DESCENDING(2);

  private static final BoundaryOrder[] BY_VALUE = values();

  private final int value;

  BoundaryOrder(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  /** The constant for a wire value, or null when the value is not defined. */
  public static BoundaryOrder fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }
}
