package dev.parquetconnect.connect;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Decodes the UTF-8 strings of one column, handing out the same String again when the same
 * bytes come back while the column repeats itself enough for that to pay: topics, header keys,
 * statuses and other low-cardinality text (dictionary-encoded in the file) repeat on almost
 * every row, and a String shared is an allocation and a copy saved. A small direct-mapped table
 * keyed by the bytes' hash; a column whose recent lookups mostly miss stops looking (the hash
 * and the compare would only add to decoding). Strings are immutable, so sharing one between
 * records is invisible to them. One instance per column and thread.
 */
final class Utf8Strings {
  private static final int SLOTS = 256;
  /** Longer strings are rarely repeated and cost more to hash than to decode. */
  private static final int MAX_CACHED_LENGTH = 48;
  /** Lookups per verdict; the cache stays on while at least half of them hit. */
  private static final int WINDOW = 4096;

  private final byte[][] keys = new byte[SLOTS][];
  private final String[] strings = new String[SLOTS];
  private boolean enabled = true;
  private int lookups;
  private int hits;

  /** The string of UTF-8 bytes {@code data[off, off + len)}. */
  String decode(byte[] data, int off, int len) {
    if (!enabled || len > MAX_CACHED_LENGTH) {
      return new String(data, off, len, StandardCharsets.UTF_8);
    }
    int h = len;
    for (int i = off, end = off + len; i < end; i++) {
      h = 31 * h + data[i];
    }
    int slot = (h ^ h >>> 11) & (SLOTS - 1);
    byte[] key = keys[slot];
    String s;
    if (key != null && key.length == len && Arrays.equals(key, 0, len, data, off, off + len)) {
      hits++;
      s = strings[slot];
    } else {
      s = new String(data, off, len, StandardCharsets.UTF_8);
      keys[slot] = Arrays.copyOfRange(data, off, off + len);
      strings[slot] = s;
    }
    if (++lookups == WINDOW) {
      enabled = hits >= WINDOW / 2;
      lookups = 0;
      hits = 0;
    }
    return s;
  }
}
