package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;

/**
 * Per-column overrides of the file-wide {@link WriterOptions}; a null field (or {@link
 * Codecs#DEFAULT_LEVEL} for the level) keeps the file-wide setting.
 *
 * @param codec the compression codec of this column's pages
 * @param codecLevel the codec's level, meaningful only with {@code codec}
 * @param encoding the value encoding of pages that are not dictionary-encoded (PLAIN, a delta
 *     encoding, BYTE_STREAM_SPLIT, RLE for booleans): it replaces the policy's choice
 * @param dictionary whether to try dictionary encoding first
 * @param statistics whether the column's chunks carry statistics (min, max, null and NaN counts)
 *     and column indexes; off, readers cannot skip its row groups or pages by value, for files that
 *     leave out bounds nobody filters on (free text, or values that must not show in the footer).
 *     The offset index stays.
 */
public record ColumnOptions(
    CompressionCodec codec,
    int codecLevel,
    Encoding encoding,
    Boolean dictionary,
    Boolean statistics) {

  public static final ColumnOptions NONE =
      new ColumnOptions(null, Codecs.DEFAULT_LEVEL, null, null, null);

  /** The overrides of codec, encoding and dictionary, statistics as the file's. */
  public ColumnOptions(
      CompressionCodec codec, int codecLevel, Encoding encoding, Boolean dictionary) {
    this(codec, codecLevel, encoding, dictionary, null);
  }

  public ColumnOptions {
    if (encoding != null && (encoding.usesDictionary() || encoding == Encoding.BIT_PACKED)) {
      throw new IllegalArgumentException(
          encoding + " is not a value encoding; use dictionary(true) for dictionary encoding");
    }
  }

  public ColumnOptions withCodec(CompressionCodec newCodec, int level) {
    return new ColumnOptions(newCodec, level, encoding, dictionary, statistics);
  }

  public ColumnOptions withEncoding(Encoding newEncoding) {
    return new ColumnOptions(codec, codecLevel, newEncoding, dictionary, statistics);
  }

  public ColumnOptions withDictionary(Boolean enabled) {
    return new ColumnOptions(codec, codecLevel, encoding, enabled, statistics);
  }

  public ColumnOptions withStatistics(Boolean enabled) {
    return new ColumnOptions(codec, codecLevel, encoding, dictionary, enabled);
  }
}
