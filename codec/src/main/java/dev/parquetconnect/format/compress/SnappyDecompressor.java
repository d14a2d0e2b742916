package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.io.IOException;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/**
 * SNAPPY: one raw Snappy block. The native decoder writes as many bytes as the block's own length
 * prefix says, so that prefix is compared with the announced size and the whole block is validated
 * (a pass that writes nothing) before any byte is decoded into {@code dst}.
 */
final class SnappyDecompressor implements Decompressor {

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.SNAPPY;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int uncompressedSize)
      throws ParquetException {
    SizeLimits.checkDecompress(codec(), src, off, len, dst, dstOff, uncompressedSize);
    if (len == 0 && uncompressedSize == 0) {
      return;
    }
    try {
      int declared = Snappy.uncompressedLength(src, off, len);
      if (declared != uncompressedSize) {
        throw new CorruptDataException(
            "SNAPPY: the block's length prefix says "
                + Integer.toUnsignedString(declared)
                + " bytes but the page announces "
                + uncompressedSize);
      }
      if (!Snappy.isValidCompressedBuffer(src, off, len)) {
        throw new CorruptDataException("SNAPPY: malformed block of " + len + " bytes");
      }
      int written = Snappy.rawUncompress(src, off, len, dst, dstOff);
      if (written != uncompressedSize) {
        throw SizeLimits.shorter(codec(), written, uncompressedSize);
      }
    } catch (IOException | RuntimeException | SnappyError e) {
      throw new CorruptDataException("SNAPPY: cannot decompress " + len + " bytes: " + e, e);
    }
  }
}
