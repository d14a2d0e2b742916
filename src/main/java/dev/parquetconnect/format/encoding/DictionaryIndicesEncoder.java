package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import java.util.Arrays;

/**
 * Encodes the body of an RLE_DICTIONARY (or v1 PLAIN_DICTIONARY) data page: one byte with the
 * bit width of the indices, then the indices in the RLE hybrid without length prefix.
 *
 * <p>The page uses the width of its largest index. The dictionary can still grow while a page
 * fills, so the indices are encoded as they arrive at the width seen so far and also kept; when
 * a larger index widens the page, the kept indices are encoded again at the new width. That
 * happens at most once per extra bit (and rarely in practice: widths follow the dictionary size
 * logarithmically), and it keeps {@link #estimatedSize()} exact, so the writer can cut pages by
 * size.
 */
public final class DictionaryIndicesEncoder implements ValuesEncoder {
  private final Encoding encoding;
  private final RleBitPackedHybridEncoder rle = new RleBitPackedHybridEncoder(0, false);
  private int[] buffered = new int[1024];
  private int count;
  private int maxIndex;

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
    int max = maxIndex;
    for (int i = off; i < off + len; i++) {
      if (src[i] < 0) {
        throw new IllegalArgumentException("negative dictionary index " + src[i]);
      }
      max = Math.max(max, src[i]);
    }
    if (count + len > buffered.length) {
      long grown = Math.max((long) count + len, 2L * buffered.length);
      if (grown > Integer.MAX_VALUE - 16) {
        throw new IllegalStateException("dictionary page of more than 2^31 indices");
      }
      buffered = Arrays.copyOf(buffered, (int) grown);
    }
    System.arraycopy(src, off, buffered, count, len);
    count += len;
    maxIndex = max;
    int width = BitPacking.bitWidth(max);
    if (width != rle.bitWidth()) {
      rle.reset(width);
      rle.writeInts(buffered, 0, count);
    } else {
      rle.writeInts(src, off, len);
    }
  }

  /** Bit width the page is encoded with so far: that of its largest index. */
  public int bitWidth() {
    return rle.bitWidth();
  }

  @Override
  public int valueCount() {
    return count;
  }

  /** Exact: the width byte plus the encoded indices. */
  @Override
  public long estimatedSize() {
    return 1 + rle.estimatedSize();
  }

  /** Appends the bit width byte and the encoded indices, and starts a new page. */
  @Override
  public void flushTo(GrowableBuffer out) {
    out.writeByte(rle.bitWidth());
    rle.flushTo(out);
    reset();
  }

  @Override
  public void reset() {
    count = 0;
    maxIndex = 0;
    rle.reset(0);
  }
}
