package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.Objects;

/** LZ4_RAW: the page as one LZ4 block, without any framing. */
final class Lz4RawCompressor implements Compressor {

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.LZ4_RAW;
  }

  @Override
  public long maxCompressedLength(int len) {
    return Lz4Blocks.maxBlockLength(len);
  }

  @Override
  public void compress(byte[] src, int off, int len, GrowableBuffer out) {
    Objects.checkFromIndexSize(off, len, src.length);
    int bound = Math.toIntExact(maxCompressedLength(len));
    out.ensureCapacity(bound);
    out.advance(Lz4Blocks.COMPRESSOR.compress(src, off, len, out.array(), out.size(), bound));
  }
}
