package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.LittleEndian;

/**
 * DOUBLE, as parquet.thrift's rules for TYPE_ORDER ask: NaN is counted, never a bound (all-NaN
 * means no min/max); a zero minimum is written as -0.0 and a zero maximum as +0.0, so readers need
 * not wonder which zero the data holds.
 */
final class DoubleStatistics extends ValueStatistics {
  private boolean has;
  private double min;
  private double max;

  @Override
  void addValues(PageBuffer page) {
    double[] v = page.doubles;
    boolean seen = has;
    double lo = min;
    double hi = max;
    long nans = 0;
    for (int i = 0, n = page.values; i < n; i++) {
      double x = v[i];
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
    DoubleStatistics o = (DoubleStatistics) other;
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
    return encode(min == 0 ? -0.0 : min);
  }

  @Override
  byte[] max() {
    return encode(max == 0 ? 0.0 : max);
  }

  private static byte[] encode(double v) {
    byte[] b = new byte[8];
    LittleEndian.putDouble(b, 0, v);
    return b;
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    return Double.compare(LittleEndian.getDouble(a, 0), LittleEndian.getDouble(b, 0));
  }

  @Override
  void resetMinMax() {
    has = false;
  }
}
