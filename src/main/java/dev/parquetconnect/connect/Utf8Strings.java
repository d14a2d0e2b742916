package dev.parquetconnect.connect;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes the UTF-8 strings of one column, handing out the previous String again when the same
 * bytes come right back: a file's topic column, a header's key, and many low-cardinality or
 * sorted columns repeat their last value row after row, and a String shared is an allocation
 * and a copy saved (Strings are immutable, so sharing one between records is invisible to
 * them). A column that seldom repeats stops comparing: the compare and the copy of the bytes
 * would only add to decoding. One instance per column and thread.
 */
final class Utf8Strings {
  /** Longer values are rarely repeated and cost more to compare and keep. */
  private static final int MAX_KEPT_LENGTH = 256;
  /** Lookups per verdict; comparing goes on while at least one in eight hits. */
  private static final int WINDOW = 1024;

  private byte[] last = new byte[32];
  private int lastLength = -1;
  private String lastString;
  private boolean enabled = true;
  private int lookups;
  private int hits;

  /** The string of UTF-8 bytes {@code data[off, off + len)}. */
  String decode(byte[] data, int off, int len) {
    if (!enabled) {
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

  private void count() {
    if (++lookups == WINDOW) {
      enabled = hits >= WINDOW / 8;
      lookups = 0;
      hits = 0;
    }
  }
}
