package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.Objects;

/**
 * LZ4 (deprecated): the Hadoop framing parquet-java writes. Per block: the uncompressed length and
 * the compressed length as 4-byte big-endian integers, then one LZ4 block. Blocks hold at most
 * {@link #BLOCK_SIZE} bytes so that Hadoop's decompressor, whose buffers default to 256 KiB for
 * both sides, and Arrow's, which expects one LZ4 block per frame, both read them. An empty page is
 * written as nothing at all, which every reader takes as empty.
 */
final class Lz4HadoopCompressor implements Compressor {
  static final int BLOCK_SIZE = 128 << 10;
  private static final int PREFIX = 8;

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.LZ4;
  }

  @Override
  public long maxCompressedLength(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    int fullBlocks = len / BLOCK_SIZE;
    int tail = len % BLOCK_SIZE;
    long bound = fullBlocks * (PREFIX + Lz4Blocks.maxBlockLength(BLOCK_SIZE));
    return tail == 0 ? bound : bound + PREFIX + Lz4Blocks.maxBlockLength(tail);
  }

  @Override
  public void compress(byte[] src, int off, int len, GrowableBuffer out) {
    Objects.checkFromIndexSize(off, len, src.length);
    out.ensureCapacity(Math.toIntExact(maxCompressedLength(len)));
    byte[] buf = out.array();
    int pos = out.size();
    for (int done = 0; done < len; ) {
      int blockLen = Math.min(BLOCK_SIZE, len - done);
      int bound = (int) Lz4Blocks.maxBlockLength(blockLen);
      int written =
          Lz4Blocks.COMPRESSOR.compress(src, off + done, blockLen, buf, pos + PREFIX, bound);
      putIntBE(buf, pos, blockLen);
      putIntBE(buf, pos + 4, written);
      pos += PREFIX + written;
      done += blockLen;
    }
    out.advance(pos - out.size());
  }

  static void putIntBE(byte[] buf, int pos, int v) {
    buf[pos] = (byte) (v >>> 24);
    buf[pos + 1] = (byte) (v >>> 16);
    buf[pos + 2] = (byte) (v >>> 8);
    buf[pos + 3] = (byte) v;
  }
}
