package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.LittleEndian;

/**
 * INT32, signed or unsigned (UINT_8/16/32). Unsigned values are compared with their sign bit
 * flipped, so both orders run the same loop.
 */
final class IntStatistics extends ValueStatistics {
  private final int flip;
  private boolean has;

  /** Min and max with the sign bit flipped for unsigned columns. */
  private int min;

  private int max;

  IntStatistics(boolean unsigned) {
    this.flip = unsigned ? Integer.MIN_VALUE : 0;
  }

  @Override
  void addValues(PageBuffer page) {
    int n = page.values;
    if (n == 0) {
      return;
    }
    int[] v = page.ints;
    int lo = has ? min : v[0] ^ flip;
    int hi = has ? max : lo;
    for (int i = 0; i < n; i++) {
      int x = v[i] ^ flip;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    min = lo;
    max = hi;
    has = true;
  }

  @Override
  void mergeMinMax(ValueStatistics other) {
    IntStatistics o = (IntStatistics) other;
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

  private static byte[] encode(int v) {
    byte[] b = new byte[4];
    LittleEndian.putInt(b, 0, v);
    return b;
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    return Integer.compare(LittleEndian.getInt(a, 0) ^ flip, LittleEndian.getInt(b, 0) ^ flip);
  }

  @Override
  void resetMinMax() {
    has = false;
  }
}
