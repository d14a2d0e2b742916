package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;

/**
 * Encodes the body of an RLE_DICTIONARY (or v1 PLAIN_DICTIONARY) data page: one byte with the bit
 * width of the indices, then the indices in the RLE hybrid without length prefix.
 *
 * <p>The page uses the width of its largest index. The dictionary can still grow while a page
 * fills, so the indices are encoded as they arrive at the width seen so far; when a larger index
 * widens the page, the indices written so far are decoded back from their runs and encoded again at
 * the new width. That happens at most once per extra bit (and rarely in practice: widths follow the
 * dictionary size logarithmically), and it keeps {@link #estimatedSize()} exact, so the writer can
 * cut pages by size.
 */
public final class DictionaryIndicesEncoder implements ValuesEncoder {
  private final Encoding encoding;
  private final RleBitPackedHybridEncoder rle = new RleBitPackedHybridEncoder(0, false);
  private int count;

  /** The OR of every index written to this page: it has the width of the largest one. */
  private int indexBits;

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
    // One OR over the batch gives both checks: its sign bit shows a negative index, and its
    // bit width is that of the largest index.
    int bits = BitPacking.or(src, off, off + len);
    if (bits < 0) {
      for (int i = off; i < off + len; i++) {
        if (src[i] < 0) {
          throw new IllegalArgumentException("negative dictionary index " + src[i]);
        }
      }
    }
    bits |= indexBits;
    if ((long) count + len > Integer.MAX_VALUE - 16) {
      throw new IllegalStateException("dictionary page of more than 2^31 indices");
    }
    int width = BitPacking.bitWidth(bits);
    if (width != rle.bitWidth()) {
      reencode(width);
    }
    rle.writeIntsChecked(src, off, len);
    count += len;
    indexBits = bits;
  }

  /**
   * Re-encodes the indices written so far at a larger width: they are decoded back from the encoded
   * runs (rather than kept in a second copy that every batch would have to fill).
   */
  private void reencode(int width) {
    if (count == 0) {
      rle.reset(width);
      return;
    }
    int oldWidth = rle.bitWidth();
    GrowableBuffer encoded =
        new GrowableBuffer((int) Math.min(Integer.MAX_VALUE - 16, rle.estimatedSize()));
    rle.flushTo(encoded);
    int[] values = new int[count];
    RleBitPackedHybridDecoder decoder = new RleBitPackedHybridDecoder(oldWidth, false);
    try {
      decoder.init(encoded.array(), 0, encoded.size(), count);
      decoder.readInts(values, 0, count);
    } catch (CorruptDataException e) {
      throw new IllegalStateException("re-reading our own RLE runs failed", e);
    }
    rle.reset(width);
    rle.writeIntsChecked(values, 0, count);
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
    indexBits = 0;
    rle.reset(0);
  }
}
