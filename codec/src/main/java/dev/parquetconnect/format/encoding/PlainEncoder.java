package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * PLAIN encoding for one physical type: BOOLEAN bit-packed LSB first, INT32/INT64/FLOAT/DOUBLE
 * little-endian, BYTE_ARRAY as a 4-byte little-endian length then the bytes, FIXED_LEN_BYTE_ARRAY
 * and INT96 (12 bytes) raw. Also writes dictionary pages, whose body is PLAIN.
 *
 * <p>Only the write method of the encoder's own type is accepted; the others throw {@link
 * UnsupportedOperationException}; a fixed-length value of the wrong length throws {@link
 * IllegalArgumentException} (both are bugs in the caller, not data errors).
 */
public final class PlainEncoder implements ValuesEncoder {
  /** INT96 is a 12-byte fixed-length binary. */
  static final int INT96_LENGTH = 12;

  private final PhysicalType type;

  /** Bytes per value for FIXED_LEN_BYTE_ARRAY and INT96, otherwise unused. */
  private final int fixedLength;

  private final GrowableBuffer buf = new GrowableBuffer(1024);
  private int valueCount;

  /** BOOLEAN only: bits of the byte not yet complete, LSB first. */
  private int pendingBits;

  private int pendingBitCount;

  /** A PLAIN encoder for any type but FIXED_LEN_BYTE_ARRAY, whose length it needs. */
  public PlainEncoder(PhysicalType type) {
    this(type, 0);
  }

  /**
   * A PLAIN encoder for {@code type}; {@code typeLength} is the value length of a
   * FIXED_LEN_BYTE_ARRAY column (at least 1) and is ignored for the other types.
   */
  public PlainEncoder(PhysicalType type, int typeLength) {
    this.type = type;
    if (type == PhysicalType.FIXED_LEN_BYTE_ARRAY) {
      if (typeLength < 1) {
        throw new IllegalArgumentException(
            "FIXED_LEN_BYTE_ARRAY length must be >= 1: " + typeLength);
      }
      fixedLength = typeLength;
    } else {
      fixedLength = type == PhysicalType.INT96 ? INT96_LENGTH : 0;
    }
  }

  public PhysicalType type() {
    return type;
  }

  @Override
  public Encoding encoding() {
    return Encoding.PLAIN;
  }

  @Override
  public void writeBooleans(boolean[] src, int off, int len) {
    requireType(PhysicalType.BOOLEAN);
    Decoders.checkRange(src.length, off, len);
    reserve(len / 8L + 1);
    byte[] out = buf.array();
    int pos = buf.size();
    int i = off;
    int end = off + len;
    // Complete the byte left open by the previous call first, then whole bytes of eight values.
    while (pendingBitCount != 0 && i < end) {
      pendingBits |= (src[i++] ? 1 : 0) << pendingBitCount;
      if (++pendingBitCount == 8) {
        out[pos++] = (byte) pendingBits;
        pendingBits = 0;
        pendingBitCount = 0;
      }
    }
    for (; i + 8 <= end; i += 8) {
      out[pos++] =
          (byte)
              ((src[i] ? 1 : 0)
                  | (src[i + 1] ? 2 : 0)
                  | (src[i + 2] ? 4 : 0)
                  | (src[i + 3] ? 8 : 0)
                  | (src[i + 4] ? 16 : 0)
                  | (src[i + 5] ? 32 : 0)
                  | (src[i + 6] ? 64 : 0)
                  | (src[i + 7] ? 128 : 0));
    }
    for (; i < end; i++) {
      pendingBits |= (src[i] ? 1 : 0) << pendingBitCount++;
    }
    buf.advance(pos - buf.size());
    valueCount += len;
  }

  @Override
  public void writeInts(int[] src, int off, int len) {
    requireType(PhysicalType.INT32);
    Decoders.checkRange(src.length, off, len);
    reserve(4L * len);
    byte[] out = buf.array();
    int pos = buf.size();
    for (int i = 0; i < len; i++, pos += 4) {
      LittleEndian.putInt(out, pos, src[off + i]);
    }
    buf.advance(4 * len);
    valueCount += len;
  }

  @Override
  public void writeLongs(long[] src, int off, int len) {
    requireType(PhysicalType.INT64);
    Decoders.checkRange(src.length, off, len);
    reserve(8L * len);
    byte[] out = buf.array();
    int pos = buf.size();
    for (int i = 0; i < len; i++, pos += 8) {
      LittleEndian.putLong(out, pos, src[off + i]);
    }
    buf.advance(8 * len);
    valueCount += len;
  }

  @Override
  public void writeFloats(float[] src, int off, int len) {
    requireType(PhysicalType.FLOAT);
    Decoders.checkRange(src.length, off, len);
    reserve(4L * len);
    byte[] out = buf.array();
    int pos = buf.size();
    for (int i = 0; i < len; i++, pos += 4) {
      LittleEndian.putFloat(out, pos, src[off + i]);
    }
    buf.advance(4 * len);
    valueCount += len;
  }

  @Override
  public void writeDoubles(double[] src, int off, int len) {
    requireType(PhysicalType.DOUBLE);
    Decoders.checkRange(src.length, off, len);
    reserve(8L * len);
    byte[] out = buf.array();
    int pos = buf.size();
    for (int i = 0; i < len; i++, pos += 8) {
      LittleEndian.putDouble(out, pos, src[off + i]);
    }
    buf.advance(8 * len);
    valueCount += len;
  }

  @Override
  public void writeBinaries(BinaryBatch src, int from, int len) {
    if (type != PhysicalType.BYTE_ARRAY
        && type != PhysicalType.FIXED_LEN_BYTE_ARRAY
        && type != PhysicalType.INT96) {
      throw new UnsupportedOperationException("PLAIN " + type + " encoder does not take binaries");
    }
    Decoders.checkRange(src.count(), from, len);
    int[] offsets = src.offsets();
    int first = offsets[from];
    int bytes = offsets[from + len] - first;
    if (type == PhysicalType.BYTE_ARRAY) {
      reserve(4L * len + bytes);
      // Spare room past the page lets short values be moved as whole words (ShortCopy); the
      // bytes written past the last value are not part of the page.
      buf.ensureCapacity(
          (int) Math.min(Integer.MAX_VALUE - 16L - buf.size(), 4L * len + bytes + ShortCopy.SLACK));
      byte[] out = buf.array();
      byte[] data = src.data();
      int pos = buf.size();
      for (int i = from; i < from + len; i++) {
        int start = offsets[i];
        int length = offsets[i + 1] - start;
        LittleEndian.putInt(out, pos, length);
        ShortCopy.copy(data, start, out, pos + 4, length);
        pos += 4 + length;
      }
      buf.advance(pos - buf.size());
    } else {
      // Fixed-length values lie back to back in the batch: check them, then copy in one go.
      for (int i = from; i < from + len; i++) {
        if (offsets[i + 1] - offsets[i] != fixedLength) {
          throw new IllegalArgumentException(
              "PLAIN "
                  + type
                  + ": value "
                  + i
                  + " has "
                  + (offsets[i + 1] - offsets[i])
                  + " bytes, the column's values have "
                  + fixedLength);
        }
      }
      buf.write(src.data(), first, bytes);
    }
    valueCount += len;
  }

  @Override
  public int valueCount() {
    return valueCount;
  }

  @Override
  public long estimatedSize() {
    return buf.size() + (pendingBitCount > 0 ? 1 : 0);
  }

  @Override
  public void flushTo(GrowableBuffer out) {
    if (pendingBitCount > 0) {
      // The last byte of a BOOLEAN page is padded with zero bits.
      buf.writeByte(pendingBits);
    }
    out.write(buf);
    reset();
  }

  @Override
  public void reset() {
    buf.reset();
    valueCount = 0;
    pendingBits = 0;
    pendingBitCount = 0;
  }

  private void requireType(PhysicalType expected) {
    if (type != expected) {
      throw new UnsupportedOperationException(
          "PLAIN " + type + " encoder does not take " + expected + " values");
    }
  }

  private void reserve(long bytes) {
    if (bytes > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("PLAIN page would exceed 2 GiB");
    }
    buf.ensureCapacity((int) bytes);
  }
}
