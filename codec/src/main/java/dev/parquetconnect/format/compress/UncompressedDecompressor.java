package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;

/** UNCOMPRESSED: a copy, after checking the page holds exactly the announced size. */
final class UncompressedDecompressor implements Decompressor {

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.UNCOMPRESSED;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int uncompressedSize)
      throws ParquetException {
    SizeLimits.checkDecompress(codec(), src, off, len, dst, dstOff, uncompressedSize);
    if (len != uncompressedSize) {
      throw new CorruptDataException(
          "UNCOMPRESSED: the page holds " + len + " bytes but announces " + uncompressedSize);
    }
    System.arraycopy(src, off, dst, dstOff, len);
  }
}
