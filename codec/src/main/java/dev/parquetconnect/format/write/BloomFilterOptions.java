package dev.parquetconnect.format.write;

/**
 * A split-block bloom filter for one column: sized per column chunk for {@code
 * expectedDistinctValues} at a false positive probability of {@code falsePositiveProbability}.
 */
public record BloomFilterOptions(long expectedDistinctValues, double falsePositiveProbability) {
  public BloomFilterOptions {
    if (expectedDistinctValues <= 0) {
      throw new IllegalArgumentException(
          "expected distinct values must be positive: " + expectedDistinctValues);
    }
    if (!(falsePositiveProbability > 0 && falsePositiveProbability < 1)) {
      throw new IllegalArgumentException(
          "false positive probability must be in (0, 1): " + falsePositiveProbability);
    }
  }
}
