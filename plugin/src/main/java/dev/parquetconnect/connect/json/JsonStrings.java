package dev.parquetconnect.connect.json;

import java.nio.charset.StandardCharsets;

/**
 * Reads the text of a JSON string from UTF-8 bytes. The common case (no escapes) is one scan that
 * finds the closing quote and checks the UTF-8, then one decode by the JDK; escapes go through a
 * scratch array kept between strings. UTF-8 is checked strictly (no overlong forms, no encoded
 * surrogates, nothing above U+10FFFF): where Jackson lets such bytes through as garbage characters,
 * this reader names the byte instead. Escaped lone surrogates ({@code \ud800}) are kept, as Jackson
 * keeps them.
 */
final class JsonStrings {
  private char[] scratch = new char[64];
  private int end;

  /** The position after the closing quote of the string last read. */
  int end() {
    return end;
  }

  /** Reads the string whose text starts at {@code start} (after the opening quote). */
  String read(JsonReader reader, byte[] buf, int start, int limit) throws MalformedJsonException {
    int p = start;
    boolean ascii = true;
    while (true) {
      if (p >= limit) {
        throw reader.errorAt("unexpected end of the input in a string", p);
      }
      int b = buf[p];
      if (b == '"') {
        end = p + 1;
        return ascii
            ? new String(buf, start, p - start, StandardCharsets.ISO_8859_1)
            : new String(buf, start, p - start, StandardCharsets.UTF_8);
      }
      if (b == '\\') {
        return readEscaped(reader, buf, start, p, limit);
      }
      if (b >= 0 && b < 0x20) {
        throw reader.errorAt(
            "unescaped control character 0x" + Integer.toHexString(b) + " in a string", p);
      }
      if (b < 0) {
        ascii = false;
        p = checkUtf8(reader, buf, p, limit);
      } else {
        p++;
      }
    }
  }

  /** Checks the string whose text starts at {@code start}; returns the position after it. */
  int skip(JsonReader reader, byte[] buf, int start, int limit) throws MalformedJsonException {
    int p = start;
    while (true) {
      if (p >= limit) {
        throw reader.errorAt("unexpected end of the input in a string", p);
      }
      int b = buf[p];
      if (b == '"') {
        return p + 1;
      }
      if (b == '\\') {
        // Rare in schemas: decode this one string to check its escapes.
        read(reader, buf, start, limit);
        return end;
      }
      if (b >= 0 && b < 0x20) {
        throw reader.errorAt(
            "unescaped control character 0x" + Integer.toHexString(b) + " in a string", p);
      }
      p = b < 0 ? checkUtf8(reader, buf, p, limit) : p + 1;
    }
  }

  /**
   * The position of the closing quote of the string whose text starts at {@code start}, its UTF-8
   * checked, or -1 at its first escape (nothing decided then: the caller reads it with {@link
   * #read}). The text is then exactly {@code buf[start, returned)}.
   */
  int plainEnd(JsonReader reader, byte[] buf, int start, int limit) throws MalformedJsonException {
    int p = start;
    while (true) {
      if (p >= limit) {
        throw reader.errorAt("unexpected end of the input in a string", p);
      }
      int b = buf[p];
      if (b == '"') {
        return p;
      }
      if (b == '\\') {
        return -1;
      }
      if (b >= 0 && b < 0x20) {
        throw reader.errorAt(
            "unescaped control character 0x" + Integer.toHexString(b) + " in a string", p);
      }
      p = b < 0 ? checkUtf8(reader, buf, p, limit) : p + 1;
    }
  }

  /** Decodes a string with escapes; {@code [start, escape)} is plain text already checked. */
  private String readEscaped(JsonReader reader, byte[] buf, int start, int escape, int limit)
      throws MalformedJsonException {
    int n = 0;
    int p = start;
    while (true) {
      ensure(n + 2);
      if (p >= limit) {
        throw reader.errorAt("unexpected end of the input in a string", p);
      }
      int b = buf[p];
      if (b == '"') {
        end = p + 1;
        return new String(scratch, 0, n);
      }
      if (b == '\\') {
        if (p + 1 >= limit) {
          throw reader.errorAt("unexpected end of the input in an escape", p);
        }
        byte e = buf[p + 1];
        switch (e) {
          case '"' -> scratch[n++] = '"';
          case '\\' -> scratch[n++] = '\\';
          case '/' -> scratch[n++] = '/';
          case 'b' -> scratch[n++] = '\b';
          case 'f' -> scratch[n++] = '\f';
          case 'n' -> scratch[n++] = '\n';
          case 'r' -> scratch[n++] = '\r';
          case 't' -> scratch[n++] = '\t';
          case 'u' -> {
            if (p + 6 > limit) {
              throw reader.errorAt("unexpected end of the input in a \\u escape", p);
            }
            int c = 0;
            for (int i = 2; i < 6; i++) {
              int h = hex(buf[p + i]);
              if (h < 0) {
                throw reader.errorAt("invalid hex digit in a \\u escape", p + i);
              }
              c = (c << 4) | h;
            }
            scratch[n++] = (char) c;
            p += 4;
          }
          default -> throw reader.errorAt("unrecognised escape \\" + JsonReader.describe(e), p);
        }
        p += 2;
      } else if (b >= 0 && b < 0x20) {
        throw reader.errorAt(
            "unescaped control character 0x" + Integer.toHexString(b) + " in a string", p);
      } else if (b >= 0) {
        scratch[n++] = (char) b;
        p++;
      } else {
        int next = checkUtf8(reader, buf, p, limit);
        n = decodeUtf8(buf, p, next, n);
        p = next;
      }
    }
  }

  private void ensure(int capacity) {
    if (capacity > scratch.length) {
      char[] grown = new char[Math.max(capacity, scratch.length * 2)];
      System.arraycopy(scratch, 0, grown, 0, scratch.length);
      scratch = grown;
    }
  }

  /** Checks the multi-byte sequence at {@code p}; returns the position after it. */
  private static int checkUtf8(JsonReader reader, byte[] buf, int p, int limit)
      throws MalformedJsonException {
    int b0 = buf[p] & 0xFF;
    int length;
    int min;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      length = 2;
      min = 0x80;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      length = 3;
      min = 0x800;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      length = 4;
      min = 0x10000;
    } else {
      throw reader.errorAt("invalid UTF-8 start byte 0x" + Integer.toHexString(b0), p);
    }
    if (p + length > limit) {
      throw reader.errorAt("truncated UTF-8 sequence", p);
    }
    int c = b0 & (0xFF >> (length + 1));
    for (int i = 1; i < length; i++) {
      int bi = buf[p + i] & 0xFF;
      if ((bi & 0xC0) != 0x80) {
        throw reader.errorAt("invalid UTF-8 continuation byte 0x" + Integer.toHexString(bi), p + i);
      }
      c = (c << 6) | (bi & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
      throw reader.errorAt("invalid UTF-8 sequence (overlong, surrogate or beyond U+10FFFF)", p);
    }
    return p + length;
  }

  /** Appends the checked sequence {@code [p, next)} to the scratch; returns the new length. */
  private int decodeUtf8(byte[] buf, int p, int next, int n) {
    int length = next - p;
    int c = (buf[p] & 0xFF) & (0xFF >> (length + 1));
    for (int i = 1; i < length; i++) {
      c = (c << 6) | (buf[p + i] & 0x3F);
    }
    ensure(n + 2);
    if (c >= 0x10000) {
      scratch[n++] = Character.highSurrogate(c);
      scratch[n++] = Character.lowSurrogate(c);
    } else {
      scratch[n++] = (char) c;
    }
    return n;
  }

  private static int hex(byte b) {
    if (b >= '0' && b <= '9') {
      return b - '0';
    }
    if (b >= 'a' && b <= 'f') {
      return b - 'a' + 10;
    }
    if (b >= 'A' && b <= 'F') {
      return b - 'A' + 10;
    }
    return -1;
  }
}
