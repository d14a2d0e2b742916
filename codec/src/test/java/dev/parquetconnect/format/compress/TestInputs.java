package dev.parquetconnect.format.compress;

import dev.parquetconnect.format.meta.CompressionCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Page-like inputs for codec tests, generated from fixed seeds. */
final class TestInputs {
  /** Every codec this package reads and writes (all but LZO). */
  static final CompressionCodec[] CODECS = {
    CompressionCodec.UNCOMPRESSED,
    CompressionCodec.SNAPPY,
    CompressionCodec.GZIP,
    CompressionCodec.ZSTD,
    CompressionCodec.LZ4_RAW,
    CompressionCodec.LZ4,
    CompressionCodec.BROTLI,
  };

  /** Sizes around the interesting edges: empty, tiny, LZ4 Hadoop block size, over 256 KiB. */
  static final int[] SIZES = {0, 1, 2, 7, 100, 4096, 65_537, 131_072, 131_073, 300_000};

  private TestInputs() {}

  record Input(String name, byte[] bytes) {
    @Override
    public String toString() {
      return name + " (" + bytes.length + " bytes)";
    }
  }

  static byte[] random(long seed, int size) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** Like a dictionary-encoded or sorted page: short runs from a small alphabet, some repeats. */
  static byte[] compressible(long seed, int size) {
    Random random = new Random(seed);
    byte[] b = new byte[size];
    int i = 0;
    while (i < size) {
      int run = 1 + random.nextInt(12);
      byte value = (byte) ('a' + random.nextInt(6));
      int end = Math.min(size, i + run);
      Arrays.fill(b, i, end, value);
      i = end;
    }
    return b;
  }

  /** Random, highly compressible and constant inputs of every size in {@link #SIZES}. */
  static List<Input> all() {
    List<Input> inputs = new ArrayList<>();
    for (int size : SIZES) {
      inputs.add(new Input("random", random(1000 + size, size)));
      inputs.add(new Input("compressible", compressible(2000 + size, size)));
      byte[] zeros = new byte[size];
      inputs.add(new Input("zeros", zeros));
    }
    return inputs;
  }
}
