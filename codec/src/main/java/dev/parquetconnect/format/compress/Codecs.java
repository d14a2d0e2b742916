package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.meta.CompressionCodec;

/**
 * Picks the {@link Compressor} and {@link Decompressor} for a Parquet compression codec.
 *
 * <p>Levels: ZSTD takes zstd's levels ({@code Zstd.minCompressionLevel()}..22, default 3), GZIP
 * takes deflate's 0..9 (default 6), BROTLI takes qualities 0..11 (default 4); the other codecs have
 * no level and ignore it. {@link #DEFAULT_LEVEL} asks for the codec's default.
 */
public final class Codecs {
  /** Asks for the codec's default level. */
  public static final int DEFAULT_LEVEL = Integer.MIN_VALUE;

  public static final int ZSTD_DEFAULT_LEVEL = 3;
  public static final int GZIP_DEFAULT_LEVEL = 6;

  /** Brotli quality 4: close to gzip's speed with a better ratio; 10-11 are for archives. */
  public static final int BROTLI_DEFAULT_LEVEL = 4;

  private Codecs() {}

  /**
   * A new compressor for {@code codec}.
   *
   * @throws UnsupportedFeatureException for LZO, or when the codec's library cannot load here
   * @throws IllegalArgumentException when the level is outside the codec's range
   */
  public static Compressor compressor(CompressionCodec codec, int level)
      throws UnsupportedFeatureException {
    requireAvailable(codec);
    return switch (codec) {
      case UNCOMPRESSED -> new UncompressedCompressor();
      case SNAPPY -> new SnappyCompressor();
      case GZIP -> new GzipCompressor(level == DEFAULT_LEVEL ? GZIP_DEFAULT_LEVEL : level);
      case ZSTD -> new ZstdCompressor(level == DEFAULT_LEVEL ? ZSTD_DEFAULT_LEVEL : level);
      case LZ4_RAW -> new Lz4RawCompressor();
      case LZ4 -> new Lz4HadoopCompressor();
      case BROTLI -> new BrotliCompressor(level == DEFAULT_LEVEL ? BROTLI_DEFAULT_LEVEL : level);
      case LZO -> throw unavailable(codec);
    };
  }

  /**
   * A new decompressor for {@code codec}.
   *
   * @throws UnsupportedFeatureException for LZO, or when the codec's library cannot load here
   */
  public static Decompressor decompressor(CompressionCodec codec)
      throws UnsupportedFeatureException {
    requireAvailable(codec);
    return switch (codec) {
      case UNCOMPRESSED -> new UncompressedDecompressor();
      case SNAPPY -> new SnappyDecompressor();
      case GZIP -> new GzipDecompressor();
      case ZSTD -> new ZstdDecompressor();
      case LZ4_RAW -> new Lz4RawDecompressor();
      case LZ4 -> new Lz4Decompressor();
      case BROTLI -> new BrotliDecompressor();
      case LZO -> throw unavailable(codec);
    };
  }

  /** Whether {@code codec} can be read and written on this platform (never for LZO). */
  public static boolean isAvailable(CompressionCodec codec) {
    return NativeLibraries.unavailabilityCause(codec) == null;
  }

  /**
   * Checks the sizes a page header announces before a reader allocates for them: fails when the
   * uncompressed size is negative, beyond a Java array, or more than {@code compressedSize} bytes
   * of the codec can possibly produce. Every {@link Decompressor} runs the same check.
   *
   * @throws dev.parquetconnect.format.CorruptDataException for impossible sizes
   * @throws UnsupportedFeatureException for a page over the Java array limit
   */
  public static void checkSizes(CompressionCodec codec, int compressedSize, int uncompressedSize)
      throws ParquetException {
    SizeLimits.check(codec, compressedSize, uncompressedSize);
  }

  private static void requireAvailable(CompressionCodec codec) throws UnsupportedFeatureException {
    if (NativeLibraries.unavailabilityCause(codec) != null) {
      throw unavailable(codec);
    }
  }

  private static UnsupportedFeatureException unavailable(CompressionCodec codec) {
    if (codec == CompressionCodec.LZO) {
      return new UnsupportedFeatureException(
          "codec LZO is not supported: no LZO library is bundled (the Java ones are"
              + " GPL-licensed); rewrite the data with another codec");
    }
    Throwable cause = NativeLibraries.unavailabilityCause(codec);
    return new UnsupportedFeatureException(
        "codec " + codec + " not available on this platform: " + cause, cause);
  }
}
