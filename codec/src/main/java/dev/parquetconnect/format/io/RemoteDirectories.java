package dev.parquetconnect.format.io;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Opens directories of files on stores the codec knows nothing of (HDFS, S3...), for tools over the
 * codec ({@code pq audit}). Implementations are found with {@link java.util.ServiceLoader}, so the
 * codec and {@code pq.jar} carry no store libraries: the Connect plugin provides one, and is put on
 * the class path when a URL needs it.
 */
public interface RemoteDirectories {
  /** Whether this provider opens {@code url} (by its scheme). */
  boolean opens(String url);

  /**
   * Opens the directory at {@code url}.
   *
   * @param settings the store's settings, the keys a connector takes (credentials among them: an
   *     implementation never logs or echoes them)
   */
  Directory open(String url, Map<String, String> settings) throws IOException;

  /** A directory on a store: its files, recursively, and ranged reads of each. */
  interface Directory extends Closeable {
    /** A file: its key below the directory ({@code /}-separated) and its size in bytes. */
    record Entry(String key, long size) {}

    /** Every file below the directory, recursively, in key order. */
    List<Entry> list() throws IOException;

    /** Opens a listed file for ranged reads. */
    SeekableInput open(String key) throws IOException;

    /**
     * Whether every listed file is committed data, as the files an Iceberg table's snapshot
     * references are: no file supersedes another (a directory's lower commit attempts do), and a
     * file the table references twice is listed twice.
     */
    default boolean everyFileCommitted() {
      return false;
    }
  }
}
