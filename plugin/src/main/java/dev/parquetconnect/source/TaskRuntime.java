package dev.parquetconnect.source;

import dev.parquetconnect.source.ParquetSourceConfig.TransactionUnit;
import dev.parquetconnect.storage.Store;
import java.util.Collection;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * What the replay units of one task share: the store, the configuration, the committed offsets, the
 * bookkeeping of sent records and the transaction boundaries.
 */
final class TaskRuntime {
  final Store store;
  final ParquetSourceConfig config;
  final PartitionChooser partitions;
  final ReplayedFiles files;
  final CorruptFiles corruptFiles;
  final String logPrefix;
  final SourceMetrics metrics;
  final ReplaySelection selection;
  private final OffsetStorageReader offsets;
  private final TransactionContext transactions;

  TaskRuntime(
      Store store,
      ParquetSourceConfig config,
      OffsetStorageReader offsets,
      TransactionContext transactions,
      String taskName,
      String logPrefix,
      SourceMetrics metrics) {
    this.metrics = metrics;
    this.store = store;
    this.config = config;
    this.offsets = offsets;
    this.transactions = transactions;
    this.logPrefix = logPrefix;
    this.selection = ReplaySelection.of(config);
    this.partitions = new PartitionChooser(config.partitionMode(), config.partitionCount());
    this.files = new ReplayedFiles(store, config, logPrefix, metrics);
    this.corruptFiles = new CorruptFiles(config, files, taskName, logPrefix);
  }

  /** The committed offset of a source partition, or null. */
  Map<String, Object> committedOffset(Map<String, Object> sourcePartition) {
    return offsets == null ? null : offsets.offset(sourcePartition);
  }

  /** The committed offsets of many source partitions at once (one read of the offsets topic). */
  Map<Map<String, Object>, Map<String, Object>> committedOffsets(
      Collection<Map<String, Object>> sourcePartitions) {
    return offsets == null ? Map.of() : offsets.offsets(sourcePartitions);
  }

  /** A record read from {@code file} is handed to Connect. */
  void sent(String file) {
    files.sent(file);
  }

  /**
   * A file (replay mode: a group of files read together) is read to its end; {@code last} is the
   * last record sent from it in the current batch, or null. With connector-defined transactions per
   * file, the transaction ends there.
   */
  void fileEnded(SourceRecord last) {
    if (transactions == null || config.transactionUnit() != TransactionUnit.FILE) {
      return;
    }
    if (last != null) {
      transactions.commitTransaction(last);
    } else {
      transactions.commitTransaction();
    }
  }

  /** A poll batch is complete. */
  void batchEnded(boolean sentAny) {
    if (transactions != null && sentAny && config.transactionUnit() == TransactionUnit.BATCH) {
      transactions.commitTransaction();
    }
  }
}
