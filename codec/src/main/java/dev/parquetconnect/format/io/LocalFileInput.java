package dev.parquetconnect.format.io;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.LongAdder;

/** A local file read with positioned {@link FileChannel} reads; thread-safe. */
public final class LocalFileInput implements SeekableInput {
  private final Path path;
  private final FileChannel channel;
  private final LongAdder bytesRead = new LongAdder();

  public LocalFileInput(Path path) throws IOException {
    this.path = path;
    this.channel = FileChannel.open(path, StandardOpenOption.READ);
  }

  @Override
  public long length() throws IOException {
    return channel.size();
  }

  @Override
  public void readFully(long position, byte[] dst, int off, int len) throws IOException {
    if (position < 0) {
      throw new EOFException(path + ": read at negative position " + position);
    }
    ByteBuffer buf = ByteBuffer.wrap(dst, off, len);
    long pos = position;
    while (buf.hasRemaining()) {
      int n = channel.read(buf, pos);
      if (n < 0) {
        throw new EOFException(
            path
                + ": "
                + buf.remaining()
                + " bytes missing at position "
                + pos
                + " of "
                + channel.size());
      }
      pos += n;
    }
    bytesRead.add(len);
  }

  /** Bytes transferred by {@link #readFully} so far. */
  public long bytesRead() {
    return bytesRead.sum();
  }

  @Override
  public String name() {
    return path.toString();
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
