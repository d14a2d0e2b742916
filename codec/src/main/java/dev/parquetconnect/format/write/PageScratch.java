package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Buffers a page passes through while it is encoded, shared by every column of a file writer: pages
 * close one at a time, so one set serves all columns, however wide the schema.
 */
final class PageScratch {
  /** The encoded values. */
  final GrowableBuffer values = new GrowableBuffer(1 << 16);

  /** The encoded levels (v1: then the values, the uncompressed page body). */
  final GrowableBuffer body = new GrowableBuffer(1 << 16);

  /** The compressed page body or values. */
  final GrowableBuffer compressed = new GrowableBuffer(1 << 16);

  /** The serialized page header. */
  final GrowableBuffer header = new GrowableBuffer(256);

  /** Trial encodings while a fallback encoding is chosen. */
  final GrowableBuffer trial = new GrowableBuffer(1 << 16);

  final GrowableBuffer trialCompressed = new GrowableBuffer(1 << 16);

  /** Dictionary indices of the page being encoded. */
  int[] indices = new int[1024];

  final CRC32 crc = new CRC32();

  /** The indices array with room for {@code n}; growing keeps those already there. */
  int[] indices(int n) {
    if (indices.length < n) {
      indices = Arrays.copyOf(indices, Math.max(n, indices.length * 2));
    }
    return indices;
  }

  /** The CRC32 of {@code a} followed by {@code b[0, bLength)}. */
  int crc(GrowableBuffer a, byte[] b, int bOff, int bLength) {
    crc.reset();
    crc.update(a.array(), 0, a.size());
    crc.update(b, bOff, bLength);
    return (int) crc.getValue();
  }
}
