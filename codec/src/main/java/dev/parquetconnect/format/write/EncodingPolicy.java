package dev.parquetconnect.format.write;

/**
 * Which value encodings the writer may choose for a column when no override names one. Every policy
 * tries the dictionary first; they differ in what a column without one (dictionary off, or fallen
 * back) may use. docs/compatibility.md lists which engine reads which encoding.
 */
public enum EncodingPolicy {
  /**
   * The default: the encoding that is smallest on the column's first fallback page, among those the
   * default readers of Spark 3.3+ (vectorized), Trino, Arrow C++, DuckDB and parquet-java all read:
   * DELTA_BINARY_PACKED for sorted or narrow integers, DELTA_BYTE_ARRAY for strings sharing
   * prefixes, DELTA_LENGTH_BYTE_ARRAY for other strings, PLAIN where nothing beats it. Floating
   * point columns stay PLAIN: BYTE_STREAM_SPLIT is refused by Spark's vectorized reader before
   * Spark 4.1 and by Trino. Booleans in v2 pages are RLE.
   */
  ADAPTIVE,
  /**
   * {@link #ADAPTIVE} plus BYTE_STREAM_SPLIT for compressed FLOAT and DOUBLE columns where it is
   * smaller: for lakes read only by engines that read it (DuckDB, Arrow C++, parquet-java, Spark
   * 4.1+), not by Spark 3.x/4.0's default reader or Trino.
   */
  EXTENDED,
  /**
   * Dictionary and PLAIN only, for readers that predate the delta encodings (Spark before 3.3
   * vectorized, Iceberg's vectorized Spark reader before 1.10, Impala, Hive).
   */
  COMPATIBLE;

  /** The policy of a {@code parquet.encoding.policy} / {@code --policy} value (any case). */
  public static EncodingPolicy parse(String name) {
    return valueOf(name.trim().toUpperCase(java.util.Locale.ROOT));
  }
}
