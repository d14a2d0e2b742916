package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import java.util.Arrays;

/**
 * Encodes the body of an RLE_DICTIONARY (or v1 PLAIN_DICTIONARY) data page: one byte with the
 * bit width of the indices, then the indices in the RLE hybrid without length prefix.
 *
 * <p>The dictionary can still grow while a page fills, so the width is only known when the page
 * is flushed: the indices are buffered and encoded then, with the width of the largest index of
 * the page. {@link #estimatedSize()} tracks runs as values arrive and prices them at the current
 * width, so the writer can cut pages by size without encoding twice.
 */
public final class DictionaryIndicesEncoder implements ValuesEncoder {
  /** A repeat at least this long always contains an aligned group of eight (7 + 8). */
  private static final int SURE_RUN = 15;

  private final Encoding encoding;
  private final RleBitPackedHybridEncoder rle = new RleBitPackedHybridEncoder(0, false);
  private int[] buffered = new int[1024];
  private int count;
  private int maxIndex;

  /** Size estimate state: the current repeat, and what the closed repeats will cost. */
  private int lastIndex = -1;
  private int repeat;
  private long literalValues;
  private long repeatedRuns;

  /** {@code encoding} is RLE_DICTIONARY, or PLAIN_DICTIONARY for v1 pages of old writers. */
  public DictionaryIndicesEncoder(Encoding encoding) {
    if (!encoding.usesDictionary()) {
      throw new IllegalArgumentException("not a dictionary encoding: " + encoding);
    }
    this.encoding = encoding;
  }

  @Override
  public Encoding encoding() {
    return encoding;
  }

  /** Appends dictionary indices, each non-negative (a negative one is a bug in the caller). */
  @Override
  public void writeInts(int[] src, int off, int len) {
    Decoders.checkRange(src.length, off, len);
    if (count + len > buffered.length) {
      long grown = Math.max((long) count + len, 2L * buffered.length);
      if (grown > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("dictionary page of more than 2^31 indices");
      }
      buffered = Arrays.copyOf(buffered, (int) grown);
    }
    int max = maxIndex;
    int last = lastIndex;
    int run = repeat;
    for (int i = off; i < off + len; i++) {
      int index = src[i];
      if (index < 0) {
        throw new IllegalArgumentException("negative dictionary index " + index);
      }
      max = Math.max(max, index);
      if (index == last) {
        run++;
      } else {
        closeRepeat(run);
        last = index;
        run = 1;
      }
    }
    System.arraycopy(src, off, buffered, count, len);
    count += len;
    maxIndex = max;
    lastIndex = last;
    repeat = run;
  }

  /** Counts a finished repeat of {@code length} equal indices for the estimate. */
  private void closeRepeat(int length) {
    if (length >= SURE_RUN) {
      // Up to seven of its values may still fall into the preceding bit-packed group.
      repeatedRuns++;
      literalValues += 7;
    } else {
      literalValues += length;
    }
  }

  /** Bit width the page would be written with now. */
  public int bitWidth() {
    return BitPacking.bitWidth(maxIndex);
  }

  @Override
  public int valueCount() {
    return count;
  }

  /**
   * An estimate of the page body at the current width: the literal values bit-packed, plus for
   * every literal stretch a padded group and a header byte per 63 groups, plus for every repeated
   * run a header and its value.
   */
  @Override
  public long estimatedSize() {
    if (count == 0) {
      return 1;
    }
    int width = bitWidth();
    long literals = literalValues;
    long runs = repeatedRuns;
    if (repeat >= SURE_RUN) {
      runs++;
      literals += 7;
    } else {
      literals += repeat;
    }
    long stretches = runs + 1;
    long literalBytes = BitPacking.bytesFor(literals + 7 * stretches, width);
    long headers = stretches + literals / 504;
    long runBytes = runs * (5 + ((width + 7) >>> 3));
    return 1 + literalBytes + headers + runBytes;
  }

  /** Appends the bit width byte and the encoded indices, and starts a new page. */
  @Override
  public void flushTo(GrowableBuffer out) {
    int width = bitWidth();
    out.writeByte(width);
    rle.reset(width);
    rle.writeInts(buffered, 0, count);
    rle.flushTo(out);
    reset();
  }

  @Override
  public void reset() {
    count = 0;
    maxIndex = 0;
    lastIndex = -1;
    repeat = 0;
    literalValues = 0;
    repeatedRuns = 0;
  }
}
