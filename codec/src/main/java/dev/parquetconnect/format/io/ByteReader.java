package dev.parquetconnect.format.io;

import dev.parquetconnect.format.CorruptDataException;

/**
 * A bounds-checked cursor over a slice of a {@code byte[]} for the small header fields of the
 * encodings (varints, zigzag, fixed little-endian words). Every read that would pass the end of the
 * slice throws {@link CorruptDataException} naming what was being read; bulk value decoding does
 * not go through here but checks its bounds once per batch.
 */
public final class ByteReader {
  private byte[] buf;
  private int pos;
  private int limit;

  public ByteReader() {}

  public ByteReader(byte[] buf, int offset, int length) {
    reset(buf, offset, length);
  }

  public void reset(byte[] buf, int offset, int length) {
    if (offset < 0 || length < 0 || offset > buf.length - length) {
      throw new IllegalArgumentException(
          "slice [" + offset + ", +" + length + ") outside array of " + buf.length);
    }
    this.buf = buf;
    this.pos = offset;
    this.limit = offset + length;
  }

  public byte[] array() {
    return buf;
  }

  public int position() {
    return pos;
  }

  public int limit() {
    return limit;
  }

  public int remaining() {
    return limit - pos;
  }

  /** Moves to an absolute position within the slice. */
  public void position(int newPos) throws CorruptDataException {
    if (newPos < 0 || newPos > limit) {
      throw new CorruptDataException("position " + newPos + " past end " + limit);
    }
    pos = newPos;
  }

  /** Checks that {@code n} more bytes are available for {@code what}. */
  public void require(long n, String what) throws CorruptDataException {
    if (n < 0 || n > limit - pos) {
      throw new CorruptDataException(
          what
              + ": needs "
              + n
              + " bytes at position "
              + pos
              + " but only "
              + (limit - pos)
              + " remain");
    }
  }

  public void skip(long n, String what) throws CorruptDataException {
    require(n, what);
    pos += (int) n;
  }

  public int readUnsignedByte(String what) throws CorruptDataException {
    require(1, what);
    return buf[pos++] & 0xFF;
  }

  public int readIntLE(String what) throws CorruptDataException {
    require(4, what);
    int v = LittleEndian.getInt(buf, pos);
    pos += 4;
    return v;
  }

  public long readLongLE(String what) throws CorruptDataException {
    require(8, what);
    long v = LittleEndian.getLong(buf, pos);
    pos += 8;
    return v;
  }

  /** Unsigned LEB128 that must fit 32 bits. */
  public int readUnsignedVarInt(String what) throws CorruptDataException {
    int result = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (pos >= limit) {
        throw new CorruptDataException(what + ": varint runs past the end at position " + pos);
      }
      int b = buf[pos++];
      if (shift == 28 && (b & 0xF0) != 0) {
        throw new CorruptDataException(what + ": varint overflows 32 bits at position " + pos);
      }
      result |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new CorruptDataException(what + ": varint longer than 5 bytes at position " + pos);
  }

  /** Unsigned LEB128 that must fit 64 bits. */
  public long readUnsignedVarLong(String what) throws CorruptDataException {
    long result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (pos >= limit) {
        throw new CorruptDataException(what + ": varint runs past the end at position " + pos);
      }
      int b = buf[pos++];
      if (shift == 63 && (b & 0x7E) != 0) {
        throw new CorruptDataException(what + ": varint overflows 64 bits at position " + pos);
      }
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return result;
      }
    }
    throw new CorruptDataException(what + ": varint longer than 10 bytes at position " + pos);
  }

  /** Zigzag-encoded signed LEB128 (64 bits). */
  public long readZigZagVarLong(String what) throws CorruptDataException {
    long v = readUnsignedVarLong(what);
    return (v >>> 1) ^ -(v & 1);
  }
}
