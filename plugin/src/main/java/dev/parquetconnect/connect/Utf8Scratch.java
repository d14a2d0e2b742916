package dev.parquetconnect.connect;

import dev.parquetconnect.format.io.Utf8;

/**
 * A reusable buffer strings are encoded into as UTF-8, so writing a STRING value allocates nothing
 * ({@code String.getBytes} makes a new array per value). A lone surrogate becomes {@code '?'}, as
 * {@code String.getBytes(UTF_8)} does.
 */
final class Utf8Scratch {
  private byte[] buffer = new byte[256];

  /** The buffer holding the last encoded string in {@code [0, length)}. */
  byte[] buffer() {
    return buffer;
  }

  /** Encodes {@code s} into {@link #buffer()} and returns its length in bytes. */
  int encode(String s) {
    long needed = Utf8.maxBytes(s);
    if (buffer.length < needed) {
      buffer = new byte[(int) Math.max(needed, buffer.length * 2L)];
    }
    return Utf8.encode(s, buffer, 0);
  }
}
