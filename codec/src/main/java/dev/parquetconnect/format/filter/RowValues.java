package dev.parquetconnect.format.filter;

/**
 * The values of the current row that a {@link BoundPredicate} tests, by file column index ({@link
 * dev.parquetconnect.format.schema.ColumnDescriptor#index()}). Only the columns the predicate reads
 * are asked for, and only the accessor of their physical type, after {@link #isNull} said false.
 */
public interface RowValues {
  boolean isNull(int column);

  /** BOOLEAN as 0 or 1, INT32 sign-extended, INT64. */
  long longValue(int column);

  /** FLOAT widened, or DOUBLE. */
  double doubleValue(int column);

  /** The array holding a BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY value. */
  byte[] binaryArray(int column);

  int binaryOffset(int column);

  int binaryLength(int column);
}
