package dev.parquetconnect.format.read;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.compress.Decompressor;
import dev.parquetconnect.format.encoding.Dictionary;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.DataPageHeader;
import dev.parquetconnect.format.meta.DataPageHeaderV2;
import dev.parquetconnect.format.meta.Decoded;
import dev.parquetconnect.format.meta.DictionaryPageHeader;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PageHeader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import java.io.IOException;
import java.util.zip.CRC32;

/**
 * Streams the pages of one column chunk with positioned reads: a page header (read ahead by a
 * little, grown only up to {@link ReadOptions#maxPageHeaderSize()} for a long one), then the page's
 * bytes. Each page's CRC is checked when present, its sizes are checked against the chunk, the
 * codec and {@link ReadOptions#maxPageSize()} before anything is allocated, and it is decompressed
 * into a buffer reused from page to page. A dictionary page (the first page, whether or not the
 * metadata points at it) is decoded into {@link #dictionary()}; index pages are skipped. At most
 * one compressed and one decompressed page are held at a time.
 *
 * <p>The chunk ends when its pages have delivered the metadata's {@code num_values} levels; a chunk
 * whose bytes run out first, or whose pages hold more, is corrupt. Every error names the file, the
 * column and the offset of the page header.
 */
public final class ColumnChunkReader implements AutoCloseable {
  /** Bytes read past a page for the next page's header, and the first guess at a header. */
  private static final int HEADER_READ_AHEAD = 1024;

  private final String file;
  private final ColumnDescriptor column;
  private final String columnName;
  private final ColumnMetaData meta;
  private final CompressionCodec codec;
  private final ReadOptions options;
  private final ChunkWindow window;
  private final DataPage page = new DataPage();
  private final CRC32 crc = new CRC32();
  private Decompressor decompressor;
  private byte[] pageBuffer = new byte[0];
  private Dictionary dictionary;

  /** File position of the next page header. */
  private long position;

  /** Levels the data pages read so far announced. */
  private long valuesSeen;

  private boolean sawDataPage;

  /** The pages to read when some are skipped (by the offset index), else null: every page. */
  private final PagePlan plan;

  /** The next planned page to read. */
  private int planned;

  ColumnChunkReader(
      SeekableInput in,
      String file,
      ColumnDescriptor column,
      ColumnMetaData meta,
      ChunkRange range,
      ReadOptions options) {
    this(in, file, column, meta, range, options, null);
  }

  ColumnChunkReader(
      SeekableInput in,
      String file,
      ColumnDescriptor column,
      ColumnMetaData meta,
      ChunkRange range,
      ReadOptions options,
      PagePlan plan) {
    this.file = file;
    this.plan = plan;
    this.column = column;
    this.columnName = column.dottedPath();
    this.meta = meta;
    this.codec = meta.codec();
    this.options = options;
    this.window = new ChunkWindow(in, range);
    this.position = range.start();
  }

  public ColumnDescriptor column() {
    return column;
  }

  /** The chunk's metadata from the footer. */
  public ColumnMetaData metadata() {
    return meta;
  }

  /** The dictionary of the chunk, once its dictionary page has been read; else null. */
  public Dictionary dictionary() {
    return dictionary;
  }

  /**
   * The next data page, decompressed, or null when the chunk has no more. The page and its buffer
   * are reused by the next call.
   */
  public DataPage nextPage() throws IOException, ParquetException {
    if (plan != null) {
      return nextPlannedPage();
    }
    long headerOffset = position;
    try {
      while (valuesSeen < meta.numValues()) {
        headerOffset = position;
        if (position >= window.chunkEnd()) {
          throw new CorruptDataException(
              "the column chunk ends after "
                  + valuesSeen
                  + " of its "
                  + meta.numValues()
                  + " values");
        }
        Decoded<PageHeader> decoded = readHeader();
        PageHeader header = decoded.value();
        long bodyStart = position + decoded.length();
        int compressed = header.compressedPageSize();
        if (compressed > window.chunkEnd() - bodyStart) {
          throw new CorruptDataException(
              "a page of "
                  + compressed
                  + " bytes runs past the end"
                  + " of the column chunk at "
                  + window.chunkEnd());
        }
        position = bodyStart + compressed;
        switch (header.type()) {
          case INDEX_PAGE -> {
            // Nothing in an index page is needed to read the data: skip its bytes unread.
          }
          case DICTIONARY_PAGE -> readDictionary(header, bodyStart);
          case DATA_PAGE -> {
            readDataPageV1(header, bodyStart, headerOffset);
            return page;
          }
          case DATA_PAGE_V2 -> {
            readDataPageV2(header, bodyStart, headerOffset);
            return page;
          }
        }
      }
      return null;
    } catch (ParquetException e) {
      throw e.at(file, columnName, headerOffset);
    }
  }

  /**
   * The next page of the plan: the pages before the first data page (a dictionary) are read as
   * usual; then each planned page at the offset its offset index gives, fetched as exactly its
   * bytes. A page whose header does not agree with the offset index is corrupt.
   */
  private DataPage nextPlannedPage() throws IOException, ParquetException {
    long headerOffset = position;
    try {
      while (position < plan.firstPageOffset()) {
        headerOffset = position;
        Decoded<PageHeader> decoded = readHeader(plan.firstPageOffset() - position);
        PageHeader header = decoded.value();
        long bodyStart = position + decoded.length();
        int compressed = header.compressedPageSize();
        if (compressed > plan.firstPageOffset() - bodyStart) {
          throw new CorruptDataException(
              "a page of "
                  + compressed
                  + " bytes runs past the first data page the offset index gives, at "
                  + plan.firstPageOffset());
        }
        position = bodyStart + compressed;
        switch (header.type()) {
          case DICTIONARY_PAGE -> readDictionary(header, bodyStart);
          case INDEX_PAGE -> {
            // Nothing in an index page is needed to read the data.
          }
          default ->
              throw new CorruptDataException(
                  "a data page before the first data page the offset index gives, at "
                      + plan.firstPageOffset());
        }
      }
      if (planned == plan.count()) {
        return null;
      }
      int k = planned++;
      long offset = plan.offset(k);
      int size = plan.size(k);
      headerOffset = offset;
      if (offset < position || size <= 0 || size > window.chunkEnd() - offset) {
        throw new CorruptDataException(
            "the offset index places a page of "
                + size
                + " bytes at "
                + offset
                + ", outside the column chunk's remaining bytes ["
                + position
                + ", "
                + window.chunkEnd()
                + ")");
      }
      if (size > (long) options.maxPageSize() + options.maxPageHeaderSize()) {
        throw new UnsupportedFeatureException(
            "a page of "
                + size
                + " bytes exceeds the reader's limit of "
                + options.maxPageSize()
                + " bytes (ReadOptions.maxPageSize)");
      }
      position = offset;
      window.fill(offset, size, 0);
      Decoded<PageHeader> decoded = readHeader(size);
      PageHeader header = decoded.value();
      long bodyStart = position + decoded.length();
      if (decoded.length() + (long) header.compressedPageSize() != size) {
        throw new CorruptDataException(
            "the page's header and body take "
                + (decoded.length() + (long) header.compressedPageSize())
                + " bytes but the offset index says "
                + size);
      }
      position = bodyStart + header.compressedPageSize();
      switch (header.type()) {
        case DATA_PAGE -> readDataPageV1(header, bodyStart, headerOffset);
        case DATA_PAGE_V2 -> readDataPageV2(header, bodyStart, headerOffset);
        default ->
            throw new CorruptDataException(
                "the offset index points at a " + header.type() + ", not a data page");
      }
      return page;
    } catch (ParquetException e) {
      throw e.at(file, columnName, headerOffset);
    }
  }

  /** The first row of the page {@link #nextPage()} returned last, when pages are planned. */
  long plannedPageFirstRow() {
    return plan.firstRow(planned - 1);
  }

  /** The row after the last of the page {@link #nextPage()} returned last, when planned. */
  long plannedPageEndRow() {
    return plan.endRow(planned - 1);
  }

  boolean isPlanned() {
    return plan != null;
  }

  private Decoded<PageHeader> readHeader() throws IOException, ParquetException {
    return readHeader(window.chunkEnd() - position);
  }

  /**
   * Decodes the header at {@link #position}, within {@code available} bytes, widening the read
   * until the header fits.
   */
  private Decoded<PageHeader> readHeader(long available) throws IOException, ParquetException {
    int limit = (int) Math.min(available, options.maxPageHeaderSize());
    int want = Math.min(limit, HEADER_READ_AHEAD);
    while (true) {
      int at = window.fill(position, want, 0);
      try {
        return MetadataCodec.readPageHeader(window.array(), at, want);
      } catch (CorruptDataException e) {
        // A header longer than the bytes at hand fails the same way as a damaged one: retry
        // with more bytes until the limit, and only then call it damaged.
        if (want >= limit) {
          if (limit < available) {
            throw new CorruptDataException(
                "no page header within "
                    + options.maxPageHeaderSize()
                    + " bytes (ReadOptions.maxPageHeaderSize): "
                    + e.reason(),
                e);
          }
          throw e;
        }
        want = (int) Math.min(limit, (long) want * 4);
      }
    }
  }

  /** Reads the page body into the window (and the next header's first bytes); its offset. */
  private int readBody(PageHeader header, long bodyStart) throws IOException, ParquetException {
    int compressed = header.compressedPageSize();
    int uncompressed = header.uncompressedPageSize();
    if (compressed > options.maxPageSize() || uncompressed > options.maxPageSize()) {
      throw new UnsupportedFeatureException(
          "a page of "
              + compressed
              + " compressed and "
              + uncompressed
              + " uncompressed bytes exceeds the reader's limit of "
              + options.maxPageSize()
              + " bytes (ReadOptions.maxPageSize)");
    }
    int at = window.fill(bodyStart, compressed, plan == null ? HEADER_READ_AHEAD : 0);
    if (options.verifyChecksums() && header.crc() != null) {
      crc.reset();
      crc.update(window.array(), at, compressed);
      int actual = (int) crc.getValue();
      if (actual != header.crc()) {
        throw new CorruptDataException(
            String.format(
                "page CRC mismatch: the header says %08x, the page's bytes give %08x",
                header.crc(), actual));
      }
    }
    return at;
  }

  private void readDictionary(PageHeader header, long bodyStart)
      throws IOException, ParquetException {
    DictionaryPageHeader dict = header.dictionaryPageHeader();
    if (dict == null) {
      throw new CorruptDataException("a DICTIONARY_PAGE without a dictionary_page_header");
    }
    if (sawDataPage || dictionary != null) {
      throw new CorruptDataException("a dictionary page after the chunk's first page");
    }
    if (dict.encoding() != Encoding.PLAIN && dict.encoding() != Encoding.PLAIN_DICTIONARY) {
      throw new UnsupportedFeatureException(
          "a dictionary page in encoding " + dict.encoding() + " (only PLAIN is defined)");
    }
    int at = readBody(header, bodyStart);
    int length = header.uncompressedPageSize();
    byte[] bytes;
    int offset;
    if (codec == CompressionCodec.UNCOMPRESSED) {
      requireEqualSizes(header);
      bytes = window.array();
      offset = at;
    } else {
      bytes = decompress(window.array(), at, header.compressedPageSize(), 0, length);
      offset = 0;
    }
    dictionary =
        Dictionary.decode(
            column.primitive().type(),
            column.primitive().typeLength(),
            bytes,
            offset,
            length,
            dict.numValues());
  }

  private void readDataPageV1(PageHeader header, long bodyStart, long headerOffset)
      throws IOException, ParquetException {
    DataPageHeader data = header.dataPageHeader();
    if (data == null) {
      throw new CorruptDataException("a DATA_PAGE without a data_page_header");
    }
    startDataPage(data.numValues(), headerOffset);
    int at = readBody(header, bodyStart);
    page.v2 = false;
    page.numNulls = -1;
    page.numRows = -1;
    page.valueEncoding = data.encoding();
    page.repetitionLevelEncoding = data.repetitionLevelEncoding();
    page.definitionLevelEncoding = data.definitionLevelEncoding();
    page.repetitionLevelsLength = -1;
    page.definitionLevelsLength = -1;
    page.length = header.uncompressedPageSize();
    if (codec == CompressionCodec.UNCOMPRESSED) {
      requireEqualSizes(header);
      page.data = window.array();
      page.offset = at;
    } else {
      page.data = decompress(window.array(), at, header.compressedPageSize(), 0, page.length);
      page.offset = 0;
    }
  }

  private void readDataPageV2(PageHeader header, long bodyStart, long headerOffset)
      throws IOException, ParquetException {
    DataPageHeaderV2 data = header.dataPageHeaderV2();
    if (data == null) {
      throw new CorruptDataException("a DATA_PAGE_V2 without a data_page_header_v2");
    }
    startDataPage(data.numValues(), headerOffset);
    int repLength = data.repetitionLevelsByteLength();
    int defLength = data.definitionLevelsByteLength();
    int compressed = header.compressedPageSize();
    int uncompressed = header.uncompressedPageSize();
    long levels = (long) repLength + defLength;
    if (repLength < 0 || defLength < 0 || levels > compressed || levels > uncompressed) {
      throw new CorruptDataException(
          "level lengths "
              + repLength
              + " + "
              + defLength
              + " do not fit a page of "
              + compressed
              + " compressed and "
              + uncompressed
              + " uncompressed bytes");
    }
    if (data.numNulls() < 0 || data.numNulls() > data.numValues() || data.numRows() < 0) {
      throw new CorruptDataException(
          "a v2 page of "
              + data.numValues()
              + " values declares "
              + data.numNulls()
              + " nulls and "
              + data.numRows()
              + " rows");
    }
    int at = readBody(header, bodyStart);
    page.v2 = true;
    page.numNulls = data.numNulls();
    page.numRows = data.numRows();
    page.valueEncoding = data.encoding();
    page.repetitionLevelEncoding = null;
    page.definitionLevelEncoding = null;
    page.repetitionLevelsLength = repLength;
    page.definitionLevelsLength = defLength;
    page.length = uncompressed;
    if (codec == CompressionCodec.UNCOMPRESSED || !data.valuesCompressed()) {
      requireEqualSizes(header);
      page.data = window.array();
      page.offset = at;
    } else {
      // Levels are stored uncompressed before the compressed values: join both in one buffer.
      int levelBytes = (int) levels;
      byte[] out =
          decompress(
              window.array(),
              at + levelBytes,
              compressed - levelBytes,
              levelBytes,
              uncompressed - levelBytes);
      System.arraycopy(window.array(), at, out, 0, levelBytes);
      page.data = out;
      page.offset = 0;
    }
  }

  private void startDataPage(int numValues, long headerOffset) throws CorruptDataException {
    if (numValues < 0 || numValues > meta.numValues() - valuesSeen) {
      throw new CorruptDataException(
          "a data page of "
              + numValues
              + " values, but only "
              + (meta.numValues() - valuesSeen)
              + " of the chunk's "
              + meta.numValues()
              + " remain");
    }
    valuesSeen += numValues;
    sawDataPage = true;
    page.numValues = numValues;
    page.fileOffset = headerOffset;
  }

  private static void requireEqualSizes(PageHeader header) throws CorruptDataException {
    if (header.compressedPageSize() != header.uncompressedPageSize()) {
      throw new CorruptDataException(
          "an uncompressed page of "
              + header.compressedPageSize()
              + " bytes announces "
              + header.uncompressedPageSize()
              + " uncompressed bytes");
    }
  }

  /**
   * Decompresses {@code src[at, at + length)} into {@link #pageBuffer} at {@code dstOffset}, to
   * exactly {@code size} bytes, after checking the sizes against the codec.
   */
  private byte[] decompress(byte[] src, int at, int length, int dstOffset, int size)
      throws ParquetException {
    Codecs.checkSizes(codec, length, size);
    int needed = dstOffset + size;
    if (pageBuffer.length < needed) {
      pageBuffer =
          new byte
              [Math.max(
                  needed,
                  Math.min(options.maxPageSize(), pageBuffer.length + (pageBuffer.length >> 1)))];
    }
    if (decompressor == null) {
      decompressor = Codecs.decompressor(codec);
    }
    decompressor.decompress(src, at, length, pageBuffer, dstOffset, size);
    return pageBuffer;
  }

  /** Frees the buffers and the codec's native state. */
  @Override
  public void close() {
    window.release();
    pageBuffer = new byte[0];
    if (decompressor != null) {
      decompressor.close();
      decompressor = null;
    }
  }
}
