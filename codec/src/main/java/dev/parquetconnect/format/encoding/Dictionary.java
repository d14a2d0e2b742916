package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * The decoded entries of a column chunk's dictionary page, in primitive arrays (or one {@link
 * BinaryBatch} for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96), indexed by the dictionary indices
 * of the data pages. Immutable once built; {@link DictionaryDecoder} maps indices through it.
 */
public final class Dictionary {
  /** Largest byte array a {@link BinaryBatch} can grow to. */
  private static final long MAX_BATCH_BYTES = Integer.MAX_VALUE - 16;

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
   * For binary entries of at most 32 bytes: five words per entry, its bytes as four little-endian
   * words (zero-padded) and its length, so that copying an entry out is four word moves and one
   * length load with no byte-array arithmetic. Built on the first copy ({@link #shortWords()}):
   * readers that keep values dictionary-encoded never pay for it. Null until then, and always for
   * longer entries.
   */
  private volatile long[] shortWords;

  /** Per binary entry, its offset (high half) and length (low half); built on first use. */
  private volatile long[] spans;

  /** Per binary entry, {@code Arrays.hashCode} of its bytes; built on first use. */
  private volatile int[] hashes;

  /** Per binary entry, its bytes decoded as UTF-8; each filled on first use. */
  private volatile String[] strings;

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
  }

  /**
   * The entries' bytes as four words and a length each, for dictionaries of binary entries of at
   * most 32 bytes (null otherwise). Built once; a race builds it twice with the same result, and
   * the volatile field publishes the filled array safely.
   */
  long[] shortWords() {
    long[] words = shortWords;
    if (words == null && binaries != null && maxBinaryLength <= 32) {
      words = new long[5 * size];
      byte[] data = binaries.data();
      int[] offsets = binaries.offsets();
      for (int i = 0; i < size; i++) {
        int from = offsets[i];
        int length = offsets[i + 1] - from;
        for (int k = 0; k < length; k++) {
          words[5 * i + (k >>> 3)] |= (data[from + k] & 0xFFL) << ((k & 7) << 3);
        }
        words[5 * i + 4] = length;
      }
      shortWords = words;
    }
    return words;
  }

  /**
   * Decodes a dictionary page body, {@code numValues} PLAIN values of {@code type} (the page
   * header's encoding is PLAIN or, in v1 files, PLAIN_DICTIONARY: the same bytes). {@code
   * typeLength} is the FIXED_LEN_BYTE_ARRAY length. A count that the bytes cannot hold is rejected
   * before anything is allocated, so a corrupt header cannot cause a huge allocation.
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
          "dictionary page declares "
              + numValues
              + " "
              + type
              + " values, which need at least "
              + minBytes
              + " bytes, but it has "
              + length);
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

  /** A copy of binary entry {@code index}. */
  public byte[] binaryAt(int index) {
    return binaries.get(index);
  }

  /** Whether the entries are byte strings (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96). */
  public boolean isBinary() {
    return binaries != null;
  }

  /**
   * The bytes of all binary entries, back to back: entry {@code i} is {@code
   * binaryData()[binaryOffsets()[i], binaryOffsets()[i + 1])}. Shared, not copied, so that
   * dictionary-encoded batches can hand out values without copying: callers must not modify it.
   */
  public byte[] binaryData() {
    return binaries.data();
  }

  /** The entries' offsets in {@link #binaryData()}, {@code size() + 1} of them; do not modify. */
  public int[] binaryOffsets() {
    return binaries.offsets();
  }

  public int binaryOffset(int index) {
    return binaries.offset(index);
  }

  public int binaryLength(int index) {
    return binaries.length(index);
  }

  /**
   * Per binary entry, its offset in {@link #binaryData()} in the high 32 bits and its length in the
   * low 32 bits: one load gives both, which is what makes reading dictionary-encoded values ({@link
   * DictionaryBinaryBatch#offset} and {@code length} of the same value share the load) cheaper than
   * two loads from {@link #binaryOffsets()}. Built once, on first use; shared, do not modify.
   */
  public long[] binarySpans() {
    long[] table = spans;
    if (table == null) {
      table = new long[size];
      int[] offsets = binaries.offsets();
      for (int i = 0; i < size; i++) {
        table[i] = (long) offsets[i] << 32 | (offsets[i + 1] - offsets[i]);
      }
      spans = table;
    }
    return table;
  }

  /** Length of the longest binary entry (0 for none). */
  public int maxBinaryLength() {
    return maxBinaryLength;
  }

  /**
   * {@link java.util.Arrays#hashCode(byte[])} of binary entry {@code index}, computed once per
   * entry for the whole dictionary on first use: hashing a dictionary-encoded value is then a
   * lookup, and equals the hash of its materialised bytes.
   */
  public int binaryHash(int index) {
    int[] table = hashes;
    if (table == null) {
      table = new int[size];
      byte[] data = binaries.data();
      int[] offsets = binaries.offsets();
      for (int i = 0; i < size; i++) {
        int h = 1;
        for (int k = offsets[i], end = offsets[i + 1]; k < end; k++) {
          h = 31 * h + data[k];
        }
        table[i] = h;
      }
      hashes = table;
    }
    return table[index];
  }

  /**
   * Binary entry {@code index} decoded as UTF-8 (malformed input replaced, as {@code new
   * String(bytes, UTF_8)} does), decoded once per entry and then shared: a string column of 1,000
   * distinct values costs 1,000 decodes however many rows refer to them. Strings are immutable, so
   * sharing them is safe; a race decodes an entry twice into equal strings.
   */
  public String stringAt(int index) {
    String[] cache = strings;
    if (cache == null) {
      cache = new String[size];
      strings = cache;
    }
    String s = cache[index];
    if (s == null) {
      s =
          new String(
              binaries.data(),
              binaries.offset(index),
              binaries.length(index),
              java.nio.charset.StandardCharsets.UTF_8);
      cache[index] = s;
    }
    return s;
  }

  /**
   * Appends the entries {@code indices[off, off + n)} to {@code dst}, copying their bytes: the
   * materialisation of dictionary-encoded values. The indices must have been checked against {@link
   * #size()} (as {@link DictionaryDecoder#readIndices} does); {@code dst} must have room for their
   * bytes plus {@link ShortCopy#SLACK}.
   */
  void copyChecked(int[] indices, int off, int n, BinaryBatch dst, long bytes) {
    byte[] out = dst.data();
    int[] outOffsets = dst.offsets();
    int c = dst.count();
    int pos = outOffsets[c];
    long[] words = shortWords();
    if (words != null && pos <= out.length - ShortCopy.SLACK - bytes) {
      // Entries of at most 32 bytes: four word stores from the dictionary's word copies.
      for (int i = off, end = off + n; i < end; i++) {
        int w = indices[i] * 5;
        LittleEndian.putLong(out, pos, words[w]);
        LittleEndian.putLong(out, pos + 8, words[w + 1]);
        LittleEndian.putLong(out, pos + 16, words[w + 2]);
        LittleEndian.putLong(out, pos + 24, words[w + 3]);
        pos += (int) words[w + 4];
        outOffsets[++c] = pos;
      }
    } else {
      byte[] data = binaries.data();
      int[] offsets = binaries.offsets();
      for (int i = off, end = off + n; i < end; i++) {
        int index = indices[i];
        int from = offsets[index];
        int length = offsets[index + 1] - from;
        ShortCopy.copy(data, from, out, pos, length);
        pos += length;
        outOffsets[++c] = pos;
      }
    }
    dst.commitAll(n);
  }

  /**
   * Appends the entries {@code indices[off, off + n)} (checked) to {@code dst}: makes the room,
   * bounded by the longest entry or, when that bound would pass the 2 GiB a batch can hold, summed
   * exactly; refuses a batch that really would.
   */
  void copy(int[] indices, int off, int n, BinaryBatch dst) throws UnsupportedFeatureException {
    long bytes = (long) n * maxBinaryLength;
    if (bytes > MAX_BATCH_BYTES - ShortCopy.SLACK - dst.byteSize()) {
      int[] offsets = binaries.offsets();
      bytes = 0;
      for (int i = off, end = off + n; i < end; i++) {
        bytes += offsets[indices[i] + 1] - offsets[indices[i]];
      }
      if (bytes > MAX_BATCH_BYTES - ShortCopy.SLACK - dst.byteSize()) {
        throw new UnsupportedFeatureException(
            "dictionary values: a batch of "
                + n
                + " values would hold more than 2 GiB; read smaller batches");
      }
    }
    dst.ensureCapacity(n, bytes + ShortCopy.SLACK);
    copyChecked(indices, off, n, dst, bytes);
  }
}
