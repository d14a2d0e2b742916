package dev.parquetconnect.format.read;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.SchemaConverter;
import java.io.Closeable;
import java.io.IOException;
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
  private final SeekableInput input;
  private final ReadOptions options;
  private final FileMetaData metadata;
  private final MessageType schema;
  private final ChunkRange[][] chunkRanges;

  private ParquetFileReader(
      SeekableInput input,
      ReadOptions options,
      FileMetaData metadata,
      MessageType schema,
      ChunkRange[][] chunkRanges) {
    this.input = input;
    this.options = options;
    this.metadata = metadata;
    this.schema = schema;
    this.chunkRanges = chunkRanges;
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
    return new ParquetFileReader(input, options, metadata, schema, ranges);
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
