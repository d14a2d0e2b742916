package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.LittleEndian;
import java.util.Arrays;

/**
 * Bit packing of unsigned integers, {@code bitWidth} bits a value.
 *
 * <p>LSB-first order (the RLE/bit-packing hybrid and the delta encodings' miniblocks): value {@code
 * i} occupies bits {@code [i*w, i*w + w)} of the little-endian bit stream, bit 0 being the least
 * significant bit of the first byte. MSB-first order (the deprecated BIT_PACKED encoding): bits are
 * taken from the most significant end of each byte.
 *
 * <p>Callers check that the source holds {@link #bytesFor(long, int)} bytes from {@code srcOff}.
 * Whole groups of eight LSB-first values go through {@link BitPackingKernels}, one method per width
 * with constant shifts; the unpackers load 64-bit words where the array is long enough and fall
 * back to value-by-value loads (byte by byte at the array's very end), so they never read outside
 * the array.
 */
public final class BitPacking {
  private BitPacking() {}

  /** Bytes needed for {@code count} values of {@code bitWidth} bits. */
  public static long bytesFor(long count, int bitWidth) {
    return (count * bitWidth + 7) >>> 3;
  }

  /** Mask of the low {@code bitWidth} bits (0..64). */
  public static long mask(int bitWidth) {
    return bitWidth == 64 ? -1L : (1L << bitWidth) - 1;
  }

  /**
   * The bitwise OR of {@code src[from, to)}: its bit width is that of the largest value, and its
   * sign bit tells whether any value is negative. Four independent accumulators keep the loop from
   * waiting on one OR chain.
   */
  static int or(int[] src, int from, int to) {
    int a0 = 0;
    int a1 = 0;
    int a2 = 0;
    int a3 = 0;
    int i = from;
    for (; i + 4 <= to; i += 4) {
      a0 |= src[i];
      a1 |= src[i + 1];
      a2 |= src[i + 2];
      a3 |= src[i + 3];
    }
    for (; i < to; i++) {
      a0 |= src[i];
    }
    return a0 | a1 | a2 | a3;
  }

  /** Number of bits needed to represent {@code v} as unsigned. */
  public static int bitWidth(long v) {
    return 64 - Long.numberOfLeadingZeros(v);
  }

  /** Unpacks {@code count} LSB-first values of width 0..32 into {@code dst}. */
  public static void unpackInts(
      byte[] src, int srcOff, int[] dst, int dstOff, int count, int bitWidth) {
    if (bitWidth == 0) {
      Arrays.fill(dst, dstOff, dstOff + count, 0);
      return;
    }
    int groups = fastGroups(src.length, srcOff, count, bitWidth);
    BitPackingKernels.unpackInts(bitWidth, src, srcOff, dst, dstOff, groups);
    int done = groups << 3;
    unpackIntsOneByOne(
        src,
        ((long) srcOff << 3) + (long) done * bitWidth,
        dst,
        dstOff + done,
        count - done,
        bitWidth);
  }

  /** Unpacks {@code count} LSB-first values of width 0..64 into {@code dst}. */
  public static void unpackLongs(
      byte[] src, int srcOff, long[] dst, int dstOff, int count, int bitWidth) {
    if (bitWidth == 0) {
      Arrays.fill(dst, dstOff, dstOff + count, 0L);
      return;
    }
    int groups = fastGroups(src.length, srcOff, count, bitWidth);
    BitPackingKernels.unpackLongs(bitWidth, src, srcOff, dst, dstOff, groups);
    int done = groups << 3;
    unpackLongsOneByOne(
        src,
        ((long) srcOff << 3) + (long) done * bitWidth,
        dst,
        dstOff + done,
        count - done,
        bitWidth);
  }

  /**
   * How many leading groups of eight values the word-loading kernels may unpack: group {@code g}
   * starts at byte {@code srcOff + g * w} and its kernel reads whole 64-bit words, {@code 8 *
   * ceil(w / 8)} bytes, which must lie inside the array. The last groups of a value stream that
   * ends near the end of the array go through the one-by-one path instead.
   */
  private static int fastGroups(int arrayLength, int srcOff, int count, int bitWidth) {
    int span = ((bitWidth + 7) >>> 3) << 3;
    long room = (long) arrayLength - srcOff - span;
    if (room < 0) {
      return 0;
    }
    return (int) Math.min(count >>> 3, room / bitWidth + 1);
  }

  /** The general path: value {@code i} at bit {@code bit + i * w}, one load per value. */
  private static void unpackIntsOneByOne(
      byte[] src, long bit, int[] dst, int dstOff, int count, int bitWidth) {
    final long m = mask(bitWidth);
    final int fastEnd = src.length - 8;
    for (int i = 0; i < count; i++, bit += bitWidth) {
      int byteIndex = (int) (bit >>> 3);
      int shift = (int) (bit & 7);
      long word =
          byteIndex <= fastEnd ? LittleEndian.getLong(src, byteIndex) : loadTail(src, byteIndex);
      // shift + width <= 7 + 32 < 64: one eight-byte load always holds the whole value.
      dst[dstOff + i] = (int) ((word >>> shift) & m);
    }
  }

  private static void unpackLongsOneByOne(
      byte[] src, long bit, long[] dst, int dstOff, int count, int bitWidth) {
    final long m = mask(bitWidth);
    final int fastEnd = src.length - 8;
    for (int i = 0; i < count; i++, bit += bitWidth) {
      int byteIndex = (int) (bit >>> 3);
      int shift = (int) (bit & 7);
      long word =
          byteIndex <= fastEnd ? LittleEndian.getLong(src, byteIndex) : loadTail(src, byteIndex);
      long v = word >>> shift;
      if (shift + bitWidth > 64) {
        // The value straddles nine bytes: its top bits are in the ninth.
        v |= (long) (src[byteIndex + 8] & 0xFF) << (64 - shift);
      }
      dst[dstOff + i] = v & m;
    }
  }

  /** Loads up to eight bytes at the end of the array, zero-extended. */
  private static long loadTail(byte[] src, int byteIndex) {
    long word = 0;
    int n = Math.min(8, src.length - byteIndex);
    for (int k = 0; k < n; k++) {
      word |= (long) (src[byteIndex + k] & 0xFF) << (k << 3);
    }
    return word;
  }

  /**
   * Packs {@code count} values of width 0..32 LSB-first into {@code dst} at {@code dstOff}, which
   * must have {@link #bytesFor(long, int)} bytes of room. Bits above the width are ignored. Returns
   * the number of bytes written.
   */
  public static int packInts(
      int[] src, int srcOff, int count, int bitWidth, byte[] dst, int dstOff) {
    if (bitWidth == 0) {
      return 0;
    }
    int groups = count >>> 3;
    BitPackingKernels.packInts(bitWidth, src, srcOff, dst, dstOff, groups);
    int done = groups << 3;
    int out = dstOff + groups * bitWidth;
    final long m = mask(bitWidth);
    long acc = 0;
    int bits = 0;
    for (int i = done; i < count; i++) {
      acc |= ((long) src[srcOff + i] & m) << bits;
      bits += bitWidth;
      while (bits >= 8) {
        dst[out++] = (byte) acc;
        acc >>>= 8;
        bits -= 8;
      }
    }
    if (bits > 0) {
      dst[out++] = (byte) acc;
    }
    return out - dstOff;
  }

  /**
   * Packs {@code count} values of width 0..64 LSB-first into {@code dst} at {@code dstOff}, which
   * must have {@link #bytesFor(long, int)} bytes of room. Returns the number of bytes written.
   */
  public static int packLongs(
      long[] src, int srcOff, int count, int bitWidth, byte[] dst, int dstOff) {
    if (bitWidth == 0) {
      return 0;
    }
    int groups = count >>> 3;
    BitPackingKernels.packLongs(bitWidth, src, srcOff, dst, dstOff, groups);
    int done = groups << 3;
    int out = dstOff + groups * bitWidth;
    final long m = mask(bitWidth);
    long acc = 0; // holds the pending low bits, fewer than 8 of them between values
    int bits = 0;
    for (int i = done; i < count; i++) {
      long v = src[srcOff + i] & m;
      acc |= v << bits;
      int total = bits + bitWidth;
      // Emit whole bytes; bits of v that did not fit into acc (when total > 64) follow.
      long spill = bits == 0 ? 0 : v >>> (64 - bits);
      while (total >= 8) {
        dst[out++] = (byte) acc;
        acc = (acc >>> 8) | (spill << 56);
        spill >>>= 8;
        total -= 8;
      }
      bits = total;
    }
    if (bits > 0) {
      dst[out++] = (byte) acc;
    }
    return out - dstOff;
  }

  /** Unpacks {@code count} MSB-first values (deprecated BIT_PACKED) of width 0..32. */
  public static void unpackIntsMsbFirst(
      byte[] src, int srcOff, int[] dst, int dstOff, int count, int bitWidth) {
    unpackIntsMsbFirstAtBit(src, (long) srcOff << 3, dst, dstOff, count, bitWidth);
  }

  /**
   * Unpacks {@code count} MSB-first values of width 0..32 starting at bit {@code srcBit} of {@code
   * src} (bit 0 being the most significant bit of byte 0), so that a reader can resume in the
   * middle of a byte.
   */
  public static void unpackIntsMsbFirstAtBit(
      byte[] src, long srcBit, int[] dst, int dstOff, int count, int bitWidth) {
    if (bitWidth == 0) {
      Arrays.fill(dst, dstOff, dstOff + count, 0);
      return;
    }
    final int fastEnd = src.length - 8;
    final int dropLow = 64 - bitWidth;
    long bit = srcBit;
    for (int i = 0; i < count; i++, bit += bitWidth) {
      int byteIndex = (int) (bit >>> 3);
      int shift = (int) (bit & 7);
      // Big-endian view of eight bytes: the value's first bit is bit 63 - shift of the word,
      // and shift + width <= 39 bits all lie inside it.
      long word =
          byteIndex <= fastEnd
              ? Long.reverseBytes(LittleEndian.getLong(src, byteIndex))
              : Long.reverseBytes(loadTail(src, byteIndex));
      dst[dstOff + i] = (int) ((word << shift) >>> dropLow);
    }
  }

  /**
   * Packs {@code count} values of width 0..32 MSB-first (deprecated BIT_PACKED) into {@code dst} at
   * {@code dstOff}, which must have {@link #bytesFor(long, int)} bytes of room; the last byte is
   * padded with zero bits. Bits above the width are ignored. Returns the bytes written.
   */
  public static int packIntsMsbFirst(
      int[] src, int srcOff, int count, int bitWidth, byte[] dst, int dstOff) {
    if (bitWidth == 0) {
      return 0;
    }
    final long m = mask(bitWidth);
    // The low `bits` bits of acc are pending output, oldest first; fewer than 8 remain between
    // values, so a 32-bit value always fits beside them.
    long acc = 0;
    int bits = 0;
    int out = dstOff;
    for (int i = 0; i < count; i++) {
      acc = (acc << bitWidth) | (src[srcOff + i] & m);
      bits += bitWidth;
      while (bits >= 8) {
        bits -= 8;
        dst[out++] = (byte) (acc >>> bits);
      }
    }
    if (bits > 0) {
      dst[out++] = (byte) (acc << (8 - bits));
    }
    return out - dstOff;
  }
}
