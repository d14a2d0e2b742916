package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Dictionary builder for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96: a linear-probing hash table
 * over a {@link BinaryBatch} of the entries. Each slot keeps the entry's index and its 32-bit
 * hash, so a probe compares bytes only when the hashes agree, and growing the table never
 * rehashes the bytes.
 */
public final class BinaryDictionaryBuilder extends DictionaryBuilder {
  /** Bytes per value for FIXED_LEN_BYTE_ARRAY and INT96; -1 for BYTE_ARRAY. */
  private final int fixedLength;
  private final BinaryBatch entries = new BinaryBatch(64, 256);
  private int[] entryHashes = new int[64];
  private long pageBytes;
  /** Table: each slot's entry index + 1 (0 marks an empty slot) and that entry's hash. */
  private int[] slotIds;
  private int[] slotHashes;
  private int mask;

  BinaryDictionaryBuilder(PhysicalType type, int typeLength) {
    super(type);
    fixedLength =
        switch (type) {
          case BYTE_ARRAY -> -1;
          case INT96 -> PlainEncoder.INT96_LENGTH;
          case FIXED_LEN_BYTE_ARRAY -> {
            if (typeLength < 1) {
              throw new IllegalArgumentException(
                  "FIXED_LEN_BYTE_ARRAY length must be >= 1: " + typeLength);
            }
            yield typeLength;
          }
          default -> throw new IllegalArgumentException("not a binary type: " + type);
        };
    allocateTable(DictionaryBuilder.capacityFor(16));
  }

  private void allocateTable(int capacity) {
    slotIds = new int[capacity];
    slotHashes = new int[capacity];
    mask = capacity - 1;
  }

  @Override
  public void addBinaries(BinaryBatch src, int from, int len, int[] indices, int indicesOff) {
    Decoders.checkRange(src.count(), from, len);
    Decoders.checkRange(indices.length, indicesOff, len);
    int[] offsets = src.offsets();
    byte[] data = src.data();
    for (int i = 0; i < len; i++) {
      int start = offsets[from + i];
      int length = offsets[from + i + 1] - start;
      if (fixedLength >= 0 && length != fixedLength) {
        throw new IllegalArgumentException(
            type() + " dictionary: value " + (from + i) + " has " + length
                + " bytes, the column's values have " + fixedLength);
      }
      indices[indicesOff + i] = indexOf(data, start, length);
    }
  }

  private int indexOf(byte[] data, int start, int length) {
    int hash = hash(data, start, length);
    int slot = hash & mask;
    while (true) {
      int id = slotIds[slot];
      if (id == 0) {
        return insert(data, start, length, hash, slot);
      }
      if (slotHashes[slot] == hash) {
        int index = id - 1;
        int entryStart = entries.offset(index);
        if (Arrays.equals(
            entries.data(), entryStart, entryStart + entries.length(index),
            data, start, start + length)) {
          return index;
        }
      }
      slot = (slot + 1) & mask;
    }
  }

  private int insert(byte[] data, int start, int length, int hash, int slot) {
    int index = entries.count();
    entries.add(data, start, length);
    if (index == entryHashes.length) {
      entryHashes = Arrays.copyOf(entryHashes, index * 2);
    }
    entryHashes[index] = hash;
    pageBytes += fixedLength >= 0 ? length : 4L + length;
    slotIds[slot] = index + 1;
    slotHashes[slot] = hash;
    if ((index + 1) * 2 > slotIds.length) {
      rehash();
    }
    return index;
  }

  private void rehash() {
    allocateTable(slotIds.length * 2);
    int size = entries.count();
    for (int index = 0; index < size; index++) {
      int hash = entryHashes[index];
      int slot = hash & mask;
      while (slotIds[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slotIds[slot] = index + 1;
      slotHashes[slot] = hash;
    }
  }

  /**
   * A 32-bit hash of {@code data[start, start + length)}: eight bytes at a time through a
   * multiply-xorshift mix, the tail bytes as one last word, then a final avalanche so that the
   * low bits (the table index) depend on every input bit.
   */
  static int hash(byte[] data, int start, int length) {
    long h = 0x9E3779B97F4A7C15L ^ length;
    int i = 0;
    for (; i + 8 <= length; i += 8) {
      h = (h ^ LittleEndian.getLong(data, start + i)) * 0xC2B2AE3D27D4EB4FL;
      h ^= h >>> 31;
    }
    long tail = 0;
    for (int k = 0; i < length; i++, k += 8) {
      tail |= (data[start + i] & 0xFFL) << k;
    }
    h = (h ^ tail) * 0x165667B19E3779F9L;
    h ^= h >>> 29;
    h *= 0x94D049BB133111EBL;
    h ^= h >>> 32;
    return (int) h;
  }

  @Override
  public int dictionarySize() {
    return entries.count();
  }

  @Override
  public long dictionaryByteSize() {
    return pageBytes;
  }

  @Override
  public void writeDictionaryPage(GrowableBuffer out) {
    if (fixedLength >= 0) {
      out.write(entries.data(), 0, entries.byteSize());
      return;
    }
    int size = entries.count();
    out.ensureCapacity((int) pageBytes);
    byte[] dst = out.array();
    byte[] data = entries.data();
    int pos = out.size();
    for (int i = 0; i < size; i++) {
      int length = entries.length(i);
      LittleEndian.putInt(dst, pos, length);
      System.arraycopy(data, entries.offset(i), dst, pos + 4, length);
      pos += 4 + length;
    }
    out.advance(pos - out.size());
  }

  @Override
  public Dictionary toDictionary() {
    int size = entries.count();
    BinaryBatch copy = new BinaryBatch(size, entries.byteSize());
    for (int i = 0; i < size; i++) {
      copy.add(entries.data(), entries.offset(i), entries.length(i));
    }
    return Dictionary.ofBinaries(type(), copy);
  }

  @Override
  public void clear() {
    entries.clear();
    pageBytes = 0;
    allocateTable(DictionaryBuilder.capacityFor(16));
  }
}
