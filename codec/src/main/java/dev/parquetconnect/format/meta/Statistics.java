package dev.parquetconnect.format.meta;

/**
 * Thrift struct {@code Statistics} of a page or column chunk; every field is optional (null when
 * absent). {@code max}/{@code min} are the deprecated signed-order bounds kept for old files;
 * {@code maxValue}/{@code minValue} follow the column's {@link ColumnOrder}. {@code nanCount}
 * (field 9) is newer than some writers and readers, which skip it.
 */
public record Statistics(
    ByteString max,
    ByteString min,
    Long nullCount,
    Long distinctCount,
    ByteString maxValue,
    ByteString minValue,
    Boolean isMaxValueExact,
    Boolean isMinValueExact,
    Long nanCount) {

  /** Statistics with no field set. */
  public static final Statistics EMPTY =
      new Statistics(null, null, null, null, null, null, null, null, null);
}
