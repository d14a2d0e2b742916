package dev.parquetconnect.format.meta;

/**
 * Thrift enum {@code FieldRepetitionType}: whether a schema field is required, optional or
 * repeated.
 */
public enum FieldRepetitionType {
  REQUIRED(0),
  OPTIONAL(1),
  REPEATED(2);

  private static final FieldRepetitionType[] BY_VALUE = values();

  private final int value;

  FieldRepetitionType(int value) {
    this.value = value;
  }

  public int value() {
    return value;
  }

  /** The constant for a wire value, or null when the value is not defined. */
  public static FieldRepetitionType fromValueOrNull(int value) {
    return value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
  }
}
