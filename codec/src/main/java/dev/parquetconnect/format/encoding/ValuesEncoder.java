package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;

/**
 * Encodes the values of one page in one encoding, appending as values arrive. Writes are per batch;
 * an encoder implements those its encoding defines for its physical type, the others throw {@link
 * UnsupportedOperationException} (a programming error, not a data error).
 */
public interface ValuesEncoder {
  Encoding encoding();

  default void writeBooleans(boolean[] src, int off, int len) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not take BOOLEAN");
  }

  default void writeInts(int[] src, int off, int len) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not take INT32");
  }

  default void writeLongs(long[] src, int off, int len) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not take INT64");
  }

  default void writeFloats(float[] src, int off, int len) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not take FLOAT");
  }

  default void writeDoubles(double[] src, int off, int len) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " does not take DOUBLE");
  }

  /** Values {@code from .. from + len - 1} of {@code src}. */
  default void writeBinaries(BinaryBatch src, int from, int len) {
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " does not take BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY");
  }

  /** Number of values written since the last flush. */
  int valueCount();

  /** Bytes the page would take if flushed now (exact or a close upper estimate). */
  long estimatedSize();

  /** Appends the encoded page body to {@code out} and starts a new, empty page. */
  void flushTo(GrowableBuffer out);

  /** Drops buffered values and starts a new, empty page. */
  void reset();
}
