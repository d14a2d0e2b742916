package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.encoding.DictionaryBuilder;
import dev.parquetconnect.format.encoding.BitPacking;
import dev.parquetconnect.format.encoding.ValuesCodecs;
import dev.parquetconnect.format.encoding.ValuesEncoder;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PageEncodingStats;
import dev.parquetconnect.format.meta.PageType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.SizeStatistics;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Encodes the closed pages of one column chunk and keeps them, compressed, until the row group
 * is written: statistics, level histograms, bloom filter, page index entries, and the choice of
 * encoding page by page.
 *
 * <p>Encoding: dictionary first. When the first page with values shows the dictionary does not
 * pay (dictionary plus indices no smaller than PLAIN) or already passes the size limit, the
 * dictionary is dropped and every page of the chunk uses the fallback encoding. When it passes
 * the limit later, the pages written so far keep it and later pages use the fallback. The
 * fallback encoding is chosen once per column, from the data ({@link FallbackEncodings}).
 */
final class ChunkBuilder {
  private final ColumnDescriptor column;
  private final PhysicalType type;
  private final int typeLength;
  private final PageVersion version;
  private final Compressor compressor;
  /** Whether pages are compressed: what the run threshold of dictionary indices follows. */
  private final boolean compressed;
  private final PageScratch scratch;
  private final PageAssembler assembler;
  private final boolean headerStatistics;
  private final boolean pageIndexEnabled;
  private final Encoding fixedFallback;
  private final int dictionaryByteLimit;
  private final Encoding dictionaryDataEncoding;
  private final Encoding dictionaryPageEncoding;
  /** Null when the column has no bloom filter. */
  private final ColumnBloomFilter bloomFilter;

  private final ValueStatistics pageStatistics;
  private final ValueStatistics chunkStatistics;
  private final StatisticsFormat statisticsFormat;
  private final PageIndexBuilder pageIndex;
  private final LevelHistograms histograms;

  private final DictionaryBuilder dictionary;
  private boolean dictionaryActive;
  private boolean dictionaryUsed;

  private Encoding fallbackEncoding;
  private ValuesEncoder fallbackEncoder;

  /** The chunk's data pages, headers included, back to back (grows: files may be tiny). */
  private final GrowableBuffer pages = new GrowableBuffer(512);
  private long uncompressedPageBytes;
  private long valueCount;
  private long rows;
  private long unencodedByteArrayBytes;
  private final int[] pagesByEncoding = new int[Encoding.values().length];
  /**
   * {@link #bufferedBytes()}, brought up to date whenever it changes (a page added, the chunk
   * written): writers under a memory budget ask for it after every record.
   */
  private long bufferedBytes;
  private int[] seenIndexStamps = new int[0];
  private int pageStamp;

  ChunkBuilder(
      ColumnDescriptor column,
      WriterOptions options,
      ColumnOptions overrides,
      Compressor compressor,
      PageScratch scratch) {
    this.column = column;
    this.type = column.primitive().type();
    this.typeLength = column.primitive().typeLength();
    this.version = options.pageVersion();
    this.compressor = compressor;
    this.compressed = compressor.codec() != CompressionCodec.UNCOMPRESSED;
    this.scratch = scratch;
    this.assembler =
        new PageAssembler(
            version,
            compressor,
            options.pageChecksums(),
            scratch,
            column.maxRepetitionLevel(),
            column.maxDefinitionLevel());
    this.headerStatistics = options.pageHeaderStatistics();
    this.pageIndexEnabled = options.pageIndex();
    Encoding override = overrides.encoding();
    if (override != null && !ValuesCodecs.isDefined(override, type)) {
      throw new IllegalArgumentException(
          "column " + column.dottedPath() + ": " + override + " is not defined for " + type);
    }
    this.fixedFallback =
        FallbackEncodings.fixedChoice(type, override, options.encodingPolicy(), version);
    this.dictionaryByteLimit = options.dictionaryByteLimit();
    // v1 pages name the dictionary encoding as parquet-java's v1 writer does, for old readers.
    this.dictionaryDataEncoding =
        version == PageVersion.V1 ? Encoding.PLAIN_DICTIONARY : Encoding.RLE_DICTIONARY;
    this.dictionaryPageEncoding =
        version == PageVersion.V1 ? Encoding.PLAIN_DICTIONARY : Encoding.PLAIN;
    boolean wantsDictionary =
        overrides.dictionary() != null ? overrides.dictionary() : options.dictionary();
    if (wantsDictionary && type != PhysicalType.BOOLEAN) {
      dictionary = DictionaryBuilder.forType(type, typeLength);
      dictionaryActive = true;
    } else {
      dictionary = null;
    }
    BloomFilterOptions bloom = options.bloomFilter(column.dottedPath());
    this.bloomFilter = bloom == null ? null : new ColumnBloomFilter(type, bloom, column.dottedPath());

    this.pageStatistics = ValueStatistics.forColumn(column.primitive());
    this.chunkStatistics = ValueStatistics.forColumn(column.primitive());
    this.statisticsFormat = new StatisticsFormat(column.primitive(), options.truncateLength());
    this.histograms =
        new LevelHistograms(column.maxRepetitionLevel(), column.maxDefinitionLevel());
    this.pageIndex =
        new PageIndexBuilder(
            chunkStatistics,
            statisticsFormat,
            type == PhysicalType.BYTE_ARRAY,
            histograms.recordsRepetition ? column.maxRepetitionLevel() + 1 : 0,
            histograms.recordsDefinition ? column.maxDefinitionLevel() + 1 : 0);
    updateBufferedBytes();
  }

  /** Bytes held for the chunk: its encoded pages, its dictionary and its bloom filter. */
  long bufferedBytes() {
    return bufferedBytes;
  }

  private void updateBufferedBytes() {
    long bytes = pages.size();
    if (dictionary != null) {
      bytes += dictionary.dictionaryByteSize();
    }
    if (bloomFilter != null) {
      bytes += bloomFilter.bufferedBytes();
    }
    bufferedBytes = bytes;
  }

  /** Records in the chunk's closed pages. */
  long rows() {
    return rows;
  }

  /** Encodes and keeps a closed page; the caller clears it afterwards. */
  void addPage(PageBuffer page) {
    Encoding encoding = encodeValues(page);
    pageStatistics.reset();
    pageStatistics.nullCount = page.entries - page.values;
    if (encoding == dictionaryDataEncoding && page.values > 0
        && pageStatistics instanceof BinaryStatistics binary) {
      // The page's dictionary indices say which values are equal: compare each distinct one once.
      binary.addValuesOncePerIndex(page, scratch.indices(page.values), seenIndices(),
          nextPageStamp());
    } else {
      pageStatistics.addValues(page);
    }
    chunkStatistics.merge(pageStatistics);
    histograms.count(page);
    long unencoded = type == PhysicalType.BYTE_ARRAY ? page.binaries.byteSize() : 0;
    if (bloomFilter != null) {
      bloomFilter.insert(page);
    }
    Statistics statistics = headerStatistics ? statisticsFormat.toThrift(pageStatistics) : null;
    long offset = pages.size();
    assembler.appendDataPage(page, encoding, statistics, pages);
    int size = assembler.headerSize + assembler.compressedSize;
    pageIndex.addPage(
        offset,
        size,
        rows,
        pageStatistics,
        page.values,
        histograms.pageRepetition,
        histograms.pageDefinition,
        unencoded);
    pagesByEncoding[encoding.ordinal()]++;
    uncompressedPageBytes += assembler.headerSize + assembler.uncompressedSize;
    valueCount += page.entries;
    rows += page.rows;
    unencodedByteArrayBytes += unencoded;
    updateBufferedBytes();
  }

  /** Per dictionary index, the stamp of the last page that compared its value for statistics. */
  private int[] seenIndices() {
    int size = dictionary.dictionarySize();
    if (seenIndexStamps.length < size) {
      seenIndexStamps = Arrays.copyOf(seenIndexStamps, Math.max(size, seenIndexStamps.length * 2));
    }
    return seenIndexStamps;
  }

  private int nextPageStamp() {
    if (++pageStamp == Integer.MAX_VALUE) {
      Arrays.fill(seenIndexStamps, 0);
      pageStamp = 1;
    }
    return pageStamp;
  }

  /** Encodes the page's values into {@code scratch.values}; returns the encoding used. */
  private Encoding encodeValues(PageBuffer page) {
    GrowableBuffer out = scratch.values;
    out.reset();
    int n = page.values;
    if (n == 0) {
      return Encoding.PLAIN; // no values: an empty PLAIN section, whatever the column uses
    }
    if (dictionaryActive) {
      int[] indices = scratch.indices(n);
      addToDictionary(page, indices);
      int indexBytes = encodeIndices(indices, n, out);
      boolean overLimit = dictionary.dictionaryByteSize() > dictionaryByteLimit;
      boolean pays = dictionary.dictionaryByteSize() + indexBytes < page.valueBytes();
      if (!dictionaryUsed && (overLimit || !pays)) {
        // No page depends on the dictionary yet: drop it for the whole chunk.
        dictionary.clear();
        out.reset();
        dictionaryActive = false;
      } else {
        dictionaryUsed = true;
        dictionaryActive = !overLimit;
        return dictionaryDataEncoding;
      }
    }
    ValuesEncoder encoder = fallbackEncoder(page);
    PageValues.writeTo(page, encoder);
    encoder.flushTo(out);
    return fallbackEncoding;
  }

  /**
   * A dictionary-encoded page body: the bit width of the page's largest index in one byte, then
   * the indices in the RLE / bit-packing hybrid ({@link HybridRunsEncoder}). Returns its size.
   */
  private int encodeIndices(int[] indices, int n, GrowableBuffer out) {
    int max = 0;
    for (int i = 0; i < n; i++) {
      max = Math.max(max, indices[i]);
    }
    int width = BitPacking.bitWidth(max);
    out.writeByte(width);
    return 1 + new HybridRunsEncoder(width, compressed, false).encode(indices, n, out);
  }

  private void addToDictionary(PageBuffer page, int[] indices) {
    int n = page.values;
    switch (type) {
      case INT32 -> dictionary.addInts(page.ints, 0, n, indices, 0);
      case INT64 -> dictionary.addLongs(page.longs, 0, n, indices, 0);
      case FLOAT -> dictionary.addFloats(page.floats, 0, n, indices, 0);
      case DOUBLE -> dictionary.addDoubles(page.doubles, 0, n, indices, 0);
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 ->
          dictionary.addBinaries(page.binaries, 0, n, indices, 0);
      case BOOLEAN -> throw new IllegalStateException("BOOLEAN columns have no dictionary");
    }
  }

  private ValuesEncoder fallbackEncoder(PageBuffer page) {
    if (fallbackEncoder == null) {
      fallbackEncoder =
          fixedFallback != null
              ? ValuesCodecs.encoder(fixedFallback, type, typeLength)
              : FallbackEncodings.measure(column.primitive(), page, compressor, scratch);
      fallbackEncoding = fallbackEncoder.encoding();
    }
    return fallbackEncoder;
  }

  /**
   * Writes the chunk (dictionary page, then the data pages) to {@code sink} and starts the next
   * chunk of the column.
   */
  WrittenChunk writeTo(FileSink sink) throws IOException {
    long compressedBytes = pages.size();
    long uncompressedBytes = uncompressedPageBytes;
    Long dictionaryOffset = null;
    if (dictionaryUsed) {
      scratch.values.reset();
      dictionary.writeDictionaryPage(scratch.values);
      GrowableBuffer page = scratch.trial;
      page.reset();
      assembler.appendDictionaryPage(dictionary.dictionarySize(), dictionaryPageEncoding, page);
      dictionaryOffset = sink.position();
      sink.write(page);
      compressedBytes += page.size();
      uncompressedBytes += assembler.headerSize + assembler.uncompressedSize;
    }
    long dataOffset = sink.position();
    sink.write(pages);
    ColumnMetaData metaData =
        new ColumnMetaData(
            type,
            encodings(),
            column.path(),
            compressor.codec(),
            valueCount,
            uncompressedBytes,
            compressedBytes,
            null,
            dataOffset,
            null,
            dictionaryOffset,
            statisticsFormat.toThrift(chunkStatistics),
            encodingStats(),
            null,
            null,
            sizeStatistics(),
            null);
    WrittenChunk written =
        new WrittenChunk(
            metaData,
            pageIndexEnabled ? pageIndex.columnIndex() : null,
            pageIndexEnabled ? pageIndex.offsetIndex(dataOffset) : null,
            bloomFilter != null ? bloomFilter.take() : null);
    reset();
    return written;
  }

  /** Every encoding the chunk uses: dictionary page, levels, data pages. */
  private List<Encoding> encodings() {
    Set<Encoding> used = new LinkedHashSet<>();
    if (dictionaryUsed) {
      used.add(dictionaryPageEncoding);
    }
    if (column.maxRepetitionLevel() > 0 || column.maxDefinitionLevel() > 0) {
      used.add(Encoding.RLE);
    }
    for (Encoding e : Encoding.values()) {
      if (pagesByEncoding[e.ordinal()] > 0) {
        used.add(e);
      }
    }
    return new ArrayList<>(used);
  }

  private List<PageEncodingStats> encodingStats() {
    List<PageEncodingStats> stats = new ArrayList<>();
    if (dictionaryUsed) {
      stats.add(new PageEncodingStats(PageType.DICTIONARY_PAGE, dictionaryPageEncoding, 1));
    }
    PageType dataPage = version == PageVersion.V1 ? PageType.DATA_PAGE : PageType.DATA_PAGE_V2;
    for (Encoding e : Encoding.values()) {
      int count = pagesByEncoding[e.ordinal()];
      if (count > 0) {
        stats.add(new PageEncodingStats(dataPage, e, count));
      }
    }
    return stats;
  }

  /** Null when nothing would be in it (a fixed-width column without nesting). */
  private SizeStatistics sizeStatistics() {
    Long unencoded = type == PhysicalType.BYTE_ARRAY ? unencodedByteArrayBytes : null;
    List<Long> repetition = histograms.chunkRepetition();
    List<Long> definition = histograms.chunkDefinition();
    if (unencoded == null && repetition == null && definition == null) {
      return null;
    }
    return new SizeStatistics(unencoded, repetition, definition);
  }

  private void reset() {
    pages.reset();
    uncompressedPageBytes = 0;
    valueCount = 0;
    rows = 0;
    unencodedByteArrayBytes = 0;
    Arrays.fill(pagesByEncoding, 0);
    histograms.clearChunk();
    chunkStatistics.reset();
    pageIndex.clear();
    if (dictionary != null) {
      dictionary.clear();
      dictionaryActive = true;
      dictionaryUsed = false;
    }
    updateBufferedBytes();
  }
}
