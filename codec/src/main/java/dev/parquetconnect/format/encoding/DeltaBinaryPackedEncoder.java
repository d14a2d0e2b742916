package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Arrays;

/**
 * Encodes INT32 or INT64 values as DELTA_BINARY_PACKED (encoding 5); see {@link
 * DeltaBinaryPackedDecoder} for the layout.
 *
 * <p>Deltas are computed in the column's own width with wrapping arithmetic, so INT32 miniblocks
 * never need more than 32 bits (as the specification requires and parquet-java does) and INT64 ones
 * never more than 64. Unlike parquet-java, this writer zeroes the padding of the last miniblock and
 * the bit widths of unused miniblocks, so its output is deterministic.
 *
 * <p>A block is encoded as soon as it is full; {@link #flushTo} encodes the partial last block and
 * writes the header in front of the blocks.
 */
public final class DeltaBinaryPackedEncoder implements ValuesEncoder {
  /** Block size most writers use (parquet-java, Arrow). */
  public static final int DEFAULT_BLOCK_SIZE = 128;

  /** Miniblocks per block most writers use: 32 values each with the default block size. */
  public static final int DEFAULT_MINIBLOCKS = 4;

  /** Header bound: three 5-byte ULEB128 ints and one 10-byte zigzag long. */
  private static final int MAX_HEADER_BYTES = 25;

  /** Block header bound besides the width bytes: the 10-byte zigzag min delta. */
  private static final int MAX_MIN_DELTA_BYTES = 10;

  private final boolean int64;
  private final int blockSize;
  private final int miniblocks;
  private final int valuesPerMiniblock;

  /** INT32: the current block's deltas, turned into offsets from the min delta when flushed. */
  private final int[] intDeltas;

  /** INT64: as {@link #intDeltas}. */
  private final long[] longDeltas;

  private final int[] widths;
  private final GrowableBuffer blocks = new GrowableBuffer();

  private int count;
  private long first;
  private long previous;
  private int pending;

  /** The least of the INT64 block's pending deltas. */
  private long blockMin;

  /** An encoder with the default 128-value blocks of 4 miniblocks. */
  public DeltaBinaryPackedEncoder(PhysicalType type) {
    this(type, DEFAULT_BLOCK_SIZE, DEFAULT_MINIBLOCKS);
  }

  /**
   * An encoder for {@code type} (INT32 or INT64) with {@code blockSize} values a block (a positive
   * multiple of 128) split into {@code miniblocks} miniblocks of a multiple of 32 values.
   */
  public DeltaBinaryPackedEncoder(PhysicalType type, int blockSize, int miniblocks) {
    if (type != PhysicalType.INT32 && type != PhysicalType.INT64) {
      throw new IllegalArgumentException("DELTA_BINARY_PACKED encodes INT32 or INT64, not " + type);
    }
    if (blockSize <= 0 || blockSize % 128 != 0) {
      throw new IllegalArgumentException(
          "block size must be a positive multiple of 128: " + blockSize);
    }
    if (miniblocks <= 0 || blockSize % miniblocks != 0 || (blockSize / miniblocks) % 32 != 0) {
      throw new IllegalArgumentException(
          miniblocks + " miniblocks do not split " + blockSize + " into multiples of 32 values");
    }
    this.int64 = type == PhysicalType.INT64;
    this.blockSize = blockSize;
    this.miniblocks = miniblocks;
    this.valuesPerMiniblock = blockSize / miniblocks;
    this.intDeltas = int64 ? null : new int[blockSize];
    this.longDeltas = int64 ? new long[blockSize] : null;
    this.widths = new int[miniblocks];
  }

  @Override
  public Encoding encoding() {
    return Encoding.DELTA_BINARY_PACKED;
  }

  @Override
  public void writeInts(int[] src, int off, int len) {
    if (int64) {
      throw new UnsupportedOperationException("INT64 DELTA_BINARY_PACKED encoder got INT32 values");
    }
    Decoders.checkRange(src.length, off, len);
    if (len == 0) {
      return;
    }
    boolean firstBatch = count == 0;
    countValues(len);
    int i = off;
    int stop = off + len;
    if (firstBatch) {
      first = src[i++];
      previous = first;
    }
    int prev = (int) previous;
    int[] deltas = intDeltas;
    while (i < stop) {
      int n = Math.min(stop - i, blockSize - pending);
      for (int k = 0; k < n; k++) {
        int v = src[i + k];
        deltas[pending + k] = v - prev;
        prev = v;
      }
      pending += n;
      i += n;
      if (pending == blockSize) {
        encodeIntBlock();
      }
    }
    previous = prev;
  }

  @Override
  public void writeLongs(long[] src, int off, int len) {
    if (!int64) {
      throw new UnsupportedOperationException("INT32 DELTA_BINARY_PACKED encoder got INT64 values");
    }
    Decoders.checkRange(src.length, off, len);
    if (len == 0) {
      return;
    }
    boolean firstBatch = count == 0;
    countValues(len);
    int i = off;
    int stop = off + len;
    if (firstBatch) {
      first = src[i++];
      previous = first;
    }
    long prev = previous;
    long[] deltas = longDeltas;
    while (i < stop) {
      int n = Math.min(stop - i, blockSize - pending);
      // The block's min delta is tracked as the deltas are made (no separate pass).
      long min = pending == 0 ? Long.MAX_VALUE : blockMin;
      for (int k = 0; k < n; k++) {
        long v = src[i + k];
        long delta = v - prev;
        deltas[pending + k] = delta;
        min = Math.min(min, delta);
        prev = v;
      }
      blockMin = min;
      pending += n;
      i += n;
      if (pending == blockSize) {
        encodeLongBlock();
      }
    }
    previous = prev;
  }

  /** The header stores the count as a 32-bit ULEB128 int. */
  private void countValues(int len) {
    if (len > Integer.MAX_VALUE - count) {
      throw new IllegalStateException(
          "a DELTA_BINARY_PACKED page holds at most " + Integer.MAX_VALUE + " values");
    }
    count += len;
  }

  private void encodeIntBlock() {
    int n = pending;
    int[] d = intDeltas;
    int min = d[0];
    for (int k = 1; k < n; k++) {
      min = Math.min(min, d[k]);
    }
    // Offsets from the min fit 32 bits as unsigned values, even when the subtraction wraps.
    for (int k = 0; k < n; k++) {
      d[k] -= min;
    }
    int used = (n + valuesPerMiniblock - 1) / valuesPerMiniblock;
    Arrays.fill(d, n, used * valuesPerMiniblock, 0);
    for (int m = 0; m < used; m++) {
      int bits = 0;
      for (int k = m * valuesPerMiniblock, stop = k + valuesPerMiniblock; k < stop; k++) {
        bits |= d[k];
      }
      widths[m] = 32 - Integer.numberOfLeadingZeros(bits);
    }
    writeBlockHeader(min, used, 32);
    byte[] out = blocks.array();
    int pos = blocks.size();
    for (int m = 0; m < used; m++) {
      pos +=
          BitPacking.packInts(d, m * valuesPerMiniblock, valuesPerMiniblock, widths[m], out, pos);
    }
    blocks.advance(pos - blocks.size());
    pending = 0;
  }

  private void encodeLongBlock() {
    int n = pending;
    long[] d = longDeltas;
    // The min came with the deltas (writeLongs); one pass per miniblock both subtracts it and
    // ORs the offsets for the miniblock's width.
    long min = blockMin;
    int used = (n + valuesPerMiniblock - 1) / valuesPerMiniblock;
    for (int m = 0; m < used; m++) {
      long bits = 0;
      int stop = Math.min(n, (m + 1) * valuesPerMiniblock);
      for (int k = m * valuesPerMiniblock; k < stop; k++) {
        long offset = d[k] - min;
        d[k] = offset;
        bits |= offset;
      }
      widths[m] = 64 - Long.numberOfLeadingZeros(bits);
    }
    Arrays.fill(d, n, used * valuesPerMiniblock, 0L);
    writeBlockHeader(min, used, 64);
    byte[] out = blocks.array();
    int pos = blocks.size();
    for (int m = 0; m < used; m++) {
      pos +=
          BitPacking.packLongs(d, m * valuesPerMiniblock, valuesPerMiniblock, widths[m], out, pos);
    }
    blocks.advance(pos - blocks.size());
    pending = 0;
  }

  /**
   * Writes the min delta and all width bytes (zero for unused miniblocks) and makes room for the
   * {@code used} miniblock bodies.
   */
  private void writeBlockHeader(long minDelta, int used, int maxWidth) {
    long bodyBytes = 0;
    for (int m = 0; m < used; m++) {
      bodyBytes += BitPacking.bytesFor(valuesPerMiniblock, widths[m]);
    }
    blocks.ensureCapacity(MAX_MIN_DELTA_BYTES + miniblocks + (int) bodyBytes);
    blocks.writeZigZagVarLong(minDelta);
    byte[] out = blocks.array();
    int pos = blocks.size();
    for (int m = 0; m < miniblocks; m++) {
      out[pos + m] = m < used ? (byte) widths[m] : 0;
    }
    blocks.advance(miniblocks);
  }

  @Override
  public int valueCount() {
    return count;
  }

  @Override
  public long estimatedSize() {
    long size = MAX_HEADER_BYTES + blocks.size();
    if (pending > 0) {
      int used = (pending + valuesPerMiniblock - 1) / valuesPerMiniblock;
      size +=
          MAX_MIN_DELTA_BYTES
              + miniblocks
              + BitPacking.bytesFor((long) used * valuesPerMiniblock, int64 ? 64 : 32);
    }
    return size;
  }

  @Override
  public void flushTo(GrowableBuffer out) {
    if (pending > 0) {
      if (int64) {
        encodeLongBlock();
      } else {
        encodeIntBlock();
      }
    }
    out.writeUnsignedVarInt(blockSize);
    out.writeUnsignedVarInt(miniblocks);
    out.writeUnsignedVarInt(count);
    out.writeZigZagVarLong(first);
    out.write(blocks);
    reset();
  }

  @Override
  public void reset() {
    blocks.reset();
    count = 0;
    first = 0;
    previous = 0;
    pending = 0;
  }
}
