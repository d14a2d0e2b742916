package dev.parquetconnect.format.read;

import dev.parquetconnect.format.io.SeekableInput;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** A file held in memory that records every positioned read, for tests of what is fetched. */
public final class MemoryInput implements SeekableInput {
  private final byte[] bytes;
  private final String name;
  final List<long[]> reads = new ArrayList<>();

  public MemoryInput(byte[] bytes, String name) {
    this.bytes = bytes;
    this.name = name;
  }

  @Override
  public long length() {
    return bytes.length;
  }

  @Override
  public void readFully(long position, byte[] dst, int off, int len) throws IOException {
    if (position < 0 || len < 0 || position > bytes.length - (long) len) {
      throw new EOFException(name + ": read [" + position + ", +" + len + ") past " + bytes.length);
    }
    System.arraycopy(bytes, (int) position, dst, off, len);
    reads.add(new long[] {position, len});
  }

  long bytesRead() {
    long sum = 0;
    for (long[] r : reads) {
      sum += r[1];
    }
    return sum;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void close() {}
}
