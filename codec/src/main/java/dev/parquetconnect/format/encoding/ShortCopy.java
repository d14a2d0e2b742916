package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.LittleEndian;

/**
 * Copies of short byte strings (most BYTE_ARRAY values are a few dozen bytes), where a {@link
 * System#arraycopy} call per value costs more than the copy itself. A short value is moved as a
 * fixed number of whole 8-byte words when both arrays have the room for it, with no branch on its
 * exact length (which varies value to value and would be mispredicted): the words may read past the
 * value in {@code src} and write past it in {@code dst}, so callers use this only where the bytes
 * after the value in {@code dst} are free (the unwritten tail of a {@link BinaryBatch} or an
 * encoder's buffer, which they reserve {@link #SLACK} extra bytes of). Loads come before stores, so
 * a copy within one array to a later position ({@code to >= from + len}) is safe.
 */
final class ShortCopy {
  /** Bytes a destination must have free past the copied values. */
  static final int SLACK = 64;

  private ShortCopy() {}

  /**
   * Copies {@code src[from, from + len)} to {@code dst[to, to + len)}: eight words for a value of
   * up to 64 bytes, {@code arraycopy} beyond; bytes of {@code dst} up to {@code to + 64} may be
   * overwritten.
   */
  static void copy(byte[] src, int from, byte[] dst, int to, int len) {
    if (len <= 64 && from <= src.length - 64 && to <= dst.length - 64) {
      long w0 = LittleEndian.getLong(src, from);
      long w1 = LittleEndian.getLong(src, from + 8);
      long w2 = LittleEndian.getLong(src, from + 16);
      long w3 = LittleEndian.getLong(src, from + 24);
      long w4 = LittleEndian.getLong(src, from + 32);
      long w5 = LittleEndian.getLong(src, from + 40);
      long w6 = LittleEndian.getLong(src, from + 48);
      long w7 = LittleEndian.getLong(src, from + 56);
      LittleEndian.putLong(dst, to, w0);
      LittleEndian.putLong(dst, to + 8, w1);
      LittleEndian.putLong(dst, to + 16, w2);
      LittleEndian.putLong(dst, to + 24, w3);
      LittleEndian.putLong(dst, to + 32, w4);
      LittleEndian.putLong(dst, to + 40, w5);
      LittleEndian.putLong(dst, to + 48, w6);
      LittleEndian.putLong(dst, to + 56, w7);
    } else {
      System.arraycopy(src, from, dst, to, len);
    }
  }
}
