package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.io.ByteArrayOutputStream;
import java.util.Random;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.junit.jupiter.api.Test;

/** The split-block bloom filter, bit for bit against parquet-java's BlockSplitBloomFilter. */
class SplitBlockBloomFilterTest {
  @Test
  void sameInsertsGiveParquetJavasBitset() throws Exception {
    Random random = new Random(3);
    for (int bytes : new int[] {32, 64, 1024, 32 * 1024}) {
      SplitBlockBloomFilter ours = new SplitBlockBloomFilter(bytes);
      BlockSplitBloomFilter theirs = new BlockSplitBloomFilter(bytes, bytes);
      for (int i = 0; i < bytes / 4; i++) {
        long h = random.nextLong();
        ours.insert(h);
        theirs.insertHash(h);
      }
      GrowableBuffer out = new GrowableBuffer();
      ours.writeTo(out);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      theirs.writeTo(expected);
      assertArrayEquals(expected.toByteArray(), out.toByteArray(), bytes + " bytes");
    }
  }

  @Test
  void findsEveryInsertAndRejectsMostOthers() {
    int n = 10_000;
    SplitBlockBloomFilter filter =
        new SplitBlockBloomFilter(SplitBlockBloomFilter.optimalNumBytes(n, 0.01));
    for (int i = 0; i < n; i++) {
      filter.insert(XxHash64.hashLong(i));
    }
    for (int i = 0; i < n; i++) {
      assertTrue(filter.mightContain(XxHash64.hashLong(i)));
    }
    int falsePositives = 0;
    for (int i = n; i < 11 * n; i++) {
      falsePositives += filter.mightContain(XxHash64.hashLong(i)) ? 1 : 0;
    }
    // Sized for 1 %, rounded up to a power of two: expect well under 2 %.
    assertTrue(falsePositives < n * 10 / 50, "false positives " + falsePositives);
  }

  @Test
  void sizingAgreesWithParquetJava() {
    for (long ndv : new long[] {1, 10, 1000, 100_000, 1_000_000, 50_000_000}) {
      for (double fpp : new double[] {0.1, 0.01, 0.001}) {
        int theirs = BlockSplitBloomFilter.optimalNumOfBits(ndv, fpp) / 8;
        // parquet-java's filter rounds that up to a power of two within its bounds.
        int expected =
            Math.min(SplitBlockBloomFilter.MAX_BYTES, Math.max(32, nextPowerOfTwo(theirs)));
        assertEquals(expected, SplitBlockBloomFilter.optimalNumBytes(ndv, fpp), ndv + " at " + fpp);
      }
    }
  }

  private static int nextPowerOfTwo(int n) {
    int power = Integer.highestOneBit(Math.max(1, n));
    return power == n ? n : power << 1;
  }

  @Test
  void readsBackFromItsBitset() {
    SplitBlockBloomFilter filter = new SplitBlockBloomFilter(256);
    filter.insert(42);
    GrowableBuffer out = new GrowableBuffer();
    filter.writeTo(out);
    SplitBlockBloomFilter back = SplitBlockBloomFilter.fromBitset(out.array(), 0, out.size());
    assertTrue(back.mightContain(42));
    assertEquals(256, back.numBytes());
  }

  @Test
  void rejectsSizesThatAreNotWholeBlocks() {
    assertThrows(IllegalArgumentException.class, () -> new SplitBlockBloomFilter(33));
    assertThrows(IllegalArgumentException.class, () -> new SplitBlockBloomFilter(0));
  }
}
