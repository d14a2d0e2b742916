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
    String where = "width " + width + ", " + values.length + " values, threshold "
        + encoder.minRepeat() + (prefixed ? ", prefixed" : "");
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
