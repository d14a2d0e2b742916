package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.io.LittleEndian;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.column.values.bloomfilter.XxHash;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/** XXH64 (seed 0) against published test vectors and against parquet-java's XxHash. */
class XxHash64Test {
  private static long hash(String s) {
    byte[] b = s.getBytes(StandardCharsets.US_ASCII);
    return XxHash64.hash(b, 0, b.length);
  }

  @Test
  void publishedVectors() {
    // From the xxHash reference implementation's sanity checks and its documentation.
    assertEquals(0xEF46DB3751D8E999L, hash(""));
    assertEquals(0xD24EC4F1A98C6E5BL, hash("a"));
    assertEquals(0x44BC2CF5AD770999L, hash("abc"));
  }

  @Test
  void everyLengthMatchesParquetJava() {
    XxHash oracle = new XxHash();
    Random random = new Random(7);
    for (int length = 0; length <= 300; length++) {
      for (int trial = 0; trial < 5; trial++) {
        byte[] data = new byte[length + 9];
        random.nextBytes(data);
        int off = random.nextInt(9);
        byte[] slice = java.util.Arrays.copyOfRange(data, off, off + length);
        assertEquals(oracle.hashBytes(slice), XxHash64.hash(data, off, length), "length " + length);
      }
    }
  }

  @Test
  void fixedWidthEntryPointsHashTheLittleEndianBytes() {
    BlockSplitBloomFilter oracle = new BlockSplitBloomFilter(32);
    Random random = new Random(11);
    for (int i = 0; i < 10_000; i++) {
      int v = i < 4 ? new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}[i] : random.nextInt();
      long w = random.nextLong();
      byte[] four = new byte[4];
      LittleEndian.putInt(four, 0, v);
      byte[] eight = new byte[8];
      LittleEndian.putLong(eight, 0, w);
      assertEquals(XxHash64.hash(four, 0, 4), XxHash64.hashInt(v));
      assertEquals(XxHash64.hash(eight, 0, 8), XxHash64.hashLong(w));
      assertEquals(oracle.hash(v), XxHash64.hashInt(v));
      assertEquals(oracle.hash(w), XxHash64.hashLong(w));
      float f = Float.intBitsToFloat(v);
      double d = Double.longBitsToDouble(w);
      assertEquals(oracle.hash(f), XxHash64.hashInt(Float.floatToRawIntBits(f)));
      assertEquals(oracle.hash(d), XxHash64.hashLong(Double.doubleToRawLongBits(d)));
      assertEquals(oracle.hash(Binary.fromConstantByteArray(eight)), XxHash64.hash(eight, 0, 8));
    }
  }
}
