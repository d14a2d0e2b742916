package dev.parquetconnect.format.io;

/**
 * Java strings to UTF-8 straight into a caller's array, so that writing text allocates nothing
 * ({@code String.getBytes} makes a new array per value). A lone surrogate becomes {@code '?'}, as
 * {@code String.getBytes(UTF_8)} does.
 */
public final class Utf8 {
  private Utf8() {}

  /** The most bytes {@link #encode} writes for {@code s}: three per UTF-16 unit. */
  public static long maxBytes(String s) {
    return 3L * s.length();
  }

  /**
   * Encodes {@code s} into {@code dst} from {@code off} on and returns the number of bytes written;
   * {@code dst} must have {@link #maxBytes} bytes of room there.
   */
  public static int encode(String s, byte[] dst, int off) {
    // ASCII, the common case, one byte per char. Kept small so that the JIT inlines it into
    // the callers' per-value loops (the whole encoder is over its size limit for hot methods).
    int chars = s.length();
    for (int i = 0; i < chars; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        return encodeFrom(s, i, dst, off);
      }
      dst[off + i] = (byte) c;
    }
    return chars;
  }

  /** Encodes {@code s} from char {@code i} on, its first {@code i} chars already copied. */
  private static int encodeFrom(String s, int i, byte[] dst, int off) {
    int chars = s.length();
    int p = off + i;
    for (; i < chars; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        dst[p++] = (byte) c;
      } else if (c < 0x800) {
        dst[p++] = (byte) (0xC0 | c >> 6);
        dst[p++] = (byte) (0x80 | c & 0x3F);
      } else if (Character.isSurrogate(c)) {
        char low = i + 1 < chars ? s.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
          int cp = Character.toCodePoint(c, low);
          dst[p++] = (byte) (0xF0 | cp >> 18);
          dst[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
          dst[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
          dst[p++] = (byte) (0x80 | cp & 0x3F);
          i++;
        } else {
          dst[p++] = '?';
        }
      } else {
        dst[p++] = (byte) (0xE0 | c >> 12);
        dst[p++] = (byte) (0x80 | c >> 6 & 0x3F);
        dst[p++] = (byte) (0x80 | c & 0x3F);
      }
    }
    return p - off;
  }
}
