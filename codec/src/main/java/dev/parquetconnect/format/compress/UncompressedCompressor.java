package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.Objects;

/** UNCOMPRESSED: the page bytes as they are. */
final class UncompressedCompressor implements Compressor {

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.UNCOMPRESSED;
  }

  @Override
  public long maxCompressedLength(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    return len;
  }

  @Override
  public void compress(byte[] src, int off, int len, GrowableBuffer out) {
    Objects.checkFromIndexSize(off, len, src.length);
    out.write(src, off, len);
  }
}
