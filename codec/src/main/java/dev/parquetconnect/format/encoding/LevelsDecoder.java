package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.meta.Encoding;
import java.util.Arrays;

/**
 * Reads the repetition or definition levels of one data page, in batches, for the page reader. The
 * layouts (Encodings.md and the data page headers):
 *
 * <ul>
 *   <li>data page v1: the levels open the page body, RLE hybrid with a 4-byte length prefix, or the
 *       deprecated BIT_PACKED with no length ({@code ceil(n * width / 8)} bytes); {@link #initV1}
 *       returns how many bytes they took, so the caller finds what follows;
 *   <li>data page v2: RLE hybrid without a prefix, its byte length given by the page header.
 * </ul>
 *
 * <p>A column whose maximum level is 0 stores no levels at all; every level then reads as 0, and
 * bytes a v2 page has for them anyway are ignored. Levels above the column's maximum are {@link
 * CorruptDataException}s, since they would send the record assembly off the schema.
 */
public final class LevelsDecoder {
  private final RleBitPackedHybridDecoder prefixedRle = new RleBitPackedHybridDecoder(0, true);
  private final RleBitPackedHybridDecoder plainRle = new RleBitPackedHybridDecoder(0, false);
  private final BitPackedLevelsDecoder bitPacked = new BitPackedLevelsDecoder(0);

  /** Which decoder holds this page's levels. */
  private Source source = Source.NONE;

  private int maxLevel;

  /** Levels left when the column stores none (maximum level 0). */
  private int implicitZerosLeft;

  /** Index of the next level within the page, for error messages. */
  private long index;

  /**
   * Starts the levels of a v1 page at {@code page[offset]}, within {@code length} bytes (the rest
   * of the page body), for {@code valueCount} values (the page's num_values), encoded in {@code
   * encoding} (the header's repetition/definition level encoding). Returns the number of bytes the
   * levels occupy: 0 when {@code maxLevel} is 0.
   */
  public int initV1(
      Encoding encoding, int maxLevel, byte[] page, int offset, int length, int valueCount)
      throws CorruptDataException, UnsupportedFeatureException {
    if (!start(maxLevel, valueCount)) {
      return 0;
    }
    int width = BitPacking.bitWidth(maxLevel);
    if (encoding == Encoding.RLE) {
      prefixedRle.init(page, offset, length, valueCount, width);
      source = Source.PREFIXED_RLE;
      return prefixedRle.end() - offset;
    } else if (encoding == Encoding.BIT_PACKED) {
      bitPacked.init(page, offset, length, valueCount, width);
      source = Source.BIT_PACKED;
      return bitPacked.end() - offset;
    }
    throw new UnsupportedFeatureException(
        "levels of a v1 data page in encoding " + encoding + " (only RLE and BIT_PACKED exist)");
  }

  /**
   * Starts the levels of a v2 page: {@code length} bytes (the header's level byte length) of RLE
   * hybrid without a length prefix at {@code page[offset]}, for {@code valueCount} values.
   */
  public void initV2(int maxLevel, byte[] page, int offset, int length, int valueCount)
      throws CorruptDataException {
    if (!start(maxLevel, valueCount)) {
      // Some writers still emit a run of zeros here (parquet-testing's rle_boolean_encoding has
      // 2 bytes of repetition levels for a flat column); they carry nothing, so skip them.
      return;
    }
    plainRle.init(page, offset, length, valueCount, BitPacking.bitWidth(maxLevel));
    source = Source.PLAIN_RLE;
  }

  /** Common set-up; false when the column stores no levels. */
  private boolean start(int maxLevel, int valueCount) throws CorruptDataException {
    if (maxLevel < 0) {
      throw new IllegalArgumentException("negative maximum level " + maxLevel);
    }
    if (valueCount < 0) {
      throw new CorruptDataException("levels: negative value count " + valueCount);
    }
    this.maxLevel = maxLevel;
    this.index = 0;
    if (maxLevel == 0) {
      source = Source.NONE;
      implicitZerosLeft = valueCount;
      return false;
    }
    return true;
  }

  public int maxLevel() {
    return maxLevel;
  }

  /** Reads the next {@code len} levels into {@code dst[off, off + len)}. */
  public void read(int[] dst, int off, int len) throws CorruptDataException {
    switch (source) {
      case NONE -> {
        Decoders.checkRange(dst.length, off, len);
        Decoders.checkRemaining("levels", len, implicitZerosLeft);
        Arrays.fill(dst, off, off + len, 0);
        implicitZerosLeft -= len;
      }
      case PREFIXED_RLE -> prefixedRle.readInts(dst, off, len);
      case PLAIN_RLE -> plainRle.readInts(dst, off, len);
      case BIT_PACKED -> bitPacked.readInts(dst, off, len);
    }
    if (source != Source.NONE) {
      for (int i = off; i < off + len; i++) {
        if (Integer.compareUnsigned(dst[i], maxLevel) > 0) {
          throw new CorruptDataException(
              "level "
                  + Integer.toUnsignedString(dst[i])
                  + " of value "
                  + (index + i - off)
                  + " exceeds the column's maximum level "
                  + maxLevel);
        }
      }
    }
    index += len;
  }

  /** Skips {@code n} levels. */
  public void skip(int n) throws CorruptDataException {
    switch (source) {
      case NONE -> {
        if (n < 0) {
          throw new IllegalArgumentException("negative skip " + n);
        }
        Decoders.checkRemaining("levels", n, implicitZerosLeft);
        implicitZerosLeft -= n;
      }
      case PREFIXED_RLE -> prefixedRle.skip(n);
      case PLAIN_RLE -> plainRle.skip(n);
      case BIT_PACKED -> bitPacked.skip(n);
    }
    index += n;
  }

  private enum Source {
    NONE,
    PREFIXED_RLE,
    PLAIN_RLE,
    BIT_PACKED
  }
}
