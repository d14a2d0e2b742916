package dev.parquetconnect.cli;

import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.write.EncodingPolicy;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.WriterOptions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The writer options {@code pq rewrite} and {@code pq merge} take, turned into {@link
 * WriterOptions}. What is not given keeps the writer's defaults (v1 pages, dictionary on, adaptive
 * encodings, 1 MiB pages, 128 MiB row groups), except the codec, which stays the input's: a rewrite
 * to change the page layout should not change the compression by surprise.
 */
final class WriterSettings {
  static final Set<String> OPTIONS =
      Set.of(
          "codec",
          "level",
          "page-version",
          "dictionary",
          "row-group-rows",
          "page-size",
          "policy",
          "verify-checksums");

  static final String HELP =
      """
        --codec NAME           uncompressed, snappy, gzip, zstd, lz4_raw, lz4 (Hadoop-framed,
                               for old readers) or brotli (default: the input's codec)
        --level N              the codec's level: gzip 0..9, zstd up to 22, brotli 0..11
        --page-version 1|2     data page v1 (default; every reader) or v2
        --dictionary on|off    try dictionary encoding first (default on)
        --row-group-rows N     at most N rows per row group (default: row groups of 128 MiB)
        --page-size BYTES      close a data page at about this many bytes (default 1 MiB)
        --policy adaptive|extended|compatible
                               adaptive (default): where the dictionary is off or falls
                               back, the smallest of the delta encodings and PLAIN per
                               column (read by Spark 3.3+, Trino, Arrow, DuckDB);
                               extended: also byte-stream-split for floats (not read by
                               Spark before 4.1 nor Trino); compatible: dictionary and
                               PLAIN only, for readers older than the delta encodings
        --verify-checksums on|off
                               check the input's page CRCs (default on; off salvages the
                               values of a file whose CRCs are wrong, at your own risk)
      """;

  private static final List<String> CODEC_NAMES =
      List.of("uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "lz4", "brotli");
  private static final List<String> ON_OFF = List.of("on", "off");

  private WriterSettings() {}

  /** Whether the input's page CRCs are checked ({@code --verify-checksums}, default on). */
  static boolean verifyChecksums(Arguments args) throws UsageException {
    return !"off".equals(args.choiceOption("verify-checksums", ON_OFF));
  }

  /**
   * The options for the output file.
   *
   * @param inputCodec the codec to keep when {@code --codec} is not given
   * @param keyValues the key/value metadata to write
   */
  static WriterOptions options(
      Arguments args, CompressionCodec inputCodec, Map<String, String> keyValues)
      throws UsageException, UnsupportedFeatureException {
    WriterOptions.Builder builder = WriterOptions.builder();
    CompressionCodec codec = codec(args, inputCodec);
    int level = level(args, codec);
    builder.codec(codec, level);
    String pageVersion = args.choiceOption("page-version", List.of("1", "2"));
    if (pageVersion != null) {
      builder.pageVersion(pageVersion.equals("2") ? PageVersion.V2 : PageVersion.V1);
    }
    String dictionary = args.choiceOption("dictionary", ON_OFF);
    if (dictionary != null) {
      builder.dictionary(dictionary.equals("on"));
    }
    String policy = args.choiceOption("policy", List.of("adaptive", "extended", "compatible"));
    if (policy != null) {
      builder.encodingPolicy(EncodingPolicy.parse(policy));
    }
    long rowGroupRows = args.longOption("row-group-rows", 1, Long.MAX_VALUE, -1);
    if (rowGroupRows > 0) {
      builder.rowGroupRowLimit(rowGroupRows);
    }
    long pageSize = args.longOption("page-size", 1, Integer.MAX_VALUE, -1);
    if (pageSize > 0) {
      builder.pageByteLimit((int) pageSize);
    }
    keyValues.forEach(builder::keyValue);
    return builder.build();
  }

  private static CompressionCodec codec(Arguments args, CompressionCodec inputCodec)
      throws UsageException {
    String name = args.choiceOption("codec", CODEC_NAMES);
    if (name == null) {
      // LZO is read by no one here; the writer's default stands in for it.
      return inputCodec == null || inputCodec == CompressionCodec.LZO
          ? WriterOptions.defaults().codec()
          : inputCodec;
    }
    return CompressionCodec.valueOf(name.toUpperCase(Locale.ROOT));
  }

  /** The level, checked against the codec's range now rather than half-way through writing. */
  private static int level(Arguments args, CompressionCodec codec)
      throws UsageException, UnsupportedFeatureException {
    if (args.option("level") == null) {
      return Codecs.DEFAULT_LEVEL;
    }
    if (codec != CompressionCodec.GZIP
        && codec != CompressionCodec.ZSTD
        && codec != CompressionCodec.BROTLI) {
      throw new UsageException("--level applies to gzip, zstd and brotli, not " + codec);
    }
    int level = (int) args.longOption("level", Integer.MIN_VALUE + 1, Integer.MAX_VALUE, 0);
    Compressor probe;
    try {
      probe = Codecs.compressor(codec, level);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--level: " + e.getMessage());
    }
    probe.close();
    return level;
  }
}
