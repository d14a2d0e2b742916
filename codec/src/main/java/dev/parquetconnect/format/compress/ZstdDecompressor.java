package dev.parquetconnect.format.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.lang.ref.Cleaner;

/**
 * ZSTD: one or more Zstandard frames (skippable frames included), with or without a content size in
 * their headers, decoded in one pass straight into {@code dst} by a reused native context. Because
 * the destination is exactly the announced size, zstd itself refuses to write past it, and the
 * frame's window size never causes an allocation.
 */
final class ZstdDecompressor implements Decompressor {
  private final ZstdDecompressCtx context;
  private final Cleaner.Cleanable cleanable;

  ZstdDecompressor() {
    ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    this.context = ctx;
    this.cleanable = NativeCleaner.register(this, ctx::close);
  }

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.ZSTD;
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
      written = context.decompressByteArray(dst, dstOff, uncompressedSize, src, off, len);
    } catch (ZstdException e) {
      context.reset();
      if (e.getErrorCode() == Zstd.errDstSizeTooSmall()) {
        throw SizeLimits.longer(codec(), uncompressedSize);
      }
      throw new CorruptDataException(
          "ZSTD: cannot decompress " + len + " bytes: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new CorruptDataException(
          "ZSTD: cannot decompress " + len + " bytes: " + e.getMessage(), e);
    }
    if (written != uncompressedSize) {
      throw SizeLimits.shorter(codec(), written, uncompressedSize);
    }
  }

  @Override
  public void close() {
    cleanable.clean();
  }
}
