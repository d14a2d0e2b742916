package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Decodes an RLE_DICTIONARY (or v1 PLAIN_DICTIONARY) data page: one byte holding the bit width
 * of the indices (0..32), then the indices in the RLE hybrid without length prefix. Indices are
 * read in chunks into a scratch array and mapped through the {@link Dictionary}; an index at or
 * past the dictionary's size is a {@link CorruptDataException} naming both.
 *
 * <p>Bit width 0 means every index is 0 (a one-entry dictionary); the runs then carry no
 * information, so they are not read at all and a page holding only the width byte is accepted.
 */
public final class DictionaryDecoder implements ValuesDecoder {
  private static final int CHUNK = 1024;
  /** Largest byte array a {@link BinaryBatch} can grow to. */
  private static final long MAX_BATCH_BYTES = Integer.MAX_VALUE - 16;

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
    Decoders.checkRemaining("dictionary indices", n, valuesLeft);
    if (bitWidth > 0) {
      indices.readInts(scratch, 0, n);
    } else if (bitWidth == 0) {
      Arrays.fill(scratch, 0, n, 0);
    } else if (n > 0) {
      throw new CorruptDataException(
          "dictionary indices: the page is empty but " + valuesLeft + " values are expected");
    }
    valuesLeft -= n;
  }

  private CorruptDataException badIndex(int at) {
    return new CorruptDataException(
        "dictionary index " + Integer.toUnsignedString(scratch[at]) + " of value "
            + (position + at) + " is out of range for a dictionary of " + dictionary.size()
            + " entries");
  }

  @Override
  public void readBooleans(boolean[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    requireType(PhysicalType.BOOLEAN, "BOOLEAN");
    Decoders.checkRange(dst.length, off, len);
    boolean[] values = dictionary.booleans;
    int size = dictionary.size();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      for (int i = 0; i < n; i++) {
        int index = scratch[i];
        if (Integer.compareUnsigned(index, size) >= 0) {
          throw badIndex(i);
        }
        dst[off + done + i] = values[index];
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
    int size = dictionary.size();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      for (int i = 0; i < n; i++) {
        int index = scratch[i];
        if (Integer.compareUnsigned(index, size) >= 0) {
          throw badIndex(i);
        }
        dst[off + done + i] = values[index];
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
    int size = dictionary.size();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      for (int i = 0; i < n; i++) {
        int index = scratch[i];
        if (Integer.compareUnsigned(index, size) >= 0) {
          throw badIndex(i);
        }
        dst[off + done + i] = values[index];
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
    int size = dictionary.size();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      for (int i = 0; i < n; i++) {
        int index = scratch[i];
        if (Integer.compareUnsigned(index, size) >= 0) {
          throw badIndex(i);
        }
        dst[off + done + i] = values[index];
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
    int size = dictionary.size();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      for (int i = 0; i < n; i++) {
        int index = scratch[i];
        if (Integer.compareUnsigned(index, size) >= 0) {
          throw badIndex(i);
        }
        dst[off + done + i] = values[index];
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
    BinaryBatch values = dictionary.binaries;
    int[] offsets = values.offsets();
    byte[] data = values.data();
    int size = dictionary.size();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      readIndices(n);
      // Room for the chunk: bounded by the longest entry, or summed exactly when that bound
      // would pass the 2 GiB a batch can hold. Indices are checked while copying; a bad one
      // throws before the values are committed, so the batch is left as it was.
      long bytes = (long) n * dictionary.maxBinaryLength;
      if (bytes > MAX_BATCH_BYTES - ShortCopy.SLACK - dst.byteSize()) {
        bytes = 0;
        for (int i = 0; i < n; i++) {
          int index = scratch[i];
          if (Integer.compareUnsigned(index, size) >= 0) {
            throw badIndex(i);
          }
          bytes += offsets[index + 1] - offsets[index];
        }
        if (bytes > MAX_BATCH_BYTES - ShortCopy.SLACK - dst.byteSize()) {
          throw new UnsupportedFeatureException(
              "dictionary values: a batch of " + len + " values would hold more than 2 GiB;"
                  + " read smaller batches");
        }
      }
      dst.ensureCapacity(n, bytes + ShortCopy.SLACK);
      byte[] out = dst.data();
      int[] outOffsets = dst.offsets();
      int c = dst.count();
      int pos = outOffsets[c];
      long[] words = dictionary.shortWords;
      if (words != null && pos <= out.length - ShortCopy.SLACK - bytes) {
        // Entries of at most 32 bytes: four word stores from the dictionary's word copies.
        int[] lengths = dictionary.shortLengths;
        for (int i = 0; i < n; i++) {
          int index = scratch[i];
          if (Integer.compareUnsigned(index, size) >= 0) {
            throw badIndex(i);
          }
          int w = index << 2;
          LittleEndian.putLong(out, pos, words[w]);
          LittleEndian.putLong(out, pos + 8, words[w + 1]);
          LittleEndian.putLong(out, pos + 16, words[w + 2]);
          LittleEndian.putLong(out, pos + 24, words[w + 3]);
          pos += lengths[index];
          outOffsets[++c] = pos;
        }
      } else {
        for (int i = 0; i < n; i++) {
          int index = scratch[i];
          if (Integer.compareUnsigned(index, size) >= 0) {
            throw badIndex(i);
          }
          int from = offsets[index];
          int length = offsets[index + 1] - from;
          ShortCopy.copy(data, from, out, pos, length);
          pos += length;
          outOffsets[++c] = pos;
        }
      }
      dst.commitAll(n);
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
