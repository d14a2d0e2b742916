package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;

/**
 * LZ4_RAW: one LZ4 block. The safe decoder is bounded by the announced size, so output longer than
 * announced shows up as a malformed block.
 */
final class Lz4RawDecompressor implements Decompressor {

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.LZ4_RAW;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int uncompressedSize)
      throws ParquetException {
    SizeLimits.checkDecompress(codec(), src, off, len, dst, dstOff, uncompressedSize);
    if (len == 0 && uncompressedSize == 0) {
      return;
    }
    int written;
    try {
      written = Lz4Blocks.DECOMPRESSOR.decompress(src, off, len, dst, dstOff, uncompressedSize);
    } catch (RuntimeException e) { // LZ4Exception: names the offending input position
      throw new CorruptDataException(
          "LZ4_RAW: malformed block of "
              + len
              + " bytes, or one longer than the "
              + uncompressedSize
              + " bytes the page announces: "
              + e.getMessage(),
          e);
    }
    if (written != uncompressedSize) {
      throw SizeLimits.shorter(codec(), written, uncompressedSize);
    }
  }
}
