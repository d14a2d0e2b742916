package dev.parquetconnect.format.write;

import dev.parquetconnect.format.encoding.BinaryBatch;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY: byte strings compared unsigned and lexicographically, or,
 * for DECIMAL, as big-endian two's complement integers of any length. The bounds are copied into
 * arrays kept across pages, so a page allocates nothing unless a bound outgrows its array.
 */
final class BinaryStatistics extends ValueStatistics {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private final boolean signed;
  private boolean has;
  private static final int INITIAL_BOUND_BYTES = 16;

  /** Bound arrays up to this length are kept from page to page. */
  private static final int KEPT_BOUND_BYTES = 64;

  private byte[] min = new byte[INITIAL_BOUND_BYTES];
  private int minLength;
  private byte[] max = new byte[INITIAL_BOUND_BYTES];
  private int maxLength;

  BinaryStatistics(boolean signed) {
    this.signed = signed;
  }

  @Override
  void addValues(PageBuffer page) {
    int n = page.values;
    if (n == 0) {
      return;
    }
    BinaryBatch batch = page.binaries;
    byte[] data = batch.data();
    int[] offsets = batch.offsets();
    // Track the positions of the page's extremes; copy them once at the end.
    int lo = 0;
    int hi = 0;
    if (signed) {
      for (int i = 1; i < n; i++) {
        int start = offsets[i];
        int end = offsets[i + 1];
        if (compareSigned(data, start, end, data, offsets[lo], offsets[lo + 1]) < 0) {
          lo = i;
        } else if (compareSigned(data, start, end, data, offsets[hi], offsets[hi + 1]) > 0) {
          hi = i;
        }
      }
    } else {
      // Most values differ from the bounds in their first eight bytes: compare those as one
      // unsigned word and only fall back to the whole strings when the words are equal.
      long loKey = prefix(data, offsets[0], offsets[1]);
      long hiKey = loKey;
      for (int i = 1; i < n; i++) {
        int start = offsets[i];
        int end = offsets[i + 1];
        long key = prefix(data, start, end);
        int c = Long.compareUnsigned(key, loKey);
        if (c < 0
            || c == 0
                && Arrays.compareUnsigned(data, start, end, data, offsets[lo], offsets[lo + 1])
                    < 0) {
          lo = i;
          loKey = key;
          continue; // below the minimum, so not above the maximum
        }
        c = Long.compareUnsigned(key, hiKey);
        if (c > 0
            || c == 0
                && Arrays.compareUnsigned(data, start, end, data, offsets[hi], offsets[hi + 1])
                    > 0) {
          hi = i;
          hiKey = key;
        }
      }
    }
    offer(data, offsets[lo], offsets[lo + 1], data, offsets[hi], offsets[hi + 1]);
  }

  /**
   * As {@link #addValues} for a dictionary-encoded page, comparing each distinct value once: the
   * page's value {@code i} has dictionary index {@code indices[i]}, and {@code seen[index] ==
   * stamp} marks an index already compared on this page ({@code stamp} is new for every page).
   */
  void addValuesOncePerIndex(PageBuffer page, int[] indices, int[] seen, int stamp) {
    int n = page.values;
    if (n == 0) {
      return;
    }
    BinaryBatch batch = page.binaries;
    byte[] data = batch.data();
    int[] offsets = batch.offsets();
    int lo = 0;
    int hi = 0;
    seen[indices[0]] = stamp;
    for (int i = 1; i < n; i++) {
      int index = indices[i];
      if (seen[index] == stamp) {
        continue; // equal to a value already compared
      }
      seen[index] = stamp;
      int start = offsets[i];
      int end = offsets[i + 1];
      if (compare(data, start, end, data, offsets[lo], offsets[lo + 1]) < 0) {
        lo = i;
      } else if (compare(data, start, end, data, offsets[hi], offsets[hi + 1]) > 0) {
        hi = i;
      }
    }
    offer(data, offsets[lo], offsets[lo + 1], data, offsets[hi], offsets[hi + 1]);
  }

  /**
   * The first eight bytes of {@code data[start, end)} as a big-endian word, zero-padded: words that
   * differ order their strings as {@link Arrays#compareUnsigned} does (padding is below every byte,
   * and a string is above its own prefixes); equal words decide nothing.
   */
  static long prefix(byte[] data, int start, int end) {
    int length = end - start;
    if (length >= Long.BYTES) {
      return (long) BIG_ENDIAN_LONG.get(data, start);
    }
    if (start <= data.length - Long.BYTES) {
      // A short string inside a larger buffer: load a whole word, keep the string's bytes.
      return length == 0 ? 0 : (long) BIG_ENDIAN_LONG.get(data, start) & -1L << (64 - 8 * length);
    }
    long word = 0;
    for (int i = start, shift = 56; i < end; i++, shift -= 8) {
      word |= (data[i] & 0xFFL) << shift;
    }
    return word;
  }

  @Override
  void mergeMinMax(ValueStatistics other) {
    BinaryStatistics o = (BinaryStatistics) other;
    offer(o.min, 0, o.minLength, o.max, 0, o.maxLength);
  }

  private void offer(byte[] lo, int loStart, int loEnd, byte[] hi, int hiStart, int hiEnd) {
    if (!has || compare(lo, loStart, loEnd, min, 0, minLength) < 0) {
      min = copy(lo, loStart, loEnd, min);
      minLength = loEnd - loStart;
    }
    if (!has || compare(hi, hiStart, hiEnd, max, 0, maxLength) > 0) {
      max = copy(hi, hiStart, hiEnd, max);
      maxLength = hiEnd - hiStart;
    }
    has = true;
  }

  private static byte[] copy(byte[] src, int start, int end, byte[] dst) {
    int len = end - start;
    byte[] out = dst.length >= len ? dst : new byte[Math.max(len, dst.length * 2)];
    System.arraycopy(src, start, out, 0, len);
    return out;
  }

  private int compare(byte[] a, int aStart, int aEnd, byte[] b, int bStart, int bEnd) {
    return signed
        ? compareSigned(a, aStart, aEnd, b, bStart, bEnd)
        : Arrays.compareUnsigned(a, aStart, aEnd, b, bStart, bEnd);
  }

  /**
   * Big-endian two's complement comparison: the shorter value is sign-extended to the longer's
   * length, then the first bytes compare signed and the rest unsigned. An empty value is zero.
   */
  static int compareSigned(byte[] a, int aStart, int aEnd, byte[] b, int bStart, int bEnd) {
    int aLen = aEnd - aStart;
    int bLen = bEnd - bStart;
    int length = Math.max(aLen, bLen);
    int aPad = length - aLen;
    int bPad = length - bLen;
    byte aSign = aLen > 0 && a[aStart] < 0 ? (byte) -1 : 0;
    byte bSign = bLen > 0 && b[bStart] < 0 ? (byte) -1 : 0;
    for (int i = 0; i < length; i++) {
      byte x = i < aPad ? aSign : a[aStart + i - aPad];
      byte y = i < bPad ? bSign : b[bStart + i - bPad];
      if (x != y) {
        return i == 0 ? Byte.compare(x, y) : Integer.compare(x & 0xFF, y & 0xFF);
      }
    }
    return 0;
  }

  @Override
  boolean hasMinMax() {
    return has;
  }

  @Override
  byte[] min() {
    return Arrays.copyOf(min, minLength);
  }

  @Override
  byte[] max() {
    return Arrays.copyOf(max, maxLength);
  }

  /**
   * Whether bounds may be shortened: a prefix of a byte string still bounds it; not so a number.
   */
  boolean truncatable() {
    return !signed;
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    return compare(a, 0, a.length, b, 0, b.length);
  }

  @Override
  void resetMinMax() {
    has = false;
    minLength = 0;
    maxLength = 0;
    // Bounds of long texts grow these to a value's length; a sink keeps a thousand files open, and
    // what a written page or row group leaves here the memory budget does not count.
    if (min.length > KEPT_BOUND_BYTES) {
      min = new byte[INITIAL_BOUND_BYTES];
    }
    if (max.length > KEPT_BOUND_BYTES) {
      max = new byte[INITIAL_BOUND_BYTES];
    }
  }

  /** The heap the bounds' arrays take. */
  long boundBytes() {
    return (long) min.length + max.length;
  }
}
