package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.Objects;

/**
 * What sizes a page header may announce for a codec, checked before anything is allocated for them.
 * Each codec's format caps how many bytes one compressed byte can stand for; a header announcing
 * more is corrupt, and refusing it early keeps a flipped bit in a page header from turning into a 2
 * GiB allocation.
 */
final class SizeLimits {
  /** The largest array the JVM reliably allocates. */
  static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

  /** Snappy: a 3-byte copy element produces at most 64 bytes. */
  private static final long SNAPPY_MAX_RATIO = 22;

  /** Deflate: 258-byte matches coded in about two bits each (zlib's documented 1032:1). */
  private static final long DEFLATE_MAX_RATIO = 1032;

  /** LZ4: each 0xFF match-length byte adds 255 bytes; token and offset cost more than they add. */
  private static final long LZ4_MAX_RATIO = 256;

  /** Zstandard: an RLE block of 4 bytes (header and byte) regenerates at most 128 KiB. */
  private static final long ZSTD_MAX_RATIO = 1 << 15;

  private SizeLimits() {}

  /**
   * The most bytes {@code compressedSize} bytes of the codec can decompress to, or {@link
   * Long#MAX_VALUE} when the format sets no useful bound (Brotli reaches ratios above 500,000:1 in
   * real files).
   */
  static long maxUncompressedSize(CompressionCodec codec, int compressedSize) {
    long n = Math.max(0, compressedSize);
    return switch (codec) {
      case UNCOMPRESSED -> n;
      case SNAPPY -> n * SNAPPY_MAX_RATIO;
      case GZIP -> n * DEFLATE_MAX_RATIO;
      case LZ4, LZ4_RAW -> n * LZ4_MAX_RATIO;
      case ZSTD -> n * ZSTD_MAX_RATIO;
      case BROTLI, LZO -> Long.MAX_VALUE;
    };
  }

  /**
   * Fails when a page announcing {@code uncompressedSize} bytes from {@code compressedSize}
   * compressed bytes cannot be valid for the codec, or cannot fit a Java array.
   */
  static void check(CompressionCodec codec, int compressedSize, int uncompressedSize)
      throws ParquetException {
    if (compressedSize < 0) {
      throw new CorruptDataException(codec + ": negative compressed size " + compressedSize);
    }
    if (uncompressedSize < 0) {
      throw new CorruptDataException(codec + ": negative uncompressed size " + uncompressedSize);
    }
    if (uncompressedSize > MAX_ARRAY) {
      throw new UnsupportedFeatureException(
          codec
              + ": a page of "
              + uncompressedSize
              + " uncompressed bytes exceeds the "
              + MAX_ARRAY
              + "-byte limit of a Java array");
    }
    // An empty input standing for an empty page is accepted by every codec (see Decompressor).
    if (compressedSize == 0 && uncompressedSize == 0) {
      return;
    }
    long max = maxUncompressedSize(codec, compressedSize);
    if (uncompressedSize > max) {
      throw new CorruptDataException(
          codec
              + ": "
              + compressedSize
              + " compressed bytes cannot decompress to the announced "
              + uncompressedSize
              + " bytes (at most "
              + max
              + ")");
    }
  }

  /**
   * The checks every {@link Decompressor#decompress} starts with: the caller's ranges (a caller
   * bug, hence unchecked) and the announced size (untrusted, hence checked).
   */
  static void checkDecompress(
      CompressionCodec codec,
      byte[] src,
      int off,
      int len,
      byte[] dst,
      int dstOff,
      int uncompressedSize)
      throws ParquetException {
    Objects.checkFromIndexSize(off, len, src.length);
    check(codec, len, uncompressedSize);
    Objects.checkFromIndexSize(dstOff, uncompressedSize, dst.length);
  }

  static CorruptDataException shorter(CompressionCodec codec, int produced, int expected) {
    return new CorruptDataException(
        codec + ": data decompressed to " + produced + " bytes but the page announces " + expected);
  }

  static CorruptDataException longer(CompressionCodec codec, int expected) {
    return new CorruptDataException(
        codec + ": data decompresses to more than the " + expected + " bytes the page announces");
  }
}
