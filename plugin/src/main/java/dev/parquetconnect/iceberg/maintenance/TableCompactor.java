package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.iceberg.DataFileMetrics;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.iceberg.StoreLocations;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.StoreOutput;
import dev.parquetconnect.storage.UnclosedOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compaction of one table: the small data files of each partition merged by our codec ({@link
 * FileMerger}) into files of the policy's target size, and swapped in by one Iceberg {@code
 * RewriteFiles} commit per partition.
 *
 * <p><b>Which files.</b> Data files in the store this compactor writes to (others' files are left
 * alone), smaller than the target, of partitions with no file committed within the policy's minimum
 * age and no delete files, when a partition has at least the policy's minimum of them. Inputs are
 * files of one footer schema: files written before a schema change are merged among themselves.
 *
 * <p><b>Row order.</b> The inputs are concatenated in the order their rows were committed: by data
 * sequence number, then (within one commit) by the first offset in their name. Every sink commit
 * holds one Kafka partition's next range, so each Kafka partition's rows stay in offset order in a
 * compacted file. A compacted file keeps the data sequence number of its newest input ({@code
 * RewriteFiles.dataSequenceNumber}), so it sorts before every file committed after its inputs when
 * it is an input itself; a run takes a partition's files up to a whole sequence number, so no file
 * left out sorts before one taken.
 *
 * <p><b>The commit.</b> The rewrite validates from the snapshot it planned on: an input deleted or
 * rewritten meanwhile (another compaction, a delete) makes Iceberg refuse it, and the partition is
 * given up (its compacted files deleted); appends meanwhile do not conflict, and Iceberg retries
 * the commit on the refreshed table. The rewrite snapshot carries no sink offsets: the sink's
 * readers walk back past it to the newest snapshot that has them, which {@link SnapshotExpiry}
 * never expires. A crash before the commit leaves the table as it was and the compacted files
 * unreferenced, for {@link OrphanFiles}.
 *
 * <p>Not thread-safe; one run at a time per instance.
 */
public final class TableCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(TableCompactor.class);

  /** The summary property of a compaction's snapshot: the snapshot it planned on. */
  public static final String COMPACTION_PROPERTY = "parquet-connect.compaction";

  /** How compacted files are named: never a sink data file's name (those hold a '+'). */
  static final String FILE_PREFIX = "compacted-";

  private final Store store;
  private final CompactionPolicy policy;
  private final LongSupplier wallMillis;
  private final String root;

  /** Runs between a partition's merge and its commit (tests: a concurrent writer). */
  private Runnable beforeCommit = () -> {};

  private CrashPoints crashPoints = CrashPoints.NONE;

  /**
   * @param store where the table's data files are and the compacted files go
   * @param wallMillis the wall clock (partition ages compare with snapshot timestamps)
   */
  public TableCompactor(Store store, CompactionPolicy policy, LongSupplier wallMillis) {
    this.store = store;
    this.policy = policy;
    this.wallMillis = wallMillis;
    this.root = StoreLocations.uri(store, "");
  }

  /** A compactor on the system clock. */
  public TableCompactor(Store store, CompactionPolicy policy) {
    this(store, policy, System::currentTimeMillis);
  }

  /** Runs {@code hook} after each partition's files are written, before their commit (tests). */
  TableCompactor beforeEachCommit(Runnable hook) {
    this.beforeCommit = hook;
    return this;
  }

  /** Passes {@link MaintenanceCrashPoints} before and after each rewrite commit (crash tests). */
  TableCompactor crashPoints(CrashPoints points) {
    this.crashPoints = points;
    return this;
  }

  /**
   * One compaction run over the table's current snapshot.
   *
   * @throws IOException when the table cannot be planned (a catalog or FileIO failure); failures of
   *     one partition give that partition up and the run goes on
   */
  public CompactionResult compact(Table table) throws IOException {
    long began = System.nanoTime();
    List<List<DataFile>> groups;
    Snapshot start;
    try {
      table.refresh();
      start = table.currentSnapshot();
      if (start == null || TableUtil.formatVersion(table) < 2) {
        // Format 1 has no data sequence numbers, which the row order of compacted files needs.
        return CompactionResult.NOTHING;
      }
      groups = plan(table, start);
    } catch (RuntimeException e) {
      throw new IOException("cannot plan the compaction of " + table.name() + ": " + e, e);
    }
    CompactionResult result = CompactionResult.NOTHING;
    long maxRunNanos = TimeUnit.MILLISECONDS.toNanos(policy.maxRunMs());
    for (List<DataFile> group : groups) {
      if (System.nanoTime() - began > maxRunNanos || Thread.currentThread().isInterrupted()) {
        break;
      }
      result = result.plus(compactPartition(table, start, group));
    }
    CompactionResult done =
        new CompactionResult(
            result.partitions(),
            result.filesRewritten(),
            result.bytesBefore(),
            result.filesWritten(),
            result.bytesAfter(),
            result.groupsGivenUp(),
            System.nanoTime() - began);
    if (done.filesRewritten() > 0 || done.groupsGivenUp() > 0) {
      LOG.info("compacted {}: {}", table.name(), done);
    }
    return done;
  }

  /** Each partition's inputs, in commit order, within the run's byte budget. */
  private List<List<DataFile>> plan(Table table, Snapshot start) throws IOException {
    long now = wallMillis.getAsLong();
    Map<Long, Long> commitTimes = new HashMap<>();
    long oldestRetained = Long.MAX_VALUE;
    for (Snapshot s : table.snapshots()) {
      commitTimes.put(s.sequenceNumber(), s.timestampMillis());
      oldestRetained = Math.min(oldestRetained, s.timestampMillis());
    }
    Map<String, List<DataFile>> candidates = new LinkedHashMap<>();
    Map<String, Boolean> tooYoung = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(start.snapshotId()).planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        String partition = file.specId() + "/" + partitionPath(table, file);
        // A file whose commit snapshot expired was committed before the oldest one retained.
        long committed = commitTimes.getOrDefault(file.dataSequenceNumber(), oldestRetained);
        boolean young = !task.deletes().isEmpty() || now - committed < policy.minAgeMs();
        tooYoung.merge(partition, young, Boolean::logicalOr);
        if (file.location().startsWith(root)
            && file.format() == FileFormat.PARQUET
            && file.fileSizeInBytes() < policy.targetFileBytes()) {
          candidates.computeIfAbsent(partition, p -> new ArrayList<>()).add(file);
        }
      }
    }
    List<List<DataFile>> groups = new ArrayList<>();
    long budget = policy.maxBytesPerRun();
    for (Map.Entry<String, List<DataFile>> e : candidates.entrySet()) {
      List<DataFile> files = e.getValue();
      if (tooYoung.get(e.getKey()) || files.size() < policy.minInputFiles() || budget <= 0) {
        continue;
      }
      files.sort(COMMIT_ORDER);
      List<DataFile> taken = new ArrayList<>();
      for (DataFile f : files) {
        boolean sameCommitAsLast =
            !taken.isEmpty()
                && taken.get(taken.size() - 1).dataSequenceNumber().equals(f.dataSequenceNumber());
        if (budget <= 0 && !sameCommitAsLast) {
          break;
        }
        taken.add(f);
        budget -= f.fileSizeInBytes();
      }
      if (taken.size() >= policy.minInputFiles()) {
        groups.add(taken);
      }
    }
    return groups;
  }

  private static String partitionPath(Table table, DataFile file) {
    PartitionSpec spec = table.specs().get(file.specId());
    return spec == null || spec.isUnpartitioned() ? "" : spec.partitionToPath(file.partition());
  }

  /**
   * The order the files' rows were committed in: data sequence number, then the first offset a sink
   * file's name holds ({@code TOPIC+PARTITION+START+END-ATTEMPT.parquet}), then the name.
   */
  static final Comparator<DataFile> COMMIT_ORDER =
      Comparator.comparing((DataFile f) -> f.dataSequenceNumber())
          .thenComparingLong(f -> firstOffset(fileName(f.location())))
          .thenComparing(f -> fileName(f.location()));

  static String fileName(String location) {
    return location.substring(location.lastIndexOf('/') + 1);
  }

  /** The START of a sink file's name, or -1 for another name (a compacted file's). */
  static long firstOffset(String name) {
    String[] parts = name.split("\\+");
    if (parts.length < 4) {
      return -1;
    }
    try {
      return Long.parseLong(parts[parts.length - 2]);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Merges one partition's inputs (per file schema) and swaps them in with one commit. */
  private CompactionResult compactPartition(Table table, Snapshot start, List<DataFile> inputs) {
    List<String> written = new ArrayList<>();
    List<DataFile> rewritten = new ArrayList<>();
    List<DataFile> added = new ArrayList<>();
    String name = table.name() + " partition " + partitionPath(table, inputs.get(0));
    try {
      Map<String, FileMetaData> footers = new HashMap<>();
      for (List<DataFile> sameSchema : bySchema(inputs, footers)) {
        if (sameSchema.size() < 2) {
          continue;
        }
        added.addAll(merge(table, start, sameSchema, footers, written));
        rewritten.addAll(sameSchema);
      }
      if (rewritten.isEmpty()) {
        return CompactionResult.NOTHING;
      }
      RewriteFiles rewrite =
          table
              .newRewrite()
              .validateFromSnapshot(start.snapshotId())
              .dataSequenceNumber(
                  rewritten.stream().mapToLong(DataFile::dataSequenceNumber).max().orElseThrow());
      rewritten.forEach(rewrite::deleteFile);
      added.forEach(rewrite::addFile);
      rewrite.set(COMPACTION_PROPERTY, Long.toString(start.snapshotId()));
      beforeCommit.run();
      crashPoints.at(MaintenanceCrashPoints.BEFORE_REWRITE_COMMIT);
      rewrite.commit();
    } catch (CommitStateUnknownException e) {
      // The rewrite may be in the table: its files stay, for the orphan clean-up to decide.
      LOG.warn(
          "{}: the catalog's answer to the compaction commit was lost: {}", name, e.toString());
      return givenUp();
    } catch (ValidationException | CommitFailedException e) {
      LOG.info("{}: compaction given up, the inputs changed meanwhile: {}", name, e.getMessage());
      deleteQuietly(written);
      return givenUp();
    } catch (IOException | ParquetException | RuntimeException e) {
      LOG.warn("{}: compaction given up: {}", name, e.toString());
      deleteQuietly(written);
      return givenUp();
    }
    // Outside the try: a failure from here on must not delete the files the commit references.
    crashPoints.at(MaintenanceCrashPoints.AFTER_REWRITE_COMMIT);
    return new CompactionResult(
        1,
        rewritten.size(),
        rewritten.stream().mapToLong(DataFile::fileSizeInBytes).sum(),
        added.size(),
        added.stream().mapToLong(DataFile::fileSizeInBytes).sum(),
        0,
        0);
  }

  private static CompactionResult givenUp() {
    return new CompactionResult(0, 0, 0, 0, 0, 1, 0);
  }

  /** The inputs split by footer schema, each list in the inputs' order. */
  private List<List<DataFile>> bySchema(List<DataFile> inputs, Map<String, FileMetaData> footers)
      throws IOException, ParquetException {
    List<FileMetaData> firsts = new ArrayList<>();
    List<List<DataFile>> groups = new ArrayList<>();
    for (DataFile file : inputs) {
      FileMetaData footer;
      try (ParquetFileReader reader = ParquetFileReader.open(store.open(key(file)))) {
        footer = reader.metadata();
      }
      footers.put(file.location(), footer);
      int g = 0;
      while (g < firsts.size() && FileMerger.mismatch(firsts.get(g), footer) != null) {
        g++;
      }
      if (g == firsts.size()) {
        firsts.add(footer);
        groups.add(new ArrayList<>());
      }
      groups.get(g).add(file);
    }
    return groups;
  }

  /** Writes the inputs' rows into files of about the target size; returns them as data files. */
  private List<DataFile> merge(
      Table table,
      Snapshot start,
      List<DataFile> inputs,
      Map<String, FileMetaData> footersByLocation,
      List<String> written)
      throws IOException, ParquetException {
    List<FileMetaData> footers = new ArrayList<>();
    for (DataFile file : inputs) {
      footers.add(footersByLocation.get(file.location()));
    }
    Map<String, String> keyValues = FileMerger.commonKeyValues(footers);
    long rowGroupBytes =
        Math.max(
            1L << 20,
            Math.min(WriterOptions.DEFAULT_ROW_GROUP_BYTE_TARGET, policy.memoryBytes() / 4));
    String dir = StoreKeys.parent(key(inputs.get(0)));
    String stem =
        FILE_PREFIX
            + start.snapshotId()
            + "-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE)
            + "-";
    List<DataFile> outputs = new ArrayList<>();
    long expectedRows = 0;
    long rows = 0;
    int next = 0;
    while (next < inputs.size()) {
      String key = dir + "/" + stem + String.format("%05d", outputs.size()) + ".parquet";
      try (StoreOutput out = store.create(key)) {
        FileMerger merger =
            FileMerger.open(new UnclosedOutput(out), footers.get(next), keyValues, rowGroupBytes);
        try {
          boolean full = false;
          while (next < inputs.size() && !full) {
            DataFile input = inputs.get(next++);
            expectedRows += input.recordCount();
            try (ParquetFileReader reader = ParquetFileReader.open(store.open(key(input)))) {
              merger.append(reader);
            }
            full = merger.reached(policy.targetFileBytes());
          }
        } catch (IOException | ParquetException | RuntimeException e) {
          closeQuietly(merger);
          throw e;
        }
        FileMetaData footer = merger.finish();
        rows += footer.numRows();
        out.commit();
        written.add(key);
        outputs.add(dataFile(table, inputs.get(0), key, out.bytesWritten(), footer));
      }
    }
    if (rows != expectedRows) {
      throw new IOException(
          "the compacted files of " + dir + " hold " + rows + " rows, the inputs " + expectedRows);
    }
    return outputs;
  }

  private DataFile dataFile(
      Table table, DataFile like, String key, long size, FileMetaData footer) {
    PartitionSpec spec = table.specs().get(like.specId());
    DataFiles.Builder builder =
        DataFiles.builder(spec)
            .withPath(StoreLocations.uri(store, key))
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(size)
            .withRecordCount(footer.numRows())
            .withMetrics(DataFileMetrics.of(footer, table.schema(), MetricsConfig.forTable(table)));
    if (spec.isPartitioned()) {
      builder.withPartition(like.partition());
    }
    return builder.build();
  }

  private String key(DataFile file) {
    return file.location().substring(root.length());
  }

  private void deleteQuietly(List<String> keys) {
    for (String key : keys) {
      try {
        store.delete(key);
      } catch (IOException | RuntimeException e) {
        LOG.info(
            "cannot delete {} of a compaction given up (an orphan now): {}", key, e.toString());
      }
    }
  }

  private static void closeQuietly(FileMerger merger) {
    try {
      merger.close();
    } catch (IOException | RuntimeException e) {
      // The output is abandoned; the failure that brought us here is the one to report.
    }
  }
}
