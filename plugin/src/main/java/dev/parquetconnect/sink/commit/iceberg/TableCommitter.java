package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.sink.SinkClock;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.partition.HivePaths;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table commit of {@code table.format=iceberg}, one per task: the ranges the task's partitions
 * staged ({@link StagedRange}, one descriptor each in the table's staging directory) are committed,
 * with every other task's staged ranges of the table, in one snapshot per table and commit
 * interval. No coordinator is elected and no state is kept between rounds: any task whose staged
 * ranges are still pending at the round's due time commits, from the refreshed table and the
 * descriptors, and a range is added only if its partition's committed offset in the snapshot it is
 * added to is right before it; so two committers at once cost at most a second snapshot, never a
 * duplicate. The protocol, its timing and its crash windows: docs/exactly-once.md, "Iceberg
 * tables".
 */
public final class TableCommitter {
  private static final Logger LOG = LoggerFactory.getLogger(TableCommitter.class);

  /** Conflicts with other committers retried at once, on the refreshed table. */
  private static final int MAX_CONFLICT_RETRIES = 20;

  private final IcebergTables tables;
  private final Store store;
  private final String connector;
  private final String stagingRoot;
  private final SinkClock clock;
  private final long commitTimeoutMs;
  private final long intervalMs;
  private final long gatherMs;
  private final long delayMs;
  private final CrashPoints faults;
  private final String log;

  /** Per table name: the topic to load it by and the protocols with pending ranges in it. */
  private final Map<String, Pending> pending = new LinkedHashMap<>();

  private final Set<String> cleanedStagingDirs = new LinkedHashSet<>();

  private static final class Pending {
    final String topic;
    final Set<IcebergCommitProtocol> protocols = new LinkedHashSet<>();
    long dueAt = Long.MAX_VALUE;

    Pending(String topic) {
      this.topic = topic;
    }
  }

  /**
   * @param topicsDir the store directory the staging directory {@code _staging} is made in
   * @param intervalMs the period of the commit schedule (its boundaries are multiples of it)
   * @param taskNumber the task's number: lower numbers commit first
   */
  public TableCommitter(
      IcebergTables tables,
      Store store,
      String connector,
      String topicsDir,
      SinkClock clock,
      long commitTimeoutMs,
      long intervalMs,
      int taskNumber,
      CrashPoints faults,
      String log) {
    this.tables = tables;
    this.store = store;
    this.connector = connector;
    this.stagingRoot =
        (topicsDir.isEmpty() ? "" : topicsDir + "/")
            + "_staging/"
            + HivePaths.encodeSegment(connector, 180);
    this.clock = clock;
    this.commitTimeoutMs = commitTimeoutMs;
    this.intervalMs = Math.max(1, intervalMs);
    this.gatherMs = Math.min(this.intervalMs / 10, 1000);
    this.delayMs = (Math.floorMod(taskNumber, 4)) * gatherMs / 2;
    this.faults = faults;
    this.log = log;
  }

  /** The staging directory of a table: its descriptors. */
  String stagingDir(Table table) {
    return stagingRoot + "/" + HivePaths.encodeSegment(table.name(), 180);
  }

  /** Writes a range's descriptor; durable (and visible to committers) once this returns. */
  String stage(Table table, StagedRange range, byte[] descriptor) throws IOException {
    String key = stagingDir(table) + "/" + range.name();
    StoreOutput out = store.create(key);
    try {
      out.write(descriptor, 0, descriptor.length);
      out.commit();
    } catch (IOException | RuntimeException e) {
      out.close();
      throw e;
    }
    return key;
  }

  /** A protocol has a pending range in {@code table} (of {@code topic}) staged at {@code now}. */
  void pending(IcebergCommitProtocol protocol, Table table, String topic, long stagedAtMillis) {
    Pending p = pending.computeIfAbsent(table.name(), name -> new Pending(topic));
    p.protocols.add(protocol);
    p.dueAt = Math.min(p.dueAt, dueAfter(stagedAtMillis));
  }

  /** The round's due time for a range staged at {@code stagedAt}: the next boundary's round. */
  long dueAfter(long stagedAt) {
    long due = Math.floorDiv(stagedAt, intervalMs) * intervalMs + gatherMs + delayMs;
    return due < stagedAt ? due + intervalMs : due;
  }

  /** Milliseconds until the next due round; {@link Long#MAX_VALUE} with nothing pending. */
  public long untilDue(long now) {
    long until = Long.MAX_VALUE;
    for (Pending p : pending.values()) {
      if (!p.protocols.isEmpty()) {
        until = Math.min(until, Math.max(1, p.dueAt - now));
      }
    }
    return until;
  }

  /**
   * Runs the rounds that are due ({@code all}: every table with pending ranges, as a task does
   * before it lets partitions go), then decides the pending ranges on the table. Never throws: a
   * round that fails is tried again {@code G} later; the ranges stay staged.
   */
  public void runDue(boolean all) {
    long now = clock.wallMillis();
    for (Pending p : new ArrayList<>(pending.values())) {
      if (p.protocols.isEmpty() || (!all && now < p.dueAt)) {
        continue;
      }
      try {
        Table table = tables.load(p.topic);
        if (table == null) {
          continue;
        }
        if (!decided(table, p)) {
          if (all) {
            round(table, null, Long.MAX_VALUE, null);
          } else {
            // The round of the newest boundary whose gather time has passed: it takes what was
            // staged until then, whichever task runs it, so one interval makes one snapshot.
            long interval = Math.floorDiv(now - gatherMs, intervalMs);
            round(table, null, interval * intervalMs + gatherMs, interval);
          }
        }
        // Listed before the table is read again: a range committed (and its descriptor removed)
        // before the listing is in the refreshed table, so a missing descriptor of a range the
        // table does not hold means the range was withdrawn and can never be committed.
        Set<String> staged = stagedKeys(table);
        table.refresh();
        decide(table, p, staged);
        p.dueAt = p.protocols.isEmpty() ? Long.MAX_VALUE : dueAfter(now + 1);
      } catch (IOException | RuntimeException e) {
        long retryMs = Math.max(gatherMs, Math.min(intervalMs, 5000));
        LOG.warn(
            "{} the table commit of {} failed, retrying in {} ms: {}",
            log,
            tables.identifier(p.topic),
            retryMs,
            e.toString());
        p.dueAt = now + retryMs;
      }
    }
  }

  /** Whether the table has decided every pending range of {@code p} (no round needed). */
  private static boolean decided(Table table, Pending p) {
    for (IcebergCommitProtocol protocol : p.protocols) {
      if (!protocol.allDecided(table)) {
        return false;
      }
    }
    return true;
  }

  private void decide(Table table, Pending p, Set<String> staged) {
    for (Iterator<IcebergCommitProtocol> it = p.protocols.iterator(); it.hasNext(); ) {
      IcebergCommitProtocol protocol = it.next();
      if (!protocol.decide(table, staged)) {
        it.remove();
      }
    }
  }

  /** A protocol let its pending ranges go (recovery, close). */
  void forget(IcebergCommitProtocol protocol) {
    for (Pending p : pending.values()) {
      p.protocols.remove(protocol);
    }
  }

  /**
   * One round on a table: commits every staged range that continues its partition's committed
   * offset, in one snapshot, then removes the descriptors the table has decided.
   *
   * @param only the one Kafka partition whose ranges to commit (a recovery), null for all
   * @param stagedUntil only ranges staged until then are taken ({@link Long#MAX_VALUE}: all)
   * @param interval the number of the interval whose round this is (the summary's {@code
   *     parquet-connect.interval}), null for a round outside the schedule (recovery, hand-over)
   * @return how many ranges the round added
   */
  int round(Table table, TopicPartition only, long stagedUntil, Long interval) throws IOException {
    String dir = stagingDir(table);
    if (cleanedStagingDirs.add(dir)) {
      try {
        store.cleanupOrphans(
            dir, java.time.Instant.ofEpochMilli(clock.wallMillis() - commitTimeoutMs));
      } catch (IOException | RuntimeException e) {
        LOG.debug("{} cannot clean up temporary descriptors under {}: {}", log, dir, e.toString());
      }
    }
    long listedAt = clock.wallMillis();
    List<Staged> staged = list(dir, listedAt);
    List<Staged> taken = new ArrayList<>(staged);
    taken.removeIf(
        s ->
            (only != null && !s.range().source().equals(only))
                || s.range().stagedAt() > stagedUntil);
    if (only != null) {
      staged = taken;
    }
    if (staged.isEmpty()) {
      return 0;
    }
    int added = 0;
    for (int conflict = 0; ; conflict++) {
      long tookMs = clock.wallMillis() - listedAt;
      if (tookMs > commitTimeoutMs / 4) {
        throw new IOException(
            "the table commit has taken "
                + tookMs
                + " ms since its listing, more than a quarter of commit.timeout.ms: giving up, "
                + "since the files of its ranges may be cleaned up as orphans soon");
      }
      try {
        if (conflict > 0) {
          table.refresh();
        }
        Map<String, String> offsets = OffsetSummary.offsets(OffsetSummary.newestWithOffsets(table));
        Map<String, String> read = Map.copyOf(offsets);
        Map<TopicPartition, List<StagedRange>> chains = chains(taken, offsets, listedAt);
        if (chains.isEmpty() || (interval != null && committedInterval(table, interval))) {
          // An interval's round that finds the interval (or a later one) already committed by
          // another task's round commits nothing: what that round did not take (staged late, or
          // listed after it) waits for the next interval, so each interval has one snapshot. The
          // condition below keeps this true up to the catalog commit: any sink snapshot in
          // between changes the offsets the round read.
          break;
        }
        RowDelta delta = table.newRowDelta();
        int files = 0;
        added = 0;
        for (Map.Entry<TopicPartition, List<StagedRange>> chain : chains.entrySet()) {
          StringBuilder ids = new StringBuilder();
          for (StagedRange range : chain.getValue()) {
            for (DataFile file : range.dataFiles(table.specs())) {
              delta.addRows(file);
              files++;
            }
            ids.append(ids.isEmpty() ? "" : ",")
                .append(OffsetSummary.rangeId(range.start(), range.end(), range.attempt()));
            added++;
          }
          List<StagedRange> ranges = chain.getValue();
          offsets.put(
              OffsetSummary.offsetKey(connector, chain.getKey()),
              Long.toString(ranges.get(ranges.size() - 1).end()));
          delta.set(OffsetSummary.commitKey(connector, chain.getKey()), ids.toString());
        }
        offsets.forEach(delta::set);
        if (interval != null) {
          delta.set(OffsetSummary.INTERVAL_PROPERTY, Long.toString(interval));
        }
        delta.validateWith(new OffsetsUnchanged(read));
        faults.at(CrashPoints.BEFORE_TABLE_COMMIT);
        delta.commit();
        faults.at(CrashPoints.AFTER_TABLE_COMMIT);
        LOG.info(
            "{} committed {} staged ranges ({} data files) into {}",
            log,
            added,
            files,
            table.name());
        break;
      } catch (ValidationException | CommitFailedException e) {
        if (conflict >= MAX_CONFLICT_RETRIES) {
          throw new IOException(
              "committing into " + table.name() + " conflicted " + conflict + " times", e);
        }
        // Another committer's snapshot came in between: back off a little (the other committers
        // are most likely in the same round) and read the refreshed table again.
        long backoffMs =
            Math.min(1000, 20L << Math.min(conflict, 6)) + ThreadLocalRandom.current().nextLong(20);
        LOG.debug(
            "{} table commit conflict, retrying in {} ms: {}", log, backoffMs, e.getMessage());
        try {
          Thread.sleep(backoffMs);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while retrying the commit into " + table.name());
        }
      } catch (CommitStateUnknownException e) {
        throw new IOException(
            "the catalog's answer to the commit into " + table.name() + " was lost", e);
      } catch (RuntimeException e) {
        throw IcebergCatalogs.asIOException("committing into " + table.name(), e);
      }
    }
    table.refresh();
    cleanUp(table, staged);
    return added;
  }

  /**
   * Whether a sink snapshot of the current ancestry made in interval {@code interval} or later
   * names its interval (a round of the schedule); looks back only at snapshots younger than the
   * interval before it, so the walk is short.
   */
  private boolean committedInterval(Table table, long interval) {
    long since = (interval - 1) * intervalMs;
    for (Snapshot s = table.currentSnapshot();
        s != null && s.timestampMillis() >= since;
        s = OffsetSummary.parent(table, s)) {
      String value = s.summary().get(OffsetSummary.INTERVAL_PROPERTY);
      if (value != null) {
        try {
          if (Long.parseLong(value.trim()) >= interval) {
            return true;
          }
        } catch (NumberFormatException e) {
          // Not ours to read; ignored.
        }
      }
    }
    return false;
  }

  /** A staged range as listed: its descriptor's key and what it says. */
  private record Staged(String key, StagedRange range) {}

  private List<Staged> list(String dir, long now) throws IOException {
    List<Staged> staged = new ArrayList<>();
    for (StoreFile file : store.list(dir, false)) {
      if (file.directory() || !file.name().endsWith(".json")) {
        continue;
      }
      StagedRange range;
      try {
        range = read(file.key());
      } catch (java.nio.file.NoSuchFileException e) {
        // Removed by another committer since the listing.
        continue;
      } catch (IOException e) {
        LOG.warn("{} skipping {}", log, e.getMessage());
        if (file.modified().toEpochMilli() < now - commitTimeoutMs) {
          deleteQuietly(file.key());
        }
        continue;
      }
      // Ages by the writer's clock (the tasks' clocks agree; the store's need not): a descriptor
      // staged more than commit.timeout.ms ago was given up long ago by its writer, its data
      // files are orphans, cleaned up by recovery.
      if (range.stagedAt() < now - commitTimeoutMs) {
        deleteQuietly(file.key());
        continue;
      }
      staged.add(new Staged(file.key(), range));
    }
    return staged;
  }

  private StagedRange read(String key) throws IOException {
    try (StoreInput in = store.open(key)) {
      long length = in.length();
      if (length > 64L << 20) {
        throw new IOException("staged range descriptor " + key + " has " + length + " bytes");
      }
      byte[] bytes = new byte[(int) length];
      in.readFully(0, bytes, 0, bytes.length);
      return StagedRange.decode(key, bytes);
    }
  }

  /**
   * Per Kafka partition, the staged ranges that continue its committed offset contiguously (any
   * start when the table has none); of two with the same start, the longer. Ranges staged more than
   * half of {@code commit.timeout.ms} ago (by their writer's clock) are never taken: their writers
   * gave them up.
   */
  private Map<TopicPartition, List<StagedRange>> chains(
      List<Staged> staged, Map<String, String> offsets, long listedAt) {
    Map<TopicPartition, List<StagedRange>> byPartition = new HashMap<>();
    for (Staged s : staged) {
      if (s.range().stagedAt() >= listedAt - commitTimeoutMs / 2) {
        byPartition.computeIfAbsent(s.range().source(), tp -> new ArrayList<>()).add(s.range());
      }
    }
    Map<TopicPartition, List<StagedRange>> chains = new LinkedHashMap<>();
    for (Map.Entry<TopicPartition, List<StagedRange>> e : byPartition.entrySet()) {
      long committed =
          OffsetSummary.offset(offsets, OffsetSummary.offsetKey(connector, e.getKey()));
      long next = committed + 1;
      if (committed < 0) {
        // Only a range whose writer knew of nothing before it begins the partition: a later range
        // of a writer whose first one was withdrawn must not, or the records before it are lost.
        next = Long.MAX_VALUE;
        for (StagedRange r : e.getValue()) {
          if (r.after() < 0) {
            next = Math.min(next, r.start());
          }
        }
      }
      List<StagedRange> chain = new ArrayList<>();
      while (true) {
        StagedRange best = null;
        for (StagedRange r : e.getValue()) {
          if (continues(r, next) && (best == null || precedes(r, best))) {
            best = r;
          }
        }
        if (best == null) {
          break;
        }
        chain.add(best);
        next = best.end() + 1;
      }
      if (!chain.isEmpty()) {
        chains.put(e.getKey(), chain);
      }
    }
    return chains;
  }

  /**
   * Whether {@code r} may follow a chain whose next offset is {@code next}: it starts there, or
   * after a gap its writer never saw records of (converter errors Connect sends to the dead letter
   * queue itself, transaction markers, compacted records) while its writer's chain continues from
   * exactly the offset before {@code next}.
   */
  private static boolean continues(StagedRange r, long next) {
    return r.end() >= r.start()
        && (r.start() == next
            || r.start() > next && next != Long.MAX_VALUE && r.after() == next - 1);
  }

  /** The better of two ranges that may follow a chain: the earlier start, then the longer one. */
  private static boolean precedes(StagedRange r, StagedRange other) {
    return r.start() < other.start() || r.start() == other.start() && r.end() > other.end();
  }

  /**
   * Removes the descriptors of ranges the table has decided: those it holds (descriptor only) and
   * those it refused (their start is at or below the committed offset without their commit id: the
   * descriptor and the range's data files, since no commit can take them any more).
   */
  private void cleanUp(Table table, List<Staged> staged) {
    Map<String, String> offsets = OffsetSummary.offsets(OffsetSummary.newestWithOffsets(table));
    for (Staged s : staged) {
      StagedRange r = s.range();
      long committed =
          OffsetSummary.offset(offsets, OffsetSummary.offsetKey(connector, r.source()));
      if (r.start() > committed) {
        continue;
      }
      OffsetSummary.RangeState state =
          OffsetSummary.state(table, connector, r.source(), r.start(), r.attempt());
      deleteQuietly(s.key());
      if (state == OffsetSummary.RangeState.REFUSED) {
        for (String key : r.keys()) {
          deleteQuietly(key);
        }
        LOG.info(
            "{} refused the staged range {} {}-{}: the table holds its offsets from another "
                + "writer",
            log,
            r.source(),
            r.start(),
            r.end());
      }
    }
  }

  /** The keys of the descriptors in a table's staging directory now. */
  Set<String> stagedKeys(Table table) throws IOException {
    Set<String> keys = new HashSet<>();
    for (StoreFile file : store.list(stagingDir(table), false)) {
      if (!file.directory() && file.name().endsWith(".json")) {
        keys.add(file.key());
      }
    }
    return keys;
  }

  /**
   * Withdraws the staged descriptors of one partition (its new owner, after its recovery round):
   * their data files are left to the orphan clean-up, which sees whether a committer that had
   * listed them committed them after all.
   */
  void withdraw(Table table, TopicPartition source) {
    try {
      for (StoreFile file : store.list(stagingDir(table), false)) {
        if (!file.directory()
            && file.name()
                .startsWith(
                    HivePaths.encodeSegment(source.topic(), 180)
                        + "+"
                        + source.partition()
                        + "+")) {
          deleteQuietly(file.key());
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} cannot withdraw the staged ranges of {}: {}", log, source, e.toString());
    }
  }

  void deleteQuietly(String key) {
    try {
      store.delete(key);
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} cannot delete {}: {}", log, key, e.toString());
    }
  }

  /**
   * The round's condition, checked by Iceberg on the table its commit is applied to (also inside
   * Iceberg's own retries, which rebase the commit on a newer parent): the newest snapshot with
   * sink offsets there carries exactly the offsets the round read, so each chain still starts right
   * after its partition's committed offset and the offsets copied forward are current. Snapshots
   * without sink offsets in between (a compaction's rewrite, another writer's delete) leave it
   * true, so a busy compaction cannot starve a round; another sink commit in between fails it, and
   * the round reads the offsets again.
   */
  private record OffsetsUnchanged(Map<String, String> read) implements SnapshotAncestryValidator {
    @Override
    public boolean validate(Iterable<Snapshot> ancestry) {
      for (Snapshot snapshot : ancestry) {
        if (OffsetSummary.hasOffsets(snapshot.summary())) {
          return OffsetSummary.offsets(snapshot).equals(read);
        }
      }
      return read.isEmpty();
    }

    @Override
    public String errorMessage() {
      return "another sink commit changed the committed offsets the round read";
    }
  }
}
