package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.IOException;
import java.util.Objects;
import org.xerial.snappy.Snappy;

/** SNAPPY: one raw Snappy block per page (no framing), through snappy-java's array API. */
final class SnappyCompressor implements Compressor {

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.SNAPPY;
  }

  /** Snappy's own bound: 32 + n + n / 6. */
  @Override
  public long maxCompressedLength(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    return 32L + len + len / 6;
  }

  @Override
  public void compress(byte[] src, int off, int len, GrowableBuffer out) {
    Objects.checkFromIndexSize(off, len, src.length);
    out.ensureCapacity(Math.toIntExact(maxCompressedLength(len)));
    try {
      int written = Snappy.rawCompress(src, off, len, out.array(), out.size());
      out.advance(written);
    } catch (IOException e) {
      // Compressing valid arrays with room reserved cannot fail short of a broken library.
      throw new IllegalStateException("snappy-java failed to compress " + len + " bytes", e);
    }
  }
}
