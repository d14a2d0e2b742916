package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.LittleEndian;

/**
 * Bit packing of unsigned integers, {@code bitWidth} bits a value.
 *
 * <p>LSB-first order (the RLE/bit-packing hybrid and the delta encodings' miniblocks): value
 * {@code i} occupies bits {@code [i*w, i*w + w)} of the little-endian bit stream, bit 0 being the
 * least significant bit of the first byte. MSB-first order (the deprecated BIT_PACKED encoding):
 * bits are taken from the most significant end of each byte.
 *
 * <p>Callers check that the source holds {@link #bytesFor(long, int)} bytes from {@code srcOff};
 * the unpackers load eight bytes at a time where the array is long enough and fall back to
 * byte-by-byte loads at its very end, so they never read outside the array.
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

  /** Number of bits needed to represent {@code v} as unsigned. */
  public static int bitWidth(long v) {
    return 64 - Long.numberOfLeadingZeros(v);
  }

  /** Unpacks {@code count} LSB-first values of width 0..32 into {@code dst}. */
  public static void unpackInts(
      byte[] src, int srcOff, int[] dst, int dstOff, int count, int bitWidth) {
    if (bitWidth == 0) {
      java.util.Arrays.fill(dst, dstOff, dstOff + count, 0);
      return;
    }
    if (bitWidth == 8) {
      for (int i = 0; i < count; i++) {
        dst[dstOff + i] = src[srcOff + i] & 0xFF;
      }
      return;
    }
    final long m = mask(bitWidth);
    final int fastEnd = src.length - 8;
    long bit = (long) srcOff << 3;
    for (int i = 0; i < count; i++, bit += bitWidth) {
      int byteIndex = (int) (bit >>> 3);
      int shift = (int) (bit & 7);
      long word =
          byteIndex <= fastEnd
              ? LittleEndian.getLong(src, byteIndex)
              : loadTail(src, byteIndex);
      // shift + width <= 7 + 32 < 64: one eight-byte load always holds the whole value.
      dst[dstOff + i] = (int) ((word >>> shift) & m);
    }
  }

  /** Unpacks {@code count} LSB-first values of width 0..64 into {@code dst}. */
  public static void unpackLongs(
      byte[] src, int srcOff, long[] dst, int dstOff, int count, int bitWidth) {
    if (bitWidth == 0) {
      java.util.Arrays.fill(dst, dstOff, dstOff + count, 0L);
      return;
    }
    final long m = mask(bitWidth);
    final int fastEnd = src.length - 8;
    long bit = (long) srcOff << 3;
    for (int i = 0; i < count; i++, bit += bitWidth) {
      int byteIndex = (int) (bit >>> 3);
      int shift = (int) (bit & 7);
      long word =
          byteIndex <= fastEnd
              ? LittleEndian.getLong(src, byteIndex)
              : loadTail(src, byteIndex);
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
   * must have {@link #bytesFor(long, int)} bytes of room. Bits above the width are ignored.
   * Returns the number of bytes written.
   */
  public static int packInts(
      int[] src, int srcOff, int count, int bitWidth, byte[] dst, int dstOff) {
    if (bitWidth == 0) {
      return 0;
    }
    final long m = mask(bitWidth);
    long acc = 0;
    int bits = 0;
    int out = dstOff;
    for (int i = 0; i < count; i++) {
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
    final long m = mask(bitWidth);
    long acc = 0; // holds the pending low bits, fewer than 8 of them between values
    int bits = 0;
    int out = dstOff;
    for (int i = 0; i < count; i++) {
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
    if (bitWidth == 0) {
      java.util.Arrays.fill(dst, dstOff, dstOff + count, 0);
      return;
    }
    long bit = (long) srcOff << 3;
    for (int i = 0; i < count; i++) {
      int v = 0;
      for (int b = 0; b < bitWidth; b++, bit++) {
        int byteValue = src[(int) (bit >>> 3)];
        v = (v << 1) | ((byteValue >>> (7 - (int) (bit & 7))) & 1);
      }
      dst[dstOff + i] = v;
    }
  }

  /** Packs MSB-first (deprecated BIT_PACKED); for tests and for writers that must emit it. */
  public static int packIntsMsbFirst(
      int[] src, int srcOff, int count, int bitWidth, byte[] dst, int dstOff) {
    long total = (long) count * bitWidth;
    int bytes = (int) ((total + 7) >>> 3);
    java.util.Arrays.fill(dst, dstOff, dstOff + bytes, (byte) 0);
    long bit = (long) dstOff << 3;
    for (int i = 0; i < count; i++) {
      int v = src[srcOff + i];
      for (int b = bitWidth - 1; b >= 0; b--, bit++) {
        if (((v >>> b) & 1) != 0) {
          dst[(int) (bit >>> 3)] |= (byte) (0x80 >>> (int) (bit & 7));
        }
      }
    }
    return bytes;
  }
}
