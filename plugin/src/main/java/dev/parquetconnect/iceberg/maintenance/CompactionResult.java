package dev.parquetconnect.iceberg.maintenance;

/**
 * What one compaction run did to a table.
 *
 * @param partitions partitions (of one file schema) whose files were swapped
 * @param filesRewritten data files replaced
 * @param bytesBefore their total size
 * @param filesWritten compacted files that replaced them
 * @param bytesAfter the compacted files' total size
 * @param groupsGivenUp partitions planned but left as they were (a concurrent delete or rewrite of
 *     an input, a commit the catalog refused, a file that could not be read)
 * @param nanos how long the run took
 */
public record CompactionResult(
    int partitions,
    int filesRewritten,
    long bytesBefore,
    int filesWritten,
    long bytesAfter,
    int groupsGivenUp,
    long nanos) {

  static final CompactionResult NOTHING = new CompactionResult(0, 0, 0, 0, 0, 0, 0);

  CompactionResult plus(CompactionResult o) {
    return new CompactionResult(
        partitions + o.partitions,
        filesRewritten + o.filesRewritten,
        bytesBefore + o.bytesBefore,
        filesWritten + o.filesWritten,
        bytesAfter + o.bytesAfter,
        groupsGivenUp + o.groupsGivenUp,
        nanos + o.nanos);
  }
}
