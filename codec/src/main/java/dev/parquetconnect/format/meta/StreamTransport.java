package dev.parquetconnect.format.meta;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.thrift.transport.TTransportException;

/**
 * A Thrift transport that reads a page header from a stream and takes exactly the header's bytes
 * from it, so the caller can go on reading the page body from the same stream.
 *
 * <p>Single bytes and fixed-size fields are read from the stream as the protocol asks for them.
 * When the protocol announces a length ({@link #checkReadBytesAvailable}, called before a binary or
 * a list is read), exactly that many bytes are pulled into an internal buffer, which grows only as
 * bytes actually arrive: a lying length costs at most the bytes the stream really has (and never
 * more than the header size limit), never an allocation of the claimed size. Announced lengths
 * always lie inside the structure being read, so on valid input nothing past the header is
 * consumed.
 */
final class StreamTransport extends ReadTransport {
  private static final int CHUNK = 8192;
  private static final int MAX_IN_PLACE = 4;

  private final InputStream in;
  private final int maxBytes;
  private byte[] buf = new byte[256];

  /** Next unconsumed byte in {@link #buf}. */
  private int pos;

  /** End of the buffered bytes in {@link #buf}. */
  private int filled;

  /** Bytes consumed before {@code buf[0]}. */
  private int consumedBefore;

  private IOException failure;

  StreamTransport(InputStream in, int maxBytes) {
    super(maxBytes);
    this.in = in;
    this.maxBytes = maxBytes;
  }

  @Override
  int position() {
    return consumedBefore + pos;
  }

  @Override
  long remaining() {
    return (long) maxBytes - position();
  }

  /** Bytes taken from the stream but not consumed by the protocol: zero after a valid header. */
  int unconsumed() {
    return filled - pos;
  }

  /** The stream's own failure, if one interrupted the read; it must reach the caller as such. */
  IOException failure() {
    return failure;
  }

  @Override
  public int read(byte[] dst, int off, int len) throws TTransportException {
    if (pos < filled) {
      int n = Math.min(len, filled - pos);
      System.arraycopy(buf, pos, dst, off, n);
      pos += n;
      return n;
    }
    compact();
    int allowed = maxBytes - consumedBefore;
    if (allowed <= 0) {
      throw tooLarge();
    }
    // Straight from the stream, never more than asked for, so no byte after the header is taken.
    int n = readStream(dst, off, Math.min(len, allowed));
    consumedBefore += n;
    return n;
  }

  @Override
  int readByte() throws TTransportException {
    if (pos < filled) {
      return buf[pos++] & 0xFF;
    }
    return super.readByte();
  }

  @Override
  public byte[] getBuffer() {
    return buf;
  }

  @Override
  public int getBufferPosition() {
    return pos;
  }

  /**
   * At most 4, below the 5 bytes {@code TCompactProtocol} needs before it decodes a varint in
   * place. Its in-place loop runs on while bytes have the continuation bit, so on a malformed
   * over-long varint it would read past the bytes fetched so far into stale buffer content; byte by
   * byte, each byte comes from the stream, and this reader sees exactly what the array reader sees.
   * Longer binaries are copied out through {@link #read} after {@link #checkReadBytesAvailable} has
   * fetched them.
   */
  @Override
  public int getBytesRemainingInBuffer() {
    return Math.min(filled - pos, MAX_IN_PLACE);
  }

  @Override
  public void consumeBuffer(int len) {
    pos += len;
    if (pos > filled || len < 0) {
      throw new IndexOutOfBoundsException("a varint runs past the buffered page header bytes");
    }
  }

  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    if (numBytes < 0) {
      throw endOfInput("negative length " + numBytes + " at byte " + position());
    }
    if (numBytes > remaining()) {
      throw endOfInput(
          "a length of "
              + numBytes
              + " at byte "
              + position()
              + " would take the page header past "
              + maxBytes
              + " bytes");
    }
    int need = (int) numBytes;
    if (filled - pos >= need) {
      return;
    }
    compact();
    while (filled < need) {
      if (filled == buf.length) {
        // Grow by what has arrived (doubling) or one chunk, never straight to the claimed size.
        int grown = Math.max(buf.length * 2, filled + CHUNK);
        buf = Arrays.copyOf(buf, Math.min(grown, need));
      }
      filled += readStream(buf, filled, Math.min(need - filled, buf.length - filled));
    }
  }

  /** Moves the unconsumed bytes to the front of the buffer. */
  private void compact() {
    if (pos == 0) {
      return;
    }
    System.arraycopy(buf, pos, buf, 0, filled - pos);
    consumedBefore += pos;
    filled -= pos;
    pos = 0;
  }

  private int readStream(byte[] dst, int off, int len) throws TTransportException {
    int n;
    try {
      n = in.read(dst, off, len);
    } catch (IOException e) {
      failure = e;
      throw new TTransportException(TTransportException.UNKNOWN, e);
    }
    if (n < 0) {
      throw endOfInput(
          "the stream ends after " + (consumedBefore + filled) + " bytes of the header");
    }
    if (n == 0) {
      // InputStream.read returns 0 only for len 0; a stream that does otherwise would spin here.
      throw endOfInput("the stream returned no bytes at byte " + (consumedBefore + filled));
    }
    return n;
  }

  private TTransportException tooLarge() {
    return endOfInput("the page header is larger than the limit of " + maxBytes + " bytes");
  }
}
