package dev.parquetconnect.format.read;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.filter.BloomFilter;
import dev.parquetconnect.format.filter.BloomFilters;
import dev.parquetconnect.format.filter.BoundPredicate;
import dev.parquetconnect.format.filter.PageIndexes;
import dev.parquetconnect.format.filter.PageRows;
import dev.parquetconnect.format.filter.RowRanges;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.BloomFilterHeader;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnIndex;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.Decoded;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.OffsetIndex;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.SchemaConverter;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * An open Parquet file: its footer, checked, and readers for its data. {@link #open} reads the
 * footer with one ranged read of the file's tail, refuses encrypted files, builds the schema and
 * checks every row group and column chunk against the schema and the file size before any page is
 * read. Data is then read through {@link #rowReader} (records) or {@link #columnReader} (column
 * batches), each fetching only the byte ranges of the columns asked for.
 *
 * <p>The reader owns its input: {@link #close()} closes it. Not thread-safe.
 */
public final class ParquetFileReader implements Closeable {
  /** Bytes read for a bloom filter header whose length the metadata does not give. */
  private static final int BLOOM_HEADER_GUESS = 64;

  /** The largest bloom filter read (parquet-java writes none larger). */
  private static final int MAX_BLOOM_FILTER_BYTES = 128 << 20;

  private final SeekableInput input;
  private final ReadOptions options;
  private final FileMetaData metadata;
  private final MessageType schema;
  private final ChunkRange[][] chunkRanges;

  /** Where the footer starts: page indexes and bloom filters lie before it. */
  private final long dataEnd;

  private ParquetFileReader(
      SeekableInput input,
      ReadOptions options,
      FileMetaData metadata,
      MessageType schema,
      ChunkRange[][] chunkRanges,
      long dataEnd) {
    this.input = input;
    this.options = options;
    this.metadata = metadata;
    this.schema = schema;
    this.chunkRanges = chunkRanges;
    this.dataEnd = dataEnd;
  }

  public static ParquetFileReader open(SeekableInput input) throws IOException, ParquetException {
    return open(input, ReadOptions.defaults());
  }

  /**
   * Reads and checks the footer of {@code input}. On failure the input is left open for the caller
   * to close.
   *
   * @throws dev.parquetconnect.format.UnsupportedFeatureException for an encrypted file
   * @throws dev.parquetconnect.format.CorruptDataException for a damaged footer, or offsets and
   *     lengths the file cannot hold
   */
  public static ParquetFileReader open(SeekableInput input, ReadOptions options)
      throws IOException, ParquetException {
    FooterReader.Footer footer = FooterReader.read(input, options);
    FileMetaData metadata = footer.metadata();
    MessageType schema;
    try {
      schema = SchemaConverter.fromSchemaElements(metadata.schema());
    } catch (ParquetException e) {
      throw e.at(input.name(), null, footer.start());
    }
    ChunkRange[][] ranges = ChunkLayout.of(metadata, schema, footer.start(), input.name());
    return new ParquetFileReader(input, options, metadata, schema, ranges, footer.start());
  }

  public String name() {
    return input.name();
  }

  public ReadOptions options() {
    return options;
  }

  public FileMetaData metadata() {
    return metadata;
  }

  public MessageType schema() {
    return schema;
  }

  public List<RowGroup> rowGroups() {
    return metadata.rowGroups();
  }

  /**
   * Rows in the file: the sum over row groups (some writers get the footer's own total wrong),
   * saturated at {@code Long.MAX_VALUE} for counts no real file has.
   */
  public long rowCount() {
    long rows = 0;
    for (RowGroup rowGroup : metadata.rowGroups()) {
      rows += rowGroup.numRows();
      if (rows < 0) {
        return Long.MAX_VALUE;
      }
    }
    return rows;
  }

  /** Projection on the columns at or under these dotted paths; see {@link Projection}. */
  public Projection projection(Collection<String> dottedPaths) {
    return Projection.ofColumns(schema, dottedPaths);
  }

  /** Every record of the file, with all columns. */
  public RowReader rowReader() {
    return new RowReader(this, Projection.all(schema));
  }

  /** Every record of the file, with the projected columns only. */
  public RowReader rowReader(Projection projection) {
    if (projection.fileSchema() != schema && !projection.fileSchema().equals(schema)) {
      throw new IllegalArgumentException("the projection was made for another schema");
    }
    return new RowReader(this, projection);
  }

  /**
   * The records of the file that match {@code filter} (bound to this file's schema), with the
   * projected columns only. Row groups are skipped by their statistics and bloom filters, pages by
   * the column and offset indexes, then each remaining row is tested; see {@link RowReader}.
   */
  public RowReader rowReader(Projection projection, BoundPredicate filter) {
    if (filter.schema() != schema && !filter.schema().equals(schema)) {
      throw new IllegalArgumentException("the predicate was bound to another schema");
    }
    RowReader reader = rowReader(projection);
    reader.filter(filter);
    return reader;
  }

  /**
   * The rows of row group {@code rowGroup} that may match {@code filter}, as far as the metadata
   * tells: none when the statistics or bloom filters rule the row group out, else the rows of the
   * pages the page indexes keep. Only footer, page index and bloom filter bytes are read.
   */
  public RowRanges candidateRows(int rowGroup, BoundPredicate filter)
      throws IOException, ParquetException {
    return candidateRows(rowGroup, filter, pageIndexes(rowGroup));
  }

  /** {@link #candidateRows(int, BoundPredicate)} with page indexes already (partly) read. */
  RowRanges candidateRows(int rowGroup, BoundPredicate filter, PageIndexes indexes)
      throws IOException, ParquetException {
    RowGroup group = metadata.rowGroups().get(rowGroup);
    if (filter.isAlwaysFalse() || !filter.mightMatch(group, metadata.columnOrders())) {
      return RowRanges.empty();
    }
    if (!filter.mightMatchBloom(bloomFilters(rowGroup))) {
      return RowRanges.empty();
    }
    return filter.candidateRows(group.numRows(), indexes, metadata.columnOrders());
  }

  /**
   * The rows of row group {@code rowGroup} that match {@code filter}, exactly: pruned as {@link
   * #candidateRows} does, then tested row by row, reading only the filter's columns (and of them
   * only the candidate pages). For a reader of its own that skips to the matching rows (the
   * source's record reader), or with {@link #columnReader(int, ColumnDescriptor, RowRanges)}.
   */
  public RowRanges matchingRows(int rowGroup, BoundPredicate filter)
      throws IOException, ParquetException {
    if (filter.schema() != schema && !filter.schema().equals(schema)) {
      throw new IllegalArgumentException("the predicate was bound to another schema");
    }
    List<String> paths = new ArrayList<>();
    for (ColumnDescriptor c : filter.columns()) {
      paths.add(c.dottedPath());
    }
    RowRanges.Builder matching = new RowRanges.Builder();
    if (paths.isEmpty()) {
      // A predicate of constants: all rows or none.
      return filter.isAlwaysTrue()
          ? RowRanges.all(metadata.rowGroups().get(rowGroup).numRows())
          : RowRanges.empty();
    }
    try (RowReader rows = new RowReader(this, Projection.ofColumns(schema, paths))) {
      rows.filter(filter);
      rows.startAtRowGroup(rowGroup);
      rows.endBefore(rowGroup + 1);
      while (rows.hasNext()) {
        rows.next();
        matching.add(rows.rowInGroup() - 1, rows.rowInGroup());
      }
    }
    return matching.build();
  }

  /**
   * The page indexes of one row group, each read once when first asked for (the returned object
   * caches them).
   */
  public PageIndexes pageIndexes(int rowGroup) {
    int columns = schema.columns().size();
    return new PageIndexes() {
      private final ColumnIndex[] columnIndexes = new ColumnIndex[columns];
      private final OffsetIndex[] offsetIndexes = new OffsetIndex[columns];
      private final boolean[] columnIndexRead = new boolean[columns];
      private final boolean[] offsetIndexRead = new boolean[columns];

      @Override
      public ColumnIndex columnIndex(int column) throws IOException, ParquetException {
        if (!columnIndexRead[column]) {
          columnIndexes[column] =
              ParquetFileReader.this.columnIndex(rowGroup, schema.column(column));
          columnIndexRead[column] = true;
        }
        return columnIndexes[column];
      }

      @Override
      public OffsetIndex offsetIndex(int column) throws IOException, ParquetException {
        if (!offsetIndexRead[column]) {
          offsetIndexes[column] =
              ParquetFileReader.this.offsetIndex(rowGroup, schema.column(column));
          offsetIndexRead[column] = true;
        }
        return offsetIndexes[column];
      }
    };
  }

  /** The bloom filters of one row group, read when asked for. */
  public BloomFilters bloomFilters(int rowGroup) {
    return column -> bloomFilter(rowGroup, schema.column(column));
  }

  /** The column index of a column chunk, or null when it has none. */
  public ColumnIndex columnIndex(int rowGroup, ColumnDescriptor column)
      throws IOException, ParquetException {
    ColumnChunk chunk = metadata.rowGroups().get(rowGroup).columns().get(columnIndex(column));
    if (chunk.columnIndexOffset() == null || chunk.columnIndexLength() == null) {
      return null;
    }
    long offset = chunk.columnIndexOffset();
    byte[] bytes = readStructure(offset, chunk.columnIndexLength(), "column index", column);
    try {
      return MetadataCodec.readColumnIndex(bytes, 0, bytes.length);
    } catch (ParquetException e) {
      throw e.at(name(), column.dottedPath(), offset);
    }
  }

  /** The offset index of a column chunk, or null when it has none. */
  public OffsetIndex offsetIndex(int rowGroup, ColumnDescriptor column)
      throws IOException, ParquetException {
    ColumnChunk chunk = metadata.rowGroups().get(rowGroup).columns().get(columnIndex(column));
    if (chunk.offsetIndexOffset() == null || chunk.offsetIndexLength() == null) {
      return null;
    }
    long offset = chunk.offsetIndexOffset();
    byte[] bytes = readStructure(offset, chunk.offsetIndexLength(), "offset index", column);
    try {
      return MetadataCodec.readOffsetIndex(bytes, 0, bytes.length);
    } catch (ParquetException e) {
      throw e.at(name(), column.dottedPath(), offset);
    }
  }

  /**
   * The bloom filter of a column chunk, or null when it has none or one of an algorithm, hash or
   * compression this reader does not know.
   */
  public BloomFilter bloomFilter(int rowGroup, ColumnDescriptor column)
      throws IOException, ParquetException {
    ColumnMetaData meta =
        metadata.rowGroups().get(rowGroup).columns().get(columnIndex(column)).metaData();
    if (meta == null || meta.bloomFilterOffset() == null) {
      return null;
    }
    long offset = meta.bloomFilterOffset();
    Integer length = meta.bloomFilterLength();
    try {
      byte[] bytes;
      if (length != null) {
        bytes = readStructure(offset, length, "bloom filter", column);
      } else {
        // Without a length, the header comes first (a few bytes), then the bitset it sizes.
        int guess = (int) Math.max(0, Math.min(BLOOM_HEADER_GUESS, dataEnd - offset));
        bytes = readStructure(offset, guess, "bloom filter header", column);
      }
      Decoded<BloomFilterHeader> header =
          MetadataCodec.readBloomFilterHeader(bytes, 0, bytes.length);
      if (!header.value().isSupported()) {
        return null;
      }
      int numBytes = header.value().numBytes();
      if (numBytes <= 0 || numBytes > MAX_BLOOM_FILTER_BYTES) {
        throw new CorruptDataException("a bloom filter of " + numBytes + " bytes");
      }
      if (length == null) {
        byte[] bitset =
            readStructure(offset + header.length(), numBytes, "bloom filter bitset", column);
        return BloomFilter.ofBitset(bitset, 0, numBytes);
      }
      if (numBytes > bytes.length - header.length()) {
        throw new CorruptDataException(
            "a bloom filter of "
                + numBytes
                + " bytes does not fit the "
                + length
                + " bytes the column chunk gives it");
      }
      return BloomFilter.ofBitset(bytes, header.length(), numBytes);
    } catch (ParquetException e) {
      throw e.at(name(), column.dottedPath(), offset);
    }
  }

  /** A structure of the file between the leading magic and the footer, checked first. */
  private byte[] readStructure(long offset, long length, String what, ColumnDescriptor column)
      throws IOException, ParquetException {
    if (offset < 4 || length <= 0 || offset > dataEnd || length > dataEnd - offset) {
      throw new CorruptDataException(
              "the "
                  + what
                  + " ["
                  + offset
                  + ", +"
                  + length
                  + ") is not inside the data region [4, "
                  + dataEnd
                  + ") of the file")
          .at(name(), column.dottedPath(), offset);
    }
    if (length > options.maxFooterSize()) {
      throw new UnsupportedFeatureException(
              "a "
                  + what
                  + " of "
                  + length
                  + " bytes exceeds the reader's limit of "
                  + options.maxFooterSize()
                  + " bytes (ReadOptions.maxFooterSize)")
          .at(name(), column.dottedPath(), offset);
    }
    byte[] bytes = new byte[(int) length];
    input.readFully(offset, bytes, 0, bytes.length);
    return bytes;
  }

  /**
   * The levels and values of the rows {@code rows} of one column chunk and maybe a few more: with
   * an offset index only the pages holding rows of {@code rows} are read, each batch then covering
   * consecutive rows from {@link ColumnReader#batchStartRow()}; without one, every page.
   */
  public ColumnReader columnReader(int rowGroup, ColumnDescriptor column, RowRanges rows)
      throws IOException, ParquetException {
    return columnReader(rowGroup, column, rows, null);
  }

  /** As {@link #columnReader(int, ColumnDescriptor, RowRanges)}, the offset index from indexes. */
  ColumnReader columnReader(
      int rowGroup, ColumnDescriptor column, RowRanges rows, PageIndexes indexes)
      throws IOException, ParquetException {
    long rowCount = metadata.rowGroups().get(rowGroup).numRows();
    if (rows.rowCount() == rowCount) {
      return columnReader(rowGroup, column);
    }
    OffsetIndex offsets =
        indexes == null ? offsetIndex(rowGroup, column) : indexes.offsetIndex(columnIndex(column));
    if (offsets == null || !PageRows.consistent(offsets.pageLocations(), rowCount)) {
      return columnReader(rowGroup, column);
    }
    int index = columnIndex(column);
    PagePlan plan = PagePlan.of(offsets.pageLocations(), rows, rowCount);
    ColumnChunkReader chunk =
        new ColumnChunkReader(
            input,
            name(),
            schema.column(index),
            metadata.rowGroups().get(rowGroup).columns().get(index).metaData(),
            chunkRanges[rowGroup][index],
            options,
            plan);
    return new ColumnReader(chunk, name(), rowCount);
  }

  /** The pages of one column chunk, for tools that look at pages themselves. */
  public ColumnChunkReader chunkReader(int rowGroup, ColumnDescriptor column) {
    int index = columnIndex(column);
    return new ColumnChunkReader(
        input,
        name(),
        schema.column(index),
        metadata.rowGroups().get(rowGroup).columns().get(index).metaData(),
        chunkRanges[rowGroup][index],
        options);
  }

  /** The levels and values of one column chunk, in batches. */
  public ColumnReader columnReader(int rowGroup, ColumnDescriptor column) {
    return new ColumnReader(
        chunkReader(rowGroup, column), name(), metadata.rowGroups().get(rowGroup).numRows());
  }

  /** The file column {@code column} stands for (its index, checked to be this schema's). */
  private int columnIndex(ColumnDescriptor column) {
    int index = column.index();
    if (index < 0
        || index >= schema.columns().size()
        || !schema.column(index).path().equals(column.path())) {
      throw new IllegalArgumentException("column " + column + " is not a column of " + name());
    }
    return index;
  }

  @Override
  public void close() throws IOException {
    input.close();
  }
}
