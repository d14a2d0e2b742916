package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.LittleEndian;
import java.util.Objects;

/**
 * XXH64 with seed 0, written from the xxHash specification (version 0.1.1), as Parquet's bloom
 * filters hash their values: over the PLAIN bytes of a value (a byte string without its length
 * prefix). The fixed-width entry points hash 4 or 8 little-endian bytes without touching memory.
 */
public final class XxHash64 {
  private static final long PRIME_1 = 0x9E3779B185EBCA87L;
  private static final long PRIME_2 = 0xC2B2AE3D27D4EB4FL;
  private static final long PRIME_3 = 0x165667B19E3779F9L;
  private static final long PRIME_4 = 0x85EBCA77C2B2AE63L;
  private static final long PRIME_5 = 0x27D4EB2F165667C5L;

  private XxHash64() {}

  /** The hash of the 4 little-endian bytes of {@code value} (an INT32 or FLOAT's bits). */
  public static long hashInt(int value) {
    long acc = PRIME_5 + 4;
    acc ^= (value & 0xFFFFFFFFL) * PRIME_1;
    acc = Long.rotateLeft(acc, 23) * PRIME_2 + PRIME_3;
    return avalanche(acc);
  }

  /** The hash of the 8 little-endian bytes of {@code value} (an INT64 or DOUBLE's bits). */
  public static long hashLong(long value) {
    long acc = PRIME_5 + 8;
    acc ^= round(0, value);
    acc = Long.rotateLeft(acc, 27) * PRIME_1 + PRIME_4;
    return avalanche(acc);
  }

  /** The hash of {@code data[off, off + len)}. */
  public static long hash(byte[] data, int off, int len) {
    Objects.checkFromIndexSize(off, len, data.length);
    int pos = off;
    int end = off + len;
    long acc;
    if (len >= 32) {
      long v1 = PRIME_1 + PRIME_2;
      long v2 = PRIME_2;
      long v3 = 0;
      long v4 = -PRIME_1;
      for (int limit = end - 32; pos <= limit; pos += 32) {
        v1 = round(v1, LittleEndian.getLong(data, pos));
        v2 = round(v2, LittleEndian.getLong(data, pos + 8));
        v3 = round(v3, LittleEndian.getLong(data, pos + 16));
        v4 = round(v4, LittleEndian.getLong(data, pos + 24));
      }
      acc =
          Long.rotateLeft(v1, 1)
              + Long.rotateLeft(v2, 7)
              + Long.rotateLeft(v3, 12)
              + Long.rotateLeft(v4, 18);
      acc = mergeRound(acc, v1);
      acc = mergeRound(acc, v2);
      acc = mergeRound(acc, v3);
      acc = mergeRound(acc, v4);
    } else {
      acc = PRIME_5;
    }
    acc += len;
    for (; pos + 8 <= end; pos += 8) {
      acc ^= round(0, LittleEndian.getLong(data, pos));
      acc = Long.rotateLeft(acc, 27) * PRIME_1 + PRIME_4;
    }
    if (pos + 4 <= end) {
      acc ^= (LittleEndian.getInt(data, pos) & 0xFFFFFFFFL) * PRIME_1;
      acc = Long.rotateLeft(acc, 23) * PRIME_2 + PRIME_3;
      pos += 4;
    }
    for (; pos < end; pos++) {
      acc ^= (data[pos] & 0xFFL) * PRIME_5;
      acc = Long.rotateLeft(acc, 11) * PRIME_1;
    }
    return avalanche(acc);
  }

  private static long round(long acc, long lane) {
    return Long.rotateLeft(acc + lane * PRIME_2, 31) * PRIME_1;
  }

  private static long mergeRound(long acc, long v) {
    return (acc ^ round(0, v)) * PRIME_1 + PRIME_4;
  }

  private static long avalanche(long acc) {
    acc ^= acc >>> 33;
    acc *= PRIME_2;
    acc ^= acc >>> 29;
    acc *= PRIME_3;
    acc ^= acc >>> 32;
    return acc;
  }
}
