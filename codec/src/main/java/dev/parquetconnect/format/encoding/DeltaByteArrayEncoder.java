package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Encodes BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values as DELTA_BYTE_ARRAY (encoding 7), also known as
 * front compression: for each value the length of the prefix it shares with the previous value
 * (DELTA_BINARY_PACKED), then the remaining suffixes (DELTA_LENGTH_BYTE_ARRAY). The first value of
 * a page has no previous value, so its prefix length is 0. For FIXED_LEN_BYTE_ARRAY every length is
 * still written, as the specification requires.
 */
final class DeltaByteArrayEncoder implements ValuesEncoder {
  private static final int CHUNK = 256;

  private final int fixedLength;
  private final DeltaBinaryPackedEncoder prefixes =
      new DeltaBinaryPackedEncoder(PhysicalType.INT32);
  private final DeltaLengthByteArrayEncoder suffixes = new DeltaLengthByteArrayEncoder();
  private final int[] prefixChunk = new int[CHUNK];
  private final int[] suffixChunk = new int[CHUNK];

  /** The last value written, kept for the next batch's first prefix. */
  private byte[] previous = new byte[64];

  private int previousLength;

  private DeltaByteArrayEncoder(int fixedLength) {
    this.fixedLength = fixedLength;
  }

  /** An encoder for BYTE_ARRAY values of any length. */
  public static DeltaByteArrayEncoder forByteArray() {
    return new DeltaByteArrayEncoder(-1);
  }

  /** An encoder for FIXED_LEN_BYTE_ARRAY values, which must all be {@code length} bytes long. */
  public static DeltaByteArrayEncoder forFixedLenByteArray(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("negative fixed length " + length);
    }
    return new DeltaByteArrayEncoder(length);
  }

  @Override
  public Encoding encoding() {
    return Encoding.DELTA_BYTE_ARRAY;
  }

  @Override
  public void writeBinaries(BinaryBatch src, int from, int len) {
    Decoders.checkRange(src.count(), from, len);
    if (len == 0) {
      return;
    }
    byte[] data = src.data();
    int[] offsets = src.offsets();
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      int base = from + done;
      checkFixedLengths(offsets, base, n);
      // The first value of the chunk is compared with the saved previous value, the others
      // with their neighbour in the batch.
      int start = offsets[base];
      int length = offsets[base + 1] - start;
      int prefix = commonPrefix(previous, 0, previousLength, data, start, length);
      prefixChunk[0] = prefix;
      suffixChunk[0] = length - prefix;
      suffixes.appendBytes(data, start + prefix, length - prefix);
      for (int k = 1; k < n; k++) {
        int prevStart = start;
        int prevLength = length;
        start = offsets[base + k];
        length = offsets[base + k + 1] - start;
        prefix = commonPrefix(data, prevStart, prevLength, data, start, length);
        prefixChunk[k] = prefix;
        suffixChunk[k] = length - prefix;
        suffixes.appendBytes(data, start + prefix, length - prefix);
      }
      prefixes.writeInts(prefixChunk, 0, n);
      suffixes.writeLengths(suffixChunk, 0, n);
      remember(data, start, length);
      done += n;
    }
  }

  private void checkFixedLengths(int[] offsets, int base, int n) {
    if (fixedLength < 0) {
      return;
    }
    for (int k = 0; k < n; k++) {
      int length = offsets[base + k + 1] - offsets[base + k];
      if (length != fixedLength) {
        throw new IllegalArgumentException(
            "FIXED_LEN_BYTE_ARRAY("
                + fixedLength
                + ") value "
                + (base + k)
                + " has "
                + length
                + " bytes");
      }
    }
  }

  private static int commonPrefix(byte[] a, int aOff, int aLen, byte[] b, int bOff, int bLen) {
    int mismatch = Arrays.mismatch(a, aOff, aOff + aLen, b, bOff, bOff + bLen);
    return mismatch < 0 ? aLen : mismatch;
  }

  private void remember(byte[] data, int start, int length) {
    if (length > previous.length) {
      previous = new byte[Math.max(length, previous.length * 2)];
    }
    System.arraycopy(data, start, previous, 0, length);
    previousLength = length;
  }

  @Override
  public int valueCount() {
    return prefixes.valueCount();
  }

  @Override
  public long estimatedSize() {
    return prefixes.estimatedSize() + suffixes.estimatedSize();
  }

  @Override
  public void flushTo(GrowableBuffer out) {
    prefixes.flushTo(out);
    suffixes.flushTo(out);
    previousLength = 0;
  }

  @Override
  public void reset() {
    prefixes.reset();
    suffixes.reset();
    previousLength = 0;
  }
}
