package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Encodes INT32 or INT64 values as GROUP_VAR_INT (encoding 1), the layout described in {@link
 * GroupVarIntDecoder}; an incomplete last group is padded with zeros, as the drafts require.
 *
 * <p><strong>No other Parquet reader can read this encoding</strong>: it appears only in early
 * drafts of the specification, is deprecated in the Thrift definition and was never implemented by
 * parquet-java, Arrow or any other reader. Use it only when explicitly asked to (tests,
 * experiments); never pick it as a default.
 */
final class GroupVarIntEncoder implements ValuesEncoder {
  /** Largest group (two length bytes and five 8-byte values) plus 8 bytes of slack for stores. */
  private static final int MAX_GROUP_BYTES = 2 + 5 * 8 + 8;

  private final boolean int64;
  private final int groupSize;
  private final long[] pendingGroup = new long[5];
  private final GrowableBuffer groups = new GrowableBuffer();
  private int pending;
  private int count;

  /** An encoder for {@code type}, which must be INT32 or INT64. */
  public GroupVarIntEncoder(PhysicalType type) {
    if (type != PhysicalType.INT32 && type != PhysicalType.INT64) {
      throw new IllegalArgumentException("GROUP_VAR_INT encodes INT32 or INT64, not " + type);
    }
    this.int64 = type == PhysicalType.INT64;
    this.groupSize = int64 ? 5 : 4;
  }

  @Override
  public Encoding encoding() {
    return Encoding.GROUP_VAR_INT;
  }

  @Override
  public void writeInts(int[] src, int off, int len) {
    if (int64) {
      throw new UnsupportedOperationException("INT64 GROUP_VAR_INT encoder got INT32 values");
    }
    Decoders.checkRange(src.length, off, len);
    for (int i = off; i < off + len; i++) {
      // Zero-extended: the bytes of the 32-bit pattern, a negative int taking all four.
      pendingGroup[pending++] = src[i] & 0xFFFFFFFFL;
      if (pending == 4) {
        encodeIntGroup();
      }
    }
    count += len;
  }

  @Override
  public void writeLongs(long[] src, int off, int len) {
    if (!int64) {
      throw new UnsupportedOperationException("INT32 GROUP_VAR_INT encoder got INT64 values");
    }
    Decoders.checkRange(src.length, off, len);
    for (int i = off; i < off + len; i++) {
      pendingGroup[pending++] = src[i];
      if (pending == 5) {
        encodeLongGroup();
      }
    }
    count += len;
  }

  /** Bytes needed for {@code v} as unsigned, at least one. */
  private static int byteCount(long v) {
    return Math.max(1, (64 - Long.numberOfLeadingZeros(v) + 7) >>> 3);
  }

  private void encodeIntGroup() {
    groups.ensureCapacity(MAX_GROUP_BYTES);
    byte[] out = groups.array();
    int start = groups.size();
    int p = start + 1;
    int header = 0;
    for (int k = 0; k < 4; k++) {
      long v = pendingGroup[k];
      int n = byteCount(v);
      header = header << 2 | (n - 1);
      // Store all eight bytes and keep n: the next value overwrites the excess.
      LittleEndian.putLong(out, p, v);
      p += n;
    }
    out[start] = (byte) header;
    groups.advance(p - start);
    pending = 0;
  }

  private void encodeLongGroup() {
    groups.ensureCapacity(MAX_GROUP_BYTES);
    byte[] out = groups.array();
    int start = groups.size();
    int p = start + 2;
    int header = 0;
    for (int k = 0; k < 5; k++) {
      long v = pendingGroup[k];
      int n = byteCount(v);
      header = header << 3 | (n - 1);
      LittleEndian.putLong(out, p, v);
      p += n;
    }
    out[start] = (byte) (header >>> 8);
    out[start + 1] = (byte) header;
    groups.advance(p - start);
    pending = 0;
  }

  @Override
  public int valueCount() {
    return count;
  }

  @Override
  public long estimatedSize() {
    return groups.size() + (pending > 0 ? MAX_GROUP_BYTES : 0);
  }

  @Override
  public void flushTo(GrowableBuffer out) {
    if (pending > 0) {
      // The drafts' padding rule: (1,2,3,4,5) is written as (1,2,3,4,5,0,0,0).
      while (pending < groupSize) {
        pendingGroup[pending++] = 0;
      }
      if (int64) {
        encodeLongGroup();
      } else {
        encodeIntGroup();
      }
    }
    out.write(groups);
    reset();
  }

  @Override
  public void reset() {
    groups.reset();
    pending = 0;
    count = 0;
  }
}
