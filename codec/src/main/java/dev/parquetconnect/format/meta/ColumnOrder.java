package dev.parquetconnect.format.meta;

/**
 * Thrift union {@code ColumnOrder}: the order the min/max statistics of a column follow. Its
 * members are empty structs, so it is an enum here; {@link #UNRECOGNIZED} stands for a member a
 * newer writer defined, for which the specification says min/max statistics must be ignored.
 */
public enum ColumnOrder {
  /** {@code TYPE_ORDER}: the order of the logical type, or of the physical type without one. */
  TYPE_DEFINED(1),
  /** {@code IEEE_754_TOTAL_ORDER}: IEEE 754 total order for FLOAT, DOUBLE and FLOAT16. */
  IEEE_754_TOTAL(2),
  /** {@code INT96_TIMESTAMP_ORDER}: chronological order of INT96 timestamps. */
  INT96_TIMESTAMP(3),
  /** A member this codec does not know; it cannot be written back. */
  UNRECOGNIZED(-1);

  private final int fieldId;

  ColumnOrder(int fieldId) {
    this.fieldId = fieldId;
  }

  /** The union member's field id, or -1 for {@link #UNRECOGNIZED}. */
  public int fieldId() {
    return fieldId;
  }

  static ColumnOrder fromFieldId(int fieldId) {
    return switch (fieldId) {
      case 1 -> TYPE_DEFINED;
      case 2 -> IEEE_754_TOTAL;
      case 3 -> INT96_TIMESTAMP;
      default -> UNRECOGNIZED;
    };
  }
}
