package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.encoding.DictionaryBuilder;
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
 * Encodes the closed pages of one column chunk and keeps them, compressed, until the row group is
 * written: statistics, level histograms, bloom filter, page index entries, and the choice of
 * encoding page by page.
 *
 * <p>Encoding: dictionary first. When the first page with values shows the dictionary does not pay
 * (dictionary plus indices no smaller than PLAIN) or already passes the size limit, the dictionary
 * is dropped and every page of the chunk uses the fallback encoding. When it passes the limit
 * later, the pages written so far keep it and later pages use the fallback. The fallback encoding
 * is chosen once per column, from the data ({@link FallbackEncodings}).
 */
final class ChunkBuilder {
  private static final int INITIAL_PAGES_CAPACITY = 512;

  private final ColumnDescriptor column;
  private final PhysicalType type;
  private final int typeLength;
  private final PageVersion version;
  private final Compressor compressor;

  private final PageScratch scratch;
  private final PageAssembler assembler;
  private final boolean headerStatistics;
  private final boolean statisticsEnabled;
  private final boolean pageIndexEnabled;
  private final Encoding fixedFallback;
  private final EncodingPolicy policy;
  private final Encoding dictionaryDataEncoding;
  private final Encoding dictionaryPageEncoding;

  /** Null when the column has no bloom filter. */
  private final ColumnBloomFilter bloomFilter;

  private final ValueStatistics pageStatistics;
  private final ValueStatistics chunkStatistics;
  private final StatisticsFormat statisticsFormat;
  private final PageIndexBuilder pageIndex;
  private final LevelHistograms histograms;

  /** Null when the column has no dictionary. */
  private final ChunkDictionary dictionary;

  private Encoding fallbackEncoding;
  private ValuesEncoder fallbackEncoder;

  /** The chunk's data pages, headers included, back to back (grows: files may be tiny). */
  private final GrowableBuffer pages = new GrowableBuffer(INITIAL_PAGES_CAPACITY);

  private long uncompressedPageBytes;
  private long valueCount;

  /** Non-null values in the closed pages ({@link #valueCount} counts nulls too). */
  private long nonNullValues;

  private long rows;
  private long unencodedByteArrayBytes;
  private final int[] pagesByEncoding = new int[Encoding.values().length];

  /**
   * {@link #bufferedBytes()}, brought up to date whenever it changes (a page added, the chunk
   * written): writers under a memory budget ask for it after every record.
   */
  private long bufferedBytes;

  /** {@link #heapBytes()} as last added to {@link #held}. */
  private long heldHeapBytes;

  /**
   * What the dictionary's arrays hold beyond its page body, as of the last {@link
   * #updateBufferedBytes}: long text values grow them well past it.
   */
  private long dictionarySpareBytes;

  /** The file's totals, which every change of this chunk's share adds to. */
  private final HeldBytes held;

  ChunkBuilder(
      ColumnDescriptor column,
      WriterOptions options,
      ColumnOptions overrides,
      Compressor compressor,
      PageScratch scratch,
      HeldBytes held) {
    this.held = held;
    this.column = column;
    this.type = column.primitive().type();
    this.typeLength = column.primitive().typeLength();
    this.version = options.pageVersion();
    this.compressor = compressor;
    // A split is a page boundary of this column alone: with aligned pages it would undo them.
    boolean splitsByIndexWidth =
        !options.alignedPages()
            && switch (compressor.codec()) {
              case UNCOMPRESSED, SNAPPY, LZ4, LZ4_RAW, LZO -> true;
              default -> false;
            };
    this.scratch = scratch;
    this.assembler =
        new PageAssembler(
            version,
            compressor,
            options.pageChecksums(),
            scratch,
            column.maxRepetitionLevel(),
            column.maxDefinitionLevel());
    this.statisticsEnabled = overrides.statistics() == null || overrides.statistics();
    this.headerStatistics = options.pageHeaderStatistics() && statisticsEnabled;
    this.pageIndexEnabled = options.pageIndex();
    Encoding override = overrides.encoding();
    if (override != null && !ValuesCodecs.isDefined(override, type)) {
      throw new IllegalArgumentException(
          "column " + column.dottedPath() + ": " + override + " is not defined for " + type);
    }
    this.policy = options.encodingPolicy();
    this.fixedFallback = FallbackEncodings.fixedChoice(type, override, policy, version);
    // v1 pages name the dictionary encoding as parquet-java's v1 writer does, for old readers.
    this.dictionaryDataEncoding =
        version == PageVersion.V1 ? Encoding.PLAIN_DICTIONARY : Encoding.RLE_DICTIONARY;
    this.dictionaryPageEncoding =
        version == PageVersion.V1 ? Encoding.PLAIN_DICTIONARY : Encoding.PLAIN;
    boolean wantsDictionary =
        overrides.dictionary() != null ? overrides.dictionary() : options.dictionary();
    if (wantsDictionary && type != PhysicalType.BOOLEAN) {
      dictionary =
          new ChunkDictionary(
              DictionaryBuilder.forType(type, typeLength),
              column.maxDefinitionLevel(),
              scratch,
              compressor.codec() != CompressionCodec.UNCOMPRESSED,
              splitsByIndexWidth,
              options.dictionaryByteLimit());
    } else {
      dictionary = null;
    }
    BloomFilterOptions bloom = options.bloomFilter(column.dottedPath());
    this.bloomFilter =
        bloom == null ? null : new ColumnBloomFilter(type, bloom, column.dottedPath());

    this.pageStatistics = ValueStatistics.forColumn(column.primitive());
    this.chunkStatistics = ValueStatistics.forColumn(column.primitive());
    this.statisticsFormat = new StatisticsFormat(column.primitive(), options.truncateLength());
    this.histograms = new LevelHistograms(column.maxRepetitionLevel(), column.maxDefinitionLevel());
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

  /**
   * The heap the chunk holds: as {@link #bufferedBytes()}, but the page buffer's whole array, which
   * grows by doubling.
   */
  long heapBytes() {
    return bufferedBytes - pages.size() + pages.capacity() + dictionarySpareBytes;
  }

  private void updateBufferedBytes() {
    long bytes = pages.size();
    if (dictionary != null) {
      bytes += dictionary.builder().dictionaryByteSize();
      dictionarySpareBytes = dictionary.builder().spareBytes();
    }
    if (bloomFilter != null) {
      bytes += bloomFilter.bufferedBytes();
    }
    held.bufferedBytes += bytes - bufferedBytes;
    bufferedBytes = bytes;
    long heap = heapBytes();
    held.heapBytes += heap - heldHeapBytes;
    heldHeapBytes = heap;
  }

  private boolean dictionaryUsed() {
    return dictionary != null && dictionary.used();
  }

  /** Non-null values in the chunk's closed pages. */
  long nonNullValues() {
    return nonNullValues;
  }

  CompressionCodec codec() {
    return compressor.codec();
  }

  /**
   * Appends the chunk's closed pages as {@link #writeTo} would write them now (the dictionary page
   * first, if used) to {@code out}, changing nothing: a reader of them sees what the row group
   * holds of this column so far. Returns their level entries (the chunk's num_values).
   */
  long copyPagesTo(GrowableBuffer out) {
    if (dictionaryUsed()) {
      scratch.values.reset();
      dictionary.builder().writeDictionaryPage(scratch.values);
      assembler.appendDictionaryPage(
          dictionary.builder().dictionarySize(), dictionaryPageEncoding, out);
    }
    out.write(pages);
    return valueCount;
  }

  /** Records in the chunk's closed pages. */
  long rows() {
    return rows;
  }

  /** Encodes and keeps a closed page; the caller clears it afterwards. */
  void addPage(PageBuffer page) {
    boolean trying = dictionary != null && dictionary.active();
    if (trying && !dictionary.used() && page.values > ChunkDictionary.TRIAL_VALUES) {
      dictionary.tryOnFirstValues(page);
    }
    int head = dictionary != null && dictionary.active() ? dictionary.narrowerHead(page) : 0;
    if (head > 0) {
      dictionary.pageDone();
      int entry = dictionary.entryOfValue(page, head);
      addPage(page.slice(typeLength, 0, entry, 0, head));
      addPage(page.slice(typeLength, entry, page.entries, head, page.values));
      return;
    }
    Encoding encoding = encodeValues(page);
    if (dictionary != null) {
      dictionary.pageDone(); // the writer reuses one PageBuffer: never trust the indices later
    }
    pageStatistics.reset();
    pageStatistics.nullCount = page.entries - page.values;
    if (encoding == dictionaryDataEncoding
        && page.values > 0
        && pageStatistics instanceof BinaryStatistics binary) {
      // The page's dictionary indices say which values are equal: compare each distinct one once.
      binary.addValuesOncePerIndex(
          page, scratch.indices(page.values), dictionary.seenIndices(), dictionary.nextPageStamp());
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
    nonNullValues += page.values;
    rows += page.rows;
    unencodedByteArrayBytes += unencoded;
    updateBufferedBytes();
  }

  /** Encodes the page's values into {@code scratch.values}; returns the encoding used. */
  private Encoding encodeValues(PageBuffer page) {
    GrowableBuffer out = scratch.values;
    out.reset();
    int n = page.values;
    if (n == 0) {
      return Encoding.PLAIN; // no values: an empty PLAIN section, whatever the column uses
    }
    if (dictionary != null && dictionary.active() && dictionary.encode(page, out)) {
      return dictionaryDataEncoding;
    }
    ValuesEncoder encoder = fallbackEncoder(page);
    PageValues.writeTo(page, encoder);
    encoder.flushTo(out);
    return fallbackEncoding;
  }

  private ValuesEncoder fallbackEncoder(PageBuffer page) {
    if (fallbackEncoder == null) {
      fallbackEncoder =
          fixedFallback != null
              ? ValuesCodecs.encoder(fixedFallback, type, typeLength)
              : FallbackEncodings.measure(column.primitive(), policy, page, compressor, scratch);
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
    if (dictionaryUsed()) {
      scratch.values.reset();
      dictionary.builder().writeDictionaryPage(scratch.values);
      GrowableBuffer page = scratch.trial;
      page.reset();
      assembler.appendDictionaryPage(
          dictionary.builder().dictionarySize(), dictionaryPageEncoding, page);
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
            statisticsEnabled ? statisticsFormat.toThrift(chunkStatistics) : null,
            encodingStats(),
            null,
            null,
            sizeStatistics(),
            null);
    WrittenChunk written =
        new WrittenChunk(
            metaData,
            pageIndexEnabled && statisticsEnabled && !columnIndexRedundant(metaData.statistics())
                ? pageIndex.columnIndex()
                : null,
            pageIndexEnabled ? pageIndex.offsetIndex(dataOffset) : null,
            bloomFilter != null ? bloomFilter.take() : null);
    reset();
    return written;
  }

  /**
   * Whether the chunk's statistics already say all a column index would: one data page, whose
   * bounds and null count are the chunk's. Readers that prune by page then prune this chunk by its
   * statistics, exactly as far; the index would only cost its bytes (about 40 per chunk, which for
   * a narrow, well-compressed column is a measurable share of the file). The offset index is still
   * written: parquet-java reads pages by row range only when every projected column has one.
   */
  private boolean columnIndexRedundant(Statistics statistics) {
    if (pageIndex.pageCount() != 1 || statistics == null || statistics.nullCount() == null) {
      return false;
    }
    boolean allNull = statistics.nullCount() == valueCount;
    return allNull || (statistics.minValue() != null && statistics.maxValue() != null);
  }

  /** Every encoding the chunk uses: dictionary page, levels, data pages. */
  private List<Encoding> encodings() {
    Set<Encoding> used = new LinkedHashSet<>();
    if (dictionaryUsed()) {
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
    if (dictionaryUsed()) {
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
    // A sink keeps thousands of files open: an array grown for a whole chunk is not kept for the
    // next one, which may be as small (the memory budget counts what is kept).
    pages.release(INITIAL_PAGES_CAPACITY);
    uncompressedPageBytes = 0;
    valueCount = 0;
    nonNullValues = 0;
    rows = 0;
    unencodedByteArrayBytes = 0;
    Arrays.fill(pagesByEncoding, 0);
    histograms.clearChunk();
    chunkStatistics.reset();
    pageIndex.clear();
    if (dictionary != null) {
      dictionary.reset();
    }
    updateBufferedBytes();
  }
}
