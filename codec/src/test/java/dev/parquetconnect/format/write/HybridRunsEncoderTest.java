package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.encoding.RleBitPackedHybridDecoder;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.junit.jupiter.api.Test;

/**
 * The run-threshold hybrid decodes, with and without length prefix, in our decoder and in
 * parquet-java's, for every width, long and short runs, and every threshold.
 */
class HybridRunsEncoderTest {
  @Test
  void everyWidthAndRunShapeDecodesInBothDecoders() throws Exception {
    Random random = new Random(8);
    for (int width = 0; width <= 32; width++) {
      for (boolean compressed : new boolean[] {true, false}) {
        for (boolean prefixed : new boolean[] {true, false}) {
          for (int trial = 0; trial < 8; trial++) {
            int[] values = values(random, width, 1 + random.nextInt(3000));
            check(values, width, compressed, prefixed);
          }
        }
      }
    }
  }

  /** Runs of random lengths (some long, some a few values) of random values of the width. */
  private static int[] values(Random random, int width, int n) {
    int[] values = new int[n];
    long max = width == 32 ? 0xFFFFFFFFL : (1L << width) - 1;
    for (int i = 0; i < n; ) {
      int run = random.nextInt(4) == 0 ? 1 + random.nextInt(400) : 1 + random.nextInt(5);
      int v = (int) (random.nextDouble() * (max + 1));
      for (int k = 0; k < run && i < n; k++, i++) {
        values[i] = v;
      }
    }
    return values;
  }

  private static void check(int[] values, int width, boolean compressed, boolean prefixed)
      throws Exception {
    HybridRunsEncoder encoder = new HybridRunsEncoder(width, compressed, prefixed);
    GrowableBuffer out = new GrowableBuffer();
    out.writeByte(0x5A); // the runs need not start at offset 0
    int written = encoder.encode(values, values.length, out);
    assertEquals(out.size() - 1, written);
    byte[] bytes = out.toByteArray();
    String where =
        "width "
            + width
            + ", "
            + values.length
            + " values, threshold "
            + encoder.minRepeat()
            + (prefixed ? ", prefixed" : "");
    if (prefixed) {
      assertEquals(written - 4, LittleEndian.getInt(bytes, 1), where);
    }

    RleBitPackedHybridDecoder ours = new RleBitPackedHybridDecoder(width, prefixed);
    ours.init(bytes, 1, written, values.length);
    int[] decoded = new int[values.length];
    ours.readInts(decoded, 0, values.length);
    assertArrayEquals(values, decoded, where);

    int start = 1 + (prefixed ? 4 : 0);
    RunLengthBitPackingHybridDecoder theirs =
        new RunLengthBitPackingHybridDecoder(
            width, ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes, start, bytes.length - start)));
    for (int i = 0; i < values.length; i++) {
      assertEquals(values[i], theirs.readInt(), where + ", value " + i);
    }
  }

  /**
   * The encoder finds long runs by probing values a stride apart; its bytes must be those of a scan
   * that looks at every maximal run ({@link #referenceRuns}), on runs of every length around the
   * threshold, runs that start anywhere relative to the probes, and periodic data whose values
   * repeat exactly a stride apart.
   */
  @Test
  void probingFindsTheSameRunsAsAValueByValueScan() {
    Random random = new Random(21);
    for (int trial = 0; trial < 3000; trial++) {
      int width = 1 + random.nextInt(12);
      boolean compressed = random.nextBoolean();
      HybridRunsEncoder encoder = new HybridRunsEncoder(width, compressed, false);
      int m = encoder.minRepeat();
      int n = random.nextInt(2000);
      int[] values = new int[n];
      int shape = random.nextInt(4);
      int period = 1 + random.nextInt(2 * m);
      for (int i = 0; i < n; ) {
        int run =
            switch (shape) {
              case 0 -> m - 9 + random.nextInt(20); // around the threshold
              case 1 -> 1 + random.nextInt(3 * m);
              case 2 -> random.nextInt(6) == 0 ? m + random.nextInt(m) : 1 + random.nextInt(3);
              default -> 1;
            };
        int v = shape == 3 ? (i % period == 0 ? 1 : 0) : random.nextInt(1 << Math.min(width, 3));
        for (int k = 0; k < run && i < n; k++, i++) {
          values[i] = v;
        }
      }
      GrowableBuffer out = new GrowableBuffer();
      encoder.encode(values, n, out);
      GrowableBuffer expected = new GrowableBuffer();
      referenceRuns(values, n, width, m, expected);
      assertArrayEquals(
          expected.toByteArray(),
          out.toByteArray(),
          "width " + width + ", threshold " + m + ", shape " + shape + ", " + n + " values");
    }
  }

  /** Every maximal run in order; RLE where it is long enough after lending to the packing. */
  private static void referenceRuns(
      int[] values, int count, int width, int minRepeat, GrowableBuffer out) {
    int packedFrom = 0;
    int i = 0;
    while (i < count) {
      int run = 1;
      while (i + run < count && values[i + run] == values[i]) {
        run++;
      }
      int lend = (8 - ((i - packedFrom) & 7)) & 7;
      if (run >= minRepeat && run - lend >= minRepeat) {
        referencePacked(values, packedFrom, i + lend, width, out);
        out.writeUnsignedVarInt((run - lend) << 1);
        for (int k = 0; k < (width + 7) / 8; k++) {
          out.writeByte(values[i] >>> (k << 3));
        }
        packedFrom = i + run;
      }
      i += run;
    }
    referencePacked(values, packedFrom, count, width, out);
  }

  /** Bit-packed groups of 8, LSB first, the last group padded with zeros. */
  private static void referencePacked(
      int[] values, int from, int to, int width, GrowableBuffer out) {
    if (to <= from) {
      return;
    }
    int groups = (to - from + 7) / 8;
    out.writeUnsignedVarInt((groups << 1) | 1);
    byte[] packed = new byte[groups * width];
    for (int i = from; i < to; i++) {
      for (int b = 0; b < width; b++) {
        if ((values[i] >>> b & 1) != 0) {
          int bit = (i - from) * width + b;
          packed[bit >>> 3] |= (byte) (1 << (bit & 7));
        }
      }
    }
    for (byte p : packed) {
      out.writeByte(p);
    }
  }

  @Test
  void shortRunsStayPackedWhenCompressedAndLongOnesBecomeRuns() {
    int[] values = new int[1000];
    for (int i = 0; i < 1000; i++) {
      values[i] = i < 500 ? (i / 20) % 2 : 1; // runs of 20, then a run of 500
    }
    GrowableBuffer compressed = new GrowableBuffer();
    new HybridRunsEncoder(1, true, false).encode(values, 1000, compressed);
    GrowableBuffer raw = new GrowableBuffer();
    new HybridRunsEncoder(1, false, false).encode(values, 1000, raw);
    // Compressed: 500 bits packed (63 bytes with header), then one run of 500 (3 bytes).
    assertTrue(compressed.size() < 70, "compressed threshold: " + compressed.size());
    // Raw, width 1: runs of 20 are below the raw threshold (25) too, so the same.
    assertEquals(25, HybridRunsEncoder.rawThreshold(1));
    assertEquals(8, HybridRunsEncoder.rawThreshold(4));
    assertTrue(raw.size() <= compressed.size());
  }
}
