package dev.parquetconnect.format.compress;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.lang.ref.Cleaner;
import java.util.Objects;

/**
 * ZSTD: one Zstandard frame per page, with its content size in the header, from one reused native
 * compression context.
 */
final class ZstdCompressor implements Compressor {
  private final ZstdCompressCtx context;
  private final Cleaner.Cleanable cleanable;

  ZstdCompressor(int level) {
    int min = Zstd.minCompressionLevel();
    int max = Zstd.maxCompressionLevel();
    if (level < min || level > max) {
      throw new IllegalArgumentException("ZSTD level " + level + " outside " + min + ".." + max);
    }
    ZstdCompressCtx ctx = new ZstdCompressCtx();
    ctx.setLevel(level);
    ctx.setContentSize(true);
    ctx.setChecksum(false); // pages have their own optional CRC; parquet-java writes none here
    this.context = ctx;
    this.cleanable = NativeCleaner.register(this, ctx::close);
  }

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.ZSTD;
  }

  /** zstd's ZSTD_COMPRESSBOUND. */
  @Override
  public long maxCompressedLength(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    long smallInputMargin = len < (128 << 10) ? ((128 << 10) - len) >> 11 : 0;
    return (long) len + (len >> 8) + smallInputMargin;
  }

  @Override
  public void compress(byte[] src, int off, int len, GrowableBuffer out) {
    Objects.checkFromIndexSize(off, len, src.length);
    int bound = Math.toIntExact(maxCompressedLength(len));
    out.ensureCapacity(bound);
    try {
      int written = context.compressByteArray(out.array(), out.size(), bound, src, off, len);
      out.advance(written);
    } catch (ZstdException e) {
      // Room for the bound is reserved, so only a broken library or a bad level gets here.
      throw new IllegalStateException("zstd failed to compress " + len + " bytes", e);
    }
  }

  @Override
  public void close() {
    cleanable.clean();
  }
}
