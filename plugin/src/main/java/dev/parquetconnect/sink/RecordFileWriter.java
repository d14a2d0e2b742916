package dev.parquetconnect.sink;

import dev.parquetconnect.connect.StagedRow;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.schema.MessageType;
import java.io.IOException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One file being written, as the sink sees the conversion layer: records in, bytes out to the
 * stream it was created on, row groups streamed as they complete. The sink never keeps records
 * itself; what a file holds in memory is what {@link #bufferedBytes()} reports.
 *
 * <p>Used by one thread.
 */
interface RecordFileWriter {

  /**
   * Whether {@code record} can go into this file: its schema is the file's, or one that {@code
   * schema.compatibility} lets the writer project to the file's schema, or (schemaless) its value
   * fits the file's inferred schema, or the file's schema could be widened to take it without
   * changing what is written (which this call then does). When not, the sink commits the file and
   * starts a new one for the record, passing this writer as the new file's predecessor.
   *
   * @throws org.apache.kafka.connect.errors.DataException if no file can take the record (a type
   *     conflict of schemaless data under a failing conflict policy): a bad record, not a reason to
   *     start a new file
   */
  boolean accepts(SinkRecord record);

  /**
   * How often {@link #accepts} changed this file's schema in place to take a record (a new optional
   * column, a first type for a column that was only null) instead of asking for a new file.
   */
  default int reshapes() {
    return 0;
  }

  /**
   * Converts and appends one record. A record that cannot be converted (a wrong type, a null in a
   * required field, a value without a Parquet representation) throws a {@link
   * org.apache.kafka.connect.errors.DataException} naming the field, and leaves the file as if the
   * call had not happened.
   *
   * @throws IOException when writing to the store fails (the file is then unusable)
   */
  void write(SinkRecord record) throws IOException;

  /**
   * Appends a record whose value was read from raw JSON straight into {@code row} ({@code
   * input.format=json}), with the same result as {@link #write} of the Struct JsonConverter would
   * make of it; false, with nothing written, when the file cannot take the row as it is (the caller
   * then decodes the record and goes through {@link #accepts} and {@link #write}).
   *
   * @throws org.apache.kafka.connect.errors.DataException if the record's key, headers or metadata
   *     cannot be written (nothing of it was written)
   * @throws IOException when writing to the store fails (the file is then unusable)
   */
  default boolean writeStaged(SinkRecord record, StagedRow row) throws IOException {
    return false;
  }

  /** Records written. */
  long recordCount();

  /** The Parquet schema the file is written with now; null for a format without one. */
  default MessageType parquetSchema() {
    return null;
  }

  /** The footer {@link #finish} wrote (statistics for a table's metrics); null before or none. */
  default FileMetaData footer() {
    return null;
  }

  /** Heap bytes held for rows not yet written out (the open row group and its pages). */
  long bufferedBytes();

  /**
   * The heap the writer holds now, what the memory budget counts: {@link #bufferedBytes()} unless
   * the writer keeps arrays larger than its rows.
   */
  default long heapBytes() {
    return bufferedBytes();
  }

  /**
   * About the bytes the rows not yet written out will add to the file: what {@code file.max.bytes}
   * counts besides {@link #bytesWritten()}. {@link #bufferedBytes()} unless the writer's heap
   * includes more than its rows (fixed per-file overhead the memory budget must see, but that never
   * reaches the file).
   */
  default long unwrittenFileBytes() {
    return bufferedBytes();
  }

  /** Bytes handed to the output stream so far. */
  long bytesWritten();

  /** Writes the buffered rows out as a row group now (to free memory); no-op when empty. */
  void flushRowGroup() throws IOException;

  /** Writes the last row group and the footer; the stream stays open for the commit. */
  void finish() throws IOException;
}
