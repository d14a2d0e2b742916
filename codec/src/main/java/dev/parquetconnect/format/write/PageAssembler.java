package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.encoding.BitPacking;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.DataPageHeader;
import dev.parquetconnect.format.meta.DataPageHeaderV2;
import dev.parquetconnect.format.meta.DictionaryPageHeader;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PageHeader;
import dev.parquetconnect.format.meta.PageType;
import dev.parquetconnect.format.meta.Statistics;

/**
 * Lays out one page of a column: levels and values in the page version's order, compression, the
 * CRC and the header, appended to the chunk's buffer.
 *
 * <ul>
 *   <li>v1: repetition then definition levels, each in the RLE / bit-packing hybrid with a 4-byte
 *       length prefix ({@link HybridRunsEncoder}), then the values; all of it compressed together.
 *   <li>v2: the same levels without prefixes, uncompressed (their lengths go in the header), then
 *       the values, compressed unless that does not make them smaller ({@code is_compressed} says
 *       which).
 *   <li>CRC32 over the page bytes that follow the header, as stored (after compression): what
 *       parquet.thrift specifies and parquet-java verifies, for every page type.
 * </ul>
 */
final class PageAssembler {
  private final PageVersion version;
  private final Compressor compressor;
  private final boolean compress;
  private final boolean checksums;
  private final PageScratch scratch;
  private final HybridRunsEncoder repetitionLevels;
  private final HybridRunsEncoder definitionLevels;

  /** Sizes of the page last appended. */
  int headerSize;

  int uncompressedSize;
  int compressedSize;

  PageAssembler(
      PageVersion version,
      Compressor compressor,
      boolean checksums,
      PageScratch scratch,
      int maxRepetitionLevel,
      int maxDefinitionLevel) {
    this.version = version;
    this.compressor = compressor;
    this.compress = compressor.codec() != CompressionCodec.UNCOMPRESSED;
    this.checksums = checksums;
    this.scratch = scratch;
    // v1 levels are compressed with the values; v2 levels are stored as they are.
    boolean levelsCompressed = version == PageVersion.V1 && compress;
    boolean prefixed = version == PageVersion.V1;
    this.repetitionLevels =
        new HybridRunsEncoder(BitPacking.bitWidth(maxRepetitionLevel), levelsCompressed, prefixed);
    this.definitionLevels =
        new HybridRunsEncoder(BitPacking.bitWidth(maxDefinitionLevel), levelsCompressed, prefixed);
  }

  /**
   * Appends the data page holding {@code page}'s levels and the values encoded in {@code
   * scratch.values} to {@code out}.
   */
  void appendDataPage(
      PageBuffer page, Encoding encoding, Statistics statistics, GrowableBuffer out) {
    GrowableBuffer levels = scratch.body;
    levels.reset();
    int repetitionBytes =
        page.hasRepetitionLevels
            ? repetitionLevels.encode(page.repetitionLevels, page.entries, levels)
            : 0;
    int definitionBytes =
        page.hasDefinitionLevels
            ? definitionLevels.encode(page.definitionLevels, page.entries, levels)
            : 0;
    GrowableBuffer values = scratch.values;
    if (version == PageVersion.V1) {
      levels.write(values);
      uncompressedSize = levels.size();
      GrowableBuffer payload = compressed(levels);
      PageHeader header =
          new PageHeader(
              PageType.DATA_PAGE,
              uncompressedSize,
              payload.size(),
              checksums ? crc(payload, null) : null,
              new DataPageHeader(page.entries, encoding, Encoding.RLE, Encoding.RLE, statistics),
              null,
              null,
              null);
      append(header, payload, null, out);
    } else {
      GrowableBuffer stored = compressed(values);
      boolean isCompressed = stored != values && stored.size() < values.size();
      if (!isCompressed) {
        stored = values;
      }
      uncompressedSize = levels.size() + values.size();
      PageHeader header =
          new PageHeader(
              PageType.DATA_PAGE_V2,
              uncompressedSize,
              levels.size() + stored.size(),
              checksums ? crc(levels, stored) : null,
              null,
              null,
              null,
              new DataPageHeaderV2(
                  page.entries,
                  page.entries - page.values,
                  page.rows,
                  encoding,
                  definitionBytes,
                  repetitionBytes,
                  isCompressed,
                  statistics));
      append(header, levels, stored, out);
    }
  }

  /** Appends the dictionary page whose PLAIN body is in {@code scratch.values}. */
  void appendDictionaryPage(int entries, Encoding encoding, GrowableBuffer out) {
    GrowableBuffer body = scratch.values;
    uncompressedSize = body.size();
    GrowableBuffer payload = compressed(body);
    PageHeader header =
        new PageHeader(
            PageType.DICTIONARY_PAGE,
            uncompressedSize,
            payload.size(),
            checksums ? crc(payload, null) : null,
            null,
            null,
            new DictionaryPageHeader(entries, encoding, null),
            null);
    append(header, payload, null, out);
  }

  /** {@code body} compressed into scratch, or {@code body} itself for UNCOMPRESSED. */
  private GrowableBuffer compressed(GrowableBuffer body) {
    if (!compress) {
      return body;
    }
    GrowableBuffer target = scratch.compressed;
    target.reset();
    compressor.compress(body.array(), 0, body.size(), target);
    return target;
  }

  private int crc(GrowableBuffer first, GrowableBuffer second) {
    return second == null
        ? scratch.crc(first, first.array(), 0, 0)
        : scratch.crc(first, second.array(), 0, second.size());
  }

  private void append(
      PageHeader header, GrowableBuffer first, GrowableBuffer second, GrowableBuffer out) {
    GrowableBuffer headerBytes = scratch.header;
    headerBytes.reset();
    MetadataCodec.write(header, headerBytes);
    headerSize = headerBytes.size();
    compressedSize = header.compressedPageSize();
    out.ensureCapacity(headerSize + compressedSize);
    out.write(headerBytes);
    out.write(first);
    if (second != null) {
      out.write(second);
    }
  }
}
