package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.LittleEndian;

/**
 * FLOAT, as parquet.thrift's rules for TYPE_ORDER ask: NaN is counted, never a bound (all-NaN means
 * no min/max); a zero minimum is written as -0.0 and a zero maximum as +0.0, so readers need not
 * wonder which zero the data holds.
 */
final class FloatStatistics extends ValueStatistics {
  private boolean has;
  private float min;
  private float max;

  @Override
  void addValues(PageBuffer page) {
    float[] v = page.floats;
    boolean seen = has;
    float lo = min;
    float hi = max;
    long nans = 0;
    for (int i = 0, n = page.values; i < n; i++) {
      float x = v[i];
      if (x != x) {
        nans++;
      } else if (!seen) {
        lo = x;
        hi = x;
        seen = true;
      } else {
        if (x < lo) {
          lo = x;
        }
        if (x > hi) {
          hi = x;
        }
      }
    }
    nanCount += nans;
    has = seen;
    min = lo;
    max = hi;
  }

  @Override
  void mergeMinMax(ValueStatistics other) {
    FloatStatistics o = (FloatStatistics) other;
    min = has && min <= o.min ? min : o.min;
    max = has && max >= o.max ? max : o.max;
    has = true;
  }

  @Override
  boolean hasMinMax() {
    return has;
  }

  @Override
  byte[] min() {
    return encode(min == 0 ? -0.0f : min);
  }

  @Override
  byte[] max() {
    return encode(max == 0 ? 0.0f : max);
  }

  private static byte[] encode(float v) {
    byte[] b = new byte[4];
    LittleEndian.putFloat(b, 0, v);
    return b;
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    return Float.compare(LittleEndian.getFloat(a, 0), LittleEndian.getFloat(b, 0));
  }

  @Override
  void resetMinMax() {
    has = false;
  }
}
