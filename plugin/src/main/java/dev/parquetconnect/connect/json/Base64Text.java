package dev.parquetconnect.connect.json;

import java.io.ByteArrayOutputStream;

/**
 * Decodes the base64 text JsonConverter accepts for BYTES and Decimal values: Jackson's default
 * variant (standard alphabet, padding required, white space skipped before each group of four and
 * at both ends, groups may follow a padded group). Returns null for text that is not such base64,
 * so the caller names the field.
 */
final class Base64Text {
  private static final byte[] VALUES = new byte[128];

  static {
    java.util.Arrays.fill(VALUES, (byte) -1);
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (int i = 0; i < alphabet.length(); i++) {
      VALUES[alphabet.charAt(i)] = (byte) i;
    }
  }

  private Base64Text() {}

  static byte[] decode(String text) {
    String s = text.trim();
    int len = s.length();
    ByteArrayOutputStream out = new ByteArrayOutputStream(4 + ((len >> 2) * 3));
    int p = 0;
    while (true) {
      char c;
      do {
        if (p >= len) {
          return out.toByteArray();
        }
        c = s.charAt(p++);
      } while (c <= ' ');
      int bits = value(c);
      if (bits < 0 || p >= len) {
        return null;
      }
      int data = bits;
      bits = value(s.charAt(p++));
      if (bits < 0 || p >= len) {
        return null;
      }
      data = (data << 6) | bits;
      char third = s.charAt(p++);
      bits = value(third);
      if (bits < 0) {
        if (third != '=' || p >= len || s.charAt(p++) != '=') {
          return null;
        }
        out.write(data >> 4);
        continue;
      }
      data = (data << 6) | bits;
      if (p >= len) {
        return null;
      }
      char fourth = s.charAt(p++);
      bits = value(fourth);
      if (bits < 0) {
        if (fourth != '=') {
          return null;
        }
        data >>= 2;
        out.write(data >> 8);
        out.write(data);
        continue;
      }
      data = (data << 6) | bits;
      out.write(data >> 16);
      out.write(data >> 8);
      out.write(data);
    }
  }

  /** At most how many bytes {@code length} characters of base64 decode to. */
  static int maxDecodedLength(int length) {
    return (length / 4 + 1) * 3;
  }

  /**
   * Decodes the base64 text whose UTF-8 bytes (no escapes) are {@code text[from, to)} into {@code
   * out} from {@code at}, which has room for {@link #maxDecodedLength}: the same bytes, or the same
   * refusal, as {@link #decode(String)} of the text. Returns the length, or -1 for text that is not
   * such base64. Allocates nothing.
   */
  static int decode(byte[] text, int from, int to, byte[] out, int at) {
    int p = from;
    int len = to;
    while (p < len && (text[p] & 0xFF) <= ' ') {
      p++;
    }
    while (len > p && (text[len - 1] & 0xFF) <= ' ') {
      len--;
    }
    int n = at;
    while (true) {
      int c;
      do {
        if (p >= len) {
          return n - at;
        }
        c = text[p++] & 0xFF;
      } while (c <= ' ');
      int bits = value(c);
      if (bits < 0 || p >= len) {
        return -1;
      }
      int data = bits;
      bits = value(text[p++] & 0xFF);
      if (bits < 0 || p >= len) {
        return -1;
      }
      data = (data << 6) | bits;
      int third = text[p++] & 0xFF;
      bits = value(third);
      if (bits < 0) {
        if (third != '=' || p >= len || text[p++] != '=') {
          return -1;
        }
        out[n++] = (byte) (data >> 4);
        continue;
      }
      data = (data << 6) | bits;
      if (p >= len) {
        return -1;
      }
      int fourth = text[p++] & 0xFF;
      bits = value(fourth);
      if (bits < 0) {
        if (fourth != '=') {
          return -1;
        }
        data >>= 2;
        out[n++] = (byte) (data >> 8);
        out[n++] = (byte) data;
        continue;
      }
      data = (data << 6) | bits;
      out[n++] = (byte) (data >> 16);
      out[n++] = (byte) (data >> 8);
      out[n++] = (byte) data;
    }
  }

  private static int value(int c) {
    return c < 128 ? VALUES[c] : -1;
  }
}
