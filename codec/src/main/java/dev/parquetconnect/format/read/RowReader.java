package dev.parquetconnect.format.read;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Iterates the records of a file as {@link Row}s of a projection's schema, row group after row
 * group. Only the projected columns of the current row group are open, each holding its page in
 * flight and one batch of levels and values. An iterator in spirit, but {@link #hasNext()} and
 * {@link #next()} throw the reader's checked exceptions, so it is not a {@code java.util.Iterator}.
 * {@link #close()} frees the open columns; the file stays open.
 */
public final class RowReader implements Closeable {
  private final ParquetFileReader file;
  private final Projection projection;
  private final int rowGroupCount;
  private int nextRowGroup;
  private ColumnReader[] readers = new ColumnReader[0];
  private RecordAssembler assembler;
  private long rowsInGroup;
  private long rowInGroup;
  private boolean closed;
  private boolean stringsAsText;

  RowReader(ParquetFileReader file, Projection projection) {
    this.file = file;
    this.projection = projection;
    this.rowGroupCount = file.rowGroups().size();
  }

  /** The schema of the rows returned. */
  public MessageType schema() {
    return projection.schema();
  }

  public boolean hasNext() throws IOException, ParquetException {
    if (closed) {
      return false;
    }
    while (assembler == null || rowInGroup == rowsInGroup) {
      if (assembler != null) {
        assembler.finish();
        closeColumns();
        assembler = null;
      }
      if (nextRowGroup == rowGroupCount) {
        return false;
      }
      openRowGroup(nextRowGroup++);
    }
    return true;
  }

  /**
   * Starts at row group {@code index} instead of the first, without reading the ones before (a
   * reader resuming where an earlier one stopped). Only before the first row is read; an index
   * equal to the row group count leaves nothing to read.
   */
  public void startAtRowGroup(int index) {
    if (assembler != null || nextRowGroup != 0) {
      throw new IllegalStateException("startAtRowGroup after rows were read from " + file.name());
    }
    if (index < 0 || index > rowGroupCount) {
      throw new IllegalArgumentException(
          "row group " + index + " of " + rowGroupCount + " in " + file.name());
    }
    nextRowGroup = index;
  }

  /**
   * Makes STRING columns (BYTE_ARRAY annotated STRING, or UTF8 in older files) come back as {@code
   * java.lang.String} instead of the {@code byte[]} of the {@link Row} model's default, decoded as
   * {@code new String(bytes, UTF_8)} would (malformed input replaced). Values of dictionary-encoded
   * pages are decoded once per dictionary entry and the same {@code String} returned for every row
   * that refers to it: for a low-cardinality column most of the cost of turning bytes into text
   * disappears. Only before the first {@link #hasNext()} or {@link #next()} (with or without {@link
   * #startAtRowGroup}).
   */
  public void returnStringsAsText() {
    if (assembler != null) {
      throw new IllegalStateException(
          "returnStringsAsText after rows were read from " + file.name());
    }
    stringsAsText = true;
  }

  /**
   * The row group of the row {@link #next()} returned last, or after {@link #hasNext()} returned
   * true, of the row it will return (-1 before anything was read).
   */
  public int rowGroup() {
    return nextRowGroup - 1;
  }

  /** Rows of {@link #rowGroup()} returned so far: the index in it of the next row. */
  public long rowInGroup() {
    return rowInGroup;
  }

  public Row next() throws IOException, ParquetException {
    if (!hasNext()) {
      throw new NoSuchElementException("no more rows in " + file.name());
    }
    return assembler.read(rowInGroup++);
  }

  private void openRowGroup(int index) throws ParquetException {
    List<ColumnDescriptor> columns = projection.fileColumns();
    readers = new ColumnReader[columns.size()];
    LevelCursor[] cursors = new LevelCursor[columns.size()];
    int batchSize = file.options().batchSize();
    for (int i = 0; i < readers.length; i++) {
      readers[i] = file.columnReader(index, columns.get(i));
      cursors[i] = new LevelCursor(readers[i], batchSize, stringsAsText);
    }
    rowsInGroup = file.rowGroups().get(index).numRows();
    rowInGroup = 0;
    assembler =
        new RecordAssembler(projection, cursors, file.name(), file.options().maxRecordValues());
  }

  private void closeColumns() {
    for (ColumnReader reader : readers) {
      reader.close();
    }
    readers = new ColumnReader[0];
  }

  @Override
  public void close() {
    closeColumns();
    assembler = null;
    closed = true;
  }
}
