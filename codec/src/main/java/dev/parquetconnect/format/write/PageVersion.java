package dev.parquetconnect.format.write;

/** The data page layout the writer produces. */
public enum PageVersion {
  /**
   * DATA_PAGE: levels with a length prefix, compressed together with the values. Every reader knows
   * it.
   */
  V1,
  /**
   * DATA_PAGE_V2: levels uncompressed in front of the compressed values, with null and row counts
   * in the header, so readers can skip rows without decompressing.
   */
  V2
}
