package dev.parquetconnect.format.meta;

import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * The read side of the transports the codec drives {@code TCompactProtocol} over. Besides the
 * Thrift contract, a transport knows how far it has read (for error messages) and how many more
 * bytes it may still deliver, so list and string lengths can be checked against the input before
 * anything is allocated for them.
 */
abstract class ReadTransport extends TTransport {
  private final TConfiguration configuration;

  ReadTransport(int maxMessageSize) {
    // Thrift's own limits, set to the input size for any libthrift code that consults them; the
    // exact checks are in checkReadBytesAvailable.
    this.configuration = new TConfiguration(maxMessageSize, maxMessageSize, ThriftInput.MAX_DEPTH);
  }

  /** Bytes consumed since the start of the structure. */
  abstract int position();

  /** Bytes that may still be consumed: what is left of the slice, or of the size limit. */
  abstract long remaining();

  @Override
  public final boolean isOpen() {
    return true;
  }

  @Override
  public final void open() {
    // Nothing to open: the bytes are already in memory or the stream is the caller's.
  }

  @Override
  public final void close() {
    // The caller owns the underlying buffer or stream.
  }

  @Override
  public final void write(byte[] buf, int off, int len) throws TTransportException {
    throw new TTransportException(TTransportException.UNKNOWN, "read-only transport");
  }

  @Override
  public final TConfiguration getConfiguration() {
    return configuration;
  }

  @Override
  public final void updateKnownMessageSize(long size) {
    // Parquet metadata is not framed as Thrift messages; the limits are fixed at construction.
  }

  /** The next byte (0..255). */
  int readByte() throws TTransportException {
    byte[] one = new byte[1];
    readAll(one, 0, 1);
    return one[0] & 0xFF;
  }

  /** The next {@code len} bytes, checked against the input before anything is allocated. */
  byte[] readBytes(int len) throws TTransportException {
    checkReadBytesAvailable(len);
    byte[] bytes = new byte[len];
    readAll(bytes, 0, len);
    return bytes;
  }

  /** The next {@code len} bytes as UTF-8 text, checked like {@link #readBytes}. */
  String readUtf8(int len) throws TTransportException {
    return new String(readBytes(len), java.nio.charset.StandardCharsets.UTF_8);
  }

  static TTransportException endOfInput(String message) {
    return new TTransportException(TTransportException.END_OF_FILE, message);
  }
}
