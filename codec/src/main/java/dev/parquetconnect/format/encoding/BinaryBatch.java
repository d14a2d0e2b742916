package dev.parquetconnect.format.encoding;

import java.util.Arrays;

/**
 * A batch of byte strings (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 values) packed into one {@code
 * byte[]} with an offsets array: value {@code i} is {@code data()[offset(i), offset(i + 1))}.
 * Decoders append into it and encoders read from it, so moving strings never allocates an object
 * per value. Reused across batches with {@link #clear()}.
 */
public final class BinaryBatch {
  private byte[] data;
  private int[] offsets;
  private int count;

  public BinaryBatch() {
    this(64, 1024);
  }

  public BinaryBatch(int valueCapacity, int byteCapacity) {
    offsets = new int[Math.max(1, valueCapacity) + 1];
    data = new byte[Math.max(16, byteCapacity)];
  }

  public int count() {
    return count;
  }

  /** The shared byte array; valid bytes are [0, byteSize()). Changes when the batch grows. */
  public byte[] data() {
    return data;
  }

  /** The offsets array; entries [0, count()] are valid. Changes when the batch grows. */
  public int[] offsets() {
    return offsets;
  }

  public int offset(int i) {
    return offsets[i];
  }

  public int length(int i) {
    return offsets[i + 1] - offsets[i];
  }

  public int byteSize() {
    return offsets[count];
  }

  /** The heap the batch's arrays take, whatever they hold now. */
  public long capacityBytes() {
    return data.length + 4L * offsets.length;
  }

  public void clear() {
    count = 0;
    offsets[0] = 0;
  }

  /** Makes room for {@code values} more values holding {@code bytes} more bytes in all. */
  public void ensureCapacity(int values, long bytes) {
    if (count + values + 1 > offsets.length) {
      offsets = Arrays.copyOf(offsets, grow(offsets.length, count + values + 1L));
    }
    long neededBytes = offsets[count] + bytes;
    if (neededBytes > data.length) {
      data = Arrays.copyOf(data, grow(data.length, neededBytes));
    }
  }

  private static int grow(int current, long needed) {
    if (needed > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("binary batch would exceed 2 GiB: " + needed);
    }
    return (int) Math.max(needed, Math.min((long) current << 1, Integer.MAX_VALUE - 16));
  }

  /** Appends one value copied from {@code src[off, off + len)}. */
  public void add(byte[] src, int off, int len) {
    ensureCapacity(1, len);
    int end = offsets[count];
    System.arraycopy(src, off, data, end, len);
    offsets[++count] = end + len;
  }

  public void add(byte[] value) {
    add(value, 0, value.length);
  }

  /** Drops the values from {@code newCount} on (their bytes are overwritten by later adds). */
  public void truncate(int newCount) {
    if (newCount < 0 || newCount > count) {
      throw new IndexOutOfBoundsException("truncate to " + newCount + " of " + count + " values");
    }
    count = newCount;
  }

  /**
   * Appends a value whose bytes the caller has already written at {@code data()[byteSize(),
   * byteSize() + len)} after {@link #ensureCapacity(int, long)}: the zero-copy path for decoders
   * that build a value in place (DELTA_BYTE_ARRAY prefixes, BYTE_STREAM_SPLIT).
   */
  public void commit(int len) {
    offsets[count + 1] = offsets[count] + len;
    count++;
  }

  /**
   * Declares {@code n} values whose bytes and end offsets the caller has written directly into
   * {@link #data()} and {@link #offsets()} after {@link #ensureCapacity(int, long)}: the batch form
   * of {@link #commit(int)} for decoders' hot loops.
   */
  void commitAll(int n) {
    count += n;
  }

  /** A copy of value {@code i}; for tests and slow paths, not for hot loops. */
  public byte[] get(int i) {
    return Arrays.copyOfRange(data, offsets[i], offsets[i + 1]);
  }
}
