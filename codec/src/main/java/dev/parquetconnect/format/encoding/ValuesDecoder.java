package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.ParquetException;

/**
 * Decodes the values of one page (or dictionary page) in one encoding. Calls are per batch: the
 * decoder checks bounds once per call and runs a tight loop without allocating or calling virtually
 * per value. A decoder implements the reads its encoding defines for its physical type; the others
 * throw {@link dev.parquetconnect.format.UnsupportedFeatureException}.
 *
 * <p>Untrusted input: every count, length and bit width read from the bytes is checked against the
 * bytes available, and a violation throws {@link dev.parquetconnect.format.CorruptDataException}.
 * Asking for more values than the page holds is also a {@code CorruptDataException} (the page
 * header lied). No unchecked exception may escape, whatever the bytes.
 */
public interface ValuesDecoder {
  /**
   * Points the decoder at {@code page[offset, offset + length)}, which holds {@code valueCount}
   * encoded values (for a page with nulls: the number of non-null values, or an upper bound of it
   * when the encoding stores its own count). Reusable: a later call starts over.
   */
  void init(byte[] page, int offset, int length, int valueCount) throws ParquetException;

  default void readBooleans(boolean[] dst, int off, int len) throws ParquetException {
    throw Decoders.unsupported(this, "BOOLEAN");
  }

  default void readInts(int[] dst, int off, int len) throws ParquetException {
    throw Decoders.unsupported(this, "INT32");
  }

  default void readLongs(long[] dst, int off, int len) throws ParquetException {
    throw Decoders.unsupported(this, "INT64");
  }

  default void readFloats(float[] dst, int off, int len) throws ParquetException {
    throw Decoders.unsupported(this, "FLOAT");
  }

  default void readDoubles(double[] dst, int off, int len) throws ParquetException {
    throw Decoders.unsupported(this, "DOUBLE");
  }

  /** Appends {@code len} values (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96) to {@code dst}. */
  default void readBinaries(BinaryBatch dst, int len) throws ParquetException {
    throw Decoders.unsupported(this, "BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY");
  }

  /** Skips {@code n} values. */
  void skip(int n) throws ParquetException;
}
