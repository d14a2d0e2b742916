package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;

/**
 * Decodes DELTA_LENGTH_BYTE_ARRAY (encoding 6) BYTE_ARRAY pages: a DELTA_BINARY_PACKED section of
 * lengths, then the value bytes back to back up to the end of the page.
 *
 * <p>Lengths are decoded a chunk at a time alongside the bytes; each chunk's lengths are checked
 * (none negative, their sum within the bytes left) before one bulk copy moves the chunk's bytes.
 * The value count is the one in the lengths header.
 *
 * <p>Also the suffix half of {@link DeltaByteArrayDecoder}, through {@link #takeLengths}.
 */
public final class DeltaLengthByteArrayDecoder implements ValuesDecoder {
  private static final int CHUNK = 256;

  /** The largest byte array {@link BinaryBatch} grows to. */
  private static final long MAX_BATCH_BYTES = Integer.MAX_VALUE - 16;

  private final String what;
  private final DeltaBinaryPackedDecoder lengths;
  private final int[] lengthChunk = new int[CHUNK];

  private byte[] page;
  private int dataPos;
  private int dataEnd;
  private int remaining;
  private int valuesTaken;

  public DeltaLengthByteArrayDecoder() {
    this("DELTA_LENGTH_BYTE_ARRAY");
  }

  /** {@code what} names the section in error messages. */
  DeltaLengthByteArrayDecoder(String what) {
    this.what = what;
    this.lengths = new DeltaBinaryPackedDecoder(what + " lengths");
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount) throws ParquetException {
    remaining = 0; // if this page is rejected, reads fail cleanly
    lengths.init(page, offset, length, valueCount);
    this.page = page;
    dataPos = lengths.endOffset();
    dataEnd = offset + length;
    remaining = lengths.valueCount();
    valuesTaken = 0;
  }

  /** Number of values the lengths header declares. Valid after {@link #init}. */
  public int valueCount() {
    return lengths.valueCount();
  }

  @Override
  public void readBinaries(BinaryBatch dst, int len) throws ParquetException {
    if (len < 0) {
      throw new IllegalArgumentException("negative count " + len);
    }
    Decoders.checkRemaining(what, len, remaining);
    int[] lens = lengthChunk;
    for (int done = 0; done < len; ) {
      int n = Math.min(CHUNK, len - done);
      int start = takeLengths(lens, n);
      int total = dataPos - start;
      reserve(dst, n, total, what);
      int at = dst.byteSize();
      System.arraycopy(page, start, dst.data(), at, total);
      int[] offsets = dst.offsets();
      int c = dst.count();
      for (int k = 0; k < n; k++) {
        at += lens[k];
        offsets[++c] = at;
      }
      dst.commitAll(n);
      done += n;
    }
  }

  @Override
  public void skip(int n) throws ParquetException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining(what, n, remaining);
    for (int done = 0; done < n; ) {
      int k = Math.min(CHUNK, n - done);
      takeLengths(lengthChunk, k);
      done += k;
    }
  }

  /**
   * Makes room in {@code dst} for {@code values} values of {@code bytes} bytes in all, failing with
   * a checked exception where {@link BinaryBatch} would throw for passing 2 GiB.
   */
  static void reserve(BinaryBatch dst, int values, long bytes, String what)
      throws UnsupportedFeatureException {
    if (bytes > MAX_BATCH_BYTES - dst.byteSize()) {
      throw new UnsupportedFeatureException(
          what
              + ": "
              + values
              + " values of "
              + bytes
              + " bytes would push the batch past 2 GiB; read fewer values at a time");
    }
    dst.ensureCapacity(values, bytes);
  }

  /**
   * Reads the next {@code n} lengths (n at most {@code dst.length}) into {@code dst}, checks them
   * against the bytes left and consumes their bytes. Returns the page position where the first of
   * those values starts; they follow each other from there.
   */
  int takeLengths(int[] dst, int n) throws ParquetException {
    Decoders.checkRemaining(what, n, remaining);
    lengths.readInts(dst, 0, n);
    int start = dataPos;
    long available = dataEnd - start;
    long total = 0;
    for (int k = 0; k < n; k++) {
      int len = dst[k];
      if (len < 0) {
        throw new CorruptDataException(
            what
                + ": value "
                + (valuesTaken + k)
                + " has negative length "
                + len
                + " (data at byte "
                + (start + total)
                + ")");
      }
      total += len;
    }
    if (total > available) {
      throw new CorruptDataException(
          what
              + ": values "
              + valuesTaken
              + ".."
              + (valuesTaken + n - 1)
              + " need "
              + total
              + " bytes at byte "
              + start
              + " but only "
              + available
              + " remain in the page");
    }
    dataPos = start + (int) total;
    remaining -= n;
    valuesTaken += n;
    return start;
  }
}
