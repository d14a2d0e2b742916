package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.LittleEndian;

/**
 * Copies of short byte strings (most BYTE_ARRAY values are a few dozen bytes), where a {@link
 * System#arraycopy} call per value costs more than the copy itself. A value of up to {@link
 * #WORDS_MAX} bytes is moved as whole 8-byte words when both arrays have the room for it: the
 * words may read past the value in {@code src} and write past it in {@code dst}, so callers
 * use this only where the bytes after the value in {@code dst} are free (the unwritten tail of
 * a {@link BinaryBatch}, which they reserve {@link #SLACK} extra bytes of).
 */
final class ShortCopy {
  /** Longest value moved word by word. */
  static final int WORDS_MAX = 32;
  /** Bytes a destination must have free past the copied values. */
  static final int SLACK = WORDS_MAX;

  private ShortCopy() {}

  /**
   * Copies {@code src[from, from + len)} to {@code dst[to, to + len)}; bytes of {@code dst} up
   * to {@code to + 32} may be overwritten. Safe when {@code src == dst} and {@code to >= from + len}
   * (a later value copied from an earlier one, as DELTA_BYTE_ARRAY prefixes are): every word is
   * loaded before any is stored.
   */
  static void copy(byte[] src, int from, byte[] dst, int to, int len) {
    if (len <= WORDS_MAX && from <= src.length - WORDS_MAX && to <= dst.length - WORDS_MAX) {
      // Always four words, without branching on the length (which varies value to value and
      // would be mispredicted); the loads all come before the stores.
      long w0 = LittleEndian.getLong(src, from);
      long w1 = LittleEndian.getLong(src, from + 8);
      long w2 = LittleEndian.getLong(src, from + 16);
      long w3 = LittleEndian.getLong(src, from + 24);
      LittleEndian.putLong(dst, to, w0);
      LittleEndian.putLong(dst, to + 8, w1);
      LittleEndian.putLong(dst, to + 16, w2);
      LittleEndian.putLong(dst, to + 24, w3);
    } else {
      System.arraycopy(src, from, dst, to, len);
    }
  }
}
