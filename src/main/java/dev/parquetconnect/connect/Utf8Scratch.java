package dev.parquetconnect.connect;

/**
 * A reusable buffer strings are encoded into as UTF-8, so writing a STRING value allocates
 * nothing ({@code String.getBytes} makes a new array per value). A lone surrogate becomes
 * {@code '?'}, as {@code String.getBytes(UTF_8)} does.
 */
final class Utf8Scratch {
  private byte[] buffer = new byte[256];

  /** The buffer holding the last encoded string in {@code [0, length)}. */
  byte[] buffer() {
    return buffer;
  }

  /** Encodes {@code s} into {@link #buffer()} and returns its length in bytes. */
  int encode(String s) {
    int chars = s.length();
    if (buffer.length < chars * 3) {
      buffer = new byte[Math.max(chars * 3, buffer.length * 2)];
    }
    byte[] b = buffer;
    int p = 0;
    int i = 0;
    // ASCII, the common case, one byte per char without branches on width.
    while (i < chars) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        break;
      }
      b[p++] = (byte) c;
      i++;
    }
    for (; i < chars; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        b[p++] = (byte) c;
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | c >> 6);
        b[p++] = (byte) (0x80 | c & 0x3F);
      } else if (Character.isSurrogate(c)) {
        char low = i + 1 < chars ? s.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
          int cp = Character.toCodePoint(c, low);
          b[p++] = (byte) (0xF0 | cp >> 18);
          b[p++] = (byte) (0x80 | cp >> 12 & 0x3F);
          b[p++] = (byte) (0x80 | cp >> 6 & 0x3F);
          b[p++] = (byte) (0x80 | cp & 0x3F);
          i++;
        } else {
          b[p++] = '?';
        }
      } else {
        b[p++] = (byte) (0xE0 | c >> 12);
        b[p++] = (byte) (0x80 | c >> 6 & 0x3F);
        b[p++] = (byte) (0x80 | c & 0x3F);
      }
    }
    return p;
  }
}
