package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Decodes PLAIN values of one physical type (see {@link PlainEncoder} for the layout), for data
 * pages and for dictionary pages. Each batch checks once that the page holds the bytes it needs;
 * BYTE_ARRAY batches validate every length before copying anything. Error messages give byte
 * positions relative to the start of the encoded values.
 */
public final class PlainDecoder implements ValuesDecoder {
  private final PhysicalType type;

  /** Bytes per value for the fixed-width types; 0 for BOOLEAN and BYTE_ARRAY. */
  private final int width;

  private final String name;

  private byte[] page;
  private int start;
  private int pos;
  private int limit;

  /** BOOLEAN only: the next bit, counted from bit 0 of byte {@code start}. */
  private long bitPos;

  private int valuesLeft;

  /** A PLAIN decoder for any type but FIXED_LEN_BYTE_ARRAY, whose length it needs. */
  public PlainDecoder(PhysicalType type) throws CorruptDataException {
    this(type, 0);
  }

  /**
   * A PLAIN decoder for {@code type}; {@code typeLength} is the value length of a
   * FIXED_LEN_BYTE_ARRAY column and is ignored for the other types. A length below 1 comes from a
   * corrupt schema and is rejected.
   */
  public PlainDecoder(PhysicalType type, int typeLength) throws CorruptDataException {
    this.type = type;
    this.name = "PLAIN " + type;
    this.width =
        switch (type) {
          case BOOLEAN, BYTE_ARRAY -> 0;
          case INT32, FLOAT -> 4;
          case INT64, DOUBLE -> 8;
          case INT96 -> PlainEncoder.INT96_LENGTH;
          case FIXED_LEN_BYTE_ARRAY -> {
            if (typeLength < 1) {
              throw new CorruptDataException(
                  "FIXED_LEN_BYTE_ARRAY column with type length " + typeLength);
            }
            yield typeLength;
          }
        };
  }

  public PhysicalType type() {
    return type;
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount)
      throws CorruptDataException {
    Decoders.checkRange(page.length, offset, length);
    if (valueCount < 0) {
      throw new CorruptDataException(name + ": negative value count " + valueCount);
    }
    this.page = page;
    this.start = offset;
    this.pos = offset;
    this.limit = offset + length;
    this.bitPos = 0;
    this.valuesLeft = valueCount;
  }

  /** Values not yet read or skipped. */
  public int remaining() {
    return valuesLeft;
  }

  /** The position just past the values read so far: where a caller's next section starts. */
  public int position() {
    return type == PhysicalType.BOOLEAN ? start + (int) ((bitPos + 7) >>> 3) : pos;
  }

  @Override
  public void readBooleans(boolean[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.BOOLEAN, "BOOLEAN");
    decodeBooleans(dst, off, len);
  }

  /** {@link #readBooleans} once the type is known to match. */
  void decodeBooleans(boolean[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    takeBits(len);
    byte[] src = page;
    long bit = bitPos;
    int i = off;
    int end = off + len;
    // Leading bits up to a byte boundary, whole bytes of eight values, then the trailing bits.
    for (; i < end && (bit & 7) != 0; i++, bit++) {
      dst[i] = ((src[start + (int) (bit >>> 3)] >>> (bit & 7)) & 1) != 0;
    }
    int at = start + (int) (bit >>> 3);
    for (; i + 8 <= end; i += 8, at++, bit += 8) {
      int b = src[at];
      dst[i] = (b & 1) != 0;
      dst[i + 1] = (b & 2) != 0;
      dst[i + 2] = (b & 4) != 0;
      dst[i + 3] = (b & 8) != 0;
      dst[i + 4] = (b & 16) != 0;
      dst[i + 5] = (b & 32) != 0;
      dst[i + 6] = (b & 64) != 0;
      dst[i + 7] = (b & 128) != 0;
    }
    for (; i < end; i++, bit++) {
      dst[i] = ((src[start + (int) (bit >>> 3)] >>> (bit & 7)) & 1) != 0;
    }
    bitPos = bit;
  }

  @Override
  public void readInts(int[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.INT32, "INT32");
    decodeInts(dst, off, len);
  }

  /** {@link #readInts} once the type is known to match. */
  void decodeInts(int[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    int p = take(len);
    for (int i = 0; i < len; i++, p += 4) {
      dst[off + i] = LittleEndian.getInt(page, p);
    }
  }

  @Override
  public void readLongs(long[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.INT64, "INT64");
    decodeLongs(dst, off, len);
  }

  /** {@link #readLongs} once the type is known to match. */
  void decodeLongs(long[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    int p = take(len);
    for (int i = 0; i < len; i++, p += 8) {
      dst[off + i] = LittleEndian.getLong(page, p);
    }
  }

  @Override
  public void readFloats(float[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.FLOAT, "FLOAT");
    decodeFloats(dst, off, len);
  }

  /** {@link #readFloats} once the type is known to match. */
  void decodeFloats(float[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    int p = take(len);
    for (int i = 0; i < len; i++, p += 4) {
      // Through the raw bits, so NaN payloads and -0.0 come back unchanged.
      dst[off + i] = Float.intBitsToFloat(LittleEndian.getInt(page, p));
    }
  }

  @Override
  public void readDoubles(double[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.DOUBLE, "DOUBLE");
    decodeDoubles(dst, off, len);
  }

  /** {@link #readDoubles} once the type is known to match. */
  void decodeDoubles(double[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    int p = take(len);
    for (int i = 0; i < len; i++, p += 8) {
      dst[off + i] = Double.longBitsToDouble(LittleEndian.getLong(page, p));
    }
  }

  @Override
  public void readBinaries(BinaryBatch dst, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    if (type != PhysicalType.BYTE_ARRAY
        && type != PhysicalType.FIXED_LEN_BYTE_ARRAY
        && type != PhysicalType.INT96) {
      throw Decoders.unsupported(this, "BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY");
    }
    decodeBinaries(dst, len);
  }

  /** {@link #readBinaries} once the type is known to be a binary one. */
  void decodeBinaries(BinaryBatch dst, int len) throws CorruptDataException {
    if (len < 0) {
      throw new IndexOutOfBoundsException("negative batch length " + len);
    }
    if (type == PhysicalType.BYTE_ARRAY) {
      readByteArrays(dst, len);
    } else {
      int p = take(len);
      int bytes = len * width; // take() has checked that these bytes exist
      dst.ensureCapacity(len, bytes);
      System.arraycopy(page, p, dst.data(), dst.byteSize(), bytes);
      for (int i = 0; i < len; i++) {
        dst.commit(width);
      }
    }
  }

  private void readByteArrays(BinaryBatch dst, int len) throws CorruptDataException {
    Decoders.checkRemaining(name, len, valuesLeft);
    // One pass: the values' bytes are at most what is left of the page, so the batch is sized
    // by that bound once; each length is checked before its bytes are copied, and a bad one
    // throws before anything is committed, which leaves the batch as it was. Spare room past
    // the values lets short ones be moved as whole words (ShortCopy).
    dst.ensureCapacity(len, (long) (limit - pos) + ShortCopy.SLACK);
    byte[] src = page;
    byte[] out = dst.data();
    int[] offsets = dst.offsets();
    int c = dst.count();
    int at = offsets[c];
    int p = pos;
    int end = limit;
    for (int i = 0; i < len; i++) {
      if (end - p < 4) {
        throw new CorruptDataException(
            name
                + ": length of value needs 4 bytes at byte "
                + (p - start)
                + " but only "
                + (end - p)
                + " remain");
      }
      int length = LittleEndian.getInt(src, p);
      p += 4;
      if (length < 0 || length > end - p) {
        throw new CorruptDataException(
            name
                + ": value length "
                + Integer.toUnsignedString(length)
                + " at byte "
                + (p - 4 - start)
                + " exceeds the "
                + (end - p)
                + " bytes that remain");
      }
      ShortCopy.copy(src, p, out, at, length);
      at += length;
      offsets[++c] = at;
      p += length;
    }
    dst.commitAll(len);
    pos = p;
    valuesLeft -= len;
  }

  /** Walks {@code n} length-prefixed values from {@code pos}; returns where they end. */
  private int scanByteArrays(int n) throws CorruptDataException {
    int p = pos;
    for (int i = 0; i < n; i++) {
      if (limit - p < 4) {
        throw new CorruptDataException(
            name
                + ": length of value needs 4 bytes at byte "
                + (p - start)
                + " but only "
                + (limit - p)
                + " remain");
      }
      int length = LittleEndian.getInt(page, p);
      p += 4;
      if (length < 0 || length > limit - p) {
        throw new CorruptDataException(
            name
                + ": value length "
                + Integer.toUnsignedString(length)
                + " at byte "
                + (p - 4 - start)
                + " exceeds the "
                + (limit - p)
                + " bytes that remain");
      }
      p += length;
    }
    return p;
  }

  @Override
  public void skip(int n) throws CorruptDataException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    switch (type) {
      case BOOLEAN -> {
        takeBits(n);
        bitPos += n;
      }
      case BYTE_ARRAY -> {
        Decoders.checkRemaining(name, n, valuesLeft);
        pos = scanByteArrays(n);
        valuesLeft -= n;
      }
      default -> take(n);
    }
  }

  /**
   * Claims {@code n} fixed-width values: checks the count and the bytes, advances, and returns the
   * position of the first.
   */
  private int take(int n) throws CorruptDataException {
    Decoders.checkRemaining(name, n, valuesLeft);
    long bytes = (long) n * width;
    if (bytes > limit - pos) {
      throw new CorruptDataException(
          name
              + ": "
              + n
              + " values need "
              + bytes
              + " bytes at byte "
              + (pos - start)
              + " but only "
              + (limit - pos)
              + " remain");
    }
    int p = pos;
    pos += (int) bytes;
    valuesLeft -= n;
    return p;
  }

  /** Claims {@code n} BOOLEAN values (bits); the caller advances {@link #bitPos}. */
  private void takeBits(int n) throws CorruptDataException {
    Decoders.checkRemaining(name, n, valuesLeft);
    long bitsAvailable = ((long) (limit - start) << 3) - bitPos;
    if (n > bitsAvailable) {
      throw new CorruptDataException(
          name
              + ": "
              + n
              + " values need "
              + n
              + " bits at bit "
              + bitPos
              + " but only "
              + bitsAvailable
              + " remain");
    }
    valuesLeft -= n;
  }

  private void requireType(PhysicalType expected, String what) throws UnsupportedFeatureException {
    if (type != expected) {
      throw Decoders.unsupported(this, what);
    }
  }
}
