package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.Encoding;

/**
 * Writes the repetition or definition levels of one data page in the layout its page version needs
 * (see {@link LevelsDecoder}): v1 RLE hybrid with the 4-byte length prefix (or the deprecated
 * BIT_PACKED), v2 RLE hybrid without prefix, whose byte length the page header records. A column
 * whose maximum level is 0 stores no levels: nothing is written.
 */
final class LevelsEncoder {
  private final int maxLevel;
  private final ValuesEncoder encoder;
  private int count;

  private LevelsEncoder(int maxLevel, ValuesEncoder encoder) {
    this.maxLevel = maxLevel;
    this.encoder = encoder;
  }

  /** Levels of a data page v1: RLE hybrid with its 4-byte length prefix. */
  public static LevelsEncoder v1(int maxLevel) {
    return new LevelsEncoder(maxLevel, new RleBitPackedHybridEncoder(width(maxLevel), true));
  }

  /** Levels of a data page v1 in the deprecated BIT_PACKED encoding. */
  public static LevelsEncoder v1BitPacked(int maxLevel) {
    return new LevelsEncoder(maxLevel, new BitPackedLevelsEncoder(width(maxLevel)));
  }

  /** Levels of a data page v2: RLE hybrid without prefix. */
  public static LevelsEncoder v2(int maxLevel) {
    return new LevelsEncoder(maxLevel, new RleBitPackedHybridEncoder(width(maxLevel), false));
  }

  private static int width(int maxLevel) {
    if (maxLevel < 0) {
      throw new IllegalArgumentException("negative maximum level " + maxLevel);
    }
    return BitPacking.bitWidth(maxLevel);
  }

  /** The encoding to record in a v1 page header's level encoding field. */
  public Encoding encoding() {
    return encoder.encoding();
  }

  public int maxLevel() {
    return maxLevel;
  }

  /** Appends levels, each 0..maxLevel (a larger one is a bug in the caller). */
  public void write(int[] src, int off, int len) {
    Decoders.checkRange(src.length, off, len);
    for (int i = off; i < off + len; i++) {
      if (Integer.compareUnsigned(src[i], maxLevel) > 0) {
        throw new IllegalArgumentException(
            "level " + src[i] + " exceeds the maximum level " + maxLevel);
      }
    }
    if (maxLevel > 0) {
      encoder.writeInts(src, off, len);
    }
    count += len;
  }

  public int valueCount() {
    return count;
  }

  /** Bytes {@link #flushTo} would write now (a close upper estimate). */
  public long estimatedSize() {
    return maxLevel == 0 ? 0 : encoder.estimatedSize();
  }

  /** Appends the page's levels to {@code out}, starts a new page, returns the bytes written. */
  public int flushTo(GrowableBuffer out) {
    int before = out.size();
    if (maxLevel > 0) {
      encoder.flushTo(out);
    }
    count = 0;
    return out.size() - before;
  }

  public void reset() {
    encoder.reset();
    count = 0;
  }
}
