package dev.parquetconnect.format.write;

/**
 * A column without a defined sort order (INT96, INTERVAL, an annotation this codec does not know):
 * only null counts, never a min or max a reader could misuse.
 */
final class UnorderedStatistics extends ValueStatistics {
  @Override
  void addValues(PageBuffer page) {
    // No order: nothing to track beyond the null count the caller keeps.
  }

  @Override
  void mergeMinMax(ValueStatistics other) {
    // Never has a min or max to merge.
  }

  @Override
  boolean hasMinMax() {
    return false;
  }

  @Override
  byte[] min() {
    throw new IllegalStateException("no order, no minimum");
  }

  @Override
  byte[] max() {
    throw new IllegalStateException("no order, no maximum");
  }

  @Override
  int compareBounds(byte[] a, byte[] b) {
    throw new IllegalStateException("no order to compare bounds in");
  }

  @Override
  void resetMinMax() {
    // Nothing kept.
  }
}
