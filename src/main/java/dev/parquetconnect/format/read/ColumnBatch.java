package dev.parquetconnect.format.read;

import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * A batch of one column's entries as a {@link ColumnReader} delivers them: {@link #size()}
 * repetition and definition levels, and the {@link #valueCount()} non-null values packed densely
 * in the array of the column's physical type ({@link #booleans()}, {@link #ints()}, {@link
 * #longs()}, {@link #floats()}, {@link #doubles()}, or {@link #binaries()} for BYTE_ARRAY,
 * FIXED_LEN_BYTE_ARRAY and INT96). Entry {@code i} has a value when its definition level is the
 * column's maximum; values follow the order of those entries. Columns without repetition (or
 * definition) have all-zero repetition (definition) levels.
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
  int size;
  int valueCount;

  /** A batch of up to {@code capacity} entries of a column of {@code type}. */
  public ColumnBatch(PhysicalType type, int capacity) {
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
    boolean binary = type == PhysicalType.BYTE_ARRAY
        || type == PhysicalType.FIXED_LEN_BYTE_ARRAY
        || type == PhysicalType.INT96;
    this.binaries = binary ? new BinaryBatch(capacity, 16 * capacity) : null;
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

  /** BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96 values, else null. */
  public BinaryBatch binaries() {
    return binaries;
  }

  void clear() {
    size = 0;
    valueCount = 0;
    if (binaries != null) {
      binaries.clear();
    }
  }
}
