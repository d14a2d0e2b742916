package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * Builds the dictionary of one column chunk while its values are written: each batch of values
 * comes back as a batch of dictionary indices (new values get the next index), and the writer
 * watches {@link #dictionarySize()} and {@link #dictionaryByteSize()} to fall back to another
 * encoding when the dictionary grows past its limits. At the end of the chunk {@link
 * #writeDictionaryPage} writes the dictionary page body, the entries in index order, PLAIN.
 *
 * <p>One implementation per storage shape, each an open-addressing hash table over primitive arrays
 * (no boxing): {@link IntDictionaryBuilder} for INT32 and FLOAT, {@link LongDictionaryBuilder} for
 * INT64 and DOUBLE, {@link BinaryDictionaryBuilder} for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96.
 * Floating-point values are keyed by their raw bits, so NaN payloads and -0.0 versus 0.0 stay
 * distinct entries and come back bit-exact. BOOLEAN columns are never dictionary-encoded.
 */
public abstract sealed class DictionaryBuilder
    permits IntDictionaryBuilder, LongDictionaryBuilder, BinaryDictionaryBuilder {
  private final PhysicalType type;

  DictionaryBuilder(PhysicalType type) {
    this.type = type;
  }

  /** A builder for {@code type}; {@code typeLength} is the FIXED_LEN_BYTE_ARRAY length. */
  public static DictionaryBuilder forType(PhysicalType type, int typeLength) {
    return switch (type) {
      case INT32, FLOAT -> new IntDictionaryBuilder(type);
      case INT64, DOUBLE -> new LongDictionaryBuilder(type);
      case BYTE_ARRAY, INT96, FIXED_LEN_BYTE_ARRAY -> new BinaryDictionaryBuilder(type, typeLength);
      case BOOLEAN -> throw new IllegalArgumentException("BOOLEAN columns have no dictionary");
    };
  }

  public final PhysicalType type() {
    return type;
  }

  /**
   * Looks up (adding when new) {@code src[off, off + len)}, an INT32 builder only, writing each
   * value's index to {@code indices[indicesOff + i]}.
   */
  public void addInts(int[] src, int off, int len, int[] indices, int indicesOff) {
    throw wrongType("INT32");
  }

  /** As {@link #addInts} for INT64. */
  public void addLongs(long[] src, int off, int len, int[] indices, int indicesOff) {
    throw wrongType("INT64");
  }

  /** As {@link #addInts} for FLOAT, keyed by raw bits. */
  public void addFloats(float[] src, int off, int len, int[] indices, int indicesOff) {
    throw wrongType("FLOAT");
  }

  /** As {@link #addInts} for DOUBLE, keyed by raw bits. */
  public void addDoubles(double[] src, int off, int len, int[] indices, int indicesOff) {
    throw wrongType("DOUBLE");
  }

  /**
   * As {@link #addInts} for values {@code from .. from + len - 1} of {@code src} (BYTE_ARRAY,
   * FIXED_LEN_BYTE_ARRAY, INT96); a fixed-length value of the wrong length is rejected.
   */
  public void addBinaries(BinaryBatch src, int from, int len, int[] indices, int indicesOff) {
    throw wrongType("BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY/INT96");
  }

  /** Number of distinct values, i.e. entries. */
  public abstract int dictionarySize();

  /** Size in bytes of the PLAIN dictionary page body {@link #writeDictionaryPage} would write. */
  public abstract long dictionaryByteSize();

  /**
   * The heap the entries' arrays took beyond their initial length (which a sink's fixed per-column
   * estimate covers) and beyond {@link #dictionaryByteSize()}: what a memory budget counting the
   * page body misses. None for fixed-width values, whose arrays grow with the body.
   */
  public long spareBytes() {
    return 0;
  }

  /** Appends the dictionary page body: every entry in index order, PLAIN. */
  public abstract void writeDictionaryPage(GrowableBuffer out);

  /** The entries as a decoded {@link Dictionary} (a copy), e.g. to re-encode on fall-back. */
  public abstract Dictionary toDictionary();

  /** Forgets every entry, for the next column chunk. */
  public abstract void clear();

  final UnsupportedOperationException wrongType(String what) {
    return new UnsupportedOperationException(
        type + " dictionary builder does not take " + what + " values");
  }

  /** Table capacity (a power of two) for {@code entries} at a load factor of at most 1/2. */
  static int capacityFor(int entries) {
    return Integer.highestOneBit(Math.max(16, entries) * 2 - 1) << 1;
  }
}
