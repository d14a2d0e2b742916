package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.Objects;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * GZIP: one RFC 1952 member per page (the format recommends single members for interoperability),
 * framing written here around a raw deflate stream from a reused {@link Deflater}.
 */
final class GzipCompressor implements Compressor {
  /** ID1, ID2, CM=deflate, FLG=0, MTIME=0 (4 bytes); XFL and OS follow. */
  private static final byte[] HEADER_START = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0};

  /** OS = 255, "unknown": the page does not come from any particular file system. */
  private static final int OS_UNKNOWN = 255;

  static final int HEADER_SIZE = 10;
  static final int TRAILER_SIZE = 8;

  private final Deflater deflater;
  private final int extraFlags;
  private final CRC32 crc = new CRC32();

  GzipCompressor(int level) {
    if (level < Deflater.NO_COMPRESSION || level > Deflater.BEST_COMPRESSION) {
      throw new IllegalArgumentException("GZIP level " + level + " outside 0..9");
    }
    this.deflater = new Deflater(level, true);
    // XFL as zlib writes it: 2 for the slowest level, 4 for the fastest.
    this.extraFlags = level == Deflater.BEST_COMPRESSION ? 2 : level == Deflater.BEST_SPEED ? 4 : 0;
  }

  @Override
  public CompressionCodec codec() {
    return CompressionCodec.GZIP;
  }

  /**
   * zlib's conservative deflate bound (stored blocks cost 5 bytes per 16 KiB at worst, and this
   * allows an eighth plus a sixty-fourth) plus the member's header and trailer.
   */
  @Override
  public long maxCompressedLength(int len) {
    if (len < 0) {
      throw new IllegalArgumentException("negative length " + len);
    }
    return (long) len + ((len + 7L) >> 3) + ((len + 63L) >> 6) + 5 + HEADER_SIZE + TRAILER_SIZE;
  }

  @Override
  public void compress(byte[] src, int off, int len, GrowableBuffer out) {
    Objects.checkFromIndexSize(off, len, src.length);
    out.write(HEADER_START);
    out.writeByte(extraFlags);
    out.writeByte(OS_UNKNOWN);

    deflater.reset();
    deflater.setInput(src, off, len);
    deflater.finish();
    // Most pages shrink; start with room for a modest ratio and grow when the deflater fills it.
    out.ensureCapacity(Math.max(64, len / 2));
    while (!deflater.finished()) {
      int room = out.array().length - out.size();
      if (room == 0) {
        out.ensureCapacity(Math.max(64, out.size() / 2));
        room = out.array().length - out.size();
      }
      out.advance(deflater.deflate(out.array(), out.size(), room));
    }

    crc.reset();
    crc.update(src, off, len);
    out.writeIntLE((int) crc.getValue());
    out.writeIntLE(len); // ISIZE: the input length modulo 2^32
  }

  @Override
  public void close() {
    deflater.end();
  }
}
