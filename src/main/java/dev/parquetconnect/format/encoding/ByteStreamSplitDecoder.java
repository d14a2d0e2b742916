package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
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
      throw new CorruptDataException(WHAT + ": page of " + length + " bytes at byte " + offset
          + " is not a whole number of " + width + "-byte values");
    }
    int count = length / width;
    if (count > valueCount) {
      throw new CorruptDataException(WHAT + ": page at byte " + offset + " holds " + count
          + " values but at most " + valueCount + " are expected");
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
    for (int i = 0; i < len; i++, p++) {
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
    for (int i = 0; i < len; i++, p++) {
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
      throw new UnsupportedFeatureException(WHAT + ": " + len + " values of " + width
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
