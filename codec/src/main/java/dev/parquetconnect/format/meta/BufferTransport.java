package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.nio.ByteBuffer;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/** A write-only Thrift transport that appends to a {@link GrowableBuffer}. */
final class BufferTransport extends TTransport {
  private final GrowableBuffer out;

  BufferTransport(GrowableBuffer out) {
    this.out = out;
  }

  @Override
  public void write(byte[] src, int off, int len) {
    out.write(src, off, len);
  }

  /** Copies a (read-only) binary straight into the buffer instead of through a temporary array. */
  @Override
  public int write(ByteBuffer src) {
    int n = src.remaining();
    out.ensureCapacity(n);
    src.get(out.array(), out.size(), n);
    out.advance(n);
    return n;
  }

  @Override
  public int read(byte[] buf, int off, int len) throws TTransportException {
    throw new TTransportException(TTransportException.UNKNOWN, "write-only transport");
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public void open() {
    // Nothing to open: the buffer is in memory.
  }

  @Override
  public void close() {
    // The caller owns the buffer.
  }

  @Override
  public TConfiguration getConfiguration() {
    return TConfiguration.DEFAULT;
  }

  @Override
  public void updateKnownMessageSize(long size) {
    // Writing needs no message size bookkeeping.
  }

  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    throw new TTransportException(TTransportException.UNKNOWN, "write-only transport");
  }
}
