package dev.parquetconnect.format.schema;

/**
 * How min/max statistics of a column compare values, from its physical and logical type
 * (parquet-format's "sort order" of each logical type).
 */
public enum SortOrder {
  /** Two's complement integers, IEEE-754 floats, big-endian two's complement decimals. */
  SIGNED,
  /** Unsigned integers and byte strings compared as unsigned bytes, lexicographically. */
  UNSIGNED,
  /** FLOAT16: half-precision floats in two little-endian bytes. */
  FLOAT16,
  /** No defined order (INT96, INTERVAL, an unknown annotation): no min/max is written or used. */
  UNDEFINED
}
