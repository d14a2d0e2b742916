package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.UnsupportedFeatureException;
import java.util.Arrays;

/**
 * A batch of byte strings (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 values) kept dictionary-encoded:
 * one checked index per value into a shared {@link Dictionary}, whose bytes are never copied. Value
 * {@code i} is {@code data()[offset(i), offset(i) + length(i))}, where {@link #data()} is the
 * dictionary's own byte array (read-only by contract). Values with the same index are equal, so
 * equality and hashing cost an {@code int} comparison or a lookup, and per-value work such as
 * decoding a string can be done once per dictionary entry ({@link #string(int)}). {@link
 * #materialize(BinaryBatch)} copies the values into the contiguous {@link BinaryBatch} form for
 * consumers that need it.
 *
 * <p>The counterpart of {@link BinaryBatch} for {@link DictionaryDecoder#readIndices(
 * DictionaryBinaryBatch, int)}; reused across batches with {@link #clear()}. Every index it holds
 * was checked against the dictionary's size when it was read.
 */
public final class DictionaryBinaryBatch {
  private Dictionary dictionary;

  /**
   * The dictionary's entries as (offset << 32 | length) ({@link Dictionary#binarySpans()}), held
   * here to save loads per value: a value's offset and length come from one load.
   */
  private long[] spans = {};

  private int[] indices;
  private int count;

  public DictionaryBinaryBatch(int valueCapacity) {
    indices = new int[Math.max(1, valueCapacity)];
  }

  /** The dictionary the indices refer to; null before the first values are read. */
  public Dictionary dictionary() {
    return dictionary;
  }

  public int count() {
    return count;
  }

  /** The indices array; entries [0, count()) are valid. Changes when the batch grows. */
  public int[] indices() {
    return indices;
  }

  /** Dictionary index of value {@code i}. */
  public int index(int i) {
    return indices[i];
  }

  /** The dictionary's bytes, shared by every value of the batch; do not modify. */
  public byte[] data() {
    return dictionary.binaryData();
  }

  /** Where value {@code i} starts in {@link #data()}. */
  public int offset(int i) {
    return (int) (spans[indices[i]] >>> 32);
  }

  public int length(int i) {
    return (int) spans[indices[i]];
  }

  /** A copy of value {@code i}; for tests and slow paths, not for hot loops. */
  public byte[] get(int i) {
    return dictionary.binaryAt(indices[i]);
  }

  /**
   * Value {@code i} decoded as UTF-8, decoded once per dictionary entry and shared by every value
   * (of any batch) with the same entry: see {@link Dictionary#stringAt(int)}.
   */
  public String string(int i) {
    return dictionary.stringAt(indices[i]);
  }

  /**
   * Whether values {@code i} and {@code j} have the same bytes: true at once for the same index;
   * otherwise the bytes are compared, since nothing in a file promises that a dictionary's entries
   * are distinct (a writer's are, but a file is untrusted input).
   */
  public boolean valueEquals(int i, int j) {
    int a = indices[i];
    int b = indices[j];
    if (a == b) {
      return true;
    }
    int[] offsets = dictionary.binaryOffsets();
    byte[] data = dictionary.binaryData();
    return Arrays.equals(data, offsets[a], offsets[a + 1], data, offsets[b], offsets[b + 1]);
  }

  /**
   * {@link Arrays#hashCode(byte[])} of value {@code i}, a lookup in a table the dictionary computes
   * once: equal to the hash of the materialised bytes, so it can key hash tables shared with plain
   * values.
   */
  public int valueHash(int i) {
    return dictionary.binaryHash(indices[i]);
  }

  /** Appends every value, copied, to {@code dst}: the contiguous form. */
  public void materialize(BinaryBatch dst) throws UnsupportedFeatureException {
    materialize(0, count, dst);
  }

  /** Appends values {@code [from, from + n)}, copied, to {@code dst}. */
  public void materialize(int from, int n, BinaryBatch dst) throws UnsupportedFeatureException {
    if (from < 0 || n < 0 || from > count - n) {
      throw new IndexOutOfBoundsException(
          "values [" + from + ", " + from + " + " + n + ") of a batch of " + count);
    }
    if (n > 0) {
      dictionary.copy(indices, from, n, dst);
    }
  }

  public void clear() {
    count = 0;
  }

  /**
   * Makes the batch refer to {@code d}: an empty batch takes any dictionary (a new column chunk
   * brings a new one), a non-empty one only its own, since its indices mean nothing in another.
   */
  void bind(Dictionary d) {
    if (dictionary != d) {
      if (count != 0) {
        throw new IllegalStateException(
            "a dictionary-encoded batch holding values cannot take values of another dictionary;"
                + " clear it first");
      }
      dictionary = d;
      spans = d.binarySpans();
    }
  }

  /** Makes room for {@code n} more indices after {@link #count()}; returns the array. */
  int[] reserve(int n) {
    if (count + (long) n > indices.length) {
      long grown =
          Math.max(count + (long) n, Math.min(2L * indices.length, Integer.MAX_VALUE - 16));
      if (grown > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("dictionary-encoded batch would exceed 2^31 values");
      }
      indices = Arrays.copyOf(indices, (int) grown);
    }
    return indices;
  }

  /** Declares {@code n} indices written after {@link #count()} into {@link #reserve}'s array. */
  void commit(int n) {
    count += n;
  }
}
