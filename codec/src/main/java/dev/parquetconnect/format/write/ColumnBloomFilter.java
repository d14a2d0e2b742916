package dev.parquetconnect.format.write;

import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.meta.PhysicalType;

/**
 * The bloom filter of one column chunk: allocated (sized from the expected distinct values and
 * false positive probability) when the chunk's first page closes, fed every non-null value of each
 * closed page, hashed over its PLAIN bytes with XXH64 as BloomFilter.md says.
 */
final class ColumnBloomFilter {
  private final PhysicalType type;
  private final int numBytes;
  private SplitBlockBloomFilter filter;

  ColumnBloomFilter(PhysicalType type, BloomFilterOptions options, String column) {
    if (type == PhysicalType.BOOLEAN) {
      throw new IllegalArgumentException(
          "column " + column + ": BOOLEAN columns have no bloom filter");
    }
    this.type = type;
    this.numBytes =
        SplitBlockBloomFilter.optimalNumBytes(
            options.expectedDistinctValues(), options.falsePositiveProbability());
  }

  /** Bytes held now: the bitset, once allocated. */
  long bufferedBytes() {
    return filter == null ? 0 : filter.numBytes();
  }

  void insert(PageBuffer page) {
    if (filter == null) {
      filter = new SplitBlockBloomFilter(numBytes);
    }
    SplitBlockBloomFilter f = filter;
    int n = page.values;
    switch (type) {
      case INT32 -> {
        int[] v = page.ints;
        for (int i = 0; i < n; i++) {
          f.insert(XxHash64.hashInt(v[i]));
        }
      }
      case INT64 -> {
        long[] v = page.longs;
        for (int i = 0; i < n; i++) {
          f.insert(XxHash64.hashLong(v[i]));
        }
      }
      case FLOAT -> {
        float[] v = page.floats;
        for (int i = 0; i < n; i++) {
          f.insert(XxHash64.hashInt(Float.floatToRawIntBits(v[i])));
        }
      }
      case DOUBLE -> {
        double[] v = page.doubles;
        for (int i = 0; i < n; i++) {
          f.insert(XxHash64.hashLong(Double.doubleToRawLongBits(v[i])));
        }
      }
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> {
        BinaryBatch batch = page.binaries;
        byte[] data = batch.data();
        int[] offsets = batch.offsets();
        for (int i = 0; i < n; i++) {
          f.insert(XxHash64.hash(data, offsets[i], offsets[i + 1] - offsets[i]));
        }
      }
      case BOOLEAN -> throw new IllegalStateException("BOOLEAN columns have no bloom filter");
    }
  }

  /** The chunk's filter (null when no page closed), handed over; the next chunk starts empty. */
  SplitBlockBloomFilter take() {
    SplitBlockBloomFilter taken = filter;
    filter = null;
    return taken;
  }
}
