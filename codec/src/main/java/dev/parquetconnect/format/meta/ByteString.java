package dev.parquetconnect.format.meta;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An immutable byte string for Thrift {@code binary} fields (statistics bounds, key metadata),
 * compared by content so metadata records can use value equality. Reading copies the bytes out of
 * the caller's buffer, which may be reused for the next page or file.
 */
public final class ByteString {
  public static final ByteString EMPTY = new ByteString(new byte[0]);

  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final int MAX_HEX_IN_TO_STRING = 32;

  private final byte[] bytes;

  private ByteString(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Takes {@code bytes} as they are, without a copy: for an array nobody else holds. */
  static ByteString wrap(byte[] bytes) {
    return new ByteString(bytes);
  }

  public static ByteString copyOf(byte[] src) {
    return copyOf(src, 0, src.length);
  }

  public static ByteString copyOf(byte[] src, int off, int len) {
    if (len == 0) {
      return EMPTY;
    }
    return new ByteString(Arrays.copyOfRange(src, off, off + len));
  }

  public static ByteString ofUtf8(String s) {
    return new ByteString(s.getBytes(StandardCharsets.UTF_8));
  }

  public int length() {
    return bytes.length;
  }

  public boolean isEmpty() {
    return bytes.length == 0;
  }

  public byte byteAt(int index) {
    return bytes[index];
  }

  public byte[] toByteArray() {
    return bytes.clone();
  }

  public void copyTo(byte[] dst, int dstOff) {
    System.arraycopy(bytes, 0, dst, dstOff, bytes.length);
  }

  public ByteBuffer asReadOnlyByteBuffer() {
    return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
  }

  public String toStringUtf8() {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** The backing array, for the writer only: callers in this package must not modify it. */
  byte[] internalArray() {
    return bytes;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ByteString other && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  /** Hex of the first 32 bytes, enough to recognise a value in a log or an assertion message. */
  @Override
  public String toString() {
    int shown = Math.min(bytes.length, MAX_HEX_IN_TO_STRING);
    StringBuilder sb = new StringBuilder(shown * 2 + 24).append("0x");
    for (int i = 0; i < shown; i++) {
      sb.append(HEX[(bytes[i] >> 4) & 0xF]).append(HEX[bytes[i] & 0xF]);
    }
    if (shown < bytes.length) {
      sb.append("...(").append(bytes.length).append(" bytes)");
    }
    return sb.toString();
  }
}
