package dev.parquetconnect.format.meta;

/**
 * Thrift union {@code TimeUnit}, whose members are all empty structs, so it is an enum here: the
 * constant's {@link #fieldId()} is the union member's field id.
 */
public enum TimeUnit {
  MILLIS(1),
  MICROS(2),
  NANOS(3);

  private final int fieldId;

  TimeUnit(int fieldId) {
    this.fieldId = fieldId;
  }

  public int fieldId() {
    return fieldId;
  }

  /** The unit for a union member id, or null for a unit a newer writer may define. */
  public static TimeUnit fromFieldIdOrNull(int fieldId) {
    return switch (fieldId) {
      case 1 -> MILLIS;
      case 2 -> MICROS;
      case 3 -> NANOS;
      default -> null;
    };
  }
}
