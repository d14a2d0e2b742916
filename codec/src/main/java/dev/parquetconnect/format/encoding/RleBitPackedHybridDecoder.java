package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.LittleEndian;
import java.util.Arrays;

/**
 * Decodes the RLE / bit-packing hybrid (encoding RLE) of unsigned values of width 0..32: levels,
 * dictionary indices and RLE booleans. The data is a sequence of runs, each a ULEB128 header
 * followed either by one repeated value ({@code ceil(width / 8)} bytes, little-endian) or by groups
 * of eight bit-packed values (LSB first).
 *
 * <p>Whether a 4-byte little-endian length precedes the runs depends on where the data sits
 * (Encodings.md): data page v1 levels and RLE booleans (v1 and v2) have it, v2 levels and
 * dictionary indices do not. The decoder is built for one of the two layouts.
 *
 * <p>Batches copy repeated runs with {@link Arrays#fill} and unpack whole bit-packed groups in bulk
 * through {@link BitPacking}. Every run header is checked against the bytes available: zero-length
 * runs, runs longer than the format allows, bit-packed runs whose bytes are missing and repeated
 * values wider than the bit width are {@link CorruptDataException}s. The last bit-packed group may
 * be padded past the number of values the page holds; the padding is ignored.
 */
public final class RleBitPackedHybridDecoder implements ValuesDecoder {
  /** Largest run length the format allows (Encodings.md: runs are in [1, 2^31 - 1]). */
  private static final long MAX_RUN = Integer.MAX_VALUE;

  private static final int BOOLEAN_CHUNK = 512;

  private final boolean lengthPrefixed;
  private int bitWidth;
  private int valueBytes;

  private byte[] page;

  /** Start of the runs (after the length prefix, if any), and their end. */
  private int start;

  private int end;

  /** Next unread byte: the next run header, or past the bit-packed run being read. */
  private int pos;

  private int valuesLeft;

  /** Values left in the current run (capped at the values left in the page). */
  private int runLeft;

  private boolean packedRun;
  private int repeatedValue;

  /** Bit-packed run: next group not yet unpacked, and one unpacked group being consumed. */
  private int packedPos;

  private final int[] group = new int[8];
  private int groupPos = 8;
  private int[] booleanScratch;

  /**
   * A decoder for values of {@code bitWidth} bits (0..32, a caller's choice such as the width of a
   * maximum level), with or without the 4-byte length prefix.
   */
  public RleBitPackedHybridDecoder(int bitWidth, boolean lengthPrefixed) {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IllegalArgumentException("bit width " + bitWidth + " outside 0..32");
    }
    this.lengthPrefixed = lengthPrefixed;
    setBitWidth(bitWidth);
  }

  private void setBitWidth(int width) {
    this.bitWidth = width;
    this.valueBytes = (width + 7) >>> 3;
  }

  public int bitWidth() {
    return bitWidth;
  }

  public boolean lengthPrefixed() {
    return lengthPrefixed;
  }

  /**
   * Points the decoder at {@code page[offset, offset + length)} holding {@code valueCount} values.
   * With a length prefix, the runs are the prefix's length of bytes after it, which must lie inside
   * the slice; {@link #end()} tells where they stop.
   */
  @Override
  public void init(byte[] page, int offset, int length, int valueCount)
      throws CorruptDataException {
    Decoders.checkRange(page.length, offset, length);
    if (valueCount < 0) {
      throw new CorruptDataException("RLE: negative value count " + valueCount);
    }
    int runsStart = offset;
    int runsEnd = offset + length;
    if (lengthPrefixed) {
      if (length < 4) {
        throw new CorruptDataException(
            "RLE: the 4-byte length prefix needs 4 bytes but only " + length + " exist");
      }
      int declared = LittleEndian.getInt(page, offset);
      if (declared < 0 || declared > length - 4) {
        throw new CorruptDataException(
            "RLE: length prefix "
                + Integer.toUnsignedString(declared)
                + " exceeds the "
                + (length - 4)
                + " bytes that follow it");
      }
      runsStart = offset + 4;
      runsEnd = runsStart + declared;
    }
    this.page = page;
    this.start = runsStart;
    this.end = runsEnd;
    this.pos = runsStart;
    this.valuesLeft = valueCount;
    this.runLeft = 0;
    this.groupPos = 8;
  }

  /**
   * Like {@link #init(byte[], int, int, int)} with a bit width read from the data (dictionary
   * indices), which is checked to be 0..32.
   */
  public void init(byte[] page, int offset, int length, int valueCount, int bitWidth)
      throws CorruptDataException {
    Decoders.checkBitWidth("RLE", bitWidth, 32);
    setBitWidth(bitWidth);
    init(page, offset, length, valueCount);
  }

  /** The position just past the encoded runs: where the next section of the page starts. */
  public int end() {
    return end;
  }

  /** Values not yet read or skipped. */
  public int remaining() {
    return valuesLeft;
  }

  @Override
  public void readInts(int[] dst, int off, int len) throws CorruptDataException {
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining("RLE", len, valuesLeft);
    int i = off;
    int need = len;
    while (need > 0) {
      if (runLeft == 0) {
        nextRun();
      }
      int n = Math.min(need, runLeft);
      if (packedRun) {
        unpack(dst, i, n);
      } else {
        Arrays.fill(dst, i, i + n, repeatedValue);
      }
      runLeft -= n;
      i += n;
      need -= n;
    }
    valuesLeft -= len;
  }

  /** RLE-encoded BOOLEAN values: width 1, each value 0 or 1. */
  @Override
  public void readBooleans(boolean[] dst, int off, int len)
      throws CorruptDataException, UnsupportedFeatureException {
    if (bitWidth != 1) {
      throw new UnsupportedFeatureException(
          "RLE booleans have bit width 1, this decoder has " + bitWidth);
    }
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining("RLE", len, valuesLeft);
    if (booleanScratch == null) {
      booleanScratch = new int[BOOLEAN_CHUNK];
    }
    int[] scratch = booleanScratch;
    for (int done = 0; done < len; ) {
      int n = Math.min(BOOLEAN_CHUNK, len - done);
      readInts(scratch, 0, n);
      for (int i = 0; i < n; i++) {
        dst[off + done + i] = scratch[i] != 0;
      }
      done += n;
    }
  }

  @Override
  public void skip(int n) throws CorruptDataException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining("RLE", n, valuesLeft);
    int need = n;
    while (need > 0) {
      if (runLeft == 0) {
        nextRun();
      }
      int k = Math.min(need, runLeft);
      if (packedRun) {
        skipPacked(k);
      }
      runLeft -= k;
      need -= k;
    }
    valuesLeft -= n;
  }

  /** Copies {@code n} values of the current bit-packed run, which holds at least {@code n}. */
  private void unpack(int[] dst, int off, int n) {
    int done = 0;
    if (groupPos < 8) {
      int k = Math.min(n, 8 - groupPos);
      System.arraycopy(group, groupPos, dst, off, k);
      groupPos += k;
      done = k;
    }
    int whole = (n - done) >>> 3;
    if (whole > 0) {
      BitPacking.unpackInts(page, packedPos, dst, off + done, whole << 3, bitWidth);
      packedPos += whole * bitWidth;
      done += whole << 3;
    }
    if (done < n) {
      // A partial group: unpack it whole and keep the rest for the next call.
      BitPacking.unpackInts(page, packedPos, group, 0, 8, bitWidth);
      packedPos += bitWidth;
      groupPos = n - done;
      System.arraycopy(group, 0, dst, off + done, groupPos);
    }
  }

  private void skipPacked(int n) {
    int done = 0;
    if (groupPos < 8) {
      done = Math.min(n, 8 - groupPos);
      groupPos += done;
    }
    int whole = (n - done) >>> 3;
    packedPos += whole * bitWidth;
    done += whole << 3;
    if (done < n) {
      BitPacking.unpackInts(page, packedPos, group, 0, 8, bitWidth);
      packedPos += bitWidth;
      groupPos = n - done;
    }
  }

  /** Reads and validates the next run header; called only while values remain. */
  private void nextRun() throws CorruptDataException {
    if (pos >= end) {
      throw new CorruptDataException(
          "RLE: the runs end at byte "
              + (pos - start)
              + " but "
              + valuesLeft
              + " values are still expected");
    }
    int headerAt = pos;
    long header = readHeader();
    long count = header >>> 1;
    groupPos = 8;
    if ((header & 1) == 0) {
      if (count == 0) {
        throw new CorruptDataException(
            "RLE: zero-length repeated run at byte " + (headerAt - start));
      }
      if (end - pos < valueBytes) {
        throw new CorruptDataException(
            "RLE: repeated value needs "
                + valueBytes
                + " bytes at byte "
                + (pos - start)
                + " but only "
                + (end - pos)
                + " remain");
      }
      int value = 0;
      for (int k = 0; k < valueBytes; k++) {
        value |= (page[pos + k] & 0xFF) << (k << 3);
      }
      if (bitWidth < 32 && (value >>> bitWidth) != 0) {
        throw new CorruptDataException(
            "RLE: repeated value "
                + Integer.toUnsignedString(value)
                + " at byte "
                + (pos - start)
                + " does not fit bit width "
                + bitWidth);
      }
      pos += valueBytes;
      packedRun = false;
      repeatedValue = value;
      runLeft = (int) Math.min(count, valuesLeft);
    } else {
      long values = count << 3;
      if (count == 0 || values > MAX_RUN) {
        throw new CorruptDataException(
            "RLE: bit-packed run of "
                + count
                + " groups at byte "
                + (headerAt - start)
                + " is outside 1.."
                + (MAX_RUN >>> 3)
                + " groups");
      }
      long bytes = count * bitWidth;
      if (bytes > end - pos) {
        throw new CorruptDataException(
            "RLE: bit-packed run of "
                + count
                + " groups at byte "
                + (headerAt - start)
                + " needs "
                + bytes
                + " bytes but only "
                + (end - pos)
                + " remain");
      }
      packedPos = pos;
      pos += (int) bytes;
      packedRun = true;
      runLeft = (int) Math.min(values, valuesLeft);
    }
  }

  /** A ULEB128 run header of at most 32 bits, within the runs. */
  private long readHeader() throws CorruptDataException {
    long result = 0;
    for (int shift = 0; ; shift += 7) {
      if (pos >= end) {
        throw new CorruptDataException(
            "RLE: run header runs past the end at byte " + (pos - start));
      }
      int b = page[pos++];
      result |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
      if (shift == 28) {
        throw new CorruptDataException(
            "RLE: run header longer than 5 bytes at byte " + (pos - start));
      }
    }
    if (result > 0xFFFFFFFFL) {
      throw new CorruptDataException(
          "RLE: run header " + result + " overflows 32 bits before byte " + (pos - start));
    }
    return result;
  }
}
