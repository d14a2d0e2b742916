package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.iceberg.DataFileMetrics;
import dev.parquetconnect.sink.SinkClock;
import dev.parquetconnect.sink.commit.CommitProtocol;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CommitProtocol} of {@code table.format=iceberg}: one Kafka partition's ranges
 * committed into the Iceberg table of its topic, each as one snapshot that adds the range's data
 * files and carries the partition's committed offset in its summary ({@link OffsetSummary}). The
 * protocol, its crash windows and how each is closed: docs/exactly-once.md, "Iceberg tables".
 *
 * <ul>
 *   <li>{@link #recover}: the committed offset is the one in the newest snapshot with sink offsets;
 *       data files of this partition that no snapshot references are deleted ({@link
 *       TableOrphans}).
 *   <li>{@link #commit}: the files are completed at their final keys (invisible to table readers),
 *       then a row delta adds them, on two conditions checked on the table as it is at the commit:
 *       the partition's committed offset is {@code start - 1} (else {@link Fenced}: a zombie or an
 *       overtaken writer), and no data was added since the snapshot that condition was read from
 *       (Iceberg's own validation; on a conflict the offsets are read again and the commit
 *       retried). A writer that took longer than half of {@code commit.timeout.ms} since its first
 *       file became durable gives up, so the orphan clean-up, which waits the whole timeout, never
 *       deletes a file a live commit is about to add.
 *   <li>{@link #abort}: the table decides: the range's commit id in a snapshot means done; else the
 *       files this writer completed are deleted.
 * </ul>
 */
public final class IcebergCommitProtocol implements CommitProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCommitProtocol.class);

  /** Conflicts with other writers' commits retried at once, on the refreshed table. */
  private static final int MAX_CONFLICT_RETRIES = 20;

  private final IcebergTables tables;
  private final Store store;
  private final TopicPartition source;
  private final String connector;
  private final String offsetKey;
  private final TableOrphans orphans;
  private final SinkClock clock;
  private final long commitTimeoutMs;
  private final CrashPoints faults;
  private final String log;

  private long committedEnd = -1;
  private List<String> lastCommitFiles = List.of();

  /** The keys this writer completed for its last commit attempt: only these may it delete. */
  private final List<String> published = new ArrayList<>();

  private long publishedStart = -1;
  private int publishedAttempt = -1;

  IcebergCommitProtocol(
      IcebergTables tables,
      Store store,
      TopicPartition source,
      String connector,
      UnaryOperator<String> topicDir,
      SinkClock clock,
      long commitTimeoutMs,
      CrashPoints faults,
      String log) {
    this.tables = tables;
    this.store = store;
    this.source = source;
    this.connector = connector;
    this.offsetKey = OffsetSummary.offsetKey(connector, source);
    this.orphans = new TableOrphans(store, source, connector, topicDir.apply(source.topic()), log);
    this.clock = clock;
    this.commitTimeoutMs = commitTimeoutMs;
    this.faults = faults;
    this.log = log;
  }

  /**
   * The factory a task puts into its runtime: one protocol per Kafka partition, all on the task's
   * tables.
   *
   * @param topicDir the store directory of a topic's data files
   */
  public static Factory factory(
      IcebergTables tables,
      Store store,
      String connector,
      UnaryOperator<String> topicDir,
      SinkClock clock,
      long commitTimeoutMs,
      CrashPoints faults) {
    return (source, log) ->
        new IcebergCommitProtocol(
            tables, store, source, connector, topicDir, clock, commitTimeoutMs, faults, log);
  }

  @Override
  public long lastCommitted() {
    return committedEnd;
  }

  @Override
  public List<String> lastCommitFiles() {
    return lastCommitFiles;
  }

  /**
   * A random positive number: a new owner and a zombie that start a range at the same offset must
   * not name their files alike, since each deletes only what it completed itself.
   */
  @Override
  public int attemptAt(long start) {
    return ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
  }

  @Override
  public boolean recover() throws IOException {
    Table table = tables.load(source.topic());
    if (table == null) {
      if (!tables.settings().autoCreate()) {
        throw new IOException(
            "table "
                + tables.identifier(source.topic())
                + " does not exist and "
                + IcebergConfig.TABLE_AUTO_CREATE_CONFIG
                + "=false");
      }
      committedEnd = -1;
      lastCommitFiles = List.of();
      orphans.clean(null, -1, olderThan());
      return true;
    }
    Snapshot withOffsets = OffsetSummary.newestWithOffsets(table);
    committedEnd = OffsetSummary.offset(OffsetSummary.offsets(withOffsets), offsetKey);
    lastCommitFiles = committedEnd < 0 ? List.of() : filesOfLastCommit(table);
    orphans.clean(table, committedEnd, olderThan());
    return true;
  }

  /**
   * The store keys of the data files this partition's newest commit added (the writer learns their
   * schemas); empty when that snapshot is not in the current ancestry any more. Best effort.
   */
  private List<String> filesOfLastCommit(Table table) {
    String ours = connector + "/" + source.topic() + "/" + source.partition() + "/";
    try {
      for (Snapshot s = table.currentSnapshot(); s != null; ) {
        String id = s.summary().get(OffsetSummary.COMMIT_PROPERTY);
        String[] range =
            id != null && id.startsWith(ours) ? id.substring(ours.length()).split("/") : null;
        if (range != null && range.length == 3 && range[1].equals(Long.toString(committedEnd))) {
          List<String> keys = new ArrayList<>();
          String root = StoreLocations.uri(store, "");
          for (org.apache.iceberg.DataFile file : s.addedDataFiles(table.io())) {
            if (file.location().startsWith(root)) {
              keys.add(file.location().substring(root.length()));
            }
          }
          return keys;
        }
        Long parent = s.parentId();
        s = parent == null ? null : table.snapshot(parent);
      }
    } catch (RuntimeException e) {
      LOG.info("{} cannot list the files of the last commit: {}", log, e.toString());
    }
    return List.of();
  }

  private long olderThan() {
    return clock.wallMillis() - commitTimeoutMs;
  }

  @Override
  public long commit(PendingCommit commit) throws Fenced, IOException {
    long began = clock.nanos();
    published.clear();
    publishedStart = commit.start();
    publishedAttempt = commit.attempt();
    boolean first = true;
    for (CommitProtocol.DataFile file : commit.files()) {
      faults.at(CrashPoints.BEFORE_FILE);
      file.publish();
      published.add(file.key());
      if (first) {
        faults.at(CrashPoints.MID_COMMIT);
        first = false;
      }
    }
    faults.at(CrashPoints.BEFORE_DONE);
    MessageType written = widest(commit.files());
    Table table =
        written == null
            ? tables.load(source.topic())
            : tables.loadOrCreate(source.topic(), written);
    if (table == null) {
      throw new IOException("table " + tables.identifier(source.topic()) + " does not exist");
    }
    for (int conflict = 0; ; conflict++) {
      checkDeadline(began);
      try {
        if (conflict > 0) {
          table.refresh();
        }
        if (written != null) {
          tables.evolve(table, written);
        }
        Snapshot base = table.currentSnapshot();
        Map<String, String> offsets = OffsetSummary.offsets(OffsetSummary.newestWithOffsets(table));
        long committed = OffsetSummary.offset(offsets, offsetKey);
        // Offsets the task is never given (a converter's errors Connect sends to the dead letter
        // queue itself, transaction markers, compacted or expired records) leave a gap before the
        // range: fine while the table is where this writer recovered or last committed it, since
        // it resumed right after that; another writer's commit meanwhile is not.
        boolean gapSinceOwnPosition = committed == committedEnd && committed < commit.start() - 1;
        if (committed != commit.start() - 1 && !gapSinceOwnPosition) {
          throw new Fenced(
              table.name()
                  + " holds offsets of "
                  + source
                  + " up to "
                  + committed
                  + ", not "
                  + (commit.start() - 1)
                  + ": another writer committed meanwhile");
        }
        RowDelta delta = table.newRowDelta();
        for (CommitProtocol.DataFile file : commit.files()) {
          delta.addRows(dataFile(table, file));
        }
        offsets.put(offsetKey, Long.toString(commit.end()));
        offsets.forEach(delta::set);
        delta.set(
            OffsetSummary.COMMIT_PROPERTY,
            OffsetSummary.commitId(
                connector, source, commit.start(), commit.end(), commit.attempt()));
        if (base != null) {
          delta.validateFromSnapshot(base.snapshotId());
        }
        delta.conflictDetectionFilter(Expressions.alwaysTrue()).validateNoConflictingDataFiles();
        delta.commit();
        break;
      } catch (ValidationException | CommitFailedException e) {
        // Another writer added data after the offsets were read: read them again.
        if (conflict >= MAX_CONFLICT_RETRIES) {
          throw new IOException(
              "committing into " + table.name() + " conflicted " + conflict + " times", e);
        }
        LOG.debug("{} commit conflict, retrying: {}", log, e.getMessage());
      } catch (IcebergTables.SchemaRefused e) {
        throw new IOException(e.getMessage(), e);
      } catch (CommitStateUnknownException e) {
        throw new IOException(
            "the catalog's answer to the commit into " + table.name() + " was lost", e);
      } catch (RuntimeException e) {
        throw IcebergCatalogs.asIOException("committing into " + table.name(), e);
      }
    }
    committedEnd = commit.end();
    lastCommitFiles = List.copyOf(published);
    published.clear();
    faults.at(CrashPoints.AFTER_DONE);
    return clock.nanos() - began;
  }

  /**
   * The wider of the commit's file schemas: every file of a commit is written from the schema the
   * topic learned, so the last one opened holds what the others do.
   */
  private static MessageType widest(List<CommitProtocol.DataFile> files) {
    MessageType widest = null;
    for (CommitProtocol.DataFile file : files) {
      MessageType schema = file.schema();
      if (schema != null
          && (widest == null || schema.columns().size() >= widest.columns().size())) {
        widest = schema;
      }
    }
    return widest;
  }

  private void checkDeadline(long began) throws IOException {
    long tookMs = TimeUnit.NANOSECONDS.toMillis(clock.nanos() - began);
    if (tookMs > commitTimeoutMs / 2) {
      throw new IOException(
          "the commit has taken "
              + tookMs
              + " ms, more than half of commit.timeout.ms: giving up, since its files may be "
              + "cleaned up as orphans now");
    }
  }

  private org.apache.iceberg.DataFile dataFile(Table table, CommitProtocol.DataFile file) {
    DataFiles.Builder builder =
        DataFiles.builder(table.spec())
            .withPath(StoreLocations.uri(store, file.key()))
            .withFormat(FileFormat.PARQUET)
            .withFileSizeInBytes(file.sizeBytes())
            .withRecordCount(file.recordCount());
    if (table.spec().isPartitioned()) {
      builder.withPartitionPath(file.partitionPath());
    }
    if (file.footer() != null) {
      builder.withMetrics(
          DataFileMetrics.of(file.footer(), table.schema(), MetricsConfig.forTable(table)));
    }
    return builder.build();
  }

  @Override
  public boolean abort(long start, int attempt) {
    try {
      Table table = tables.load(source.topic());
      if (table != null && TableOrphans.committed(table, connector, source, start, attempt)) {
        committedEnd =
            OffsetSummary.offset(
                OffsetSummary.offsets(OffsetSummary.newestWithOffsets(table)), offsetKey);
        published.clear();
        return true;
      }
    } catch (IOException | RuntimeException e) {
      // Undecided: the files stay; the next recovery's clean-up decides on them.
      LOG.warn(
          "{} cannot tell whether the commit at {} (attempt {}) is in the table: {}",
          log,
          start,
          attempt,
          e.toString());
      published.clear();
      return false;
    }
    if (start == publishedStart && attempt == publishedAttempt) {
      for (String key : published) {
        try {
          store.delete(key);
        } catch (IOException | RuntimeException e) {
          LOG.warn("{} cannot delete {} of a failed commit: {}", log, key, e.toString());
        }
      }
    }
    published.clear();
    return false;
  }
}
