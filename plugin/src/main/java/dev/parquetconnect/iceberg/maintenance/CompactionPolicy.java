package dev.parquetconnect.iceberg.maintenance;

/**
 * What one compaction run of a table may do.
 *
 * @param targetFileBytes the size compacted files are written to; a data file at least this large
 *     is never an input
 * @param minInputFiles a partition is compacted only when it has at least this many small files
 * @param maxBytesPerRun the input bytes one run reads at most (whole partitions' prefixes)
 * @param minAgeMs a partition with a file committed less than this ago is left alone
 * @param maxRunMs no new partition is started after a run has taken this long
 * @param memoryBytes the heap the merge may hold: its output row groups are cut at half of it
 */
public record CompactionPolicy(
    long targetFileBytes,
    int minInputFiles,
    long maxBytesPerRun,
    long minAgeMs,
    long maxRunMs,
    long memoryBytes) {

  public CompactionPolicy {
    if (targetFileBytes <= 0 || minInputFiles < 2 || maxBytesPerRun <= 0 || memoryBytes <= 0) {
      throw new IllegalArgumentException(
          "target "
              + targetFileBytes
              + ", min input files "
              + minInputFiles
              + ", max bytes "
              + maxBytesPerRun
              + ", memory "
              + memoryBytes);
    }
  }

  /** A policy with the keys' defaults but {@code targetFileBytes} (benches and tests). */
  public static CompactionPolicy ofTarget(long targetFileBytes) {
    return new CompactionPolicy(targetFileBytes, 2, Long.MAX_VALUE, 0, Long.MAX_VALUE, 256L << 20);
  }
}
