package dev.parquetconnect.sink;

import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;

/** One file of an open commit: its final key, the store output and the record writer on it. */
final class OpenFile {
  private final String key;
  private final StoreOutput output;
  private RecordFileWriter writer;
  private long accountedBytes;

  OpenFile(String key, StoreOutput output) {
    this.key = key;
    this.output = output;
  }

  String key() {
    return key;
  }

  StoreOutput output() {
    return output;
  }

  RecordFileWriter writer() {
    return writer;
  }

  void writer(RecordFileWriter recordWriter) {
    this.writer = recordWriter;
  }

  /** The heap this file holds: rows not yet written out plus the output's buffers. */
  long heapBytes() {
    return (writer == null ? 0 : writer.bufferedBytes()) + output.heapBytes();
  }

  /** The bytes of the file so far, written and buffered ({@code file.max.bytes}). */
  long fileBytes() {
    return writer == null ? 0 : writer.bytesWritten() + writer.bufferedBytes();
  }

  long accountedBytes() {
    return accountedBytes;
  }

  void accountedBytes(long bytes) {
    this.accountedBytes = bytes;
  }

  /** Discards the file; never throws (it is called on paths that already failed). */
  void abortQuietly() {
    try {
      output.abort();
    } catch (IOException | RuntimeException ignored) {
      // Its temporary file or upload is an orphan now; cleanupOrphans removes it.
    }
  }
}
