package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Dictionary builder for INT64 and DOUBLE (keyed by raw bits): a linear-probing hash table of
 * 64-bit keys with Fibonacci hashing, kept at most half full. Entries are stored in index order
 * in a plain {@code long[]}, which is also the PLAIN dictionary page once written little-endian.
 */
public final class LongDictionaryBuilder extends DictionaryBuilder {
  private long[] values = new long[64];
  private int size;
  /** Table: the key in each slot and its index + 1 (0 marks an empty slot). */
  private long[] slotKeys;
  private int[] slotIds;
  private int mask;
  private int shift;

  LongDictionaryBuilder(PhysicalType type) {
    super(type);
    if (type != PhysicalType.INT64 && type != PhysicalType.DOUBLE) {
      throw new IllegalArgumentException("not a 64-bit type: " + type);
    }
    allocateTable(DictionaryBuilder.capacityFor(16));
  }

  private void allocateTable(int capacity) {
    slotKeys = new long[capacity];
    slotIds = new int[capacity];
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
    for (int i = 0; i < len; i++) {
      indices[indicesOff + i] = indexOf(src[off + i]);
    }
  }

  @Override
  public void addDoubles(double[] src, int off, int len, int[] indices, int indicesOff) {
    if (type() != PhysicalType.DOUBLE) {
      throw wrongType("DOUBLE");
    }
    Decoders.checkRange(src.length, off, len);
    Decoders.checkRange(indices.length, indicesOff, len);
    for (int i = 0; i < len; i++) {
      indices[indicesOff + i] = indexOf(Double.doubleToRawLongBits(src[off + i]));
    }
  }

  private int slotOf(long key) {
    return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift);
  }

  private int indexOf(long key) {
    int slot = slotOf(key);
    while (true) {
      int id = slotIds[slot];
      if (id == 0) {
        return insert(key, slot);
      }
      if (slotKeys[slot] == key) {
        return id - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  private int insert(long key, int slot) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    int index = size++;
    values[index] = key;
    slotKeys[slot] = key;
    slotIds[slot] = index + 1;
    if (size * 2 > slotIds.length) {
      rehash();
    }
    return index;
  }

  private void rehash() {
    allocateTable(slotIds.length * 2);
    for (int index = 0; index < size; index++) {
      long key = values[index];
      int slot = slotOf(key);
      while (slotIds[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slotKeys[slot] = key;
      slotIds[slot] = index + 1;
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
    allocateTable(DictionaryBuilder.capacityFor(16));
  }
}
