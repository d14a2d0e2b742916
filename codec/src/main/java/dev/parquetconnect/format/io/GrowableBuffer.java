package dev.parquetconnect.format.io;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * An append-only byte buffer that encoders and page writers write into and that is reused across
 * pages ({@link #reset()} keeps the array). Not thread-safe.
 *
 * <p>Bulk writers call {@link #ensureCapacity(int)} once for a batch, then write into {@link
 * #array()} at {@link #size()} and {@link #advance(int)}: no bounds check per value.
 */
public final class GrowableBuffer {
  /** Largest array the JVM reliably allocates. */
  private static final int MAX_CAPACITY = Integer.MAX_VALUE - 16;

  private byte[] buf;
  private int size;

  public GrowableBuffer() {
    this(256);
  }

  public GrowableBuffer(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  /** The backing array; valid bytes are [0, size()). Changes when the buffer grows. */
  public byte[] array() {
    return buf;
  }

  public int size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Forgets the content, keeping the array for the next page. */
  public void reset() {
    size = 0;
  }

  /** The length of the backing array: the heap the buffer holds whatever its size. */
  public int capacity() {
    return buf.length;
  }

  /**
   * Forgets the content and lets go of an array grown past {@code capacity}: for a buffer that grew
   * for a whole row group and would otherwise hold that heap until the next one fills it.
   */
  public void release(int capacity) {
    size = 0;
    if (buf.length > capacity) {
      buf = new byte[Math.max(16, capacity)];
    }
  }

  /** Makes room for {@code extra} more bytes past {@link #size()}. */
  public void ensureCapacity(int extra) {
    long needed = (long) size + extra;
    if (needed <= buf.length) {
      return;
    }
    if (extra < 0 || needed > MAX_CAPACITY) {
      throw new IllegalStateException("buffer would exceed 2 GiB: " + size + " + " + extra);
    }
    long grown = Math.max(needed, Math.min((long) buf.length << 1, MAX_CAPACITY));
    buf = Arrays.copyOf(buf, (int) grown);
  }

  /** Declares {@code n} bytes written directly into {@link #array()} after the old size. */
  public void advance(int n) {
    size += n;
  }

  /** Truncates to {@code newSize} bytes, which must not exceed the current size. */
  public void truncate(int newSize) {
    if (newSize < 0 || newSize > size) {
      throw new IllegalArgumentException("truncate to " + newSize + " of " + size);
    }
    size = newSize;
  }

  public void writeByte(int b) {
    ensureCapacity(1);
    buf[size++] = (byte) b;
  }

  public void write(byte[] src, int off, int len) {
    ensureCapacity(len);
    System.arraycopy(src, off, buf, size, len);
    size += len;
  }

  public void write(byte[] src) {
    write(src, 0, src.length);
  }

  public void write(GrowableBuffer other) {
    write(other.buf, 0, other.size);
  }

  public void writeIntLE(int v) {
    ensureCapacity(4);
    LittleEndian.putInt(buf, size, v);
    size += 4;
  }

  public void writeLongLE(long v) {
    ensureCapacity(8);
    LittleEndian.putLong(buf, size, v);
    size += 8;
  }

  /** Unsigned LEB128, as used for RLE run headers and delta headers. */
  public void writeUnsignedVarInt(int v) {
    ensureCapacity(5);
    while ((v & ~0x7F) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  /** Unsigned LEB128 of a 64-bit value. */
  public void writeUnsignedVarLong(long v) {
    ensureCapacity(10);
    while ((v & ~0x7FL) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
  }

  /** Zigzag then unsigned LEB128, as used for the delta encodings' signed header fields. */
  public void writeZigZagVarLong(long v) {
    writeUnsignedVarLong((v << 1) ^ (v >> 63));
  }

  /** Overwrites 4 bytes at {@code pos} (a length prefix reserved earlier). */
  public void putIntLE(int pos, int v) {
    if (pos < 0 || pos + 4 > size) {
      throw new IndexOutOfBoundsException("putIntLE at " + pos + " of " + size);
    }
    LittleEndian.putInt(buf, pos, v);
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, size);
  }

  public void writeTo(OutputStream out) throws IOException {
    out.write(buf, 0, size);
  }
}
