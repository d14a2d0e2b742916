package dev.parquetconnect.storage;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A store output as a Parquet writer sees it: closing it (which the writer does after the footer)
 * only flushes, because the caller commits the output itself afterwards, and a store output closed
 * before its commit is aborted.
 */
public final class UnclosedOutput extends FilterOutputStream {
  public UnclosedOutput(OutputStream out) {
    super(out);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    out.write(b, off, len);
  }

  @Override
  public void close() throws IOException {
    out.flush();
  }
}
