package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Encodes FLOAT, DOUBLE, INT32, INT64 or FIXED_LEN_BYTE_ARRAY values as BYTE_STREAM_SPLIT (encoding
 * 9); see {@link ByteStreamSplitDecoder}. Values are buffered in PLAIN order (the streams' length
 * is the page's value count, known only at the end) and scattered into the streams by {@link
 * #flushTo}. Floats are stored from their raw bits.
 */
final class ByteStreamSplitEncoder implements ValuesEncoder {
  private final PhysicalType type;
  private final int width;
  private final GrowableBuffer plain = new GrowableBuffer();

  private ByteStreamSplitEncoder(PhysicalType type, int width) {
    this.type = type;
    this.width = width;
  }

  /**
   * An encoder for {@code type}; {@code typeLength} is the FIXED_LEN_BYTE_ARRAY length and is
   * ignored for the other types.
   */
  public static ByteStreamSplitEncoder forType(PhysicalType type, int typeLength) {
    switch (type) {
      case FLOAT:
      case INT32:
        return new ByteStreamSplitEncoder(type, 4);
      case DOUBLE:
      case INT64:
        return new ByteStreamSplitEncoder(type, 8);
      case FIXED_LEN_BYTE_ARRAY:
        if (typeLength <= 0) {
          throw new IllegalArgumentException(
              "FIXED_LEN_BYTE_ARRAY length must be positive: " + typeLength);
        }
        return new ByteStreamSplitEncoder(type, typeLength);
      default:
        throw new IllegalArgumentException("BYTE_STREAM_SPLIT is not defined for " + type);
    }
  }

  @Override
  public Encoding encoding() {
    return Encoding.BYTE_STREAM_SPLIT;
  }

  @Override
  public void writeFloats(float[] src, int off, int len) {
    requireType(PhysicalType.FLOAT);
    Decoders.checkRange(src.length, off, len);
    plain.ensureCapacity(Math.multiplyExact(len, 4));
    byte[] out = plain.array();
    int pos = plain.size();
    for (int i = 0; i < len; i++, pos += 4) {
      LittleEndian.putFloat(out, pos, src[off + i]);
    }
    plain.advance(len * 4);
  }

  @Override
  public void writeInts(int[] src, int off, int len) {
    requireType(PhysicalType.INT32);
    Decoders.checkRange(src.length, off, len);
    plain.ensureCapacity(Math.multiplyExact(len, 4));
    byte[] out = plain.array();
    int pos = plain.size();
    for (int i = 0; i < len; i++, pos += 4) {
      LittleEndian.putInt(out, pos, src[off + i]);
    }
    plain.advance(len * 4);
  }

  @Override
  public void writeDoubles(double[] src, int off, int len) {
    requireType(PhysicalType.DOUBLE);
    Decoders.checkRange(src.length, off, len);
    plain.ensureCapacity(Math.multiplyExact(len, 8));
    byte[] out = plain.array();
    int pos = plain.size();
    for (int i = 0; i < len; i++, pos += 8) {
      LittleEndian.putDouble(out, pos, src[off + i]);
    }
    plain.advance(len * 8);
  }

  @Override
  public void writeLongs(long[] src, int off, int len) {
    requireType(PhysicalType.INT64);
    Decoders.checkRange(src.length, off, len);
    plain.ensureCapacity(Math.multiplyExact(len, 8));
    byte[] out = plain.array();
    int pos = plain.size();
    for (int i = 0; i < len; i++, pos += 8) {
      LittleEndian.putLong(out, pos, src[off + i]);
    }
    plain.advance(len * 8);
  }

  @Override
  public void writeBinaries(BinaryBatch src, int from, int len) {
    requireType(PhysicalType.FIXED_LEN_BYTE_ARRAY);
    Decoders.checkRange(src.count(), from, len);
    int[] offsets = src.offsets();
    for (int i = from; i < from + len; i++) {
      if (offsets[i + 1] - offsets[i] != width) {
        throw new IllegalArgumentException(
            "FIXED_LEN_BYTE_ARRAY("
                + width
                + ") value "
                + i
                + " has "
                + (offsets[i + 1] - offsets[i])
                + " bytes");
      }
    }
    plain.write(src.data(), offsets[from], len * width);
  }

  private void requireType(PhysicalType given) {
    if (type != given) {
      throw new UnsupportedOperationException(
          "BYTE_STREAM_SPLIT encoder for " + type + " got " + given + " values");
    }
  }

  @Override
  public int valueCount() {
    return plain.size() / width;
  }

  @Override
  public long estimatedSize() {
    return plain.size();
  }

  @Override
  public void flushTo(GrowableBuffer out) {
    int size = plain.size();
    int n = size / width;
    out.ensureCapacity(size);
    byte[] dst = out.array();
    byte[] src = plain.array();
    int base = out.size();
    // Stream by stream: sequential writes, strided reads of the buffered values.
    for (int s = 0; s < width; s++) {
      int to = base + s * n;
      for (int i = 0, from = s; i < n; i++, from += width) {
        dst[to + i] = src[from];
      }
    }
    out.advance(size);
    plain.reset();
  }

  @Override
  public void reset() {
    plain.reset();
  }
}
