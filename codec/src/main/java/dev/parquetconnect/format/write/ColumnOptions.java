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
 */
public record ColumnOptions(
    CompressionCodec codec, int codecLevel, Encoding encoding, Boolean dictionary) {

  public static final ColumnOptions NONE =
      new ColumnOptions(null, Codecs.DEFAULT_LEVEL, null, null);

  public ColumnOptions {
    if (encoding != null && (encoding.usesDictionary() || encoding == Encoding.BIT_PACKED)) {
      throw new IllegalArgumentException(
          encoding + " is not a value encoding; use dictionary(true) for dictionary encoding");
    }
  }

  public ColumnOptions withCodec(CompressionCodec newCodec, int level) {
    return new ColumnOptions(newCodec, level, encoding, dictionary);
  }

  public ColumnOptions withEncoding(Encoding newEncoding) {
    return new ColumnOptions(codec, codecLevel, newEncoding, dictionary);
  }

  public ColumnOptions withDictionary(Boolean enabled) {
    return new ColumnOptions(codec, codecLevel, encoding, enabled);
  }
}
