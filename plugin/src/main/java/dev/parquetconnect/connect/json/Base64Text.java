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

  private static int value(char c) {
    return c < 128 ? VALUES[c] : -1;
  }
}
