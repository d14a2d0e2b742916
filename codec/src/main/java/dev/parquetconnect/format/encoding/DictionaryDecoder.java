package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Decodes an RLE_DICTIONARY (or v1 PLAIN_DICTIONARY) data page: one byte holding the bit width of
 * the indices (0..32), then the indices in the RLE hybrid without length prefix. Indices are read
 * in chunks into a scratch array and mapped through the {@link Dictionary}; an index at or past the
 * dictionary's size is a {@link CorruptDataException} naming both. {@link #readIndices(int[], int,
 * int)} and {@link #readIndices(DictionaryBinaryBatch, int)} hand out the checked indices
 * themselves instead (late materialisation).
 *
 * <p>Bit width 0 means every index is 0 (a one-entry dictionary); the runs then carry no
 * information, so they are not read at all and a page holding only the width byte is accepted.
 */
public final class DictionaryDecoder implements ValuesDecoder {
  private static final int CHUNK = 1024;

  private final Dictionary dictionary;
  private final RleBitPackedHybridDecoder indices = new RleBitPackedHybridDecoder(0, false);
  private final int[] scratch = new int[CHUNK];
  private int bitWidth;
  private int valuesLeft;

  /** Index of the next value within the page, for error messages. */
  private int position;

  public DictionaryDecoder(Dictionary dictionary) {
    this.dictionary = dictionary;
  }

  public Dictionary dictionary() {
    return dictionary;
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount)
      throws CorruptDataException {
    Decoders.checkRange(page.length, offset, length);
    if (valueCount < 0) {
      throw new CorruptDataException("dictionary indices: negative value count " + valueCount);
    }
    valuesLeft = valueCount;
    position = 0;
    if (length == 0) {
      // Acceptable only for a page without values (all nulls); reads find no width byte.
      bitWidth = -1;
      return;
    }
    bitWidth = page[offset] & 0xFF;
    Decoders.checkBitWidth("dictionary indices", bitWidth, 32);
    if (bitWidth > 0) {
      indices.init(page, offset + 1, length - 1, valueCount, bitWidth);
    }
  }

  /** Reads the next {@code n} indices (at most {@link #CHUNK}) into the scratch array. */
  private void readIndices(int n) throws CorruptDataException {
    readRawIndices(scratch, 0, n);
  }

  /** Reads the next {@code n} indices, unchecked against the dictionary, into {@code dst}. */
  private void readRawIndices(int[] dst, int off, int n) throws CorruptDataException {
    Decoders.checkRemaining("dictionary indices", n, valuesLeft);
    if (bitWidth > 0) {
      indices.readInts(dst, off, n);
    } else if (bitWidth == 0) {
      Arrays.fill(dst, off, off + n, 0);
    } else if (n > 0) {
      throw new CorruptDataException(
          "dictionary indices: the page is empty but " + valuesLeft + " values are expected");
    }
    valuesLeft -= n;
  }

  /**
   * Reads the next {@code len} dictionary indices into {@code dst[off, off + len)}, each checked to
   * be below {@link Dictionary#size()}: the late-materialisation path, where a caller keeps indices
   * and looks values up in {@link #dictionary()} only when (and if) it needs them. The check is
   * once per batch, not per value: nothing when the bit width cannot express an index past the
   * dictionary, else one OR over the batch, and a search for the culprit only when that fails. A
   * bad index is a {@link CorruptDataException} naming it and its value's position in the page, and
   * {@code dst}'s indices must then not be used.
   */
  public void readIndices(int[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    readRawIndices(dst, off, len);
    checkIndices(dst, off, len);
    position += len;
  }

  /**
   * Appends the next {@code len} values to {@code dst} as checked dictionary indices, without
   * copying any bytes; {@code dst} is (re)bound to this decoder's dictionary when it is empty and
   * must already share it otherwise. Binary dictionaries only.
   */
  public void readIndices(DictionaryBinaryBatch dst, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    if (!dictionary.isBinary()) {
      throw Decoders.unsupported(this, "dictionary-encoded BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY");
    }
    if (len < 0) {
      throw new IndexOutOfBoundsException("negative batch length " + len);
    }
    dst.bind(dictionary);
    int at = dst.count();
    readIndices(dst.reserve(len), at, len);
    dst.commit(len);
  }

  /**
   * Checks {@code a[off, off + n)}, the indices of the next {@code n} values, as above. The test is
   * one OR over the batch of {@code v | (size - 1 - v)}: its sign bit is set exactly when some
   * {@code v} is negative or at least {@code size} (neither term can overflow), and a single OR
   * chain runs several times faster than a max and an OR side by side.
   */
  private void checkIndices(int[] a, int off, int n) throws CorruptDataException {
    int size = dictionary.size();
    if (bitWidth >= 0 && bitWidth < 31 && (1 << bitWidth) <= size) {
      return; // the RLE decoder rejects values of more than bitWidth bits
    }
    int last = size - 1;
    int outside = 0;
    for (int i = off, end = off + n; i < end; i++) {
      int v = a[i];
      outside |= v | (last - v);
    }
    if (outside >= 0) {
      return;
    }
    for (int i = off, end = off + n; i < end; i++) {
      if (Integer.compareUnsigned(a[i], size) >= 0) {
        throw badIndex(a[i], position + (i - off));
      }
    }
  }

  private CorruptDataException badIndex(int index, long value) {
    return new CorruptDataException(
        "dictionary index "
            + Integer.toUnsignedString(index)
            + " of value "
            + value
            + " is out of range for a dictionary of "
            + dictionary.size()
            + " entries");
  }

  @Override
  public void readBooleans(boolean[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.BOOLEAN, "BOOLEAN");
    Decoders.checkRange(dst.length, off, len);
    boolean[] values = dictionary.booleans;
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      checkIndices(scratch, 0, n);
      for (int i = 0, at = off + done; i < n; i++) {
        dst[at + i] = values[scratch[i]];
      }
      position += n;
      done += n;
    }
  }

  @Override
  public void readInts(int[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.INT32, "INT32");
    Decoders.checkRange(dst.length, off, len);
    int[] values = dictionary.ints;
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      checkIndices(scratch, 0, n);
      for (int i = 0, at = off + done; i < n; i++) {
        dst[at + i] = values[scratch[i]];
      }
      position += n;
      done += n;
    }
  }

  @Override
  public void readLongs(long[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.INT64, "INT64");
    Decoders.checkRange(dst.length, off, len);
    long[] values = dictionary.longs;
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      checkIndices(scratch, 0, n);
      for (int i = 0, at = off + done; i < n; i++) {
        dst[at + i] = values[scratch[i]];
      }
      position += n;
      done += n;
    }
  }

  @Override
  public void readFloats(float[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.FLOAT, "FLOAT");
    Decoders.checkRange(dst.length, off, len);
    float[] values = dictionary.floats;
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      checkIndices(scratch, 0, n);
      for (int i = 0, at = off + done; i < n; i++) {
        dst[at + i] = values[scratch[i]];
      }
      position += n;
      done += n;
    }
  }

  @Override
  public void readDoubles(double[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.DOUBLE, "DOUBLE");
    Decoders.checkRange(dst.length, off, len);
    double[] values = dictionary.doubles;
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      checkIndices(scratch, 0, n);
      for (int i = 0, at = off + done; i < n; i++) {
        dst[at + i] = values[scratch[i]];
      }
      position += n;
      done += n;
    }
  }

  @Override
  public void readBinaries(BinaryBatch dst, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    if (dictionary.binaries == null) {
      throw Decoders.unsupported(this, "BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY");
    }
    if (len < 0) {
      throw new IndexOutOfBoundsException("negative batch length " + len);
    }
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      // Checked before anything is copied: a bad index leaves the batch as it was.
      checkIndices(scratch, 0, n);
      dictionary.copy(scratch, 0, n, dst);
      position += n;
      done += n;
    }
  }

  @Override
  public void skip(int n) throws CorruptDataException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining("dictionary indices", n, valuesLeft);
    if (bitWidth > 0) {
      indices.skip(n);
    } else if (bitWidth < 0 && n > 0) {
      throw new CorruptDataException(
          "dictionary indices: the page is empty but " + valuesLeft + " values are expected");
    }
    valuesLeft -= n;
    position += n;
  }

  private void requireType(PhysicalType expected, String what) throws UnsupportedFeatureException {
    if (dictionary.type() != expected) {
      throw Decoders.unsupported(this, what);
    }
  }
}
