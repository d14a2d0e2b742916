package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.iceberg.DataFileMetrics;
import dev.parquetconnect.sink.SinkClock;
import dev.parquetconnect.sink.commit.CommitProtocol;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CommitProtocol} of {@code table.format=iceberg}: one Kafka partition's ranges staged
 * for the table of its topic, and committed with the staged ranges of every task in one snapshot
 * per table and commit interval ({@link TableCommitter}), which carries the partition's committed
 * offset in its summary ({@link OffsetSummary}). The protocol, its crash windows and how each is
 * closed: docs/exactly-once.md, "Iceberg tables".
 *
 * <ul>
 *   <li>{@link #recover}: a round commits the staged ranges of this partition a previous owner left
 *       (now or never), the rest are withdrawn, then the committed offset is the one in the newest
 *       snapshot with sink offsets; data files of this partition that no snapshot references are
 *       deleted ({@link TableOrphans}).
 *   <li>{@link #commit}: the files are completed at their final keys (invisible to table readers)
 *       and their Iceberg data files, with the writer's metrics, are staged in a descriptor ({@link
 *       StagedRange}); the range is then pending: {@link #lastCommitted} moves only when the table
 *       holds it, and a range the table refused sets {@link #lost}. A writer that took longer than
 *       a quarter of {@code commit.timeout.ms} since its first file became durable gives up before
 *       staging, so the orphan clean-up, which waits the whole timeout, never deletes a file a
 *       commit is about to add.
 *   <li>{@link #abort}: files of a range never staged are deleted; a descriptor that may have been
 *       written is withdrawn, its files left to the orphan clean-up (a committer may have listed
 *       it).
 * </ul>
 */
public final class IcebergCommitProtocol implements CommitProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCommitProtocol.class);

  private final IcebergTables tables;
  private final Store store;
  private final TopicPartition source;
  private final String connector;
  private final String offsetKey;
  private final TableOrphans orphans;
  private final TableCommitter committer;
  private final SinkClock clock;
  private final long commitTimeoutMs;
  private final CrashPoints faults;
  private final String log;

  private long committedEnd = -1;

  /** Whether this writer recovered before: later recoveries withdraw only its own ranges. */
  private boolean owner;

  private List<String> lastCommitFiles = List.of();

  /** The ranges staged and not yet decided by the table, in offset order. */
  private final List<PendingRange> pending = new ArrayList<>();

  /**
   * The first offset of a pending range the table refused or no committer takes any more (then the
   * writer recovers), -1 for none.
   */
  private long lostFrom = -1;

  /** The keys this writer completed for its last commit attempt: only these may it delete. */
  private final List<String> published = new ArrayList<>();

  private long publishedStart = -1;
  private int publishedAttempt = -1;

  /** The descriptor the last commit attempt wrote or was writing; null before staging. */
  private String stagingKey;

  private record PendingRange(
      long start,
      long end,
      long attempt,
      String descriptor,
      List<String> keys,
      long stagedAt,
      long after) {}

  IcebergCommitProtocol(
      IcebergTables tables,
      Store store,
      TopicPartition source,
      String connector,
      UnaryOperator<String> topicDir,
      TableCommitter committer,
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
    this.committer = committer;
    this.clock = clock;
    this.commitTimeoutMs = commitTimeoutMs;
    this.faults = faults;
    this.log = log;
  }

  /**
   * The factory a task puts into its runtime: one protocol per Kafka partition, all on the task's
   * tables and its committer.
   *
   * @param topicDir the store directory of a topic's data files
   */
  public static Factory factory(
      IcebergTables tables,
      Store store,
      String connector,
      UnaryOperator<String> topicDir,
      TableCommitter committer,
      SinkClock clock,
      long commitTimeoutMs,
      CrashPoints faults) {
    return (source, log) ->
        new IcebergCommitProtocol(
            tables,
            store,
            source,
            connector,
            topicDir,
            committer,
            clock,
            commitTimeoutMs,
            faults,
            log);
  }

  @Override
  public long lastCommitted() {
    return committedEnd;
  }

  @Override
  public List<String> lastCommitFiles() {
    return lastCommitFiles;
  }

  @Override
  public boolean lost() {
    return lostFrom >= 0;
  }

  @Override
  public long unconfirmedFrom() {
    long first = pending.isEmpty() ? -1 : pending.get(0).start();
    return lostFrom < 0 ? first : first < 0 ? lostFrom : Math.min(first, lostFrom);
  }

  @Override
  public void release() {
    committer.forget(this);
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
    committer.forget(this);
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
      pending.clear();
      lostFrom = -1;
      committedEnd = -1;
      lastCommitFiles = List.of();
      orphans.clean(null, -1, olderThan());
      return true;
    }
    // What a previous owner (or this writer) staged for this partition is committed now or never:
    // the resume offset is read after it.
    committer.round(table, source, Long.MAX_VALUE, null);
    if (owner) {
      // A recovery in place (a refused or withdrawn range, a failed commit): only this writer's
      // own ranges are withdrawn. A zombie's recovery must not withdraw the new owner's ranges.
      for (PendingRange r : pending) {
        committer.deleteQuietly(r.descriptor());
      }
    } else {
      // A new owner: what a previous owner staged and the round did not take is withdrawn.
      committer.withdraw(table, source);
    }
    owner = true;
    pending.clear();
    lostFrom = -1;
    table.refresh();
    committedEnd =
        OffsetSummary.offset(
            OffsetSummary.offsets(OffsetSummary.newestWithOffsets(table)), offsetKey);
    lastCommitFiles = committedEnd < 0 ? List.of() : filesOfLastCommit(table);
    orphans.clean(table, committedEnd, olderThan());
    return true;
  }

  /**
   * The store keys of the data files this partition's newest commit added (the writer learns their
   * schemas); empty when that snapshot is not in the current ancestry any more. Best effort.
   */
  private List<String> filesOfLastCommit(Table table) {
    try {
      for (Snapshot s = table.currentSnapshot(); s != null; s = OffsetSummary.parent(table, s)) {
        for (long[] range : OffsetSummary.ranges(s, connector, source)) {
          if (range[1] != committedEnd) {
            continue;
          }
          List<String> keys = new ArrayList<>();
          String root = StoreLocations.uri(store, "");
          for (org.apache.iceberg.DataFile file : s.addedDataFiles(table.io())) {
            String location = file.location();
            long[] named = orphans.parse(location.substring(location.lastIndexOf('/') + 1));
            if (location.startsWith(root)
                && named != null
                && named[0] == range[0]
                && named[1] == range[2]) {
              keys.add(location.substring(root.length()));
            }
          }
          return keys;
        }
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
    if (lostFrom >= 0) {
      throw new Fenced("a staged range of " + source + " was refused by the table");
    }
    long began = clock.nanos();
    published.clear();
    publishedStart = commit.start();
    publishedAttempt = commit.attempt();
    stagingKey = null;
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
    List<org.apache.iceberg.DataFile> dataFiles = new ArrayList<>(commit.files().size());
    List<String> keys = new ArrayList<>(commit.files().size());
    try {
      if (written != null) {
        tables.evolve(table, written);
      }
      for (CommitProtocol.DataFile file : commit.files()) {
        dataFiles.add(dataFile(table, file));
        keys.add(file.key());
      }
    } catch (IcebergTables.SchemaRefused e) {
      throw new IOException(e.getMessage(), e);
    } catch (RuntimeException e) {
      throw IcebergCatalogs.asIOException("preparing the commit into " + table.name(), e);
    }
    long stagedAt = clock.wallMillis();
    long after = pending.isEmpty() ? committedEnd : pending.get(pending.size() - 1).end();
    byte[] descriptor =
        StagedRange.encode(
            source,
            commit.start(),
            commit.end(),
            commit.attempt(),
            stagedAt,
            after,
            keys,
            dataFiles,
            table.specs());
    StagedRange range =
        new StagedRange(
            source, commit.start(), commit.end(), commit.attempt(), stagedAt, after, keys, null);
    checkDeadline(began);
    stagingKey = committer.stagingDir(table) + "/" + range.name();
    committer.stage(table, range, descriptor);
    pending.add(
        new PendingRange(
            commit.start(), commit.end(), commit.attempt(), stagingKey, keys, stagedAt, after));
    committer.pending(this, table, source.topic(), stagedAt);
    published.clear();
    stagingKey = null;
    faults.at(CrashPoints.AFTER_DONE);
    return clock.nanos() - began;
  }

  /** Whether the table has decided each pending range (committed or refused). */
  boolean allDecided(Table table) {
    long tableOffset = tableOffset(table);
    for (PendingRange r : pending) {
      if (r.start() > tableOffset) {
        return false;
      }
    }
    return true;
  }

  /**
   * Decides the pending ranges on the refreshed table, oldest first: committed (the offset moves
   * on), refused (its offsets held from another writer's range, or staged longer than half of
   * {@code commit.timeout.ms} ago, which no committer takes any more: {@link #lost}), or still
   * pending.
   *
   * @return whether ranges are still pending
   */
  boolean decide(Table table, Set<String> staged) {
    long tableOffset = tableOffset(table);
    for (Iterator<PendingRange> it = pending.iterator(); it.hasNext(); ) {
      PendingRange r = it.next();
      if (r.start() <= tableOffset) {
        OffsetSummary.RangeState state =
            OffsetSummary.state(table, connector, source, r.start(), r.attempt());
        if (state == OffsetSummary.RangeState.COMMITTED) {
          committedEnd = Math.max(committedEnd, r.end());
          lastCommitFiles = r.keys();
        } else {
          LOG.warn(
              "{} the table did not take the staged offsets {}-{}: it holds them from another "
                  + "writer",
              log,
              r.start(),
              r.end());
          lostFrom = lostFrom < 0 ? r.start() : Math.min(lostFrom, r.start());
          committer.deleteQuietly(r.descriptor());
          if (state == OffsetSummary.RangeState.REFUSED) {
            for (String key : r.keys()) {
              committer.deleteQuietly(key);
            }
          }
        }
        it.remove();
      } else if (clock.wallMillis() - r.stagedAt() > commitTimeoutMs / 2) {
        LOG.warn(
            "{} the staged offsets {}-{} were not committed within half of commit.timeout.ms: "
                + "withdrawn",
            log,
            r.start(),
            r.end());
        lostFrom = lostFrom < 0 ? r.start() : Math.min(lostFrom, r.start());
        committer.deleteQuietly(r.descriptor());
        it.remove();
      } else {
        if (!staged.contains(r.descriptor())
            || (tableOffset >= 0
                && r.start() != tableOffset + 1
                && !(r.start() > tableOffset + 1 && r.after() == tableOffset))) {
          // The chain is broken: the earliest range the table does not hold was withdrawn (by a
          // zombie's or a crashed writer's clean-up) or an earlier one was, and no round can take
          // this one or any later one. The writer goes back to recovery at once, as a new owner
          // would: its later ranges are withdrawn and the records read again after the offset the
          // table holds.
          LOG.warn(
              "{} the staged offsets {}-{} cannot be committed: {}; recovering",
              log,
              r.start(),
              r.end(),
              staged.contains(r.descriptor())
                  ? "the table holds offsets up to " + tableOffset + ", not right before them"
                  : "their descriptor was withdrawn");
          lostFrom = lostFrom < 0 ? r.start() : Math.min(lostFrom, r.start());
        }
        break;
      }
    }
    return !pending.isEmpty();
  }

  private long tableOffset(Table table) {
    return OffsetSummary.offset(
        OffsetSummary.offsets(OffsetSummary.newestWithOffsets(table)), offsetKey);
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
    if (tookMs > commitTimeoutMs / 4) {
      throw new IOException(
          "staging the range has taken "
              + tookMs
              + " ms, more than a quarter of commit.timeout.ms: giving up, since its files may "
              + "be cleaned up as orphans before a committer takes it");
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
    if (start == publishedStart && attempt == publishedAttempt) {
      if (stagingKey != null) {
        // The descriptor may exist and a committer may have listed it: withdraw it and leave its
        // files to the orphan clean-up, which sees whether they were committed after all.
        committer.deleteQuietly(stagingKey);
      } else {
        for (String key : published) {
          committer.deleteQuietly(key);
        }
      }
    }
    published.clear();
    stagingKey = null;
    return false;
  }
}
