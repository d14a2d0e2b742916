package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.storage.StoreInput;
import java.io.EOFException;
import java.io.IOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.RangeReadable;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * A file of {@link StoreFileIO} opened for reading: positioned reads through the store (ranged GETs
 * on S3), with a small read-ahead buffer for the sequential readers of metadata (JSON, Avro).
 */
final class StoreInputFile implements InputFile {
  /** Bytes fetched at once for sequential reads: one small GET per manifest block, not per read. */
  private static final int READ_AHEAD = 64 * 1024;

  private final StoreFileIO io;
  private final String location;
  private long length;

  StoreInputFile(StoreFileIO io, String location, long length) {
    this.io = io;
    this.location = location;
    this.length = length;
  }

  @Override
  public long getLength() {
    if (length < 0) {
      StoreFileIO.Located file = io.locate(location);
      try {
        length = file.store().stat(file.key()).size();
      } catch (IOException e) {
        throw StoreFileIO.unchecked("reading the length of " + location, e);
      }
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    StoreFileIO.Located file = io.locate(location);
    try {
      return new Stream(file.store().open(file.key()), location);
    } catch (IOException e) {
      throw StoreFileIO.unchecked("opening " + location, e);
    }
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public boolean exists() {
    StoreFileIO.Located file = io.locate(location);
    try {
      return file.store().exists(file.key());
    } catch (IOException e) {
      throw StoreFileIO.unchecked("looking up " + location, e);
    }
  }

  @Override
  public String toString() {
    return location;
  }

  /** The stream: a position over the store's positioned reads, buffered for sequential reads. */
  private static final class Stream extends SeekableInputStream implements RangeReadable {
    private final StoreInput input;
    private final String location;
    private final long length;
    private final byte[] buffer;
    private long bufferStart;
    private int bufferLength;
    private long pos;
    private boolean closed;

    Stream(StoreInput input, String location) throws IOException {
      this.input = input;
      this.location = location;
      this.length = input.length();
      this.buffer = new byte[(int) Math.min(READ_AHEAD, Math.max(1, length))];
    }

    @Override
    public long getPos() {
      return pos;
    }

    @Override
    public void seek(long newPos) throws IOException {
      checkOpen();
      if (newPos < 0) {
        throw new EOFException(location + ": cannot seek to " + newPos);
      }
      pos = newPos;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      checkOpen();
      if (len == 0) {
        return 0;
      }
      if (pos >= length) {
        return -1;
      }
      int n = (int) Math.min(len, length - pos);
      if (n >= buffer.length) {
        input.readFully(pos, b, off, n);
      } else {
        if (pos < bufferStart || pos >= bufferStart + bufferLength) {
          bufferStart = pos;
          bufferLength = (int) Math.min(buffer.length, length - pos);
          input.readFully(bufferStart, buffer, 0, bufferLength);
        }
        n = Math.min(n, (int) (bufferStart + bufferLength - pos));
        System.arraycopy(buffer, (int) (pos - bufferStart), b, off, n);
      }
      pos += n;
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = Math.max(0, Math.min(n, length - pos));
      pos += skipped;
      return skipped;
    }

    @Override
    public int available() {
      return (int) Math.min(Integer.MAX_VALUE, Math.max(0, bufferStart + bufferLength - pos));
    }

    @Override
    public void readFully(long position, byte[] dst, int off, int len) throws IOException {
      checkOpen();
      input.readFully(position, dst, off, len);
    }

    @Override
    public int readTail(byte[] dst, int off, int len) throws IOException {
      checkOpen();
      int n = (int) Math.min(len, length);
      input.readFully(length - n, dst, off, n);
      return n;
    }

    private void checkOpen() throws IOException {
      if (closed) {
        throw new IOException(location + ": the stream is closed");
      }
    }

    @Override
    public void close() throws IOException {
      if (!closed) {
        closed = true;
        input.close();
      }
    }
  }
}
