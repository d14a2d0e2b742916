package dev.parquetconnect.format.encoding;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.util.Random;

/** Value generators and small helpers shared by the encoding tests (fixed seeds everywhere). */
final class TestValues {
  /** Lengths around the group (8), miniblock (32), block (128) and page-ish (1024) sizes. */
  static final int[] LENGTHS = {
    0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 127, 128, 129, 1023, 1024, 1025
  };

  private TestValues() {}

  /**
   * Unsigned values of {@code width} bits in one of several shapes: uniform random, long runs,
   * short runs, runs broken every few values, all equal, all maximal, alternating extremes.
   */
  static int[] ints(Random random, int count, int width, int shape) {
    int[] values = new int[count];
    long mask = BitPacking.mask(width);
    int max = (int) mask;
    switch (shape % 7) {
      case 0 -> {
        for (int i = 0; i < count; i++) {
          values[i] = (int) (random.nextLong() & mask);
        }
      }
      case 1, 2 -> {
        // Runs of random length: long ones for shape 1, short ones (1..12) for shape 2.
        int bound = shape % 7 == 1 ? 300 : 12;
        for (int i = 0; i < count; ) {
          int v = (int) (random.nextLong() & mask);
          int run = 1 + random.nextInt(bound);
          for (int k = 0; k < run && i < count; k++) {
            values[i++] = v;
          }
        }
      }
      case 3 -> {
        // Mostly one value, with an occasional other one: what definition levels look like.
        int common = (int) (random.nextLong() & mask);
        for (int i = 0; i < count; i++) {
          values[i] = random.nextInt(20) == 0 ? (int) (random.nextLong() & mask) : common;
        }
      }
      case 4 -> {
        int v = (int) (random.nextLong() & mask);
        for (int i = 0; i < count; i++) {
          values[i] = v;
        }
      }
      case 5 -> {
        for (int i = 0; i < count; i++) {
          values[i] = max;
        }
      }
      default -> {
        for (int i = 0; i < count; i++) {
          values[i] = (i & 1) == 0 ? 0 : max;
        }
      }
    }
    return values;
  }

  static final int SHAPES = 7;

  /** Batch sizes that cut a stream at awkward places: 1, 3, 8, 13, 100, the rest. */
  static int nextBatch(Random random, int left) {
    int[] sizes = {1, 3, 7, 8, 13, 64, 100, 1000};
    return Math.min(left, sizes[random.nextInt(sizes.length)]);
  }

  static byte[] flush(ValuesEncoder encoder) {
    GrowableBuffer out = new GrowableBuffer();
    encoder.flushTo(out);
    return out.toByteArray();
  }

  /** {@code bytes} placed at {@code offset} inside a larger array with junk around it. */
  static byte[] embed(byte[] bytes, int offset, int trailing, Random random) {
    byte[] page = new byte[offset + bytes.length + trailing];
    random.nextBytes(page);
    System.arraycopy(bytes, 0, page, offset, bytes.length);
    return page;
  }
}
