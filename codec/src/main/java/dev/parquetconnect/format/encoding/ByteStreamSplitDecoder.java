package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Decodes BYTE_STREAM_SPLIT (encoding 9) pages of FLOAT, DOUBLE, INT32, INT64 or
 * FIXED_LEN_BYTE_ARRAY. A page of {@code N} values of {@code K} bytes holds {@code K} streams of
 * {@code N} bytes: stream {@code s} has byte {@code s} (little-endian order) of every value. The
 * value count therefore comes from the page length, which must be a multiple of {@code K}.
 *
 * <p>Floating-point values are rebuilt from their raw bits, so NaN payloads and -0.0 come back
 * exactly as written. Only the read matching the column's type is supported.
 */
public final class ByteStreamSplitDecoder implements ValuesDecoder {
  private static final String WHAT = "BYTE_STREAM_SPLIT";
  private static final long MAX_BATCH_BYTES = Integer.MAX_VALUE - 16;

  private final PhysicalType type;
  private final int width;

  private byte[] page;

  /** Page position of the next value's byte in stream 0. */
  private int next;

  /** Length of each stream: the page's value count. */
  private int stride;

  private int remaining;

  private ByteStreamSplitDecoder(PhysicalType type, int width) {
    this.type = type;
    this.width = width;
  }

  /**
   * A decoder for {@code type}; {@code typeLength} is the schema's type_length, used only for
   * FIXED_LEN_BYTE_ARRAY (where it must be positive).
   */
  public static ByteStreamSplitDecoder forType(PhysicalType type, int typeLength)
      throws ParquetException {
    switch (type) {
      case FLOAT:
      case INT32:
        return new ByteStreamSplitDecoder(type, 4);
      case DOUBLE:
      case INT64:
        return new ByteStreamSplitDecoder(type, 8);
      case FIXED_LEN_BYTE_ARRAY:
        if (typeLength <= 0) {
          throw new CorruptDataException(
              WHAT + ": FIXED_LEN_BYTE_ARRAY type length " + typeLength + " is not positive");
        }
        return new ByteStreamSplitDecoder(type, typeLength);
      default:
        throw new UnsupportedFeatureException(WHAT + " is not defined for " + type);
    }
  }

  /** Bytes per value. */
  public int width() {
    return width;
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount) throws ParquetException {
    remaining = 0; // if this page is rejected, reads fail cleanly
    if (offset < 0 || length < 0 || offset > page.length - length) {
      throw new IllegalArgumentException(
          "slice [" + offset + ", +" + length + ") outside array of " + page.length);
    }
    if (length % width != 0) {
      throw new CorruptDataException(
          WHAT
              + ": page of "
              + length
              + " bytes at byte "
              + offset
              + " is not a whole number of "
              + width
              + "-byte values");
    }
    int count = length / width;
    if (count > valueCount) {
      throw new CorruptDataException(
          WHAT
              + ": page at byte "
              + offset
              + " holds "
              + count
              + " values but at most "
              + valueCount
              + " are expected");
    }
    this.page = page;
    next = offset;
    stride = count;
    remaining = count;
  }

  /** Number of values in the page, from its length. Valid after {@link #init}. */
  public int valueCount() {
    return stride;
  }

  @Override
  public void readFloats(float[] dst, int off, int len) throws ParquetException {
    requireType(PhysicalType.FLOAT, "FLOAT");
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(WHAT, len, remaining);
    byte[] b = page;
    int n = stride;
    int p = next;
    for (int i = 0; i < len; i++, p++) {
      dst[off + i] = Float.intBitsToFloat(gather4(b, p, n));
    }
    consumed(len);
  }

  @Override
  public void readInts(int[] dst, int off, int len) throws ParquetException {
    requireType(PhysicalType.INT32, "INT32");
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(WHAT, len, remaining);
    byte[] b = page;
    int n = stride;
    int p = next;
    for (int i = 0; i < len; i++, p++) {
      dst[off + i] = gather4(b, p, n);
    }
    consumed(len);
  }

  @Override
  public void readDoubles(double[] dst, int off, int len) throws ParquetException {
    requireType(PhysicalType.DOUBLE, "DOUBLE");
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(WHAT, len, remaining);
    byte[] b = page;
    int n = stride;
    int p = next;
    int i = 0;
    long[] words = transposed;
    for (; i + 8 <= len; i += 8, p += 8) {
      unsplit8(b, p, n, words);
      for (int k = 0; k < 8; k++) {
        dst[off + i + k] = Double.longBitsToDouble(words[k]);
      }
    }
    for (; i < len; i++, p++) {
      dst[off + i] = Double.longBitsToDouble(gather8(b, p, n));
    }
    consumed(len);
  }

  @Override
  public void readLongs(long[] dst, int off, int len) throws ParquetException {
    requireType(PhysicalType.INT64, "INT64");
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(WHAT, len, remaining);
    byte[] b = page;
    int n = stride;
    int p = next;
    int i = 0;
    long[] words = transposed;
    for (; i + 8 <= len; i += 8, p += 8) {
      unsplit8(b, p, n, words);
      System.arraycopy(words, 0, dst, off + i, 8);
    }
    for (; i < len; i++, p++) {
      dst[off + i] = gather8(b, p, n);
    }
    consumed(len);
  }

  @Override
  public void readBinaries(BinaryBatch dst, int len) throws ParquetException {
    requireType(PhysicalType.FIXED_LEN_BYTE_ARRAY, "BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY");
    if (len < 0) {
      throw new IllegalArgumentException("negative count " + len);
    }
    Decoders.checkRemaining(WHAT, len, remaining);
    long bytes = (long) len * width;
    if (bytes > MAX_BATCH_BYTES - dst.byteSize()) {
      throw new UnsupportedFeatureException(
          WHAT
              + ": "
              + len
              + " values of "
              + width
              + " bytes would push the batch past 2 GiB; read fewer values at a time");
    }
    dst.ensureCapacity(len, bytes);
    byte[] out = dst.data();
    int base = dst.byteSize();
    int k = width;
    int n = stride;
    // Stream by stream: sequential reads, strided writes into the values being assembled.
    for (int s = 0; s < k; s++) {
      int from = next + s * n;
      for (int i = 0, o = base + s; i < len; i++, o += k) {
        out[o] = page[from + i];
      }
    }
    for (int i = 0; i < len; i++) {
      dst.commit(k);
    }
    consumed(len);
  }

  @Override
  public void skip(int n) throws ParquetException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining(WHAT, n, remaining);
    consumed(n);
  }

  /** Scratch for {@link #unsplit8}'s eight values. */
  private final long[] transposed = new long[8];

  private void requireType(PhysicalType wanted, String asked) throws UnsupportedFeatureException {
    if (type != wanted) {
      throw new UnsupportedFeatureException(
          WHAT + " decoder for " + type + " cannot read " + asked + " values");
    }
  }

  private void consumed(int n) {
    next += n;
    remaining -= n;
  }

  /**
   * The eight 8-byte values {@code p .. p + 7}: one 64-bit load from each of the eight byte streams
   * gives an 8x8 byte matrix (stream by value), transposed in registers in three rounds of masked
   * swaps (bytes, then 16-bit pairs, then 32-bit halves), so that {@code out[j]} is value {@code p
   * + j}.
   */
  private static void unsplit8(byte[] b, int p, int n, long[] out) {
    long r0 = LittleEndian.getLong(b, p);
    long r1 = LittleEndian.getLong(b, p + n);
    long r2 = LittleEndian.getLong(b, p + 2 * n);
    long r3 = LittleEndian.getLong(b, p + 3 * n);
    long r4 = LittleEndian.getLong(b, p + 4 * n);
    long r5 = LittleEndian.getLong(b, p + 5 * n);
    long r6 = LittleEndian.getLong(b, p + 6 * n);
    long r7 = LittleEndian.getLong(b, p + 7 * n);
    long t;
    final long m8 = 0x00FF00FF00FF00FFL;
    t = ((r0 >>> 8) ^ r1) & m8;
    r1 ^= t;
    r0 ^= t << 8;
    t = ((r2 >>> 8) ^ r3) & m8;
    r3 ^= t;
    r2 ^= t << 8;
    t = ((r4 >>> 8) ^ r5) & m8;
    r5 ^= t;
    r4 ^= t << 8;
    t = ((r6 >>> 8) ^ r7) & m8;
    r7 ^= t;
    r6 ^= t << 8;
    final long m16 = 0x0000FFFF0000FFFFL;
    t = ((r0 >>> 16) ^ r2) & m16;
    r2 ^= t;
    r0 ^= t << 16;
    t = ((r1 >>> 16) ^ r3) & m16;
    r3 ^= t;
    r1 ^= t << 16;
    t = ((r4 >>> 16) ^ r6) & m16;
    r6 ^= t;
    r4 ^= t << 16;
    t = ((r5 >>> 16) ^ r7) & m16;
    r7 ^= t;
    r5 ^= t << 16;
    final long m32 = 0x00000000FFFFFFFFL;
    t = ((r0 >>> 32) ^ r4) & m32;
    r4 ^= t;
    r0 ^= t << 32;
    t = ((r1 >>> 32) ^ r5) & m32;
    r5 ^= t;
    r1 ^= t << 32;
    t = ((r2 >>> 32) ^ r6) & m32;
    r6 ^= t;
    r2 ^= t << 32;
    t = ((r3 >>> 32) ^ r7) & m32;
    r7 ^= t;
    r3 ^= t << 32;
    out[0] = r0;
    out[1] = r1;
    out[2] = r2;
    out[3] = r3;
    out[4] = r4;
    out[5] = r5;
    out[6] = r6;
    out[7] = r7;
  }

  private static int gather4(byte[] b, int p, int n) {
    return (b[p] & 0xFF)
        | (b[p + n] & 0xFF) << 8
        | (b[p + 2 * n] & 0xFF) << 16
        | (b[p + 3 * n] & 0xFF) << 24;
  }

  private static long gather8(byte[] b, int p, int n) {
    long lo = gather4(b, p, n) & 0xFFFFFFFFL;
    long hi = gather4(b, p + 4 * n, n) & 0xFFFFFFFFL;
    return lo | hi << 32;
  }
}
