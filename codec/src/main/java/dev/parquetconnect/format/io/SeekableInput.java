package dev.parquetconnect.format.io;

import java.io.Closeable;
import java.io.IOException;

/**
 * A file the reader can read at any position (a local file, an HDFS file, an object-store object
 * read with ranged GETs). Reads are positioned, so the reader fetches exactly the byte ranges it
 * needs (footer, then the projected column chunks page by page) and never the whole file.
 * Implementations count what they transfer so tests can check that bound.
 */
public interface SeekableInput extends Closeable {
  /** The file's length in bytes. */
  long length() throws IOException;

  /**
   * Reads exactly {@code len} bytes at {@code position} into {@code dst[off, off + len)}; an {@link
   * java.io.EOFException} when the file ends first.
   */
  void readFully(long position, byte[] dst, int off, int len) throws IOException;

  /** A name for error messages (a path or URL); never a credential. */
  String name();
}
