package dev.parquetconnect.format.read;

/**
 * Where a column chunk's pages lie in the file: {@code [start, start + length)}, already checked to
 * be inside the data region. An empty range means the chunk has no values to read.
 */
record ChunkRange(long start, long length) {
  static final ChunkRange EMPTY = new ChunkRange(0, 0);

  long end() {
    return start + length;
  }
}
