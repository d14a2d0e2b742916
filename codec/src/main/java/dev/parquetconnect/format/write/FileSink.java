package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The output stream a file is written to, counting the bytes so far: the position of everything the
 * footer points at. Only ever appends, so any sink works, an object store's multipart upload
 * included.
 */
final class FileSink {
  private final OutputStream out;
  private long position;

  FileSink(OutputStream out) {
    this.out = out;
  }

  long position() {
    return position;
  }

  void write(byte[] bytes, int off, int len) throws IOException {
    out.write(bytes, off, len);
    position += len;
  }

  void write(GrowableBuffer buffer) throws IOException {
    write(buffer.array(), 0, buffer.size());
  }

  void flush() throws IOException {
    out.flush();
  }

  void close() throws IOException {
    out.close();
  }
}
