package dev.parquetconnect.format.write;

import dev.parquetconnect.format.encoding.BinaryBatch;

/**
 * FLOAT16 (two little-endian bytes of an IEEE 754 half): compared as the numbers they stand for,
 * with the same NaN and zero rules as {@link FloatStatistics}.
 */
final class Float16Statistics extends ValueStatistics {
  private static final int NEGATIVE_ZERO = 0x8000;

  private boolean has;
  private float min;
  private float max;

  /** The half-precision bits of the bounds, kept exact (a float holds every half). */
  private int minBits;

  private int maxBits;

  @Override
  void addValues(PageBuffer page) {
    BinaryBatch batch = page.binaries;
    byte[] data = batch.data();
    int[] offsets = batch.offsets();
    long nans = 0;
    for (int i = 0, n = page.values; i < n; i++) {
      int pos = offsets[i];
      int bits = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8;
      float x = toFloat(bits);
      if (x != x) {
        nans++;
      } else {
        offer(x, bits, x, bits);
      }
    }
    nanCount += nans;
  }

  private void offer(float lo, int loBits, float hi, int hiBits) {
    if (!has || lo < min) {
      min = lo;
      minBits = loBits;
    }
    if (!has || hi > max) {
      max = hi;
      maxBits = hiBits;
    }
    has = true;
  }

  @Override
  void mergeMinMax(ValueStatistics other) {
    Float16Statistics o = (Float16Statistics) other;
    offer(o.min, o.minBits, o.max, o.maxBits);
  }

  /** The value of IEEE 754 half-precision bits. */
  static float toFloat(int bits) {
    int sign = (bits & 0x8000) << 16;
    int exponent = (bits >>> 10) & 0x1F;
    int mantissa = bits & 0x3FF;
    if (exponent == 0x1F) {
      return Float.intBitsToFloat(sign | 0x7F800000 | (mantissa << 13));
    }
    if (exponent == 0) {
      // Subnormal (or zero): mantissa * 2^-24, exact in a float.
      float magnitude = mantissa * 0x1p-24f;
      return sign == 0 ? magnitude : -magnitude;
    }
    return Float.intBitsToFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
  }

  @Override
  boolean hasMinMax() {
    return has;
  }

  @Override
  byte[] min() {
    return encode(min == 0 ? NEGATIVE_ZERO : minBits);
  }

  @Override
  byte[] max() {
    return encode(max == 0 ? 0 : maxBits);
  }

  private static byte[] encode(int bits) {
    return new byte[] {(byte) bits, (byte) (bits >>> 8)};
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    return Float.compare(toFloat(bitsOf(a)), toFloat(bitsOf(b)));
  }

  private static int bitsOf(byte[] b) {
    return (b[0] & 0xFF) | (b[1] & 0xFF) << 8;
  }

  @Override
  void resetMinMax() {
    has = false;
  }
}
