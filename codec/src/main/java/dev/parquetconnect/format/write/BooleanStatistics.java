package dev.parquetconnect.format.write;

/** BOOLEAN: false sorts before true. */
final class BooleanStatistics extends ValueStatistics {
  private boolean sawFalse;
  private boolean sawTrue;

  @Override
  void addValues(PageBuffer page) {
    boolean[] v = page.booleans;
    boolean f = sawFalse;
    boolean t = sawTrue;
    for (int i = 0, n = page.values; i < n; i++) {
      if (v[i]) {
        t = true;
      } else {
        f = true;
      }
    }
    sawFalse = f;
    sawTrue = t;
  }

  @Override
  void mergeMinMax(ValueStatistics other) {
    BooleanStatistics o = (BooleanStatistics) other;
    sawFalse |= o.sawFalse;
    sawTrue |= o.sawTrue;
  }

  @Override
  boolean hasMinMax() {
    return sawFalse || sawTrue;
  }

  @Override
  byte[] min() {
    return new byte[] {(byte) (sawFalse ? 0 : 1)};
  }

  @Override
  byte[] max() {
    return new byte[] {(byte) (sawTrue ? 1 : 0)};
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    return Integer.compare(a[0], b[0]);
  }

  @Override
  void resetMinMax() {
    sawFalse = false;
    sawTrue = false;
  }
}
