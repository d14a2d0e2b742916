package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * Feeds random and mutated valid pages to a decoder for a fixed time ({@code fuzz.millis}, 1500 ms
 * by default) from a fixed seed, and fails on anything but the checked {@link CorruptDataException}
 * and {@link UnsupportedFeatureException}. Shared by the fuzz tests of the delta, byte-stream-split
 * and group-varint decoders. A hang is caught by the callers' {@code @Timeout}: every decode runs
 * in the test thread.
 */
final class DeltaFuzzHarness {
  /** Values decoded per input at most: a tiny page may legitimately declare millions. */
  static final int MAX_VALUES = 100_000;

  private static final byte[] INTERESTING = {0, (byte) 0xFF, (byte) 0x80, 0x7F, 1, 0x40, 64, 65};

  /** A valid encoded page and the number of values it holds. */
  record Sample(byte[] page, int count) {}

  /** Decodes a page slice completely, in batches chosen with {@code random}. */
  interface Decode {
    void run(byte[] array, int offset, int length, int valueCount, Random random)
        throws ParquetException;
  }

  private DeltaFuzzHarness() {}

  static void fuzz(String name, long seed, List<Sample> samples, Decode decode) {
    long budgetNanos = Long.getLong("fuzz.millis", 1500) * 1_000_000L;
    Random random = new Random(seed);
    long start = System.nanoTime();
    int accepted = 0;
    int rejected = 0;
    while (System.nanoTime() - start < budgetNanos || accepted + rejected < 200) {
      byte[] input;
      int valueCount;
      if (random.nextInt(5) == 0) {
        input = new byte[random.nextInt(64)];
        random.nextBytes(input);
        valueCount = random.nextInt(200);
      } else {
        Sample sample = samples.get(random.nextInt(samples.size()));
        input = mutate(sample.page(), random);
        valueCount =
            switch (random.nextInt(4)) {
              case 0 -> random.nextInt(3 * sample.count() + 10);
              case 1 -> Integer.MAX_VALUE;
              default -> sample.count();
            };
      }
      // The slice sometimes sits inside a larger array, but mostly ends where the array does,
      // so a read past the slice would hit the array's end.
      int before = random.nextInt(4);
      int after = random.nextInt(3) == 0 ? random.nextInt(9) : 0;
      byte[] array = new byte[before + input.length + after];
      random.nextBytes(array);
      System.arraycopy(input, 0, array, before, input.length);
      try {
        decode.run(array, before, input.length, valueCount, random);
        accepted++;
      } catch (CorruptDataException | UnsupportedFeatureException expected) {
        assertTrue(expected.getMessage() != null && !expected.getMessage().isEmpty());
        rejected++;
      } catch (Throwable t) {
        fail(
            name
                + " threw "
                + t
                + " for value count "
                + valueCount
                + " on slice ["
                + before
                + ", +"
                + input.length
                + ") of "
                + HexFormat.of().formatHex(array),
            t);
      }
    }
    assertTrue(accepted > 0, name + ": no input was accepted");
    assertTrue(rejected > 0, name + ": no input was rejected");
  }

  /** One to four mutations of {@code valid}. */
  static byte[] mutate(byte[] valid, Random random) {
    byte[] b = valid.clone();
    for (int m = 1 + random.nextInt(4); m > 0; m--) {
      int op = random.nextInt(7);
      if (b.length == 0 && op < 3) {
        op = 4;
      }
      switch (op) {
        case 0 -> b[random.nextInt(b.length)] ^= (byte) (1 << random.nextInt(8));
        case 1 -> b[random.nextInt(b.length)] = INTERESTING[random.nextInt(INTERESTING.length)];
        case 2 -> b[random.nextInt(b.length)] = (byte) random.nextInt();
        case 3 -> b = Arrays.copyOf(b, random.nextInt(b.length + 1));
        case 4 -> {
          byte[] extra = new byte[1 + random.nextInt(16)];
          random.nextBytes(extra);
          byte[] grown = Arrays.copyOf(b, b.length + extra.length);
          System.arraycopy(extra, 0, grown, b.length, extra.length);
          b = grown;
        }
        case 5 -> {
          // Insert a byte somewhere, shifting everything after it.
          int at = random.nextInt(b.length + 1);
          byte[] grown = new byte[b.length + 1];
          System.arraycopy(b, 0, grown, 0, at);
          grown[at] = INTERESTING[random.nextInt(INTERESTING.length)];
          System.arraycopy(b, at, grown, at + 1, b.length - at);
          b = grown;
        }
        default -> {
          // Delete a byte.
          if (b.length > 0) {
            int at = random.nextInt(b.length);
            byte[] shrunk = new byte[b.length - 1];
            System.arraycopy(b, 0, shrunk, 0, at);
            System.arraycopy(b, at + 1, shrunk, at, b.length - at - 1);
            b = shrunk;
          }
        }
      }
    }
    return b;
  }

  /** A batch size: mostly small, sometimes large. */
  static int batch(Random random, int left) {
    return Math.min(left, 1 + random.nextInt(random.nextBoolean() ? 10 : 600));
  }
}
