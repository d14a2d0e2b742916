package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.ByteReader;

/**
 * Decodes DELTA_BINARY_PACKED (encoding 5) for INT32 and INT64 pages.
 *
 * <p>Layout: a header {@code <block size> <miniblocks per block> <total count> <first value>}
 * (ULEB128, ULEB128, ULEB128, zigzag), then blocks of {@code <min delta> <one bit-width byte per
 * miniblock> <miniblocks>}, each miniblock holding {@code values per miniblock} deltas minus the
 * min delta, bit-packed LSB first.
 *
 * <p>Leniency, as the specification asks of readers: any block size that is a positive multiple of
 * 128 and any miniblock count that divides it into multiples of 32; arbitrary padding bits in the
 * last miniblock; arbitrary bit-width bytes for the miniblocks after the last value (they have no
 * body). Bit widths up to 64 are accepted for INT32 too: all arithmetic wraps modulo 2^64 and
 * {@link #readInts} keeps the low 32 bits, which are right whether the writer computed deltas in 32
 * or in 64 bits (parquet-java's reader is equally tolerant). A width above 64 in a miniblock that
 * holds values is corrupt.
 *
 * <p>{@link #init} walks the block headers once (cost proportional to the number of blocks, not
 * values) to validate the structure and find {@link #endOffset()}, where DELTA_LENGTH_BYTE_ARRAY
 * and DELTA_BYTE_ARRAY continue with their next section.
 *
 * <p>Values are unpacked a whole run of miniblock values at a time, straight into the caller's
 * array when the request covers at least eight values of the current miniblock and otherwise into a
 * fixed scratch buffer; no allocation depends on the sizes in the header.
 */
public final class DeltaBinaryPackedDecoder implements ValuesDecoder {
  /** Values decoded ahead into scratch; a multiple of 32 so every run starts byte-aligned. */
  private static final int SCRATCH_VALUES = 256;

  private final String what;
  private final ByteReader reader = new ByteReader();
  private final long[] scratch = new long[SCRATCH_VALUES];

  private byte[] buf;
  private int end;
  private int endOffset;

  private int blockSize;
  private int miniblocksPerBlock;
  private int valuesPerMiniblock;
  private int totalCount;

  /** Values not yet returned to the caller. */
  private int remaining;

  private boolean firstPending;

  /** The last value produced (returned or sitting in scratch); the base of the next delta. */
  private long last;

  /** Deltas of the page not yet covered by an opened block. */
  private int deltasNotOpened;

  private int nextBlockPos;
  private long minDelta;
  private int widthsPos;
  private int usedMiniblocks;
  private int miniblockIndex;
  private int miniblockPos;
  private int width;

  /** Values already unpacked from the current miniblock: a multiple of 8, or all of them. */
  private int consumedInMiniblock;

  private int scratchPos;
  private int scratchLen;

  /** Set by {@link #parseBlock}: the min delta and where the bit widths start. */
  private long parsedMinDelta;

  private int parsedWidthsPos;
  private int parsedUsedMiniblocks;

  public DeltaBinaryPackedDecoder() {
    this("DELTA_BINARY_PACKED");
  }

  /** {@code what} names the section in error messages, e.g. "DELTA_BYTE_ARRAY prefix lengths". */
  DeltaBinaryPackedDecoder(String what) {
    this.what = what;
  }

  @Override
  public void init(byte[] page, int offset, int length, int valueCount) throws ParquetException {
    // Forget the previous page first: if this one is rejected, reads fail cleanly.
    remaining = 0;
    totalCount = 0;
    firstPending = false;
    scratchPos = 0;
    scratchLen = 0;
    reader.reset(page, offset, length);
    buf = page;
    end = offset + length;
    blockSize = reader.readUnsignedVarInt(what + " block size");
    miniblocksPerBlock = reader.readUnsignedVarInt(what + " miniblocks per block");
    int count = reader.readUnsignedVarInt(what + " total value count");
    long first = reader.readZigZagVarLong(what + " first value");
    if (blockSize <= 0 || blockSize % 128 != 0) {
      throw corrupt(
          "block size "
              + Integer.toUnsignedString(blockSize)
              + " is not a positive multiple of 128",
          offset);
    }
    if (miniblocksPerBlock <= 0
        || blockSize % miniblocksPerBlock != 0
        || (blockSize / miniblocksPerBlock) % 32 != 0) {
      throw corrupt(
          "miniblock count "
              + Integer.toUnsignedString(miniblocksPerBlock)
              + " does not split block size "
              + blockSize
              + " into multiples of 32 values",
          offset);
    }
    if (count < 0 || count > valueCount) {
      throw corrupt(
          "header claims "
              + Integer.toUnsignedString(count)
              + " values but the page holds at most "
              + valueCount,
          offset);
    }
    valuesPerMiniblock = blockSize / miniblocksPerBlock;
    last = first;
    int blocksStart = reader.position();
    deltasNotOpened = Math.max(0, count - 1);
    endOffset = scanBlocks(blocksStart, deltasNotOpened);
    nextBlockPos = blocksStart;
    usedMiniblocks = 0;
    miniblockIndex = 0;
    consumedInMiniblock = valuesPerMiniblock;
    totalCount = count;
    remaining = count;
    firstPending = count > 0;
  }

  /** Number of values the header declares. Valid after {@link #init}. */
  public int valueCount() {
    return totalCount;
  }

  /**
   * Index in the page array just past the last block: where the data that follows the delta-encoded
   * section starts. Valid after {@link #init}.
   */
  public int endOffset() {
    return endOffset;
  }

  @Override
  public void readLongs(long[] dst, int off, int len) throws ParquetException {
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(what, len, remaining);
    int i = off;
    int stop = off + len;
    if (len > 0 && firstPending) {
      dst[i++] = last;
      firstPending = false;
    }
    while (i < stop) {
      if (scratchPos < scratchLen) {
        int n = Math.min(stop - i, scratchLen - scratchPos);
        System.arraycopy(scratch, scratchPos, dst, i, n);
        scratchPos += n;
        i += n;
        continue;
      }
      nextMiniblockIfDone();
      int direct = Math.min(stop - i, valuesPerMiniblock - consumedInMiniblock) & ~7;
      if (direct > 0) {
        unpackLongs(dst, i, direct);
        i += direct;
      } else {
        fillScratch();
      }
    }
    remaining -= len;
  }

  /**
   * Reads INT32 values. The wrapping 64-bit arithmetic of the format is done modulo 2^32 here,
   * which gives the same low 32 bits.
   */
  @Override
  public void readInts(int[] dst, int off, int len) throws ParquetException {
    Decoders.checkRange(dst.length, off, len);
    Decoders.checkRemaining(what, len, remaining);
    int i = off;
    int stop = off + len;
    if (len > 0 && firstPending) {
      dst[i++] = (int) last;
      firstPending = false;
    }
    while (i < stop) {
      if (scratchPos < scratchLen) {
        int n = Math.min(stop - i, scratchLen - scratchPos);
        long[] s = scratch;
        int from = scratchPos;
        for (int k = 0; k < n; k++) {
          dst[i + k] = (int) s[from + k];
        }
        scratchPos += n;
        i += n;
        continue;
      }
      nextMiniblockIfDone();
      int direct =
          width <= 32 ? Math.min(stop - i, valuesPerMiniblock - consumedInMiniblock) & ~7 : 0;
      if (direct > 0) {
        unpackInts(dst, i, direct);
        i += direct;
      } else {
        fillScratch();
      }
    }
    remaining -= len;
  }

  @Override
  public void skip(int n) throws ParquetException {
    if (n < 0) {
      throw new IllegalArgumentException("negative skip " + n);
    }
    Decoders.checkRemaining(what, n, remaining);
    int left = n;
    if (left > 0 && firstPending) {
      firstPending = false;
      left--;
    }
    while (left > 0) {
      if (scratchPos < scratchLen) {
        int k = Math.min(left, scratchLen - scratchPos);
        scratchPos += k;
        left -= k;
        continue;
      }
      nextMiniblockIfDone();
      int run = Math.min(left, valuesPerMiniblock - consumedInMiniblock) & ~7;
      if (width == 0 && run > 0) {
        // Every delta in a zero-width miniblock is the min delta: no bits to read.
        last += minDelta * run;
        consumedInMiniblock += run;
        left -= run;
      } else {
        fillScratch();
      }
    }
    remaining -= n;
  }

  /** Unpacks {@code n} (a multiple of 8) values of the current miniblock into {@code dst}. */
  private void unpackLongs(long[] dst, int at, int n) {
    int bytePos = miniblockPos + (int) BitPacking.bytesFor(consumedInMiniblock, width);
    BitPacking.unpackLongs(buf, bytePos, dst, at, n, width);
    long v = last;
    long min = minDelta;
    for (int k = at, stop = at + n; k < stop; k++) {
      v += min + dst[k];
      dst[k] = v;
    }
    last = v;
    consumedInMiniblock += n;
  }

  private void unpackInts(int[] dst, int at, int n) {
    int bytePos = miniblockPos + (int) BitPacking.bytesFor(consumedInMiniblock, width);
    BitPacking.unpackInts(buf, bytePos, dst, at, n, width);
    int v = (int) last;
    int min = (int) minDelta;
    for (int k = at, stop = at + n; k < stop; k++) {
      v += min + dst[k];
      dst[k] = v;
    }
    last = v;
    consumedInMiniblock += n;
  }

  /**
   * Decodes the next run of the current miniblock into scratch. The run may include the padding
   * after the page's last value; {@link #remaining} keeps those from being returned.
   */
  private void fillScratch() {
    int n = Math.min(SCRATCH_VALUES, valuesPerMiniblock - consumedInMiniblock);
    unpackLongs(scratch, 0, n);
    scratchPos = 0;
    scratchLen = n;
  }

  /** Moves to the next miniblock (opening the next block if needed) once this one is used up. */
  private void nextMiniblockIfDone() throws CorruptDataException {
    if (consumedInMiniblock < valuesPerMiniblock) {
      return;
    }
    if (miniblockIndex + 1 < usedMiniblocks) {
      miniblockPos += (int) BitPacking.bytesFor(valuesPerMiniblock, width);
      miniblockIndex++;
    } else {
      if (deltasNotOpened == 0) {
        // Unreachable while remaining > 0 (init's scan counted the blocks); kept as a guard so
        // a bookkeeping slip can never unpack an unvalidated miniblock.
        throw corrupt("no block left for the remaining " + remaining + " values", nextBlockPos);
      }
      int deltas = Math.min(deltasNotOpened, blockSize);
      nextBlockPos = parseBlock(nextBlockPos, deltas);
      deltasNotOpened -= deltas;
      minDelta = parsedMinDelta;
      widthsPos = parsedWidthsPos;
      usedMiniblocks = parsedUsedMiniblocks;
      miniblockIndex = 0;
      miniblockPos = widthsPos + miniblocksPerBlock;
    }
    width = buf[widthsPos + miniblockIndex] & 0xFF;
    consumedInMiniblock = 0;
  }

  /** Validates every block holding the page's deltas; returns where the last one ends. */
  private int scanBlocks(int pos, int deltas) throws CorruptDataException {
    int p = pos;
    int left = deltas;
    while (left > 0) {
      int inBlock = Math.min(left, blockSize);
      p = parseBlock(p, inBlock);
      left -= inBlock;
    }
    return p;
  }

  /**
   * Parses the block at {@code pos} holding {@code deltas} deltas of the page: checks the bit
   * widths of the miniblocks that hold them and that their bodies are present. Returns the block's
   * end; leaves the min delta and bit-width position in the parsed fields.
   */
  private int parseBlock(int pos, int deltas) throws CorruptDataException {
    reader.position(pos);
    parsedMinDelta = reader.readZigZagVarLong(what + " block min delta");
    parsedWidthsPos = reader.position();
    reader.require(miniblocksPerBlock, what + " miniblock bit widths");
    int used = (int) ((deltas + (long) valuesPerMiniblock - 1) / valuesPerMiniblock);
    long bodyBytes = 0;
    int bytesPerBit = valuesPerMiniblock >>> 3;
    for (int m = 0; m < used; m++) {
      int w = buf[parsedWidthsPos + m] & 0xFF;
      if (w > 64) {
        throw corrupt("miniblock bit width " + w + " above 64", parsedWidthsPos + m);
      }
      bodyBytes += (long) bytesPerBit * w;
    }
    int bodyStart = parsedWidthsPos + miniblocksPerBlock;
    if (bodyBytes > end - bodyStart) {
      throw corrupt(
          "block needs "
              + bodyBytes
              + " bytes of miniblocks but only "
              + (end - bodyStart)
              + " remain",
          bodyStart);
    }
    parsedUsedMiniblocks = used;
    return bodyStart + (int) bodyBytes;
  }

  private CorruptDataException corrupt(String message, int position) {
    return new CorruptDataException(what + ": " + message + " at byte " + position);
  }
}
