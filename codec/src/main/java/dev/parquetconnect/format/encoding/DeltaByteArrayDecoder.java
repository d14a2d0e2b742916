package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import java.util.Arrays;

/**
 * Decodes DELTA_BYTE_ARRAY (encoding 7) pages of BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY: a
 * DELTA_BINARY_PACKED section of prefix lengths, then the suffixes as DELTA_LENGTH_BYTE_ARRAY.
 * Value {@code i} is the first {@code prefix[i]} bytes of value {@code i - 1} followed by suffix
 * {@code i}; the first value of a page has an empty previous value.
 *
 * <p>Each value is built in place in the destination {@link BinaryBatch}: the prefix is copied from
 * the previous value (in the batch, or saved from the previous call) and the suffix from the page.
 * A prefix longer than the previous value, prefix and suffix sections of different lengths, or
 * (FIXED_LEN_BYTE_ARRAY) a value of the wrong length are corrupt data.
 *
 * <p>Output size is not bounded by the page size (every value may repeat a long prefix), so a batch
 * that would pass the 2 GiB a {@link BinaryBatch} holds fails with a checked {@link
 * dev.parquetconnect.format.UnsupportedFeatureException}; as after any exception, the page must
 * then be initialised again (and read in smaller batches).
 */
public final class DeltaByteArrayDecoder implements ValuesDecoder {
  private static final String WHAT = "DELTA_BYTE_ARRAY";
  private static final int CHUNK = 256;

  private final int fixedLength;
  private final DeltaBinaryPackedDecoder prefixes =
      new DeltaBinaryPackedDecoder(WHAT + " prefix lengths");
  private final DeltaLengthByteArrayDecoder suffixes =
      new DeltaLengthByteArrayDecoder(WHAT + " suffixes");
  private final int[] prefixChunk = new int[CHUNK];
  private final int[] suffixChunk = new int[CHUNK];

  private byte[] page;

  /** Where the page (its prefix-length section) starts, for error messages. */
  private int pageOffset;

  private int remaining;
  private int valuesRead;

  /**
   * The last value decoded. Its length never exceeds the page's suffix bytes (each value is at most
   * its predecessor plus its suffix), so neither does this array.
   */
  private byte[] previous = new byte[64];

  private int previousLength;

  private DeltaByteArrayDecoder(int fixedLength) {
    this.fixedLength = fixedLength;
  }

  /** A decoder for BYTE_ARRAY values. */
  public static DeltaByteArrayDecoder forByteArray() {
    return new DeltaByteArrayDecoder(-1);
  }

  /** A decoder for FIXED_LEN_BYTE_ARRAY values of {@code length} bytes. */
  public static DeltaByteArrayDecoder forFixedLenByteArray(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("negative fixed length " + length);
    }
    return new DeltaByteArrayDecoder(length);
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount) throws ParquetException {
    remaining = 0; // if this page is rejected, reads fail cleanly
    prefixes.init(page, offset, length, valueCount);
    int suffixStart = prefixes.endOffset();
    suffixes.init(page, suffixStart, offset + length - suffixStart, valueCount);
    if (prefixes.valueCount() != suffixes.valueCount()) {
      throw new CorruptDataException(
          WHAT
              + ": "
              + prefixes.valueCount()
              + " prefix lengths but "
              + suffixes.valueCount()
              + " suffixes (suffix section at byte "
              + suffixStart
              + ")");
    }
    this.page = page;
    pageOffset = offset;
    remaining = prefixes.valueCount();
    valuesRead = 0;
    previousLength = 0;
  }

  /** Number of values in the page. Valid after {@link #init}. */
  public int valueCount() {
    return prefixes.valueCount();
  }

  @Override
  public void readBinaries(BinaryBatch dst, int len) throws ParquetException {
    if (len < 0) {
      throw new IllegalArgumentException("negative count " + len);
    }
    Decoders.checkRemaining(WHAT, len, remaining);
    int[] pre = prefixChunk;
    int[] suf = suffixChunk;
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      int suffixPos = nextLengths(n);
      long total = checkPrefixes(n);
      DeltaLengthByteArrayDecoder.reserve(dst, n, total, WHAT);
      byte[] out = dst.data();
      int at = dst.byteSize();
      // First value: its prefix comes from the value saved by the previous chunk or call.
      int valueStart = at;
      int valueLength = pre[0] + suf[0];
      System.arraycopy(previous, 0, out, at, pre[0]);
      System.arraycopy(page, suffixPos, out, at + pre[0], suf[0]);
      suffixPos += suf[0];
      dst.commit(valueLength);
      at += valueLength;
      for (int k = 1; k < n; k++) {
        int p = pre[k];
        int s = suf[k];
        System.arraycopy(out, valueStart, out, at, p);
        System.arraycopy(page, suffixPos, out, at + p, s);
        suffixPos += s;
        dst.commit(p + s);
        valueStart = at;
        valueLength = p + s;
        at += valueLength;
      }
      remember(out, valueStart, valueLength);
      done += n;
    }
  }

  @Override
  public void skip(int n) throws ParquetException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining(WHAT, n, remaining);
    for (int done = 0; done < n; ) {
      int k = Math.min(CHUNK, n - done);
      int suffixPos = nextLengths(k);
      checkPrefixes(k);
      // Only the last value matters for what follows: rebuild it in place, each value keeping
      // its prefix of the one before and replacing the rest with its suffix.
      for (int i = 0; i < k; i++) {
        int p = prefixChunk[i];
        int s = suffixChunk[i];
        ensurePrevious(p + s);
        System.arraycopy(page, suffixPos, previous, p, s);
        suffixPos += s;
        previousLength = p + s;
      }
      done += k;
    }
  }

  /** Reads {@code n} prefix and suffix lengths; returns where the first suffix's bytes start. */
  private int nextLengths(int n) throws ParquetException {
    prefixes.readInts(prefixChunk, 0, n);
    return suffixes.takeLengths(suffixChunk, n);
  }

  /**
   * Checks the chunk's prefixes against the lengths of the values they extend and returns the
   * chunk's total bytes. Consumes the chunk from the remaining count.
   */
  private long checkPrefixes(int n) throws CorruptDataException {
    long total = 0;
    int prevLength = previousLength;
    for (int k = 0; k < n; k++) {
      int p = prefixChunk[k];
      if (p < 0 || p > prevLength) {
        throw new CorruptDataException(
            WHAT
                + ": value "
                + (valuesRead + k)
                + " has prefix length "
                + p
                + " but the previous value has "
                + prevLength
                + " bytes (page at byte "
                + pageOffset
                + ")");
      }
      // p <= previous length <= suffix bytes of the page, and so is s: no int overflow.
      int length = p + suffixChunk[k];
      if (fixedLength >= 0 && length != fixedLength) {
        throw new CorruptDataException(
            WHAT
                + ": value "
                + (valuesRead + k)
                + " has "
                + length
                + " bytes in a FIXED_LEN_BYTE_ARRAY("
                + fixedLength
                + ") column (page at byte "
                + pageOffset
                + ")");
      }
      total += length;
      prevLength = length;
    }
    remaining -= n;
    valuesRead += n;
    return total;
  }

  private void remember(byte[] src, int start, int length) {
    ensurePrevious(length);
    System.arraycopy(src, start, previous, 0, length);
    previousLength = length;
  }

  /** Grows {@link #previous} to hold {@code length} bytes, keeping its content. */
  private void ensurePrevious(int length) {
    if (length > previous.length) {
      previous = Arrays.copyOf(previous, Math.max(length, previous.length * 2));
    }
  }
}
