package dev.parquetconnect.source;

import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.filter.Predicate;
import dev.parquetconnect.format.filter.PredicateBindException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * One file being replayed: its footer, and its rows read one at a time through ranged reads of the
 * store (never the whole file) straight into Connect values ({@link ConnectRecordReader}), with the
 * position of the row read last. Holds one page and one batch per column of the current row group;
 * {@link #close()} releases them and the store input.
 *
 * <p>Open it, choose the mapping with {@link #readWith}, then position and read.
 */
final class FileCursor implements Closeable {
  private final StoreFile file;
  private final ParquetFileReader reader;
  private ConnectRecordReader rows;
  private boolean started;

  private FileCursor(StoreFile file, ParquetFileReader reader) {
    this.file = file;
    this.reader = reader;
  }

  /**
   * How much of a file's tail is read at once for its footer. A sink file's footer is a few KiB; a
   * larger one costs a second read. Smaller than the codec's default because a selective replay
   * reads the footers of files it then skips entirely: on an object store, the tails of all files
   * are then most of the bytes fetched.
   */
  static final int FOOTER_READ_SIZE = 8 << 10;

  /** Opens the file and reads its footer (one ranged read of the file's tail in most cases). */
  static FileCursor open(Store store, StoreFile file) throws IOException, ParquetException {
    StoreInput stored = store.open(file.key());
    IndexRegionInput input = new IndexRegionInput(stored);
    try {
      ParquetFileReader reader =
          ParquetFileReader.open(
              input, ReadOptions.defaults().withFooterReadSize(FOOTER_READ_SIZE));
      input.locate(reader.metadata());
      return new FileCursor(file, reader);
    } catch (IOException | ParquetException | RuntimeException e) {
      input.close();
      throw e;
    }
  }

  StoreFile file() {
    return file;
  }

  String key() {
    return file.key();
  }

  MessageType schema() {
    return reader.schema();
  }

  /** The footer's key/value metadata (a later duplicate key wins). */
  Map<String, String> keyValueMetadata() {
    List<KeyValue> pairs = reader.metadata().keyValueMetadata();
    if (pairs == null) {
      return Collections.emptyMap();
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (KeyValue kv : pairs) {
      map.put(kv.key(), kv.value());
    }
    return map;
  }

  /**
   * Reads the rows as records of {@code mapping} (made for this file's schema and metadata). Throws
   * DataException when the file's columns do not fit the mapping.
   */
  void readWith(ParquetToConnect mapping) {
    if (rows != null) {
      throw new IllegalStateException("the mapping of " + key() + " is already chosen");
    }
    rows = new ConnectRecordReader(reader, mapping);
  }

  /** Reads only the row groups {@code read} accepts (by index); the others are never fetched. */
  void selectRowGroups(IntPredicate read) {
    rows.selectRowGroups(read);
  }

  List<RowGroup> rowGroups() {
    return reader.rowGroups();
  }

  int rowGroupCount() {
    return reader.rowGroups().size();
  }

  /**
   * Moves to row {@code row} of row group {@code rowGroup} (a position an earlier task recorded):
   * the row groups before are not read at all, and of that row group only the pages from that row
   * on are fetched where the file has offset indexes (else the rows before are read and dropped).
   */
  void seek(int rowGroup, long row) {
    if (started) {
      throw new IllegalStateException("the cursor of " + key() + " has already moved");
    }
    started = true;
    rows.startAt(Math.min(rowGroup, rowGroupCount()), Math.max(0, row));
  }

  /**
   * Leaves out, unread, the pages (and row groups) whose statistics and page indexes show that no
   * row of them satisfies {@code range}, a selection checked exactly on every record anyway (the
   * time and offset ranges); nothing when it does not fit this file's schema.
   */
  void skipPagesOutside(Predicate range) {
    try {
      rows.skipPagesOutside(range.bind(reader.schema()));
    } catch (PredicateBindException e) {
      // A column of another type than the range's: the statistics of the row groups still prune.
    }
  }

  /**
   * Reads only the rows matching {@code predicate} ({@code replay.filter}), fitted to this file's
   * schema; row groups and pages that cannot match are not fetched.
   *
   * @throws ConnectException naming the file when the predicate does not fit its schema (a column
   *     it does not have, a type that does not fit): a configuration problem, not a damaged file
   */
  void filter(Predicate predicate) {
    try {
      rows.filter(predicate.bind(reader.schema()));
    } catch (PredicateBindException e) {
      throw new ConnectException(
          "replay.filter '" + predicate + "' does not fit file " + key() + ": " + e.getMessage());
    }
  }

  /**
   * Skips the leading row groups whose statistics show that every value of the top-level INT64
   * column {@code dottedPath} is below {@code from} (the replayed offsets of a resumed partition);
   * row groups without statistics are kept.
   */
  void skipRowGroupsBelow(String dottedPath, long from) throws IOException, ParquetException {
    ColumnDescriptor column;
    try {
      column = reader.schema().column(dottedPath);
    } catch (IllegalArgumentException e) {
      return;
    }
    int first = 0;
    List<RowGroup> groups = reader.rowGroups();
    while (first < groups.size()) {
      Long max = longMax(groups.get(first).columns().get(column.index()));
      if (max == null || max >= from) {
        break;
      }
      first++;
    }
    startAt(first);
  }

  /** The largest value of an INT64 column chunk by its statistics, or null when unknown. */
  static Long longMax(ColumnChunk chunk) {
    if (chunk.metaData() == null || chunk.metaData().statistics() == null) {
      return null;
    }
    Statistics s = chunk.metaData().statistics();
    ByteString bound = s.maxValue() != null ? s.maxValue() : s.max();
    if (bound == null || bound.length() != Long.BYTES) {
      return null;
    }
    byte[] b = bound.toByteArray();
    return LittleEndian.getLong(b, 0);
  }

  private void startAt(int rowGroup) {
    if (started) {
      throw new IllegalStateException("the cursor of " + key() + " has already moved");
    }
    started = true;
    rows.startAtRowGroup(rowGroup);
  }

  boolean hasNext() throws IOException, ParquetException {
    started = true;
    return rows.hasNext();
  }

  /** Reads the next row; its parts are then {@link #record()}'s. */
  void next() throws IOException, ParquetException {
    started = true;
    rows.next();
  }

  /** The row read last, as the parts of a record. */
  ConnectRecordReader record() {
    return rows;
  }

  /** The row group of the row read last (or about to be read, after {@link #hasNext()}). */
  int rowGroup() {
    return rows == null ? 0 : Math.max(0, rows.rowGroup());
  }

  /** Rows of {@link #rowGroup()} read so far: the index of the next one. */
  long rowInGroup() {
    return rows == null ? 0 : rows.rowInGroup();
  }

  @Override
  public void close() throws IOException {
    if (rows != null) {
      rows.close();
    }
    reader.close();
  }
}
