package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Dictionary builder for INT32 and FLOAT (keyed by raw bits): a linear-probing hash table of 32-bit
 * keys with Fibonacci hashing, kept at most half full. Entries are stored in index order in a plain
 * {@code int[]}, which is also the PLAIN dictionary page once written little-endian.
 */
final class IntDictionaryBuilder extends DictionaryBuilder {
  private int[] values = new int[64];
  private int size;

  /** Table: the key in each slot and its index + 1 (0 marks an empty slot). */
  private int[] slotKeys;

  private int[] slotIds;
  private int mask;
  private int shift;

  IntDictionaryBuilder(PhysicalType type) {
    super(type);
    if (type != PhysicalType.INT32 && type != PhysicalType.FLOAT) {
      throw new IllegalArgumentException("not a 32-bit type: " + type);
    }
    allocateTable(DictionaryBuilder.capacityFor(16));
  }

  private void allocateTable(int capacity) {
    slotKeys = new int[capacity];
    slotIds = new int[capacity];
    mask = capacity - 1;
    shift = 32 - Integer.numberOfTrailingZeros(capacity);
  }

  @Override
  public void addInts(int[] src, int off, int len, int[] indices, int indicesOff) {
    if (type() != PhysicalType.INT32) {
      throw wrongType("INT32");
    }
    Decoders.checkRange(src.length, off, len);
    Decoders.checkRange(indices.length, indicesOff, len);
    for (int i = 0; i < len; i++) {
      indices[indicesOff + i] = indexOf(src[off + i]);
    }
  }

  @Override
  public void addFloats(float[] src, int off, int len, int[] indices, int indicesOff) {
    if (type() != PhysicalType.FLOAT) {
      throw wrongType("FLOAT");
    }
    Decoders.checkRange(src.length, off, len);
    Decoders.checkRange(indices.length, indicesOff, len);
    for (int i = 0; i < len; i++) {
      indices[indicesOff + i] = indexOf(Float.floatToRawIntBits(src[off + i]));
    }
  }

  private int indexOf(int key) {
    int slot = (key * 0x9E3779B9) >>> shift;
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

  private int insert(int key, int slot) {
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
      int key = values[index];
      int slot = (key * 0x9E3779B9) >>> shift;
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
    return 4L * size;
  }

  @Override
  public void writeDictionaryPage(GrowableBuffer out) {
    out.ensureCapacity(4 * size);
    byte[] dst = out.array();
    int pos = out.size();
    for (int i = 0; i < size; i++, pos += 4) {
      // For FLOAT these are the raw bits, i.e. exactly the PLAIN bytes of the float.
      LittleEndian.putInt(dst, pos, values[i]);
    }
    out.advance(4 * size);
  }

  @Override
  public Dictionary toDictionary() {
    if (type() == PhysicalType.FLOAT) {
      float[] floats = new float[size];
      for (int i = 0; i < size; i++) {
        floats[i] = Float.intBitsToFloat(values[i]);
      }
      return Dictionary.ofFloats(floats);
    }
    return Dictionary.ofInts(PhysicalType.INT32, Arrays.copyOf(values, size));
  }

  @Override
  public void clear() {
    size = 0;
    allocateTable(DictionaryBuilder.capacityFor(16));
  }
}
