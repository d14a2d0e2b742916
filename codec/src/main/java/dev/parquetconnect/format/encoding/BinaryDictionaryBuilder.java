package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Dictionary builder for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96: a linear-probing hash table
 * over a {@link BinaryBatch} of the entries. Each slot keeps the entry's index and its 32-bit hash
 * in one {@code long}, so a probe compares bytes only when the hashes agree, and growing the table
 * never rehashes the bytes.
 */
final class BinaryDictionaryBuilder extends DictionaryBuilder {
  /** Bytes per value for FIXED_LEN_BYTE_ARRAY and INT96; -1 for BYTE_ARRAY. */
  private final int fixedLength;

  private static final int INITIAL_CAPACITY = 64;

  private static final int INITIAL_ENTRY_BYTES = 256;

  /** A new {@link #entries}' arrays: its bytes and its offsets. */
  private static final long INITIAL_BATCH_BYTES = INITIAL_ENTRY_BYTES + 4L * (INITIAL_CAPACITY + 1);

  private BinaryBatch entries = new BinaryBatch(INITIAL_CAPACITY, INITIAL_ENTRY_BYTES);
  private int[] entryHashes = new int[INITIAL_CAPACITY];
  private int[] entryLengths = new int[INITIAL_CAPACITY];

  /**
   * The key words of each entry of up to {@link #SHORT} bytes, four per entry (see {@link
   * #shortHash}; below 8 bytes the first word holds them all, {@link #wordOf}): a lookup compares
   * these and the length instead of the entry's bytes.
   */
  private long[] entryWords = new long[4 * INITIAL_CAPACITY];

  private long pageBytes;

  /**
   * Table: each slot holds its entry's 32-bit hash (high half) and index + 1 (low half; 0 marks an
   * empty slot), so a probe reads one {@code long} and compares bytes only on a hash match.
   */
  private long[] table;

  private int mask;

  /** A hash's slot is its top bits: {@code hash >>> shift}. */
  private int shift;

  /** The table is kept at most a quarter full, so most lookups end at their first slot. */
  private static final int MAX_LOAD = 4;

  /** Values of 8 up to this many bytes are hashed and compared by their key words. */
  static final int SHORT = 32;

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
    allocateTable(INITIAL_CAPACITY);
  }

  private void allocateTable(int capacity) {
    table = new long[capacity];
    mask = capacity - 1;
    shift = 32 - Integer.numberOfTrailingZeros(capacity);
  }

  @Override
  public void addBinaries(BinaryBatch src, int from, int len, int[] indices, int indicesOff) {
    Decoders.checkRange(src.count(), from, len);
    Decoders.checkRange(indices.length, indicesOff, len);
    int[] offsets = src.offsets();
    byte[] data = src.data();
    // The table lives in locals, refreshed only after an insert (which may grow it).
    long[] t = table;
    long[] words = entryWords;
    int[] lengths = entryLengths;
    int m = mask;
    int sh = shift;
    for (int i = 0; i < len; i++) {
      int start = offsets[from + i];
      int length = offsets[from + i + 1] - start;
      if (fixedLength >= 0 && length != fixedLength) {
        throw new IllegalArgumentException(
            type()
                + " dictionary: value "
                + (from + i)
                + " has "
                + length
                + " bytes, the column's values have "
                + fixedLength);
      }
      int index;
      if (length < 8) {
        // Short strings (codes, flags, enum names): the bytes are one word, hashed and
        // compared as such.
        long w0 = wordOf(data, start, length);
        int hash = shortHash(length, w0, 0, 0, 0);
        int slot = hash >>> sh;
        while (true) {
          long e = t[slot];
          if (e == 0) {
            index = insert(data, start, length, hash, slot);
            t = table;
            words = entryWords;
            lengths = entryLengths;
            m = mask;
            sh = shift;
            break;
          }
          if ((int) (e >>> 32) == tag(hash, length)) {
            int candidate = (int) e - 1;
            if (words[candidate << 2] == w0 && lengths[candidate] == length) {
              index = candidate;
              break;
            }
          }
          slot = (slot + 1) & m;
        }
      } else if (length <= SHORT) {
        // Most strings: the value's key words are loaded once, hashed, and compared with the
        // candidate entry's words; no loop and no second pass over the bytes.
        long w0 = LittleEndian.getLong(data, start);
        long w3 = LittleEndian.getLong(data, start + length - 8);
        long w1 = 0;
        long w2 = 0;
        if (length >= 16) {
          w1 = LittleEndian.getLong(data, start + 8);
          w2 = LittleEndian.getLong(data, start + length - 16);
        }
        int hash = shortHash(length, w0, w1, w2, w3);
        int slot = hash >>> sh;
        while (true) {
          long e = t[slot];
          if (e == 0) {
            index = insert(data, start, length, hash, slot);
            t = table;
            words = entryWords;
            lengths = entryLengths;
            m = mask;
            sh = shift;
            break;
          }
          if ((int) (e >>> 32) == tag(hash, length)) {
            int candidate = (int) e - 1;
            int w = candidate << 2;
            if (((words[w] ^ w0) | (words[w + 1] ^ w1) | (words[w + 2] ^ w2) | (words[w + 3] ^ w3))
                    == 0
                && lengths[candidate] == length) {
              index = candidate;
              break;
            }
          }
          slot = (slot + 1) & m;
        }
      } else {
        int hash = hash(data, start, length);
        int slot = hash >>> sh;
        while (true) {
          long e = t[slot];
          if (e == 0) {
            index = insert(data, start, length, hash, slot);
            t = table;
            words = entryWords;
            lengths = entryLengths;
            m = mask;
            sh = shift;
            break;
          }
          if ((int) (e >>> 32) == tag(hash, length)) {
            int candidate = (int) e - 1;
            int entryStart = entries.offset(candidate);
            if (lengths[candidate] == length
                && equal(entries.data(), entryStart, data, start, length)) {
              index = candidate;
              break;
            }
          }
          slot = (slot + 1) & m;
        }
      }
      indices[indicesOff + i] = index;
    }
  }

  /**
   * Whether {@code a[aStart, aStart + length)} and {@code b[bStart, bStart + length)} hold the same
   * bytes: eight at a time, the last (partial) word read overlapping the one before it; values
   * shorter than a word byte by byte.
   */
  static boolean equal(byte[] a, int aStart, byte[] b, int bStart, int length) {
    if (length < 8) {
      for (int k = 0; k < length; k++) {
        if (a[aStart + k] != b[bStart + k]) {
          return false;
        }
      }
      return true;
    }
    int last = length - 8;
    for (int k = 0; k < last; k += 8) {
      if (LittleEndian.getLong(a, aStart + k) != LittleEndian.getLong(b, bStart + k)) {
        return false;
      }
    }
    return LittleEndian.getLong(a, aStart + last) == LittleEndian.getLong(b, bStart + last);
  }

  private int insert(byte[] data, int start, int length, int hash, int slot) {
    int index = entries.count();
    entries.add(data, start, length);
    if (index == entryHashes.length) {
      entryHashes = Arrays.copyOf(entryHashes, index * 2);
      entryLengths = Arrays.copyOf(entryLengths, index * 2);
      entryWords = Arrays.copyOf(entryWords, index * 8);
    }
    entryHashes[index] = hash;
    entryLengths[index] = length;
    if (length < 8) {
      int w = index << 2;
      entryWords[w] = wordOf(data, start, length);
      entryWords[w + 1] = 0;
      entryWords[w + 2] = 0;
      entryWords[w + 3] = 0;
    } else if (length <= SHORT) {
      int w = index << 2;
      entryWords[w] = LittleEndian.getLong(data, start);
      entryWords[w + 3] = LittleEndian.getLong(data, start + length - 8);
      if (length >= 16) {
        entryWords[w + 1] = LittleEndian.getLong(data, start + 8);
        entryWords[w + 2] = LittleEndian.getLong(data, start + length - 16);
      } else {
        entryWords[w + 1] = 0;
        entryWords[w + 2] = 0;
      }
    }
    pageBytes += fixedLength >= 0 ? length : 4L + length;
    table[slot] = slotEntry(tag(hash, length), index);
    if ((index + 1) * MAX_LOAD > table.length) {
      rehash();
    }
    return index;
  }

  /**
   * The high half of a slot: the hash's upper 26 bits and the value's length modulo 64, so one
   * compare checks both before any bytes are looked at.
   */
  private static int tag(int hash, int length) {
    return (hash & ~63) | (length & 63);
  }

  /** A slot's content: the entry's tag in the high half, its index + 1 in the low half. */
  private static long slotEntry(int hash, int index) {
    return ((long) hash << 32) | (index + 1);
  }

  private void rehash() {
    allocateTable(table.length * 2);
    int size = entries.count();
    for (int index = 0; index < size; index++) {
      int hash = entryHashes[index];
      int slot = hash >>> shift;
      while (table[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      table[slot] = slotEntry(tag(hash, entryLengths[index]), index);
    }
  }

  /**
   * A 32-bit hash of {@code data[start, start + length)}, whose top bits (the table index) depend
   * on every input bit. Values of up to {@link #SHORT} bytes (most strings) go through {@link
   * #shortHash} of their key words (below 8 bytes one word, {@link #wordOf}); longer ones eight
   * bytes at a time through a multiply-xorshift chain and a final avalanche.
   */
  static int hash(byte[] data, int start, int length) {
    if (length < 8) {
      return shortHash(length, wordOf(data, start, length), 0, 0, 0);
    }
    if (length <= SHORT) {
      long w0 = LittleEndian.getLong(data, start);
      long w3 = LittleEndian.getLong(data, start + length - 8);
      long w1 = 0;
      long w2 = 0;
      if (length >= 16) {
        w1 = LittleEndian.getLong(data, start + 8);
        w2 = LittleEndian.getLong(data, start + length - 16);
      }
      return shortHash(length, w0, w1, w2, w3);
    }
    long h = 0x9E3779B97F4A7C15L ^ length;
    int last = length - 8;
    for (int i = 0; i < last; i += 8) {
      h = (h ^ LittleEndian.getLong(data, start + i)) * 0xC2B2AE3D27D4EB4FL;
      h ^= h >>> 31;
    }
    // The last eight bytes, overlapping the previous word unless the length is a multiple
    // of eight (the length, mixed in first, keeps different overlaps apart).
    h = (h ^ LittleEndian.getLong(data, start + last)) * 0x165667B19E3779F9L;
    return avalanche(h);
  }

  /**
   * The {@code length < 8} bytes at {@code start} as one little-endian word, zero above them: one
   * load and a mask where eight bytes are readable there, else byte by byte.
   */
  static long wordOf(byte[] data, int start, int length) {
    if (data.length - start >= 8) {
      return LittleEndian.getLong(data, start) & ((1L << (length << 3)) - 1);
    }
    long w = 0;
    for (int k = 0; k < length; k++) {
      w |= (data[start + k] & 0xFFL) << (k << 3);
    }
    return w;
  }

  /**
   * The hash of a value of 8 to {@link #SHORT} bytes from its key words: the first and last eight
   * bytes ({@code w0}, {@code w3}) and, from 16 bytes on, the second and the second-to-last eight
   * ({@code w1}, {@code w2}; else 0). Overlapping, they cover every byte, and with the length they
   * identify the value. Independent multiplies, summed.
   */
  private static int shortHash(int length, long w0, long w1, long w2, long w3) {
    // The high half of a sum of products depends on every input bit; the table is indexed by
    // the hash's top bits, so no further mixing is needed.
    return (int)
        ((length * 0x9E3779B97F4A7C15L
                + w0 * 0xC2B2AE3D27D4EB4FL
                + w1 * 0x165667B19E3779F9L
                + w2 * 0xD6E8FEB86659FD93L
                + w3 * 0xFF51AFD7ED558CCDL)
            >>> 32);
  }

  private static int avalanche(long h) {
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

  /** Values of a kilobyte grow the entries' arrays by doubling, far past the page body. */
  @Override
  public long spareBytes() {
    long grown =
        entries.capacityBytes()
            - INITIAL_BATCH_BYTES
            + 8L * (entryHashes.length + entryWords.length - 5 * INITIAL_CAPACITY);
    return Math.max(0, grown - pageBytes);
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
    // A sink keeps a thousand files open and clears their dictionaries at each row group: arrays
    // grown for one chunk (64 KiB for two dozen texts of 1,500 bytes) are let go rather than held,
    // uncounted, until the next chunk fills them again.
    if (entries.capacityBytes() > INITIAL_BATCH_BYTES) {
      entries = new BinaryBatch(INITIAL_CAPACITY, INITIAL_ENTRY_BYTES);
    } else {
      entries.clear();
    }
    if (entryHashes.length > INITIAL_CAPACITY) {
      entryHashes = new int[INITIAL_CAPACITY];
      entryLengths = new int[INITIAL_CAPACITY];
      entryWords = new long[4 * INITIAL_CAPACITY];
    }
    pageBytes = 0;
    allocateTable(INITIAL_CAPACITY);
  }
}
