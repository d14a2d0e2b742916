package dev.parquetconnect.sink;

import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;

/**
 * One file of an open commit: its provisional key (the commit's end offset is not known yet), the
 * store output and the record writer on it, and, once the commit begins, its final key.
 */
final class OpenFile {
  private final String key;
  private final String directory;
  private final String partitionPath;
  private final StoreOutput output;
  private RecordFileWriter writer;
  private long accountedBytes;
  private String finalKey;

  /**
   * @param key the provisional key, which names the output's temporary state
   * @param directory the directory the file is committed in, under a name given at the commit
   */
  OpenFile(String key, String directory, StoreOutput output) {
    this(key, directory, "", output);
  }

  /**
   * @param partitionPath the partitioner's encoded partition the directory ends with ({@code ""}
   *     for none), which a table commit turns into the file's partition tuple
   */
  OpenFile(String key, String directory, String partitionPath, StoreOutput output) {
    this.key = key;
    this.directory = directory;
    this.partitionPath = partitionPath;
    this.output = output;
  }

  /** The provisional key (unique within the open commit). */
  String key() {
    return key;
  }

  String directory() {
    return directory;
  }

  String partitionPath() {
    return partitionPath;
  }

  /** The key the file is committed under; null until the commit names it. */
  String finalKey() {
    return finalKey;
  }

  void finalKey(String committedKey) {
    this.finalKey = committedKey;
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
    return (writer == null ? 0 : writer.heapBytes()) + output.heapBytes();
  }

  /**
   * The bytes of the file so far, written and buffered ({@code file.max.bytes}): not its heap,
   * which also counts the writer's fixed overhead ({@link RecordFileWriter#unwrittenFileBytes}).
   */
  long fileBytes() {
    return writer == null ? 0 : writer.bytesWritten() + writer.unwrittenFileBytes();
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
