package dev.parquetconnect.connect;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes the UTF-8 strings of one column, handing out a String decoded before when the same bytes
 * come back: topics, header keys and values, statuses, tags and other low-cardinality text repeat
 * row after row, and a String shared is an allocation and a copy saved (Strings are immutable, so
 * sharing one between records is invisible to them). One instance per column and thread.
 *
 * <ul>
 *   <li>Up to 8 bytes: the bytes packed into a long are the key of a small direct-mapped table, so
 *       a lookup is a few shifts and one compare, cheaper than decoding even when it misses.
 *   <li>Longer: the previous value only, compared byte for byte; a column that seldom repeats stops
 *       comparing (the compare and the copy of the bytes would only add to decoding).
 * </ul>
 */
final class Utf8Strings {
  private static final int SHORT = 8;
  private static final int SLOT_BITS = 8;

  /** Longer values are kept only up to this length. */
  private static final int MAX_KEPT_LENGTH = 256;

  /** Lookups per verdict on the previous-value check; it goes on while one in eight hits. */
  private static final int WINDOW = 1024;

  private final long[] shortKeys = new long[1 << SLOT_BITS];
  private final byte[] shortLengths = new byte[1 << SLOT_BITS];
  private final String[] shortStrings = new String[1 << SLOT_BITS];

  private byte[] last = new byte[32];
  private int lastLength = -1;
  private String lastString;
  private boolean compareLast = true;
  private int lookups;
  private int hits;

  /** The string of UTF-8 bytes {@code data[off, off + len)}. */
  String decode(byte[] data, int off, int len) {
    if (len <= SHORT) {
      return decodeShort(data, off, len);
    }
    if (!compareLast) {
      return new String(data, off, len, StandardCharsets.UTF_8);
    }
    if (len == lastLength && Arrays.equals(last, 0, len, data, off, off + len)) {
      hits++;
      count();
      return lastString;
    }
    String s = new String(data, off, len, StandardCharsets.UTF_8);
    if (len <= MAX_KEPT_LENGTH) {
      if (last.length < len) {
        last = new byte[Math.max(len, last.length * 2)];
      }
      System.arraycopy(data, off, last, 0, len);
      lastLength = len;
      lastString = s;
    } else {
      lastLength = -1;
    }
    count();
    return s;
  }

  private String decodeShort(byte[] data, int off, int len) {
    long key = 0;
    for (int i = off, end = off + len; i < end; i++) {
      key = key << 8 | (data[i] & 0xFF);
    }
    int slot = (int) ((key + len) * 0x9E37_79B9_7F4A_7C15L >>> (64 - SLOT_BITS));
    String s = shortStrings[slot];
    if (s != null && shortKeys[slot] == key && shortLengths[slot] == len) {
      return s;
    }
    s = new String(data, off, len, StandardCharsets.UTF_8);
    shortKeys[slot] = key;
    shortLengths[slot] = (byte) len;
    shortStrings[slot] = s;
    return s;
  }

  private void count() {
    if (++lookups == WINDOW) {
      compareLast = hits >= WINDOW / 8;
      lookups = 0;
      hits = 0;
    }
  }
}
