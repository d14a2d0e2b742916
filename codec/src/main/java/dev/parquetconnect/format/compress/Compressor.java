package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;

/**
 * Compresses whole pages for one codec. A page writer keeps one instance per column and reuses it
 * for every page, so implementations keep their native contexts and scratch buffers between calls.
 * Not thread-safe. {@link #close()} releases native memory; forgetting it leaks nothing permanently
 * (the JVM's cleaners still run) but holds the memory until the next GC.
 */
public interface Compressor extends AutoCloseable {

  CompressionCodec codec();

  /**
   * An upper bound of what {@link #compress} appends for {@code len} input bytes, framing included;
   * page writers use it to size their buffers once.
   */
  long maxCompressedLength(int len);

  /**
   * Appends the compressed form of {@code src[off, off + len)} to {@code out}, which grows as
   * needed. The output is exactly what the Parquet codec stores in a page: no length prefix beyond
   * the codec's own framing.
   */
  void compress(byte[] src, int off, int len, GrowableBuffer out);

  /** Frees native state. The instance must not be used afterwards. */
  @Override
  default void close() {}
}
