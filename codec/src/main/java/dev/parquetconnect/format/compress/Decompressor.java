package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;

/**
 * Decompresses whole pages for one codec, told the exact size the page header announces. A page
 * reader keeps one instance per column and reuses it, so implementations keep their native contexts
 * and scratch buffers between pages. Not thread-safe.
 *
 * <p>The input is untrusted: anything malformed, and any output longer or shorter than announced,
 * is a {@link dev.parquetconnect.format.CorruptDataException}; nothing unchecked escapes and no
 * allocation is driven by the input. A caller that allocates {@code dst} from the page header
 * should call {@link Codecs#checkSizes} first, which refuses sizes the codec cannot produce from
 * that many compressed bytes.
 */
public interface Decompressor extends AutoCloseable {

  CompressionCodec codec();

  /**
   * Decompresses {@code src[off, off + len)} into {@code dst[dstOff, dstOff + uncompressedSize)},
   * which must produce exactly {@code uncompressedSize} bytes. An empty input with an uncompressed
   * size of 0 is accepted for every codec: several writers store empty pages that way instead of as
   * a compressed empty stream.
   *
   * @throws dev.parquetconnect.format.CorruptDataException if the input is malformed or does not
   *     decompress to exactly {@code uncompressedSize} bytes
   * @throws dev.parquetconnect.format.UnsupportedFeatureException if the size is beyond what a Java
   *     array can hold
   * @throws IndexOutOfBoundsException if a range lies outside its array (a bug in the caller)
   */
  void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int uncompressedSize)
      throws ParquetException;

  /** Frees native state. The instance must not be used afterwards. */
  @Override
  default void close() {}
}
