package dev.parquetconnect.format.write;

/** Which value encodings the writer may choose for a column when no override names one. */
public enum EncodingPolicy {
  /**
   * Dictionary first; when the dictionary is off or falls back, the encoding that is smallest
   * on the column's first fallback page: DELTA_BINARY_PACKED for sorted or narrow integers,
   * DELTA_BYTE_ARRAY for strings sharing prefixes, DELTA_LENGTH_BYTE_ARRAY for other strings,
   * BYTE_STREAM_SPLIT for compressed floats, PLAIN where nothing beats it. Booleans in v2
   * pages are RLE.
   */
  ADAPTIVE,
  /** Dictionary and PLAIN only, for readers that predate the delta encodings. */
  COMPATIBLE
}
