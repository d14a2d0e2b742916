package dev.parquetconnect.format.read;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.filter.BoundPredicate;
import dev.parquetconnect.format.filter.PageIndexes;
import dev.parquetconnect.format.filter.RowRanges;
import dev.parquetconnect.format.filter.RowValues;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Iterates the records of a file as {@link Row}s of a projection's schema, row group after row
 * group. Only the projected columns of the current row group are open, each holding its page in
 * flight and one batch of levels and values. An iterator in spirit, but {@link #hasNext()} and
 * {@link #next()} throw the reader's checked exceptions, so it is not a {@code java.util.Iterator}.
 * {@link #close()} frees the open columns; the file stays open.
 *
 * <p>With a filter ({@link ParquetFileReader#rowReader(Projection, BoundPredicate)}) only matching
 * rows are returned: a row group its statistics or bloom filters rule out is never opened; in the
 * others only the pages that hold candidate rows (by the column and offset indexes) are fetched,
 * for every column read, and the columns are kept aligned by row index; each candidate row is then
 * tested exactly. {@link #rowGroup()} and {@link #rowInGroup()} give the position after the row
 * returned last, so a reader started with {@link #startAt} there resumes exactly.
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

  // ---- the ranged path: a filter, or a start inside a row group

  private BoundPredicate filter;
  private long startRow;

  /** The rows of the open row group still to consider (candidates after pruning). */
  private RowRanges candidates;

  /** Every open cursor, and the filter's cursors by file column index. */
  private LevelCursor[] cursors = new LevelCursor[0];

  private LevelCursor[] byColumn;
  private final CursorValues values = new CursorValues();

  /** The row the cursors are to be moved to next; the matching row found by hasNext, or -1. */
  private long nextCandidate;

  private long pending = -1;
  private final FilterCounters counters = new FilterCounters();

  /** The row group to stop before (the count: read to the end). */
  private int endRowGroup;

  RowReader(ParquetFileReader file, Projection projection) {
    this.file = file;
    this.projection = projection;
    this.rowGroupCount = file.rowGroups().size();
    this.endRowGroup = rowGroupCount;
  }

  /** Stops before row group {@code end}: nothing past it is opened. */
  void endBefore(int end) {
    endRowGroup = Math.min(end, rowGroupCount);
  }

  /** Makes this reader return only rows matching {@code filter}; before anything is read. */
  void filter(BoundPredicate filter) {
    requireNotStarted("filter");
    this.filter = filter;
  }

  /** The schema of the rows returned. */
  public MessageType schema() {
    return projection.schema();
  }

  /** What pruning did so far: row groups, pages and rows skipped or tested. */
  public FilterCounters counters() {
    return counters;
  }

  public boolean hasNext() throws IOException, ParquetException {
    if (closed) {
      return false;
    }
    if (isRanged()) {
      return hasNextRanged();
    }
    while (assembler == null || rowInGroup == rowsInGroup) {
      if (assembler != null) {
        assembler.finish();
        closeColumns();
        assembler = null;
      }
      if (nextRowGroup >= endRowGroup) {
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
    startAt(index, 0);
  }

  /**
   * Starts at row {@code row} of row group {@code rowGroup}, without reading the row groups before
   * it and fetching only the pages from that row on where the file has offset indexes: the position
   * {@link #rowGroup()} and {@link #rowInGroup()} gave an earlier reader. Only before the first row
   * is read.
   */
  public void startAt(int rowGroup, long row) {
    requireNotStarted("startAt");
    if (rowGroup < 0 || rowGroup > rowGroupCount) {
      throw new IllegalArgumentException(
          "row group " + rowGroup + " of " + rowGroupCount + " in " + file.name());
    }
    if (row < 0 || (rowGroup < rowGroupCount && row > file.rowGroups().get(rowGroup).numRows())) {
      throw new IllegalArgumentException(
          "row " + row + " of row group " + rowGroup + " in " + file.name());
    }
    nextRowGroup = rowGroup;
    startRow = row;
  }

  private void requireNotStarted(String what) {
    if (assembler != null || nextRowGroup != 0 || candidates != null || startRow != 0) {
      throw new IllegalStateException(what + " after rows were read from " + file.name());
    }
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

  /**
   * Where reading resumes in {@link #rowGroup()}: after {@link #next()}, the index in it of the row
   * after the one returned (with a filter, the rows skipped before it included).
   */
  public long rowInGroup() {
    return rowInGroup;
  }

  public Row next() throws IOException, ParquetException {
    if (!hasNext()) {
      throw new NoSuchElementException("no more rows in " + file.name());
    }
    if (isRanged()) {
      long row = pending;
      pending = -1;
      Row record = assembler.read(row);
      rowInGroup = row + 1;
      nextCandidate = row + 1;
      counters.rowsReturned++;
      return record;
    }
    counters.rowsReturned++;
    return assembler.read(rowInGroup++);
  }

  private boolean isRanged() {
    return filter != null || startRow > 0;
  }

  private boolean hasNextRanged() throws IOException, ParquetException {
    while (true) {
      if (pending >= 0) {
        return true;
      }
      if (candidates != null) {
        long row = candidates.nextRow(nextCandidate);
        if (row >= 0) {
          moveTo(row);
          counters.rowsTested++;
          if (filter == null || filter.test(values)) {
            pending = row;
            return true;
          }
          nextCandidate = row + 1;
          continue;
        }
        closeColumns();
        assembler = null;
        candidates = null;
      }
      if (nextRowGroup >= endRowGroup) {
        return false;
      }
      openCandidates(nextRowGroup++);
    }
  }

  /** Moves every open column to the first entry of {@code row}. */
  private void moveTo(long row) throws IOException, ParquetException {
    for (LevelCursor cursor : cursors) {
      if (!cursor.skipToRow(row)) {
        throw new CorruptDataException("the column ends before row " + row)
            .at(file.name(), cursor.name, -1);
      }
      if (cursor.row() != row) {
        throw new CorruptDataException(
                "the column skips from before row " + row + " to row " + cursor.row())
            .at(file.name(), cursor.name, -1);
      }
    }
  }

  /** Opens row group {@code index} on the ranged path, unless pruning rules it out. */
  private void openCandidates(int index) throws IOException, ParquetException {
    long rows = file.rowGroups().get(index).numRows();
    long from = startRow;
    startRow = 0;
    rowInGroup = from;
    RowRanges wanted = RowRanges.of(Math.min(from, rows), rows);
    // Each page index is read once, for pruning and for planning the pages of every column.
    PageIndexes indexes = file.pageIndexes(index);
    if (filter != null) {
      counters.rowGroups++;
      RowRanges kept = file.candidateRows(index, filter, indexes);
      if (kept.isEmpty()) {
        counters.rowGroupsSkipped++;
      }
      wanted = wanted.intersect(kept);
    }
    if (wanted.isEmpty()) {
      counters.rowsSkipped += rows - Math.min(from, rows);
      return;
    }
    List<ColumnDescriptor> projected = projection.fileColumns();
    int total = file.schema().columns().size();
    byColumn = new LevelCursor[total];
    LevelCursor[] projectedCursors = new LevelCursor[projected.size()];
    int batchSize = file.options().batchSize();
    ArrayList<ColumnReader> open = new ArrayList<>();
    ArrayList<LevelCursor> all = new ArrayList<>();
    for (int i = 0; i < projected.size(); i++) {
      ColumnDescriptor c = projected.get(i);
      ColumnReader reader = file.columnReader(index, c, wanted, indexes);
      open.add(reader);
      projectedCursors[i] = new LevelCursor(reader, batchSize, stringsAsText);
      byColumn[c.index()] = projectedCursors[i];
      all.add(projectedCursors[i]);
    }
    if (filter != null) {
      for (ColumnDescriptor c : filter.columns()) {
        if (byColumn[c.index()] == null) {
          ColumnReader reader = file.columnReader(index, c, wanted, indexes);
          open.add(reader);
          byColumn[c.index()] = new LevelCursor(reader, batchSize, false);
          all.add(byColumn[c.index()]);
        }
      }
    }
    readers = open.toArray(new ColumnReader[0]);
    cursors = all.toArray(new LevelCursor[0]);
    counters.rowsSkipped += rows - Math.min(from, rows) - wanted.rowCount();
    candidates = wanted;
    nextCandidate = 0;
    rowsInGroup = rows;
    assembler =
        new RecordAssembler(
            projection, projectedCursors, file.name(), file.options().maxRecordValues());
  }

  private void openRowGroup(int index) throws ParquetException {
    List<ColumnDescriptor> columns = projection.fileColumns();
    readers = new ColumnReader[columns.size()];
    LevelCursor[] levelCursors = new LevelCursor[columns.size()];
    int batchSize = file.options().batchSize();
    for (int i = 0; i < readers.length; i++) {
      readers[i] = file.columnReader(index, columns.get(i));
      levelCursors[i] = new LevelCursor(readers[i], batchSize, stringsAsText);
    }
    rowsInGroup = file.rowGroups().get(index).numRows();
    rowInGroup = 0;
    assembler =
        new RecordAssembler(
            projection, levelCursors, file.name(), file.options().maxRecordValues());
  }

  private void closeColumns() {
    for (ColumnReader reader : readers) {
      reader.close();
    }
    readers = new ColumnReader[0];
    cursors = new LevelCursor[0];
  }

  @Override
  public void close() {
    closeColumns();
    assembler = null;
    candidates = null;
    closed = true;
  }

  /** The filter's view of the current row: the values under its cursors. */
  private final class CursorValues implements RowValues {
    @Override
    public boolean isNull(int column) {
      return byColumn[column].isNull();
    }

    @Override
    public long longValue(int column) {
      return byColumn[column].longValue();
    }

    @Override
    public double doubleValue(int column) {
      return byColumn[column].doubleValue();
    }

    @Override
    public byte[] binaryArray(int column) {
      return byColumn[column].binaryArray();
    }

    @Override
    public int binaryOffset(int column) {
      return byColumn[column].binaryOffset();
    }

    @Override
    public int binaryLength(int column) {
      return byColumn[column].binaryLength();
    }
  }
}
