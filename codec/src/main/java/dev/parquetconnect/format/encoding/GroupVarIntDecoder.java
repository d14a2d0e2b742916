package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Decodes GROUP_VAR_INT (encoding 1), defined only by the early drafts of Encodings.md and
 * deprecated since; no known writer produces it, so this reader exists for completeness.
 *
 * <p>INT32: groups of four values, each group one length byte then the values little-endian in 1 to
 * 4 bytes. The byte holds two bits per value, <em>first value in the most significant bits</em>,
 * each the value's byte count minus one: {@code 0b00_10_11_01} means 1, 3, 4 and 2 bytes, 11 bytes
 * in all with the length byte (the drafts' example).
 *
 * <p>INT64: groups of five values, each group two length bytes then the values little-endian in 1
 * to 8 bytes, three bits (byte count minus one) per value in the 15 low bits of the two bytes; the
 * most significant bit is unused. The drafts give no example and do not say in which order the two
 * bytes are; this reader takes them as a big-endian 16-bit word with the first value's bits
 * highest, which is the 32-bit rule extended (lengths read left to right, unused bit first).
 *
 * <p>The last group is always complete; the drafts pad it with zeros. Its padding values are read
 * and dropped. The encoding stores no count, so the page's value count is the one given to {@link
 * #init}. Values are not zigzag-encoded (an early parquet-mr experiment did that; the drafts do
 * not).
 */
final class GroupVarIntDecoder implements ValuesDecoder {
  private static final String WHAT = "GROUP_VAR_INT";

  private final boolean int64;
  private final int groupSize;

  /** A group decoded ahead when a read stops inside it (INT32 pages). */
  private final int[] intGroup = new int[4];

  /** As {@link #intGroup}, for INT64 pages. */
  private final long[] longGroup = new long[5];

  private byte[] buf;
  private int pos;
  private int end;
  private int remaining;
  private int groupPos;
  private int groupLen;

  private GroupVarIntDecoder(boolean int64) {
    this.int64 = int64;
    this.groupSize = int64 ? 5 : 4;
  }

  /** A decoder for {@code type}, which must be INT32 or INT64. */
  public static GroupVarIntDecoder forType(PhysicalType type) throws UnsupportedFeatureException {
    if (type != PhysicalType.INT32 && type != PhysicalType.INT64) {
      throw new UnsupportedFeatureException(WHAT + " is not defined for " + type);
    }
    return new GroupVarIntDecoder(type == PhysicalType.INT64);
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount) throws ParquetException {
    if (offset < 0 || length < 0 || offset > page.length - length) {
      throw new IllegalArgumentException(
          "slice [" + offset + ", +" + length + ") outside array of " + page.length);
    }
    if (valueCount < 0) {
      throw new IllegalArgumentException("negative value count " + valueCount);
    }
    buf = page;
    pos = offset;
    end = offset + length;
    remaining = valueCount;
    groupPos = 0;
    groupLen = 0;
  }

  @Override
  public void readInts(int[] dst, int off, int len) throws ParquetException {
    if (int64) {
      throw new UnsupportedFeatureException(WHAT + " decoder for INT64 cannot read INT32 values");
    }
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(WHAT, len, remaining);
    int i = off;
    int stop = off + len;
    while (i < stop && groupPos < groupLen) {
      dst[i++] = intGroup[groupPos++];
    }
    while (stop - i >= 4) {
      decodeIntGroup(dst, i);
      i += 4;
    }
    if (i < stop) {
      bufferGroup();
      while (i < stop) {
        dst[i++] = intGroup[groupPos++];
      }
    }
    remaining -= len;
  }

  @Override
  public void readLongs(long[] dst, int off, int len) throws ParquetException {
    if (!int64) {
      throw new UnsupportedFeatureException(WHAT + " decoder for INT32 cannot read INT64 values");
    }
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(WHAT, len, remaining);
    int i = off;
    int stop = off + len;
    while (i < stop && groupPos < groupLen) {
      dst[i++] = longGroup[groupPos++];
    }
    while (stop - i >= 5) {
      decodeLongGroup(dst, i);
      i += 5;
    }
    if (i < stop) {
      bufferGroup();
      while (i < stop) {
        dst[i++] = longGroup[groupPos++];
      }
    }
    remaining -= len;
  }

  @Override
  public void skip(int n) throws ParquetException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining(WHAT, n, remaining);
    int left = n;
    int buffered = Math.min(left, groupLen - groupPos);
    groupPos += buffered;
    left -= buffered;
    while (left >= groupSize) {
      pos += groupBytes();
      left -= groupSize;
    }
    if (left > 0) {
      bufferGroup();
      groupPos = left;
    }
    remaining -= n;
  }

  /** Decodes the next group into the group buffer, to be handed out by the next reads. */
  private void bufferGroup() throws CorruptDataException {
    if (int64) {
      decodeLongGroup(longGroup, 0);
    } else {
      decodeIntGroup(intGroup, 0);
    }
    groupPos = 0;
    groupLen = groupSize;
  }

  /** Checks the next group is complete and returns its size in bytes, length bytes included. */
  private int groupBytes() throws CorruptDataException {
    if (int64) {
      if (end - pos < 2) {
        throw truncated("length bytes", 2);
      }
      int h = (buf[pos] & 0xFF) << 8 | (buf[pos + 1] & 0xFF);
      int size = 2;
      for (int shift = 12; shift >= 0; shift -= 3) {
        size += ((h >>> shift) & 7) + 1;
      }
      if (size > end - pos) {
        throw truncated("group", size);
      }
      return size;
    }
    if (end - pos < 1) {
      throw truncated("length byte", 1);
    }
    int h = buf[pos] & 0xFF;
    int size = 5 + (h >>> 6) + ((h >>> 4) & 3) + ((h >>> 2) & 3) + (h & 3);
    if (size > end - pos) {
      throw truncated("group", size);
    }
    return size;
  }

  private void decodeIntGroup(int[] dst, int at) throws CorruptDataException {
    int size = groupBytes();
    int h = buf[pos] & 0xFF;
    int p = pos + 1;
    for (int shift = 6; shift >= 0; shift -= 2, at++) {
      int n = ((h >>> shift) & 3) + 1;
      dst[at] = (int) readLittleEndian(p, n);
      p += n;
    }
    pos += size;
  }

  private void decodeLongGroup(long[] dst, int at) throws CorruptDataException {
    int size = groupBytes();
    int h = (buf[pos] & 0xFF) << 8 | (buf[pos + 1] & 0xFF);
    int p = pos + 2;
    for (int shift = 12; shift >= 0; shift -= 3, at++) {
      int n = ((h >>> shift) & 7) + 1;
      dst[at] = readLittleEndian(p, n);
      p += n;
    }
    pos += size;
  }

  /** The {@code n} (1..8) bytes at {@code p} as an unsigned little-endian number. */
  private long readLittleEndian(int p, int n) {
    if (p <= buf.length - 8) {
      long word = LittleEndian.getLong(buf, p);
      return n == 8 ? word : word & ((1L << (n << 3)) - 1);
    }
    long v = 0;
    for (int k = 0; k < n; k++) {
      v |= (long) (buf[p + k] & 0xFF) << (k << 3);
    }
    return v;
  }

  private CorruptDataException truncated(String part, int size) {
    return new CorruptDataException(
        WHAT
            + ": "
            + part
            + " of "
            + size
            + " bytes at byte "
            + pos
            + " runs past the end of the page ("
            + (end - pos)
            + " bytes left, "
            + remaining
            + " values expected)");
  }
}
