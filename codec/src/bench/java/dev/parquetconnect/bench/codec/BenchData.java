package dev.parquetconnect.bench.codec;

import dev.parquetconnect.format.encoding.BinaryBatch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.io.api.Binary;

/**
 * The data every codec kernel works on: about 64K values a page, generated from fixed seeds so that
 * every run, and both sides of a kernel, see exactly the same values and bytes.
 */
final class BenchData {
  /** Values per page, i.e. per benchmark operation. */
  static final int N = 1 << 16;

  /**
   * Values per batch when ours decodes byte strings: a column reader hands the record assembler
   * batches of this many values in one reused {@code BinaryBatch}, so the copied bytes stay in
   * cache; one 64K-value batch of strings would be a few MB written to memory per page.
   */
  static final int BINARY_BATCH = 4096;

  static final ByteBufferAllocator HEAP = new HeapByteBufferAllocator();
  static final int SLAB = 64 * 1024;
  static final int PAGE = 8 * 1024 * 1024;

  private BenchData() {}

  /**
   * Unsigned values of {@code bitWidth} bits as levels and dictionary indices look: runs of one
   * repeated value (length 8..300) alternating with stretches of random values (8..200 long).
   */
  static int[] runsAndNoise(int bitWidth, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long bound = 1L << bitWidth;
    int[] values = new int[N];
    int i = 0;
    boolean repeated = false;
    while (i < N) {
      int length = repeated ? 8 + random.nextInt(293) : 8 + random.nextInt(193);
      int end = Math.min(N, i + length);
      if (repeated) {
        Arrays.fill(values, i, end, (int) random.nextLong(bound));
      } else {
        for (; i < end; i++) {
          values[i] = (int) random.nextLong(bound);
        }
      }
      i = end;
      repeated = !repeated;
    }
    return values;
  }

  /** A skewed pick of {@code distinct} entries: low indices are much more frequent. */
  static int[] skewedIndices(int distinct, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int[] picks = new int[N];
    for (int i = 0; i < N; i++) {
      double u = random.nextDouble();
      picks[i] = (int) (distinct * u * u * u);
    }
    return picks;
  }

  /** INT64 ids of a dictionary-friendly column: 64K values drawn from 1,000 distinct ones. */
  static long[] dictionaryLongs(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] entries = new long[1000];
    for (int i = 0; i < entries.length; i++) {
      entries[i] = random.nextLong(1L << 40);
    }
    int[] picks = skewedIndices(entries.length, seed + 1);
    long[] values = new long[N];
    for (int i = 0; i < N; i++) {
      values[i] = entries[picks[i]];
    }
    return values;
  }

  /** Strings of a dictionary-friendly column: 64K values drawn from 1,000 distinct ones. */
  static byte[][] dictionaryStrings(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String[] countries = {"de", "fr", "us", "br", "jp", "in", "ng", "au"};
    byte[][] entries = new byte[1000][];
    for (int i = 0; i < entries.length; i++) {
      String s =
          countries[random.nextInt(countries.length)]
              + "/customer-"
              + Long.toString(random.nextLong(1L << 48), 36)
              + (random.nextBoolean() ? "/premium" : "");
      entries[i] = s.getBytes(StandardCharsets.UTF_8);
    }
    int[] picks = skewedIndices(entries.length, seed + 1);
    byte[][] values = new byte[N][];
    for (int i = 0; i < N; i++) {
      values[i] = entries[picks[i]];
    }
    return values;
  }

  /** Millisecond timestamps of events: increasing, small jittered gaps, a few big jumps. */
  static long[] timestamps(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] values = new long[N];
    long t = 1_763_000_000_000L;
    for (int i = 0; i < N; i++) {
      t += random.nextInt(20) == 0 ? random.nextInt(1_000_000) : random.nextInt(100);
      values[i] = t - random.nextInt(50); // a little out of order
    }
    return values;
  }

  /** Random INT64 values over the whole range (PLAIN's usual case: incompressible ids). */
  static long[] randomLongs(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] values = new long[N];
    for (int i = 0; i < N; i++) {
      values[i] = random.nextLong();
    }
    return values;
  }

  /** Measurements: a random walk around 20.0 with two-decimal noise. */
  static double[] measurements(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] values = new double[N];
    double level = 20.0;
    for (int i = 0; i < N; i++) {
      level += (random.nextDouble() - 0.5) * 0.1;
      values[i] = Math.round((level + random.nextDouble() * 0.5) * 100) / 100.0;
    }
    return values;
  }

  /** Free-text-ish strings of 4..60 ASCII bytes (names, titles, messages). */
  static byte[][] randomStrings(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    byte[][] values = new byte[N][];
    for (int i = 0; i < N; i++) {
      byte[] v = new byte[4 + random.nextInt(57)];
      for (int k = 0; k < v.length; k++) {
        v[k] = (byte) (k % 6 == 5 ? ' ' : 'a' + random.nextInt(26));
      }
      values[i] = v;
    }
    return values;
  }

  /** Sorted keys with long shared prefixes (URLs, paths): DELTA_BYTE_ARRAY's use case. */
  static byte[][] sortedUrls(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    String[] hosts = {
      "https://shop.example.com", "https://api.example.org", "https://cdn.example.net"
    };
    String[] values = new String[N];
    for (int i = 0; i < N; i++) {
      values[i] =
          hosts[random.nextInt(hosts.length)]
              + "/catalog/"
              + "category-"
              + random.nextInt(40)
              + "/item-"
              + random.nextInt(100_000)
              + "?ref="
              + random.nextInt(1000);
    }
    Arrays.sort(values);
    byte[][] bytes = new byte[N][];
    for (int i = 0; i < N; i++) {
      bytes[i] = values[i].getBytes(StandardCharsets.UTF_8);
    }
    return bytes;
  }

  /** Fails the run if the two sides of a kernel did not produce the same values. */
  static void check(boolean same, String kernel) {
    if (!same) {
      throw new IllegalStateException(kernel + ": ours and parquet-java disagree on the values");
    }
  }

  /** Whether a batch holds exactly {@code expected[from, from + batch.count())}. */
  static boolean sameBinaries(BinaryBatch batch, byte[][] expected, int from) {
    for (int i = 0; i < batch.count(); i++) {
      if (!java.util.Arrays.equals(batch.get(i), expected[from + i])) {
        return false;
      }
    }
    return true;
  }

  /** The bytes of parquet-java's values. */
  static byte[][] bytesOf(Binary[] values) {
    byte[][] bytes = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = values[i].getBytes();
    }
    return bytes;
  }

  static BinaryBatch batch(byte[][] values) {
    long bytes = 0;
    for (byte[] v : values) {
      bytes += v.length;
    }
    BinaryBatch batch = new BinaryBatch(values.length, (int) bytes);
    for (byte[] v : values) {
      batch.add(v);
    }
    return batch;
  }

  static Binary[] binaries(byte[][] values) {
    Binary[] binaries = new Binary[values.length];
    for (int i = 0; i < values.length; i++) {
      binaries[i] = Binary.fromConstantByteArray(values[i]);
    }
    return binaries;
  }

  static byte[] bytes(BytesInput input) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    input.writeAllTo(out);
    return out.toByteArray();
  }

  /** The stream parquet-java's column reader hands a values reader: a page in a heap buffer. */
  static ByteBufferInputStream stream(byte[] page) {
    return ByteBufferInputStream.wrap(ByteBuffer.wrap(page));
  }

  /** A byte sink reused across operations (parquet-java's page writer copies into one too). */
  static final class Sink extends ByteArrayOutputStream {
    Sink() {
      super(PAGE);
    }
  }
}
