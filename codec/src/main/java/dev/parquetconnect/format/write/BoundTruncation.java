package dev.parquetconnect.format.write;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Shortens binary min/max bounds to a length limit, keeping them bounds: a minimum becomes a prefix
 * of itself (no larger), a maximum becomes a prefix whose last unit is incremented (larger than
 * anything starting with the prefix). UTF-8 text is cut and incremented by whole code points, so a
 * truncated bound is still valid text as the logical type requires. A maximum with nothing to
 * increment (all 0xFF bytes, all U+10FFFF code points) stays whole and exact.
 */
final class BoundTruncation {
  private BoundTruncation() {}

  /** {@code value} shortened to at most {@code limit} bytes as a lower bound, or itself. */
  static byte[] truncateMin(byte[] value, int limit, boolean utf8) {
    if (value.length <= limit) {
      return value;
    }
    int cut = utf8 && isValidUtf8(value) ? codePointBoundary(value, limit) : limit;
    return Arrays.copyOf(value, cut);
  }

  /**
   * {@code value} shortened to about {@code limit} bytes as an upper bound (an incremented code
   * point may take a byte or two more), or itself when it is short enough or cannot be incremented.
   */
  static byte[] truncateMax(byte[] value, int limit, boolean utf8) {
    if (value.length <= limit) {
      return value;
    }
    byte[] bound =
        utf8 && isValidUtf8(value)
            ? incrementUtf8(value, codePointBoundary(value, limit))
            : incrementBytes(value, limit);
    return bound != null ? bound : value;
  }

  /** The prefix of {@code length} bytes with its last byte incremented, carrying past 0xFF. */
  private static byte[] incrementBytes(byte[] value, int length) {
    for (int i = length - 1; i >= 0; i--) {
      if (value[i] != (byte) 0xFF) {
        byte[] bound = Arrays.copyOf(value, i + 1);
        bound[i]++;
        return bound;
      }
    }
    return null;
  }

  /** The text prefix of {@code length} bytes with its last incrementable code point incremented. */
  private static byte[] incrementUtf8(byte[] value, int length) {
    int end = length;
    while (end > 0) {
      int start = end - 1;
      while (start > 0 && (value[start] & 0xC0) == 0x80) {
        start--;
      }
      int codePoint = decode(value, start);
      int next = codePoint == 0xD7FF ? 0xE000 : codePoint + 1; // surrogates are not characters
      if (next <= Character.MAX_CODE_POINT) {
        byte[] encoded = new String(Character.toChars(next)).getBytes(StandardCharsets.UTF_8);
        byte[] bound = Arrays.copyOf(value, start + encoded.length);
        System.arraycopy(encoded, 0, bound, start, encoded.length);
        return bound;
      }
      end = start;
    }
    return null;
  }

  /** The largest code point boundary at or below {@code limit} in valid UTF-8. */
  private static int codePointBoundary(byte[] value, int limit) {
    int cut = limit;
    while (cut > 0 && (value[cut] & 0xC0) == 0x80) {
      cut--;
    }
    return cut;
  }

  /** The code point whose UTF-8 encoding starts at {@code pos} of valid UTF-8. */
  private static int decode(byte[] b, int pos) {
    int lead = b[pos] & 0xFF;
    if (lead < 0x80) {
      return lead;
    }
    if (lead < 0xE0) {
      return (lead & 0x1F) << 6 | (b[pos + 1] & 0x3F);
    }
    if (lead < 0xF0) {
      return (lead & 0x0F) << 12 | (b[pos + 1] & 0x3F) << 6 | (b[pos + 2] & 0x3F);
    }
    return (lead & 0x07) << 18
        | (b[pos + 1] & 0x3F) << 12
        | (b[pos + 2] & 0x3F) << 6
        | (b[pos + 3] & 0x3F);
  }

  /** Strict UTF-8 validity (no overlongs, surrogates or code points past U+10FFFF). */
  static boolean isValidUtf8(byte[] b) {
    int i = 0;
    int n = b.length;
    while (i < n) {
      int lead = b[i] & 0xFF;
      if (lead < 0x80) {
        i++;
        continue;
      }
      int extra;
      int min;
      if (lead >= 0xC2 && lead <= 0xDF) {
        extra = 1;
        min = 0x80;
      } else if (lead >= 0xE0 && lead <= 0xEF) {
        extra = 2;
        min = 0x800;
      } else if (lead >= 0xF0 && lead <= 0xF4) {
        extra = 3;
        min = 0x10000;
      } else {
        return false;
      }
      if (i + extra >= n) {
        return false;
      }
      for (int k = 1; k <= extra; k++) {
        if ((b[i + k] & 0xC0) != 0x80) {
          return false;
        }
      }
      int cp = decode(b, i);
      if (cp < min || cp > Character.MAX_CODE_POINT || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return false;
      }
      i += extra + 1;
    }
    return true;
  }
}
