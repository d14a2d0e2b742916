package dev.parquetconnect.format.write;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.compress.Codecs;
import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaConverter;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a Parquet file to a stream, front to back, never seeking: {@code PAR1}, the row groups as
 * they complete, the column and offset indexes, the footer, its length and {@code PAR1}.
 *
 * <p>Records go in either through {@link #write(Row)} or column by column ({@link #column(int)}
 * then {@link #endRecord()}). A row group's column chunks are held in memory, encoded and
 * compressed, until the row group closes: when its buffered bytes reach the row group target, at
 * the row cap, or on {@link #flushRowGroup()}. Then each chunk is written, followed by the row
 * group's bloom filters (BloomFilter.md allows them between row groups; writing them there keeps
 * memory bounded by one row group). Memory is one row group plus an open page per column, and the
 * page index entries of the file (a few dozen bytes per page).
 *
 * <p>The stream is closed by {@link #close()}. After an {@link IOException} the file is incomplete
 * and the writer refuses further use. Not thread-safe; writers created on one thread share the
 * buffers a page passes through while it is encoded (a few hundred KiB), so such writers must not
 * close pages concurrently: use them from one thread at a time, as a sink task does.
 */
public final class ParquetFileWriter implements Closeable {
  /** Records between two checks of the buffered size when far from the target. */
  private static final long MAX_RECORDS_BETWEEN_CHECKS = 10_000;

  /**
   * The page scratch of the writers created on each thread. Pages close one at a time, so one set
   * serves every column of every file a thread writes: a sink with a thousand open files would
   * otherwise hold a thousand copies (330 KiB each).
   */
  private static final ThreadLocal<PageScratch> SCRATCH = ThreadLocal.withInitial(PageScratch::new);

  private final FileSink sink;
  private MessageType schema;
  private WriterOptions options;
  private ColumnChunkWriter[] columns;

  /** What the columns hold, kept up to date by them: asked after every record, summed never. */
  private final HeldBytes held = new HeldBytes();

  private final List<Compressor> compressors;

  /** The compressors by codec and level, shared by the columns ({@link #reshape} adds some). */
  private final Map<String, Compressor> compressorsByCodec = new HashMap<>();

  private RowShredder shredder;
  private int rowGroupsWritten;

  private final FileTail tail = new FileTail();

  /** The footer written by {@link #close()}, null until then. */
  private FileMetaData footer;

  private long rowGroupRecords;

  /** With aligned pages: the records of the open row group before each page break, in order. */
  private long[] pageBreaks = new long[16];

  private int pageBreakCount;
  private long totalRecords;
  private long nextSizeCheck = 1;
  private boolean closed;
  private boolean failed;

  /**
   * Starts a file on {@code out}, writing its leading magic.
   *
   * @throws UnsupportedFeatureException when a configured codec cannot run here
   * @throws IllegalArgumentException when an option does not fit a column (an encoding not defined
   *     for its type, a bloom filter on a BOOLEAN column)
   */
  public ParquetFileWriter(OutputStream out, MessageType schema, WriterOptions options)
      throws IOException, UnsupportedFeatureException {
    this.sink = new FileSink(Objects.requireNonNull(out, "out"));
    this.schema = Objects.requireNonNull(schema, "schema");
    this.options = Objects.requireNonNull(options, "options");
    checkFooterSchema(schema, options.footerSchema());
    List<Compressor> created = new ArrayList<>();
    List<ColumnDescriptor> descriptors = schema.columns();
    this.columns = new ColumnChunkWriter[descriptors.size()];
    try {
      for (int i = 0; i < columns.length; i++) {
        columns[i] = newColumn(schema, options, descriptors.get(i), created);
      }
    } catch (UnsupportedFeatureException | RuntimeException e) {
      created.forEach(Compressor::close);
      throw e;
    }
    this.compressors = created;
    try {
      write(FileTail.MAGIC, 0, FileTail.MAGIC.length);
    } catch (IOException e) {
      created.forEach(Compressor::close);
      throw e;
    }
  }

  /** Refuses footer schema elements that do not describe the schema the columns are written in. */
  private static void checkFooterSchema(MessageType schema, List<SchemaElement> footerSchema) {
    if (footerSchema == null) {
      return;
    }
    MessageType described;
    try {
      described = SchemaConverter.fromSchemaElements(footerSchema);
    } catch (CorruptDataException e) {
      throw new IllegalArgumentException("footer schema elements: " + e.getMessage(), e);
    }
    if (!described.equals(schema)) {
      throw new IllegalArgumentException(
          "the footer schema elements describe\n"
              + described
              + "\nnot the schema written\n"
              + schema);
    }
  }

  /** A writer for {@code column}, its compressor shared with the columns of the same codec. */
  private ColumnChunkWriter newColumn(
      MessageType in, WriterOptions with, ColumnDescriptor column, List<Compressor> created)
      throws UnsupportedFeatureException {
    ColumnOptions overrides = with.column(column.dottedPath());
    CompressionCodec codec = overrides.codec() != null ? overrides.codec() : with.codec();
    int level = overrides.codec() != null ? overrides.codecLevel() : with.codecLevel();
    // Columns with the same codec and level share one compressor: pages close one at a
    // time, and a native context per column would multiply memory by the column count.
    String key = codec + "/" + level;
    Compressor compressor = compressorsByCodec.get(key);
    if (compressor == null) {
      compressor = Codecs.compressor(codec, level);
      compressorsByCodec.put(key, compressor);
      created.add(compressor);
    }
    return new ColumnChunkWriter(
        column, repeatedFieldDefinitionLevels(in, column), with, compressor, SCRATCH.get(), held);
  }

  /**
   * Changes the schema of the file while none of its row groups is written yet (the footer, written
   * last, carries the schema; the open row group is all the file has of its records), as {@link
   * InPlaceReshape} describes: columns the file has keep their writers, columns whose type widens
   * are written again from their buffered pages in the wider type, new columns get the nulls their
   * rows so far have, at their parent's levels. With aligned pages the pages of the columns written
   * anew end where the other columns' pages end. {@code with} replaces the options (its key/value
   * metadata goes into the footer); {@code text} gives the text form of values a column widened to
   * a string holds (null: no column becomes a string in place).
   *
   * @return false, changing nothing, when a row group was written already (a column chunk of a new
   *     column would be missing from it) or a change touches what the file holds (a value without a
   *     form in the wider type, a dropped column with values, a group turned into a leaf): the
   *     caller must start a new file instead
   * @throws IllegalArgumentException when a new column's first new field is required
   * @throws UnsupportedFeatureException when a new column's codec cannot run here
   */
  public boolean reshape(MessageType wider, WriterOptions with, ValueText text)
      throws UnsupportedFeatureException {
    ensureOpen();
    Objects.requireNonNull(wider, "wider");
    Objects.requireNonNull(with, "with");
    if (rowGroupsWritten > 0) {
      return false;
    }
    List<InPlaceReshape.Step> steps = InPlaceReshape.plan(schema, columns, wider, text);
    if (steps == null) {
      return false;
    }
    List<ColumnDescriptor> descriptors = wider.columns();
    ColumnChunkWriter[] reshaped = new ColumnChunkWriter[descriptors.size()];
    List<Compressor> created = new ArrayList<>();
    try {
      for (int i = 0; i < reshaped.length; i++) {
        InPlaceReshape.Step step = steps.get(i);
        reshaped[i] =
            step.kept() != null ? step.kept() : newColumn(wider, with, descriptors.get(i), created);
      }
    } catch (UnsupportedFeatureException | RuntimeException e) {
      forget(created);
      throw e;
    }
    if (steps.stream().anyMatch(InPlaceReshape.Step::decodes)) {
      // Buffered pages are decoded from their closed form: close the open ones, every column
      // at the same record (a page break like any other).
      closeOpenPages();
    }
    try {
      for (int i = 0; i < reshaped.length; i++) {
        InPlaceReshape.Step step = steps.get(i);
        if (step.kept() == null) {
          InPlaceReshape.fill(
              reshaped[i],
              step,
              rowGroupRecords,
              options.alignedPages() ? pageBreaks : new long[0],
              options.alignedPages() ? pageBreakCount : 0,
              text);
        }
      }
    } catch (RuntimeException e) {
      forget(created);
      throw e;
    }
    compressors.addAll(created);
    columns = reshaped;
    // The totals counted the columns made for the new schema as they were filled; those of the
    // old schema that it does not keep are gone.
    recountHeldBytes();
    schema = wider;
    options = with;
    shredder = null;
    return true;
  }

  /** As {@link #reshape(MessageType, WriterOptions, ValueText)}, no column becoming text. */
  public boolean reshape(MessageType wider, WriterOptions with) throws UnsupportedFeatureException {
    return reshape(wider, with, null);
  }

  private void forget(List<Compressor> created) {
    for (Compressor c : created) {
      compressorsByCodec.values().remove(c);
      c.close();
    }
    // The columns made for a reshape that failed were counted as they were made.
    recountHeldBytes();
  }

  private void recountHeldBytes() {
    held.bufferedBytes = bufferedBytesOfColumns();
    held.heapBytes = heapBytesOfColumns();
  }

  /** Closes every column's open page, recording the break for aligned pages. */
  private void closeOpenPages() {
    boolean any = false;
    for (ColumnChunkWriter column : columns) {
      any |= !column.isEmptyOpenPage();
      column.closeOpenPage();
    }
    if (any && options.alignedPages()) {
      addPageBreak();
    }
  }

  /**
   * For each repetition level r of {@code column}, the definition level of the r-th repeated field
   * on its path (index 0 unused).
   */
  private static int[] repeatedFieldDefinitionLevels(MessageType schema, ColumnDescriptor column) {
    int[] levels = new int[column.maxRepetitionLevel() + 1];
    GroupNode group = schema.root();
    int def = 0;
    int rep = 0;
    for (String name : column.path()) {
      SchemaNode node = group.field(group.fieldIndex(name));
      if (node.repetition() != FieldRepetitionType.REQUIRED) {
        def++;
      }
      if (node.isRepeated()) {
        levels[++rep] = def;
      }
      if (node instanceof GroupNode g) {
        group = g;
      }
    }
    return levels;
  }

  public MessageType schema() {
    return schema;
  }

  public WriterOptions options() {
    return options;
  }

  public int columnCount() {
    return columns.length;
  }

  /** The writer of leaf column {@code index} (schema order). */
  public ColumnChunkWriter column(int index) {
    return columns[index];
  }

  /** The writer of the leaf column at {@code dottedPath}. */
  public ColumnChunkWriter column(String dottedPath) {
    ColumnDescriptor column = schema.column(dottedPath);
    if (column == null) {
      throw new IllegalArgumentException("no column " + dottedPath + " in the schema");
    }
    return columns[column.index()];
  }

  /** Shreds {@code row} into the columns and ends the record. */
  public void write(Row row) throws IOException {
    if (shredder == null) {
      shredder = new RowShredder(schema, columns);
    }
    ensureOpen();
    shredder.write(row);
    endRecord();
  }

  /**
   * Ends a record whose entries every column has received; closes the row group when it reaches its
   * byte target or its row cap.
   */
  public void endRecord() throws IOException {
    endRecords(1);
  }

  /**
   * Ends {@code count} records whose entries every column has received, after batch writes. The row
   * group's cap and target are checked once, after them: a batch may carry a row group past its row
   * cap by less than the batch.
   */
  public void endRecords(long count) throws IOException {
    ensureOpen();
    if (count <= 0) {
      if (count == 0) {
        return;
      }
      throw new IllegalArgumentException("negative record count " + count);
    }
    rowGroupRecords += count;
    totalRecords += count;
    if (options.alignedPages()) {
      alignPages();
    }
    if (rowGroupRecords >= options.rowGroupRowLimit()) {
      flushRowGroup();
    } else if (rowGroupRecords >= nextSizeCheck) {
      long buffered = bufferedBytes();
      long target = options.rowGroupByteTarget();
      if (buffered >= target) {
        flushRowGroup();
      } else {
        // Check again about halfway to the target at the current bytes per record.
        double perRecord = Math.max(1.0, (double) buffered / rowGroupRecords);
        long ahead =
            (long)
                Math.max(
                    1, Math.min(MAX_RECORDS_BETWEEN_CHECKS, (target - buffered) / perRecord / 2));
        nextSizeCheck = rowGroupRecords + ahead;
      }
    }
  }

  /**
   * Closes every column's open page once any of them is full, so that the pages of all columns end
   * at the same rows (WriterOptions.alignedPages says why).
   */
  private void alignPages() {
    for (ColumnChunkWriter column : columns) {
      if (column.isOpenPageFull()) {
        for (ColumnChunkWriter c : columns) {
          c.closeOpenPage();
        }
        addPageBreak();
        return;
      }
    }
  }

  private void addPageBreak() {
    if (pageBreakCount == pageBreaks.length) {
      pageBreaks = Arrays.copyOf(pageBreaks, pageBreakCount * 2);
    }
    pageBreaks[pageBreakCount++] = rowGroupRecords;
  }

  /**
   * Drops whatever the columns hold of a record that was not ended: after a writer of records
   * found, part way through one, that it cannot be written, the file is as if it had never been
   * offered (columns it had not reached are untouched). Pages a full page closed at that record's
   * start stay closed: they hold earlier records only, and the next record would have closed them
   * the same way.
   */
  public void discardPartialRecord() {
    ensureOpen();
    for (ColumnChunkWriter column : columns) {
      long rows = column.rows();
      if (rows == rowGroupRecords + 1) {
        column.dropPartialRecord();
      } else if (rows != rowGroupRecords) {
        throw new IllegalStateException(
            "column "
                + column.descriptor().dottedPath()
                + " has "
                + rows
                + " records in this row group, the file "
                + rowGroupRecords);
      }
    }
  }

  /**
   * The footer this writer wrote, with every row group's column statistics, for callers that
   * describe the file elsewhere (a table's data file metrics) without reading it back.
   *
   * @throws IllegalStateException before {@link #close()} completed the file
   */
  public FileMetaData footer() {
    if (footer == null) {
      throw new IllegalStateException("the file is not complete: close() did not write its footer");
    }
    return footer;
  }

  /** Records written so far, all row groups. */
  public long recordCount() {
    return totalRecords;
  }

  /** Bytes written to the stream so far. */
  public long bytesWritten() {
    return sink.position();
  }

  /**
   * Memory the writer holds now for the open row group: encoded pages, open pages, dictionaries and
   * bloom filters. A sink under a memory budget may {@link #flushRowGroup()} early when this grows
   * too large.
   */
  public long bufferedBytes() {
    return held.bufferedBytes;
  }

  /** {@link #bufferedBytes()} summed over the columns: what the running total must equal. */
  long bufferedBytesOfColumns() {
    long total = 0;
    for (ColumnChunkWriter column : columns) {
      total += column.bufferedBytes();
    }
    return total;
  }

  /**
   * The heap the column writers hold now: {@link #bufferedBytes()} plus the spare capacity of their
   * arrays, which grow by doubling and are kept from page to page: what a memory budget counts.
   */
  public long heapBytes() {
    return held.heapBytes;
  }

  /** {@link #heapBytes()} summed over the columns: what the running total must equal. */
  long heapBytesOfColumns() {
    long total = 0;
    for (ColumnChunkWriter column : columns) {
      total += column.heapBytes();
    }
    return total;
  }

  /** Writes the open row group now (nothing when it holds no record). */
  public void flushRowGroup() throws IOException {
    ensureOpen();
    for (ColumnChunkWriter column : columns) {
      if (column.rows() != rowGroupRecords) {
        throw new IllegalStateException(
            "column "
                + column.descriptor().dottedPath()
                + " has "
                + column.rows()
                + " records in this row group, the file "
                + rowGroupRecords
                + ": every column needs its entries before endRecord()");
      }
    }
    if (rowGroupRecords == 0) {
      return;
    }
    try {
      writeRowGroup();
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
    rowGroupRecords = 0;
    pageBreakCount = 0;
    nextSizeCheck = 1;
  }

  /** Writes each column chunk, then the row group's bloom filters. */
  private void writeRowGroup() throws IOException {
    long start = sink.position();
    WrittenChunk[] chunks = new WrittenChunk[columns.length];
    for (int i = 0; i < columns.length; i++) {
      chunks[i] = columns[i].writeChunk(sink);
    }
    GrowableBuffer bloomBytes = new GrowableBuffer();
    for (int i = 0; i < columns.length; i++) {
      SplitBlockBloomFilter filter = chunks[i].bloomFilter();
      if (filter != null) {
        bloomBytes.reset();
        filter.writeWithHeader(bloomBytes);
        long offset = sink.position();
        sink.write(bloomBytes);
        chunks[i] = chunks[i].withBloomFilterAt(offset, bloomBytes.size());
      }
    }
    tail.addRowGroup(chunks, rowGroupRecords, start);
    rowGroupsWritten++;
  }

  /**
   * Writes the last row group, the page indexes and the footer, and closes the stream. A second
   * call does nothing.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      if (!failed) {
        flushRowGroup();
        footer = tail.write(sink, schema, options, totalRecords);
        sink.flush();
      }
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    } finally {
      closed = true;
      for (ColumnChunkWriter column : columns) {
        column.markClosed();
      }
      compressors.forEach(Compressor::close);
      sink.close();
    }
  }

  private void write(byte[] bytes, int off, int len) throws IOException {
    try {
      sink.write(bytes, off, len);
    } catch (IOException e) {
      failed = true;
      throw e;
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the writer is closed");
    }
    if (failed) {
      throw new IllegalStateException("an earlier write failed; the file is incomplete");
    }
  }
}
