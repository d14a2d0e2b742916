package dev.parquetconnect.format.meta;

/** Thrift enum {@code EdgeInterpolationAlgorithm}: how a GEOGRAPHY column joins its vertices. */
public enum EdgeInterpolationAlgorithm {
  SPHERICAL(0),
  VINCENTY(1),
  THOMAS(2),
  ANDOYER(3),
  KARNEY(4);

  private static final EdgeInterpolationAlgorithm[] BY_VALUE = values();

  private final int value;

  EdgeInterpolationAlgorithm(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  /** The constant for a wire value, or null for an algorithm a newer writer may define. */
  public static EdgeInterpolationAlgorithm fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }
}
