package dev.parquetconnect.source;

import java.io.IOException;
import java.util.List;

/**
 * Where a task finds the files it replays: the store's listing ({@link FileDiscovery}) or an
 * Iceberg table's snapshot ({@link TableDiscovery}).
 */
interface SourceDiscovery extends AutoCloseable {
  /** The files of this task; a file listed before may be listed again. */
  List<FileDiscovery.Found> list() throws IOException;

  /** Releases what the discovery holds open (a catalog). */
  @Override
  default void close() {}
}
