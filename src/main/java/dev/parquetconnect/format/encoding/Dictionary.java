package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * The decoded entries of a column chunk's dictionary page, in primitive arrays (or one {@link
 * BinaryBatch} for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96), indexed by the dictionary
 * indices of the data pages. Immutable once built; {@link DictionaryDecoder} maps indices
 * through it.
 */
public final class Dictionary {
  private final PhysicalType type;
  private final int size;
  final boolean[] booleans;
  final int[] ints;
  final long[] longs;
  final float[] floats;
  final double[] doubles;
  final BinaryBatch binaries;
  /** Length of the longest binary entry (0 without binaries): bounds a batch's bytes. */
  final int maxBinaryLength;
  /**
   * For binary entries of at most 32 bytes: each entry's bytes as four little-endian words
   * (zero-padded), and its length, so that decoding copies an entry with four word moves and
   * no byte-array arithmetic. Null otherwise.
   */
  final long[] shortWords;
  final int[] shortLengths;

  private Dictionary(
      PhysicalType type,
      int size,
      boolean[] booleans,
      int[] ints,
      long[] longs,
      float[] floats,
      double[] doubles,
      BinaryBatch binaries) {
    this.type = type;
    this.size = size;
    this.booleans = booleans;
    this.ints = ints;
    this.longs = longs;
    this.floats = floats;
    this.doubles = doubles;
    this.binaries = binaries;
    int max = 0;
    if (binaries != null) {
      int[] offsets = binaries.offsets();
      for (int i = 0; i < size; i++) {
        max = Math.max(max, offsets[i + 1] - offsets[i]);
      }
    }
    this.maxBinaryLength = max;
    if (binaries != null && max <= 32) {
      long[] words = new long[4 * size];
      int[] lengths = new int[size];
      byte[] data = binaries.data();
      int[] offsets = binaries.offsets();
      for (int i = 0; i < size; i++) {
        int from = offsets[i];
        int length = offsets[i + 1] - from;
        lengths[i] = length;
        for (int k = 0; k < length; k++) {
          words[4 * i + (k >>> 3)] |= (data[from + k] & 0xFFL) << ((k & 7) << 3);
        }
      }
      this.shortWords = words;
      this.shortLengths = lengths;
    } else {
      this.shortWords = null;
      this.shortLengths = null;
    }
  }

  /**
   * Decodes a dictionary page body, {@code numValues} PLAIN values of {@code type} (the page
   * header's encoding is PLAIN or, in v1 files, PLAIN_DICTIONARY: the same bytes). {@code
   * typeLength} is the FIXED_LEN_BYTE_ARRAY length. A count that the bytes cannot hold is
   * rejected before anything is allocated, so a corrupt header cannot cause a huge allocation.
   */
  public static Dictionary decode(
      PhysicalType type, int typeLength, byte[] page, int offset, int length, int numValues)
      throws CorruptDataException {
    Decoders.checkRange(page.length, offset, length);
    if (numValues < 0) {
      throw new CorruptDataException("dictionary page declares " + numValues + " values");
    }
    PlainDecoder plain = new PlainDecoder(type, typeLength);
    long minBytes =
        switch (type) {
          case BOOLEAN -> BitPacking.bytesFor(numValues, 1);
          case INT32, FLOAT -> 4L * numValues;
          case INT64, DOUBLE -> 8L * numValues;
          case INT96 -> (long) PlainEncoder.INT96_LENGTH * numValues;
          case BYTE_ARRAY -> 4L * numValues; // each value has at least its length prefix
          case FIXED_LEN_BYTE_ARRAY -> (long) typeLength * numValues;
        };
    if (minBytes > length) {
      throw new CorruptDataException(
          "dictionary page declares " + numValues + " " + type + " values, which need at least "
              + minBytes + " bytes, but it has " + length);
    }
    plain.init(page, offset, length, numValues);
    return switch (type) {
      case BOOLEAN -> {
        boolean[] values = new boolean[numValues];
        plain.decodeBooleans(values, 0, numValues);
        yield new Dictionary(type, numValues, values, null, null, null, null, null);
      }
      case INT32 -> {
        int[] values = new int[numValues];
        plain.decodeInts(values, 0, numValues);
        yield new Dictionary(type, numValues, null, values, null, null, null, null);
      }
      case INT64 -> {
        long[] values = new long[numValues];
        plain.decodeLongs(values, 0, numValues);
        yield new Dictionary(type, numValues, null, null, values, null, null, null);
      }
      case FLOAT -> {
        float[] values = new float[numValues];
        plain.decodeFloats(values, 0, numValues);
        yield new Dictionary(type, numValues, null, null, null, values, null, null);
      }
      case DOUBLE -> {
        double[] values = new double[numValues];
        plain.decodeDoubles(values, 0, numValues);
        yield new Dictionary(type, numValues, null, null, null, null, values, null);
      }
      case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> {
        BinaryBatch values = new BinaryBatch(numValues, length);
        plain.decodeBinaries(values, numValues);
        yield new Dictionary(type, numValues, null, null, null, null, null, values);
      }
    };
  }

  static Dictionary ofInts(PhysicalType type, int[] values) {
    return new Dictionary(type, values.length, null, values, null, null, null, null);
  }

  static Dictionary ofFloats(float[] values) {
    return new Dictionary(PhysicalType.FLOAT, values.length, null, null, null, values, null, null);
  }

  static Dictionary ofLongs(long[] values) {
    return new Dictionary(PhysicalType.INT64, values.length, null, null, values, null, null, null);
  }

  static Dictionary ofDoubles(double[] values) {
    return new Dictionary(PhysicalType.DOUBLE, values.length, null, null, null, null, values, null);
  }

  static Dictionary ofBinaries(PhysicalType type, BinaryBatch values) {
    return new Dictionary(type, values.count(), null, null, null, null, null, values);
  }

  public PhysicalType type() {
    return type;
  }

  /** Number of entries. */
  public int size() {
    return size;
  }

  public boolean booleanAt(int index) {
    return booleans[index];
  }

  public int intAt(int index) {
    return ints[index];
  }

  public long longAt(int index) {
    return longs[index];
  }

  public float floatAt(int index) {
    return floats[index];
  }

  public double doubleAt(int index) {
    return doubles[index];
  }

  /** A copy of binary entry {@code index}; for tests and slow paths. */
  public byte[] binaryAt(int index) {
    return binaries.get(index);
  }
}
