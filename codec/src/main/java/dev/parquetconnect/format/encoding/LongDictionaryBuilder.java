package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Dictionary builder for INT64 and DOUBLE (keyed by raw bits): a linear-probing hash table of
 * 64-bit keys with Fibonacci hashing, kept at most a quarter full, each slot's key and index side
 * by side in one {@code long[]}. Entries are stored in index order in a plain {@code long[]}, which
 * is also the PLAIN dictionary page once written little-endian.
 */
final class LongDictionaryBuilder extends DictionaryBuilder {
  private long[] values = new long[64];
  private int size;

  /**
   * Table: slot {@code s} is {@code table[2s]}, the key, and {@code table[2s + 1]}, its index + 1
   * (0 marks an empty slot); key and index share a cache line, so a probe touches one.
   */
  private long[] table;

  /** Fibonacci hashing: the top bits of key * 2^64 / phi index the table. */
  private static final long PHI = 0x9E3779B97F4A7C15L;

  /**
   * The table is kept at most a quarter full: nearly every lookup then ends at its first slot, so
   * the probe loop's branches are predictable.
   */
  private static final int MAX_LOAD = 4;

  private static final int INITIAL_CAPACITY = 64;
  private int mask;
  private int shift;

  LongDictionaryBuilder(PhysicalType type) {
    super(type);
    if (type != PhysicalType.INT64 && type != PhysicalType.DOUBLE) {
      throw new IllegalArgumentException("not a 64-bit type: " + type);
    }
    allocateTable(INITIAL_CAPACITY);
  }

  private void allocateTable(int capacity) {
    table = new long[2 * capacity];
    mask = capacity - 1;
    shift = 64 - Integer.numberOfTrailingZeros(capacity);
  }

  @Override
  public void addLongs(long[] src, int off, int len, int[] indices, int indicesOff) {
    if (type() != PhysicalType.INT64) {
      throw wrongType("INT64");
    }
    Decoders.checkRange(src.length, off, len);
    Decoders.checkRange(indices.length, indicesOff, len);
    // The table and its geometry live in locals, refreshed only after an insert (which may
    // rehash), so the probe loop keeps them in registers.
    long[] t = table;
    int m = mask;
    int sh = shift;
    for (int i = 0; i < len; i++) {
      long key = src[off + i];
      int slot = (int) ((key * PHI) >>> sh);
      int index;
      while (true) {
        int p = slot << 1;
        long id = t[p + 1];
        if (t[p] == key && id != 0) {
          index = (int) id - 1;
          break;
        }
        if (id == 0) {
          index = insert(key, slot);
          t = table;
          m = mask;
          sh = shift;
          break;
        }
        slot = (slot + 1) & m;
      }
      indices[indicesOff + i] = index;
    }
  }

  @Override
  public void addDoubles(double[] src, int off, int len, int[] indices, int indicesOff) {
    if (type() != PhysicalType.DOUBLE) {
      throw wrongType("DOUBLE");
    }
    Decoders.checkRange(src.length, off, len);
    Decoders.checkRange(indices.length, indicesOff, len);
    long[] t = table;
    int m = mask;
    int sh = shift;
    for (int i = 0; i < len; i++) {
      long key = Double.doubleToRawLongBits(src[off + i]);
      int slot = (int) ((key * PHI) >>> sh);
      int index;
      while (true) {
        int p = slot << 1;
        long id = t[p + 1];
        if (t[p] == key && id != 0) {
          index = (int) id - 1;
          break;
        }
        if (id == 0) {
          index = insert(key, slot);
          t = table;
          m = mask;
          sh = shift;
          break;
        }
        slot = (slot + 1) & m;
      }
      indices[indicesOff + i] = index;
    }
  }

  private int slotOf(long key) {
    return (int) ((key * PHI) >>> shift);
  }

  private int insert(long key, int slot) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    int index = size++;
    values[index] = key;
    table[2 * slot] = key;
    table[2 * slot + 1] = index + 1;
    if (size * MAX_LOAD > mask + 1) {
      rehash();
    }
    return index;
  }

  private void rehash() {
    allocateTable((mask + 1) * 2);
    long[] t = table;
    for (int index = 0; index < size; index++) {
      long key = values[index];
      int slot = slotOf(key);
      while (t[2 * slot + 1] != 0) {
        slot = (slot + 1) & mask;
      }
      t[2 * slot] = key;
      t[2 * slot + 1] = index + 1;
    }
  }

  @Override
  public int dictionarySize() {
    return size;
  }

  @Override
  public long dictionaryByteSize() {
    return 8L * size;
  }

  @Override
  public void writeDictionaryPage(GrowableBuffer out) {
    out.ensureCapacity(8 * size);
    byte[] dst = out.array();
    int pos = out.size();
    for (int i = 0; i < size; i++, pos += 8) {
      // For DOUBLE these are the raw bits, i.e. exactly the PLAIN bytes of the double.
      LittleEndian.putLong(dst, pos, values[i]);
    }
    out.advance(8 * size);
  }

  @Override
  public Dictionary toDictionary() {
    if (type() == PhysicalType.DOUBLE) {
      double[] doubles = new double[size];
      for (int i = 0; i < size; i++) {
        doubles[i] = Double.longBitsToDouble(values[i]);
      }
      return Dictionary.ofDoubles(doubles);
    }
    return Dictionary.ofLongs(Arrays.copyOf(values, size));
  }

  @Override
  public void clear() {
    size = 0;
    allocateTable(INITIAL_CAPACITY);
  }
}
