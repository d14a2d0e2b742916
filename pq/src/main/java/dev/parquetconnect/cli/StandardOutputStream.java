package dev.parquetconnect.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The process's standard output, unbuffered (callers buffer), turning a write error into a {@link
 * ClosedOutputException} so that an I/O error on a Parquet file and a closed pipe can be told
 * apart. {@code System.out} would swallow the error and keep the command running.
 */
final class StandardOutputStream extends OutputStream {
  private final FileOutputStream out = new FileOutputStream(FileDescriptor.out);

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw new ClosedOutputException(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw new ClosedOutputException(e);
    }
  }
}
