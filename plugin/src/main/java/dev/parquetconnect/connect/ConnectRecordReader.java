package dev.parquetconnect.connect;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.filter.BoundPredicate;
import dev.parquetconnect.format.filter.RowRanges;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.NestedTypes;
import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.IntPredicate;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;

/**
 * Reads the records of a Parquet file straight from its column batches into Connect values, the way
 * {@link ParquetToConnect} maps them, without the generic {@code Row} in between: the source's fast
 * path (the {@code Row} reader plus {@link ParquetToConnect#convert} give the same values).
 *
 * <p>The mapping is compiled once per file (by {@link FieldReaderCompiler}) into a tree of field
 * readers, one per Parquet field that a Connect value needs (structs, LIST and MAP groups with the
 * backward-compatibility rules of {@link NestedTypes}, repeated fields, leaves with their logical
 * type), each reading its columns' repetition and definition levels and dense values directly from
 * the batches of its {@link ColumnReader}s: strings are decoded from the batch's bytes once,
 * integers, decimals and timestamps are built from the primitive arrays without boxing the Parquet
 * value first, and Structs are filled with {@link Field}s resolved once. Columns no Connect value
 * needs are consumed level by level and never converted.
 *
 * <p>Levels that contradict the schema or each other are {@link CorruptDataException}s naming file,
 * column and row, as in the {@code Row} reader; a record holding more than {@code
 * ReadOptions.maxRecordValues} list or map elements is refused before it can exhaust the heap.
 *
 * <p>Usage: {@link #hasNext()}, {@link #next()}, then the parts of the record just read ({@link
 * #topic()}, {@link #offset()}, {@link #key()}, {@link #value()}, {@link #headers()}, ...). One row
 * group's columns are open at a time, each holding one page and one batch. Not thread-safe.
 */
public final class ConnectRecordReader implements Closeable {
  static final long MILLIS_PER_DAY = 86_400_000L;

  private final ParquetFileReader file;
  private final ParquetToConnect mapping;
  private final String fileName;
  private final int maxRecordValues;
  private final int batchSize;
  private final ColumnCursor[] columns;

  /** The columns with repetition levels: a row must start at level 0 in each. */
  private final ColumnCursor[] repeatedColumns;

  private final int rowGroupCount;

  /** The row being read, shared with the readers for their errors and bounds. */
  private final RecordScope scope;

  // The tree FieldReaderCompiler compiled; null readers are absent parts.
  private final FieldReader topicReader;
  private final FieldReader partitionReader;
  private final Leaf offsetReader;
  private final FieldReader timestampReader;
  private final boolean timestampMicros;
  private final FieldReader tombstoneReader;
  private final FieldReader keyReader;
  private final HeadersReader headersReader;
  private final FieldReader valueReader;

  /** Consumes the value's columns of a tombstone row without converting them. */
  private final SkipReader valueSkipper;

  /** Consumes the top-level fields nothing above needs. */
  private final SkipReader unusedSkipper;

  private int nextRowGroup;

  /** The rows returned: those matching it; null for all. */
  private BoundPredicate filter;

  private CursorValues filterValues;

  /** Rows outside its candidates are passed over unread; rows in them are not tested. */
  private BoundPredicate pagesHint;

  // ---- the ranged path: a filter, a hint, or a start inside a row group. Only the pages holding
  // candidate rows are fetched (by the offset index), for every column, and the columns are moved
  // to each candidate row by row index: a page of one column may start in the middle of another's.

  private boolean ranged;

  /** The row of the first row group read to start at. */
  private long startRow;

  /** The rows of the open row group still to consider. */
  private RowRanges candidates;

  /** The first row {@link #candidates} is asked for next. */
  private long nextCandidate;

  /** The matching row hasNext found and next returns, or -1. */
  private long pending = -1;

  private final PageCounters pages = new PageCounters();

  /** The row groups read; the others are passed over unread (statistics ruled them out). */
  private IntPredicate rowGroupsRead = g -> true;

  private boolean groupOpen;
  private long rowsInGroup;
  private long rowInGroup;
  private boolean closed;

  // The record read last.
  private String topic;
  private Integer partition;

  /** {@code __kafka_offset} unboxed: the replay orders by it, nothing else reads it. */
  private long offset;

  private boolean hasOffset;
  private Long timestamp;
  private Object key;
  private Object value;
  private ConnectHeaders headers;

  /**
   * A reader of {@code file}'s records with {@code mapping} (made for the same file's schema and
   * metadata). Throws {@link DataException} where the file's metadata columns do not have the shape
   * our sink writes.
   */
  public ConnectRecordReader(ParquetFileReader file, ParquetToConnect mapping) {
    this.file = file;
    this.mapping = mapping;
    this.fileName = file.name();
    this.maxRecordValues = file.options().maxRecordValues();
    this.scope = new RecordScope(fileName, maxRecordValues);
    this.batchSize = file.options().batchSize();
    this.rowGroupCount = file.rowGroups().size();
    List<ColumnDescriptor> descriptors = file.schema().columns();
    this.columns = new ColumnCursor[descriptors.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new ColumnCursor(descriptors.get(i));
    }
    this.repeatedColumns =
        Arrays.stream(columns).filter(c -> c.maxRepetition > 0).toArray(ColumnCursor[]::new);
    // The order decides which of several problems a bad file is refused for: keep it.
    FieldReaderCompiler compiler =
        new FieldReaderCompiler(file.schema().root(), mapping, scope, columns);
    this.topicReader =
        compiler.metadataLeaf(mapping.topicIndex(), PhysicalType.BYTE_ARRAY, Leaf.STRING);
    this.partitionReader =
        compiler.metadataLeaf(mapping.partitionIndex(), PhysicalType.INT32, Leaf.INT32);
    this.offsetReader =
        compiler.metadataLeaf(mapping.offsetIndex(), PhysicalType.INT64, Leaf.INT64);
    this.timestampReader =
        compiler.metadataLeaf(mapping.timestampIndex(), PhysicalType.INT64, Leaf.INT64);
    // an Iceberg table's files hold __kafka_timestamp in microseconds
    this.timestampMicros =
        mapping.timestampIndex() >= 0
            && file.schema().root().field(mapping.timestampIndex()).logicalType()
                instanceof LogicalType.TimestampType ts
            && ts.unit() == TimeUnit.MICROS;
    this.tombstoneReader =
        compiler.metadataLeaf(mapping.tombstoneIndex(), PhysicalType.BOOLEAN, Leaf.BOOLEAN);
    this.headersReader = compiler.headers();
    this.keyReader = compiler.key();
    this.valueReader = compiler.value();
    this.valueSkipper = compiler.valueSkipper();
    this.unusedSkipper = compiler.unusedSkipper();
  }

  // ---- iteration

  /**
   * Starts at row group {@code index} instead of the first, without reading the ones before. Only
   * before the first row is read; the row group count leaves nothing to read.
   */
  public void startAtRowGroup(int index) {
    startAt(index, 0);
  }

  /**
   * Starts at row {@code row} of row group {@code rowGroup} (the position {@link #rowGroup()} and
   * {@link #rowInGroup()} gave an earlier reader), without reading the row groups before it and
   * fetching, where the file has offset indexes, only the pages from that row on. A row past the
   * row group's end leaves nothing of it to read. Only before the first row is read.
   */
  public void startAt(int rowGroup, long row) {
    if (groupOpen || nextRowGroup != 0 || startRow != 0) {
      throw new IllegalStateException("startAt after rows were read from " + fileName);
    }
    if (rowGroup < 0 || rowGroup > rowGroupCount || row < 0) {
      throw new IllegalArgumentException(
          "row group " + rowGroup + " of " + rowGroupCount + ", row " + row + " in " + fileName);
    }
    nextRowGroup = rowGroup;
    startRow = row;
    ranged |= row > 0;
  }

  /**
   * Reads only the row groups {@code read} accepts (by index); the others are never opened, so none
   * of their pages is fetched. Positions ({@link #rowGroup()}, {@link #rowInGroup()}) stay those of
   * the file.
   */
  public void selectRowGroups(IntPredicate read) {
    this.rowGroupsRead = read;
  }

  /**
   * Reads only the rows that match {@code predicate} (bound to this file's schema): row groups its
   * statistics, bloom filters or page indexes rule out are never opened; in the others only the
   * pages holding candidate rows are fetched, of every column (by the offset index), and each
   * candidate row is tested before anything of it is converted; rows that do not match are stepped
   * over level by level. Positions ({@link #rowGroup()}, {@link #rowInGroup()}) stay those of the
   * file, so a matching row's position counts the rows passed over before it. Only before the first
   * row is read.
   */
  public void filter(BoundPredicate predicate) {
    if (groupOpen) {
      throw new IllegalStateException("filter after rows were read from " + fileName);
    }
    this.filter = predicate;
    this.filterValues = new CursorValues(columns);
    this.ranged = true;
  }

  /**
   * Passes over, unread, the rows that the page indexes (and statistics) show cannot satisfy {@code
   * hint} (bound to this file's schema): a selection the caller checks exactly on each record it
   * gets (a time or offset range), here only used to leave out pages. Rows it may hold are returned
   * untested. Only before the first row is read.
   */
  public void skipPagesOutside(BoundPredicate hint) {
    if (groupOpen) {
      throw new IllegalStateException("skipPagesOutside after rows were read from " + fileName);
    }
    this.pagesHint = hint;
    this.ranged = true;
  }

  /** What page skipping left out so far. */
  public PageCounters pageCounters() {
    return pages;
  }

  public boolean hasNext() throws IOException, ParquetException {
    return ranged ? hasNextRanged() : nextRow();
  }

  private boolean hasNextRanged() throws IOException, ParquetException {
    while (!closed) {
      if (pending >= 0) {
        return true;
      }
      if (groupOpen) {
        long row = candidates.nextRow(nextCandidate);
        if (row >= 0) {
          moveTo(row);
          if (filter == null || matches()) {
            pending = row;
            return true;
          }
          nextCandidate = row + 1;
          continue;
        }
        // Pages were skipped: the columns need not be used up.
        groupOpen = false;
        closeColumns();
      }
      while (nextRowGroup < rowGroupCount && !rowGroupsRead.test(nextRowGroup)) {
        nextRowGroup++;
        startRow = 0;
      }
      if (nextRowGroup == rowGroupCount) {
        return false;
      }
      openCandidates(nextRowGroup++);
    }
    return false;
  }

  /**
   * Opens row group {@code index} for its candidate rows: those from the start row on that the
   * filter's and the hint's statistics, bloom filters and page indexes keep. Nothing is fetched
   * when none is left; else, per column, only the pages holding candidate rows.
   */
  private void openCandidates(int index) throws IOException, ParquetException {
    long rows = file.rowGroups().get(index).numRows();
    long from = Math.min(startRow, rows);
    startRow = 0;
    rowInGroup = from;
    rowsInGroup = rows;
    RowRanges wanted = RowRanges.of(from, rows);
    if (filter != null && !wanted.isEmpty()) {
      wanted = wanted.intersect(file.candidateRows(index, filter));
    }
    if (pagesHint != null && !wanted.isEmpty()) {
      wanted = wanted.intersect(file.candidateRows(index, pagesHint));
    }
    pages.rowGroups++;
    pages.rowsSkipped += rows - wanted.rowCount();
    if (wanted.isEmpty()) {
      pages.rowGroupsSkipped++;
      return;
    }
    List<ColumnDescriptor> descriptors = file.schema().columns();
    for (int i = 0; i < columns.length; i++) {
      columns[i].bind(file.columnReader(index, descriptors.get(i), wanted), batchSize);
    }
    candidates = wanted;
    nextCandidate = 0;
    groupOpen = true;
  }

  /** Moves every column to the first entry of {@code row}. */
  private void moveTo(long row) throws IOException, ParquetException {
    scope.row = row;
    for (ColumnCursor c : columns) {
      if (!c.skipToRow(row)) {
        throw corrupt(c, "the column ends before row " + row);
      }
      if (c.row() != row) {
        throw corrupt(c, "the column skips from before row " + row + " to row " + c.row());
      }
    }
  }

  /** Whether a row is left, opening the next row group read when the current one is done. */
  private boolean nextRow() throws IOException, ParquetException {
    if (closed) {
      return false;
    }
    while (!groupOpen || rowInGroup == rowsInGroup) {
      if (groupOpen) {
        finishRowGroup();
      }
      while (nextRowGroup < rowGroupCount && !rowGroupsRead.test(nextRowGroup)) {
        nextRowGroup++;
      }
      if (nextRowGroup == rowGroupCount) {
        return false;
      }
      openRowGroup(nextRowGroup++);
    }
    return true;
  }

  private boolean matches() throws IOException, ParquetException {
    try {
      return filter.test(filterValues);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause();
    } catch (CursorValues.FilterReadException e) {
      throw e.getCause();
    }
  }

  /**
   * Reads the next record into {@link #topic()}, {@link #value()} and the other parts. Throws
   * {@link DataException} (or another runtime exception of Connect's) for a value the mapping's
   * schema cannot hold.
   */
  public void next() throws IOException, ParquetException {
    if (!hasNext()) {
      throw new NoSuchElementException("no more rows in " + fileName);
    }
    if (ranged) {
      scope.row = pending;
      rowInGroup = pending + 1;
      nextCandidate = pending + 1;
      pending = -1;
    } else {
      scope.row = rowInGroup++;
    }
    scope.recordValues = 0;
    // A column without repetition has a row per entry (one ending early fails where it is read).
    for (ColumnCursor c : repeatedColumns) {
      int rep = c.rep();
      if (rep != 0) {
        throw corrupt(
            c,
            rep < 0
                ? "the column ends before the row"
                : "the row starts at repetition level " + rep + ", not 0");
      }
    }
    boolean tombstone = tombstoneReader != null && tombstoneReader.read() == Boolean.TRUE;
    topic = topicReader == null ? null : (String) topicReader.read();
    partition = partitionReader == null ? null : (Integer) partitionReader.read();
    hasOffset = false;
    if (offsetReader != null) {
      if (offsetReader.present()) {
        ColumnCursor c = offsetReader.column;
        offset = c.longs[c.valueIndex];
        hasOffset = true;
      }
      offsetReader.consume();
    }
    timestamp = timestampReader == null ? null : (Long) timestampReader.read();
    if (timestamp != null && timestampMicros) {
      timestamp = Math.floorDiv(timestamp.longValue(), 1000L);
    }
    Object k = keyReader == null ? null : keyReader.read();
    key = mapping.keySchemaless() ? ParquetToConnect.toSchemaless(k) : k;
    headers = headersReader == null ? new ConnectHeaders() : headersReader.readHeaders();
    if (valueReader == null) {
      value = null;
    } else if (tombstone) {
      valueSkipper.skip();
      value = null;
    } else {
      Object v = valueReader.read();
      value = mapping.valueSchemaless() ? ParquetToConnect.toSchemaless(v) : v;
    }
    unusedSkipper.skip();
  }

  /** The row group of the record read last (-1 before anything was read). */
  public int rowGroup() {
    return nextRowGroup - 1;
  }

  /** Records of {@link #rowGroup()} read so far: the index of the next one in it. */
  public long rowInGroup() {
    return rowInGroup;
  }

  /** {@code __kafka_topic} of the record read last, or null. */
  public String topic() {
    return topic;
  }

  /** {@code __kafka_partition}, or null. */
  public Integer partition() {
    return partition;
  }

  /** {@code __kafka_offset}, or null. */
  public Long offset() {
    return hasOffset ? offset : null;
  }

  /** Whether the record read last has an {@code __kafka_offset}. */
  public boolean hasOffset() {
    return hasOffset;
  }

  /** {@code __kafka_offset} of the record read last, when {@link #hasOffset()}. */
  public long offsetValue() {
    return offset;
  }

  /** {@code __kafka_timestamp} in epoch milliseconds, or null. */
  public Long timestamp() {
    return timestamp;
  }

  /** The key (of {@link ParquetToConnect#keySchema()}), or null. */
  public Object key() {
    return key;
  }

  /** The value (of {@link ParquetToConnect#valueSchema()}), or null for a tombstone. */
  public Object value() {
    return value;
  }

  /** The headers in their original order; a new object per record, empty when none. */
  public ConnectHeaders headers() {
    return headers;
  }

  public ParquetToConnect mapping() {
    return mapping;
  }

  private void openRowGroup(int index) {
    List<ColumnDescriptor> descriptors = file.schema().columns();
    for (int i = 0; i < columns.length; i++) {
      columns[i].bind(file.columnReader(index, descriptors.get(i)), batchSize);
    }
    rowsInGroup = file.rowGroups().get(index).numRows();
    rowInGroup = 0;
    groupOpen = true;
  }

  /** Checks that every column is used up once the row group's rows are read. */
  private void finishRowGroup() throws IOException, ParquetException {
    groupOpen = false;
    for (ColumnCursor c : columns) {
      if (c.hasEntry()) {
        closeColumns();
        throw corrupt(c, "the column holds entries after the row group's last row");
      }
    }
    closeColumns();
  }

  private void closeColumns() {
    for (ColumnCursor c : columns) {
      c.unbind();
    }
  }

  /** Frees the open columns; the file stays open. */
  @Override
  public void close() {
    closeColumns();
    groupOpen = false;
    pending = -1;
    closed = true;
  }

  private ParquetException corrupt(ColumnCursor c, String message) {
    return scope.corrupt(c, message);
  }
}
