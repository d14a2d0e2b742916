package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;

/**
 * LZ4 (deprecated): reads both forms found in files. parquet-java (through Hadoop) writes blocks
 * framed by a 4-byte big-endian uncompressed length, each followed by one or more chunks of a
 * 4-byte big-endian compressed length and an LZ4 block; older parquet-cpp wrote one bare LZ4 block.
 * The framing is tried first and accepted only if every length adds up exactly, to the input and to
 * the announced size, and every chunk decodes; otherwise the input is decoded as a bare block, as
 * Arrow does.
 */
final class Lz4Decompressor implements Decompressor {
  private static final int PREFIX = 4;

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.LZ4;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int uncompressedSize)
      throws ParquetException {
    SizeLimits.checkDecompress(codec(), src, off, len, dst, dstOff, uncompressedSize);
    if (len == 0 && uncompressedSize == 0) {
      return;
    }
    if (decodeHadoopFramed(src, off, len, dst, dstOff, uncompressedSize)) {
      return;
    }
    int written;
    try {
      written = Lz4Blocks.DECOMPRESSOR.decompress(src, off, len, dst, dstOff, uncompressedSize);
    } catch (RuntimeException e) {
      throw new CorruptDataException(
          "LZ4: "
              + len
              + " bytes are neither Hadoop-framed LZ4 blocks adding up to the "
              + uncompressedSize
              + " bytes the page announces nor one LZ4 block of that size: "
              + e.getMessage(),
          e);
    }
    if (written != uncompressedSize) {
      throw new CorruptDataException(
          "LZ4: "
              + len
              + " bytes are neither Hadoop-framed LZ4 blocks adding up to the "
              + uncompressedSize
              + " bytes the page announces nor one LZ4 block of that size"
              + " (it decodes to "
              + written
              + ")");
    }
  }

  /**
   * Decodes {@code src} as Hadoop-framed LZ4 if it is exactly that; returns false, having possibly
   * written into {@code dst}, when any length fails to add up or a chunk fails to decode.
   */
  private static boolean decodeHadoopFramed(
      byte[] src, int off, int len, byte[] dst, int dstOff, int expected) {
    int pos = off;
    int end = off + len;
    int produced = 0;
    while (pos < end) {
      if (end - pos < PREFIX) {
        return false;
      }
      int blockSize = getIntBE(src, pos);
      pos += PREFIX;
      if (blockSize < 0 || blockSize > expected - produced) {
        return false;
      }
      int blockEnd = produced + blockSize;
      // Hadoop splits a large write into several chunks under one block length.
      while (produced < blockEnd) {
        if (end - pos < PREFIX) {
          return false;
        }
        int chunkSize = getIntBE(src, pos);
        pos += PREFIX;
        if (chunkSize <= 0 || chunkSize > end - pos) {
          return false;
        }
        try {
          produced +=
              Lz4Blocks.DECOMPRESSOR.decompress(
                  src, pos, chunkSize, dst, dstOff + produced, blockEnd - produced);
        } catch (RuntimeException e) { // LZ4Exception, or anything else lz4-java throws
          return false; // not a block here: the caller retries the input as one bare block
        }
        pos += chunkSize;
      }
    }
    return produced == expected;
  }

  private static int getIntBE(byte[] buf, int pos) {
    return (buf[pos] & 0xFF) << 24
        | (buf[pos + 1] & 0xFF) << 16
        | (buf[pos + 2] & 0xFF) << 8
        | (buf[pos + 3] & 0xFF);
  }
}
