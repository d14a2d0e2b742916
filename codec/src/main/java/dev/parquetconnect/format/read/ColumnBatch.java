package dev.parquetconnect.format.read;

import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.DictionaryBinaryBatch;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * A batch of one column's entries as a {@link ColumnReader} delivers them: {@link #size()}
 * repetition and definition levels, and the {@link #valueCount()} non-null values packed densely in
 * the array of the column's physical type ({@link #booleans()}, {@link #ints()}, {@link #longs()},
 * {@link #floats()}, {@link #doubles()}, or {@link #binaries()} for BYTE_ARRAY,
 * FIXED_LEN_BYTE_ARRAY and INT96). Entry {@code i} has a value when its definition level is the
 * column's maximum; values follow the order of those entries. Columns without repetition (or
 * definition) have all-zero repetition (definition) levels.
 *
 * <p>Dictionary-encoded byte strings, on request: a batch created with {@code
 * keepDictionaryEncoding} for a binary column receives the values of dictionary-encoded pages as
 * indices into the chunk's dictionary, in {@link #dictionaryBinaries()}, without copying their
 * bytes ({@link #isDictionaryEncoded()} is then true). Values of other pages arrive in {@link
 * #binaries()} as usual; a batch never mixes both forms: when a chunk falls back from dictionary to
 * plain pages in the middle of a batch, the values already read are materialised into {@link
 * #binaries()} and the rest follow them there. {@link #plainBinaries()} gives the contiguous form
 * whatever the batch holds.
 *
 * <p>Reused from batch to batch: arrays are allocated once at the batch's capacity.
 */
public final class ColumnBatch {
  private final PhysicalType type;
  private final int capacity;
  private final int[] repetitionLevels;
  private final int[] definitionLevels;
  private final boolean[] booleans;
  private final int[] ints;
  private final long[] longs;
  private final float[] floats;
  private final double[] doubles;
  private final BinaryBatch binaries;

  /** Non-null only for a binary column's batch that keeps dictionary encoding. */
  private final DictionaryBinaryBatch dictionaryBinaries;

  int size;
  int valueCount;

  /** Whether the values are in {@link #dictionaryBinaries} rather than {@link #binaries}. */
  boolean dictionaryEncoded;

  /** A batch of up to {@code capacity} entries of a column of {@code type}. */
  public ColumnBatch(PhysicalType type, int capacity) {
    this(type, capacity, false);
  }

  /**
   * A batch of up to {@code capacity} entries of a column of {@code type}; with {@code
   * keepDictionaryEncoding}, a binary column's dictionary-encoded values stay indices (see the
   * class comment). Other types ignore the flag: their values are always decoded.
   */
  public ColumnBatch(PhysicalType type, int capacity, boolean keepDictionaryEncoding) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("capacity " + capacity);
    }
    this.type = type;
    this.capacity = capacity;
    this.repetitionLevels = new int[capacity];
    this.definitionLevels = new int[capacity];
    this.booleans = type == PhysicalType.BOOLEAN ? new boolean[capacity] : null;
    this.ints = type == PhysicalType.INT32 ? new int[capacity] : null;
    this.longs = type == PhysicalType.INT64 ? new long[capacity] : null;
    this.floats = type == PhysicalType.FLOAT ? new float[capacity] : null;
    this.doubles = type == PhysicalType.DOUBLE ? new double[capacity] : null;
    boolean binary =
        type == PhysicalType.BYTE_ARRAY
            || type == PhysicalType.FIXED_LEN_BYTE_ARRAY
            || type == PhysicalType.INT96;
    this.binaries = binary ? new BinaryBatch(capacity, 16 * capacity) : null;
    this.dictionaryBinaries =
        binary && keepDictionaryEncoding ? new DictionaryBinaryBatch(capacity) : null;
  }

  public PhysicalType type() {
    return type;
  }

  public int capacity() {
    return capacity;
  }

  /** Number of entries (levels) in the batch. */
  public int size() {
    return size;
  }

  /** Number of non-null values in the batch. */
  public int valueCount() {
    return valueCount;
  }

  public int[] repetitionLevels() {
    return repetitionLevels;
  }

  public int[] definitionLevels() {
    return definitionLevels;
  }

  /** BOOLEAN values, else null. */
  public boolean[] booleans() {
    return booleans;
  }

  /** INT32 values, else null. */
  public int[] ints() {
    return ints;
  }

  /** INT64 values, else null. */
  public long[] longs() {
    return longs;
  }

  /** FLOAT values, else null. */
  public float[] floats() {
    return floats;
  }

  /** DOUBLE values, else null. */
  public double[] doubles() {
    return doubles;
  }

  /**
   * BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 values when the batch is not {@link
   * #isDictionaryEncoded()} (then empty); null for other types.
   */
  public BinaryBatch binaries() {
    return binaries;
  }

  /** Whether this batch was created to keep dictionary-encoded binary values as indices. */
  public boolean keepsDictionaryEncoding() {
    return dictionaryBinaries != null;
  }

  /** Whether this batch's values are in {@link #dictionaryBinaries()}, not {@link #binaries()}. */
  public boolean isDictionaryEncoded() {
    return dictionaryEncoded;
  }

  /**
   * The values as dictionary indices when {@link #isDictionaryEncoded()} (else empty); null unless
   * the batch {@link #keepsDictionaryEncoding()}.
   */
  public DictionaryBinaryBatch dictionaryBinaries() {
    return dictionaryBinaries;
  }

  /**
   * The binary values in the contiguous form: {@link #binaries()}, after copying them there first
   * if the batch holds them dictionary-encoded (the batch then stays in the plain form).
   */
  public BinaryBatch plainBinaries() throws UnsupportedFeatureException {
    if (dictionaryEncoded) {
      toPlainForm();
    }
    return binaries;
  }

  /** Moves dictionary-encoded values into {@link #binaries} (copying their bytes). */
  void toPlainForm() throws UnsupportedFeatureException {
    binaries.clear();
    dictionaryBinaries.materialize(binaries);
    dictionaryBinaries.clear();
    dictionaryEncoded = false;
  }

  void clear() {
    size = 0;
    valueCount = 0;
    dictionaryEncoded = false;
    if (binaries != null) {
      binaries.clear();
    }
    if (dictionaryBinaries != null) {
      dictionaryBinaries.clear();
    }
  }
}
