package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.LittleEndian;

/**
 * INT64, signed or unsigned (UINT_64). Unsigned values are compared with their sign bit flipped, so
 * both orders run the same loop.
 */
final class LongStatistics extends ValueStatistics {
  private final long flip;
  private boolean has;

  /** Min and max with the sign bit flipped for unsigned columns. */
  private long min;

  private long max;

  LongStatistics(boolean unsigned) {
    this.flip = unsigned ? Long.MIN_VALUE : 0;
  }

  @Override
  void addValues(PageBuffer page) {
    int n = page.values;
    if (n == 0) {
      return;
    }
    long[] v = page.longs;
    long lo = has ? min : v[0] ^ flip;
    long hi = has ? max : lo;
    for (int i = 0; i < n; i++) {
      long x = v[i] ^ flip;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    min = lo;
    max = hi;
    has = true;
  }

  @Override
  void mergeMinMax(ValueStatistics other) {
    LongStatistics o = (LongStatistics) other;
    min = has ? Math.min(min, o.min) : o.min;
    max = has ? Math.max(max, o.max) : o.max;
    has = true;
  }

  @Override
  boolean hasMinMax() {
    return has;
  }

  @Override
  byte[] min() {
    return encode(min ^ flip);
  }

  @Override
  byte[] max() {
    return encode(max ^ flip);
  }

  private static byte[] encode(long v) {
    byte[] b = new byte[8];
    LittleEndian.putLong(b, 0, v);
    return b;
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    return Long.compare(LittleEndian.getLong(a, 0) ^ flip, LittleEndian.getLong(b, 0) ^ flip);
  }

  @Override
  void resetMinMax() {
    has = false;
  }
}
