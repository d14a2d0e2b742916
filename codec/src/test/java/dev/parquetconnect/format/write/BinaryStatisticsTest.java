package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.meta.PhysicalType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A page's byte-string bounds, found through the eight-byte prefix words, against a plain
 * lexicographic scan: strings shorter and longer than a word, zero bytes where the padding is (so
 * that words tie), bytes of 0x80 and above (unsigned order), and the two-sided decimal order.
 */
class BinaryStatisticsTest {
  private static final byte[] ALPHABET = {0, 1, 'a', 'b', (byte) 0x7F, (byte) 0x80, (byte) 0xFF};

  /** A page's bounds of long texts are copies of them; starting over lets those copies go. */
  @Test
  void startingOverLetsGoOfTheBoundsOfLongTexts() {
    Random random = new Random(13);
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      byte[] text = new byte[1500];
      random.nextBytes(text);
      values.add(text);
    }
    BinaryStatistics statistics = new BinaryStatistics(false);
    statistics.addValues(page(values));
    assertEquals(3000, statistics.boundBytes());
    statistics.reset();
    assertEquals(32, statistics.boundBytes());
    statistics.addValues(page(values.subList(0, 2)));
    byte[] min =
        Arrays.compareUnsigned(values.get(0), values.get(1)) < 0 ? values.get(0) : values.get(1);
    assertArrayEquals(min, statistics.min());
  }

  @Test
  void unsignedBoundsMatchALexicographicScan() {
    Random random = new Random(11);
    for (int trial = 0; trial < 2_000; trial++) {
      List<byte[]> values = randomValues(random);
      BinaryStatistics statistics = new BinaryStatistics(false);
      statistics.addValues(page(values));
      byte[] min = values.get(0);
      byte[] max = values.get(0);
      for (byte[] v : values) {
        if (Arrays.compareUnsigned(v, min) < 0) {
          min = v;
        }
        if (Arrays.compareUnsigned(v, max) > 0) {
          max = v;
        }
      }
      assertArrayEquals(min, statistics.min(), "trial " + trial);
      assertArrayEquals(max, statistics.max(), "trial " + trial);
    }
  }

  @Test
  void signedBoundsMatchTwosComplementOrder() {
    Random random = new Random(12);
    for (int trial = 0; trial < 500; trial++) {
      List<byte[]> values = randomValues(random);
      BinaryStatistics statistics = new BinaryStatistics(true);
      statistics.addValues(page(values));
      byte[] min = values.get(0);
      byte[] max = values.get(0);
      for (byte[] v : values) {
        if (BinaryStatistics.compareSigned(v, 0, v.length, min, 0, min.length) < 0) {
          min = v;
        }
        if (BinaryStatistics.compareSigned(v, 0, v.length, max, 0, max.length) > 0) {
          max = v;
        }
      }
      assertEquals(
          0,
          BinaryStatistics.compareSigned(
              min, 0, min.length, statistics.min(), 0, statistics.min().length),
          "trial " + trial);
      assertEquals(
          0,
          BinaryStatistics.compareSigned(
              max, 0, max.length, statistics.max(), 0, statistics.max().length),
          "trial " + trial);
    }
  }

  @Test
  void prefixWordsOrderAsTheirStringsWhenTheyDiffer() {
    Random random = new Random(13);
    for (int trial = 0; trial < 20_000; trial++) {
      byte[] a = randomValue(random);
      byte[] b = randomValue(random);
      int words =
          Long.compareUnsigned(
              BinaryStatistics.prefix(a, 0, a.length), BinaryStatistics.prefix(b, 0, b.length));
      // The same string inside a larger buffer with other bytes after it: the same word.
      byte[] padded = Arrays.copyOf(a, a.length + 8);
      Arrays.fill(padded, a.length, padded.length, (byte) 0xA5);
      assertEquals(
          BinaryStatistics.prefix(a, 0, a.length), BinaryStatistics.prefix(padded, 0, a.length));
      if (words != 0) {
        assertEquals(
            Integer.signum(words),
            Integer.signum(Arrays.compareUnsigned(a, b)),
            Arrays.toString(a) + " " + Arrays.toString(b));
      }
    }
  }

  private static List<byte[]> randomValues(Random random) {
    int n = 1 + random.nextInt(40);
    List<byte[]> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(randomValue(random));
    }
    return values;
  }

  private static byte[] randomValue(Random random) {
    byte[] v = new byte[random.nextInt(13)];
    for (int i = 0; i < v.length; i++) {
      v[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return v;
  }

  private static PageBuffer page(List<byte[]> values) {
    PageBuffer page = new PageBuffer(PhysicalType.BYTE_ARRAY, 0, 0, 0);
    for (byte[] v : values) {
      page.addEntry(0, 0);
      page.addBinary(v, 0, v.length);
    }
    return page;
  }
}
