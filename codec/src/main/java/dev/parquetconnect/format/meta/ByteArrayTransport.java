package dev.parquetconnect.format.meta;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.thrift.transport.TTransportException;

/**
 * A Thrift transport over a slice of a {@code byte[]}: {@link ThriftInput} reads its bytes in
 * place, and every declared length is checked against the bytes left in the slice. It also exposes
 * the array as its buffer, for libthrift code that reads through {@code TTransport}.
 */
final class ByteArrayTransport extends ReadTransport {
  private final byte[] buf;
  private final int start;
  private final int limit;
  private int pos;

  ByteArrayTransport(byte[] buf, int off, int len) {
    super(len);
    this.buf = buf;
    this.start = off;
    this.limit = off + len;
    this.pos = off;
  }

  @Override
  int position() {
    return pos - start;
  }

  @Override
  long remaining() {
    return limit - pos;
  }

  @Override
  public int read(byte[] dst, int off, int len) throws TTransportException {
    int available = limit - pos;
    if (available <= 0) {
      throw endOfInput(
          "needs " + len + " more bytes at byte " + position() + " but the input ends");
    }
    int n = Math.min(len, available);
    System.arraycopy(buf, pos, dst, off, n);
    pos += n;
    return n;
  }

  @Override
  int readByte() throws TTransportException {
    if (pos >= limit) {
      throw endOfInput("needs 1 more byte at byte " + position() + " but the input ends");
    }
    return buf[pos++] & 0xFF;
  }

  @Override
  byte[] readBytes(int len) throws TTransportException {
    checkReadBytesAvailable(len);
    byte[] bytes = Arrays.copyOfRange(buf, pos, pos + len);
    pos += len;
    return bytes;
  }

  @Override
  String readUtf8(int len) throws TTransportException {
    checkReadBytesAvailable(len);
    String s = new String(buf, pos, len, StandardCharsets.UTF_8);
    pos += len;
    return s;
  }

  @Override
  public byte[] getBuffer() {
    return buf;
  }

  @Override
  public int getBufferPosition() {
    return pos;
  }

  @Override
  public int getBytesRemainingInBuffer() {
    return limit - pos;
  }

  /**
   * Advances past bytes the protocol decoded in place. The protocol's fast varint path may scan
   * past the slice end when the last bytes all have the continuation bit set; that surfaces here.
   */
  @Override
  public void consumeBuffer(int len) {
    pos += len;
    if (pos > limit || len < 0) {
      throw new IndexOutOfBoundsException(
          "a varint runs past the end of the input (" + (limit - start) + " bytes)");
    }
  }

  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    if (numBytes < 0 || numBytes > limit - pos) {
      throw endOfInput(
          "a length of "
              + numBytes
              + " at byte "
              + position()
              + " exceeds the "
              + (limit - pos)
              + " bytes left");
    }
  }
}
