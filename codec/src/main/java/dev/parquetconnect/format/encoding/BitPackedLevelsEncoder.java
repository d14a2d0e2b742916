package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;
import java.util.Arrays;

/**
 * Encodes levels in the deprecated BIT_PACKED encoding (MSB first, no header; see {@link
 * BitPackedLevelsDecoder}). Current writers use the RLE hybrid instead; this exists so that tests
 * and compatibility writers can produce such pages.
 */
final class BitPackedLevelsEncoder implements ValuesEncoder {
  private final int bitWidth;
  private int[] values = new int[256];
  private int count;

  public BitPackedLevelsEncoder(int bitWidth) {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IllegalArgumentException("bit width " + bitWidth + " outside 0..32");
    }
    this.bitWidth = bitWidth;
  }

  @Override
  public Encoding encoding() {
    return Encoding.BIT_PACKED;
  }

  /** Values must fit the bit width; a wider one is a bug in the caller. */
  @Override
  public void writeInts(int[] src, int off, int len) {
    Decoders.checkRange(src.length, off, len);
    if (bitWidth < 32) {
      int tooWide = 0;
      for (int i = off; i < off + len; i++) {
        tooWide |= src[i];
      }
      if ((tooWide >>> bitWidth) != 0) {
        throw new IllegalArgumentException(
            "BIT_PACKED: a value in this batch does not fit bit width " + bitWidth);
      }
    }
    if (count + len > values.length) {
      long grown = Math.max((long) count + len, 2L * values.length);
      values = Arrays.copyOf(values, (int) Math.min(grown, Integer.MAX_VALUE - 16));
    }
    System.arraycopy(src, off, values, count, len);
    count += len;
  }

  @Override
  public int valueCount() {
    return count;
  }

  @Override
  public long estimatedSize() {
    return BitPacking.bytesFor(count, bitWidth);
  }

  @Override
  public void flushTo(GrowableBuffer out) {
    int bytes = (int) BitPacking.bytesFor(count, bitWidth);
    out.ensureCapacity(bytes);
    BitPacking.packIntsMsbFirst(values, 0, count, bitWidth, out.array(), out.size());
    out.advance(bytes);
    reset();
  }

  @Override
  public void reset() {
    count = 0;
  }
}
