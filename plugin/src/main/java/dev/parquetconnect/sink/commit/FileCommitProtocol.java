package dev.parquetconnect.sink.commit;

import dev.parquetconnect.sink.SinkClock;
import dev.parquetconnect.sink.commit.CommitMarkers.Intent;
import dev.parquetconnect.sink.commit.CommitMarkers.Outcome;
import dev.parquetconnect.sink.commit.MarkerLog.Attempt;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit of one Kafka partition into a plain file store, with the marker protocol of
 * docs/exactly-once.md: an intent claims the attempt and lists its files, the files become visible
 * one by one, an outcome ({@code done} or {@code aborted}, one key for both) decides it. Recovery
 * rolls an unfinished commit forward when all its files exist and back otherwise; rolled-back
 * attempts' files are swept again, however late a zombie makes one visible.
 */
public final class FileCommitProtocol implements CommitProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(FileCommitProtocol.class);

  /** Newest commit attempts whose markers are kept; older ones are deleted after a commit. */
  public static final int RETAINED_ATTEMPTS = 6;

  private final Store store;
  private final TopicPartition source;
  private final MarkerLog markers;
  private final SinkClock clock;
  private final long commitTimeoutMs;
  private final String writerId;
  private final String taskName;
  private final CrashPoints faults;
  private final String log;

  /** Last offset of the newest done commit, -1 when there is none. */
  private long committedEnd = -1;

  /** The newest done commit as recovery found it, null when there is none. */
  private Attempt lastDone;

  /** The highest attempt seen per start offset (a retry of that start uses the next one). */
  private final Map<Long, Integer> lastAttempt = new HashMap<>();

  /** The markers as last listed, plus what this writer created since (for compaction). */
  private List<Attempt> knownAttempts = new ArrayList<>();

  /** Rolled-back attempts whose files a late zombie may still make visible. */
  private final RolledBackAttempts rolledBack = new RolledBackAttempts();

  /** When an unfinished commit of another writer was first seen (monotonic nanos). */
  private final Map<Attempt, Long> pendingSince = new HashMap<>();

  /** The commit whose attempt this writer holds with its intent, null when none. */
  private PendingCommit claimed;

  /**
   * @param writerId a random id of this task instance, written into its intents
   * @param taskName {@code <connector>-<task number>}, for people reading the markers
   * @param commitTimeoutMs {@code commit.timeout.ms}: how long an unfinished commit is waited for,
   *     and half of it the longest a commit may spend making its files visible
   */
  public FileCommitProtocol(
      Store store,
      MarkerKeys keys,
      TopicPartition source,
      SinkClock clock,
      long commitTimeoutMs,
      String writerId,
      String taskName,
      CrashPoints faults,
      String log) {
    this.store = store;
    this.source = source;
    this.markers = new MarkerLog(store, keys, source);
    this.clock = clock;
    this.commitTimeoutMs = commitTimeoutMs;
    this.writerId = writerId;
    this.taskName = taskName;
    this.faults = faults;
    this.log = log;
  }

  /** The protocol of each partition of one task instance. */
  public static Factory factory(
      Store store,
      MarkerKeys keys,
      SinkClock clock,
      long commitTimeoutMs,
      String writerId,
      String taskName,
      CrashPoints faults) {
    return (source, log) ->
        new FileCommitProtocol(
            store, keys, source, clock, commitTimeoutMs, writerId, taskName, faults, log);
  }

  @Override
  public long lastCommitted() {
    return committedEnd;
  }

  @Override
  public int attemptAt(long start) {
    return lastAttempt.containsKey(start) ? lastAttempt.get(start) + 1 : 0;
  }

  @Override
  public List<String> lastCommitFiles() throws IOException {
    Attempt done = lastDone;
    if (done == null || !done.hasIntent()) {
      return List.of();
    }
    Intent intent = markers.readIntent(done.start(), done.attempt());
    return intent == null ? List.of() : intent.files();
  }

  // ---------------------------------------------------------------------------------------------
  // Recovery

  /** Reads the markers; false while an unfinished commit must be waited for. */
  @Override
  public boolean recover() throws IOException {
    List<Attempt> attempts = markers.list();
    knownAttempts = new ArrayList<>(attempts);
    lastAttempt.clear();
    for (Attempt a : attempts) {
      lastAttempt.merge(a.start(), a.attempt(), Math::max);
    }
    rolledBack.retainAll(attempts);
    committedEnd = -1;
    lastDone = null;
    int i = attempts.size() - 1;
    for (; i >= 0; i--) {
      Attempt a = attempts.get(i);
      Outcome outcome;
      if (a.hasOutcome()) {
        outcome = readOutcome(a);
        if (outcome == null) {
          continue;
        }
      } else {
        outcome = settlePending(a);
        if (outcome == null) {
          return false;
        }
      }
      if (outcome.done()) {
        committedEnd = outcome.end();
        lastDone = a;
        i--;
        break;
      }
    }
    // Older than the newest done commit: only rolled-back attempts matter, however old, since a
    // zombie may make one of their files visible at any time after the rollback.
    for (; i >= 0; i--) {
      settleOvertaken(attempts.get(i));
    }
    pendingSince.keySet().retainAll(attempts);
    sweepRolledBack();
    return true;
  }

  /** The outcome of an attempt that has one (remembering a rollback); null if it vanished. */
  private Outcome readOutcome(Attempt a) throws IOException {
    if (rolledBack.contains(a)) {
      return new Outcome(false, a.start(), a.start(), a.attempt(), "");
    }
    Outcome outcome = markers.readOutcome(a.start(), a.attempt());
    if (outcome != null && !outcome.done() && a.hasIntent()) {
      Intent intent = markers.readIntent(a.start(), a.attempt());
      if (intent != null) {
        rolledBack.add(intent);
      }
    }
    return outcome;
  }

  /**
   * An attempt older than the newest done commit: a rollback is remembered. An intent without
   * outcome there is left alone: its writer was overtaken (another writer recovered past it) and
   * sees that when it lists the markers again after its intent, before any file (commit step 3), so
   * it never makes a file visible; its files' names may even be those of a done commit whose
   * markers were compacted, so they must not be deleted.
   */
  private void settleOvertaken(Attempt a) throws IOException {
    if (a.hasOutcome()) {
      readOutcome(a);
    }
  }

  /** Deletes the files of every rolled-back attempt again (a zombie may have made one visible). */
  private void sweepRolledBack() throws IOException {
    int deleted = rolledBack.sweep(store, clock.nanos());
    if (deleted > 0) {
      LOG.warn(
          "{} deleted {} files of rolled-back commits that appeared after their rollback "
              + "(a task that had lost this partition made them visible late)",
          log,
          deleted);
    }
  }

  /** While committing: sweeps rolled-back attempts at most once per commit timeout. */
  private void sweepRolledBackIfDue() {
    if (!rolledBack.sweepDue(clock.nanos(), TimeUnit.MILLISECONDS.toNanos(commitTimeoutMs))) {
      return;
    }
    try {
      sweepRolledBack();
    } catch (IOException | RuntimeException e) {
      // The next commit after another timeout, or the next recovery, tries again.
      LOG.warn("{} cannot delete the files of rolled-back commits now: {}", log, e.toString());
    }
  }

  /**
   * An intent without outcome: rolled forward if all its files are there, rolled back if it is this
   * task instance's own, or older than the commit timeout by the writer's clock, or seen unfinished
   * for the commit timeout by ours; else null (wait).
   */
  private Outcome settlePending(Attempt a) throws IOException {
    Intent intent = markers.readIntent(a.start(), a.attempt());
    if (intent == null) {
      return new Outcome(false, a.start(), a.start(), a.attempt(), writerId);
    }
    boolean complete = true;
    for (String file : intent.files()) {
      if (!store.exists(file)) {
        complete = false;
        break;
      }
    }
    if (complete) {
      Outcome outcome = markers.settle(done(intent));
      LOG.info(
          "{} rolled forward the unfinished commit of offsets {}-{} (attempt {}) by {}: "
              + "all {} files exist; outcome {}",
          log,
          intent.start(),
          intent.end(),
          intent.attempt(),
          intent.task(),
          intent.files().size(),
          outcome.done() ? "done" : "aborted");
      if (!outcome.done()) {
        rolledBack.add(intent);
        sweep(intent);
      }
      return outcome;
    }
    long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(commitTimeoutMs);
    long firstSeen = pendingSince.computeIfAbsent(a, k -> clock.nanos());
    boolean mine = intent.writer().equals(writerId);
    boolean seenLongEnough = clock.nanos() - firstSeen >= timeoutNanos;
    boolean oldByItsClock = clock.wallMillis() - intent.createdMillis() >= 2 * commitTimeoutMs;
    if (!mine && !seenLongEnough && !oldByItsClock) {
      LOG.info(
          "{} waiting for the unfinished commit of offsets {}-{} by {} to finish or time out",
          log,
          intent.start(),
          intent.end(),
          intent.task());
      return null;
    }
    Outcome outcome = markers.settle(aborted(intent));
    if (!outcome.done()) {
      rolledBack.add(intent);
      sweep(intent);
      LOG.warn(
          "{} rolled back the unfinished commit of offsets {}-{} (attempt {}) by {}",
          log,
          intent.start(),
          intent.end(),
          intent.attempt(),
          intent.task());
    }
    return outcome;
  }

  /** Deletes whatever an aborted commit made visible (idempotent). */
  private void sweep(Intent intent) throws IOException {
    for (String file : intent.files()) {
      store.delete(file);
    }
  }

  private Outcome done(Intent intent) {
    return new Outcome(true, intent.start(), intent.end(), intent.attempt(), writerId);
  }

  private Outcome aborted(Intent intent) {
    return new Outcome(false, intent.start(), intent.end(), intent.attempt(), writerId);
  }

  // ---------------------------------------------------------------------------------------------
  // Committing

  /**
   * Claims the attempt with an intent (after checking no later commit exists, and again after the
   * intent), makes each file visible, records the outcome {@code done}.
   */
  @Override
  public long commit(PendingCommit c) throws Fenced, IOException {
    claimed = null;
    List<Attempt> listed = markers.list();
    for (Attempt a : listed) {
      if (a.start() > c.start() || (a.start() == c.start() && a.attempt() >= c.attempt())) {
        throw new Fenced(
            "the store has a commit of offset "
                + a.start()
                + " (attempt "
                + a.attempt()
                + ") this task did not expect");
      }
    }
    List<String> keys = new ArrayList<>(c.files().size());
    for (DataFile file : c.files()) {
      keys.add(file.key());
    }
    Intent intent =
        new Intent(
            source.topic(),
            source.partition(),
            c.start(),
            c.end(),
            c.attempt(),
            c.records(),
            writerId,
            taskName,
            clock.wallMillis(),
            keys);
    long claimedAt = clock.nanos();
    if (!markers.createIntent(intent)) {
      throw new Fenced(
          "another writer claimed offsets from " + c.start() + " (attempt " + c.attempt() + ")");
    }
    faults.at(CrashPoints.AFTER_INTENT);
    // Listed again now that the intent holds the attempt: a writer that stalled between the
    // check above and its intent may have been overtaken meanwhile, by enough commits that
    // compaction deleted this attempt's markers (so the intent could be created again, and
    // its names may be those of a done commit). It publishes nothing and withdraws the intent,
    // without an outcome: no sweep may ever delete files under those names.
    for (Attempt a : markers.list()) {
      if (a.isAfter(c.start(), c.attempt())) {
        markers.deleteIntent(c.start(), c.attempt());
        throw new Fenced(
            "the store has a commit of offset "
                + a.start()
                + " (attempt "
                + a.attempt()
                + ") made after this task checked; withdrew its intent");
      }
    }
    claimed = c;
    long halfTimeout = TimeUnit.MILLISECONDS.toNanos(commitTimeoutMs) / 2;
    boolean first = true;
    for (DataFile file : c.files()) {
      if (clock.nanos() - claimedAt > halfTimeout) {
        throw new IOException(
            "the commit took longer than half of commit.timeout.ms ("
                + commitTimeoutMs
                + " ms): stopping so that a new owner may roll it back");
      }
      // Between the deadline check and the file's appearance a stalled writer can outlive its
      // commit: the window a later sweep of rolled-back attempts closes.
      faults.at(CrashPoints.BEFORE_FILE);
      file.publish();
      if (first) {
        faults.at(CrashPoints.MID_COMMIT);
        first = false;
      }
    }
    faults.at(CrashPoints.BEFORE_DONE);
    Outcome outcome = markers.settle(done(intent));
    if (!outcome.done()) {
      sweep(intent);
      throw new Fenced(
          "another writer rolled back this commit of offsets "
              + c.start()
              + "-"
              + c.end()
              + " while it was being made");
    }
    faults.at(CrashPoints.AFTER_DONE);
    // Done: nothing is left to roll back, whatever the housekeeping below meets.
    claimed = null;
    committed(c.start(), c.end(), c.attempt(), listed);
    return clock.nanos() - claimedAt;
  }

  private void committed(long start, long end, int attempt, List<Attempt> listed) {
    committedEnd = end;
    lastAttempt.merge(start, attempt, Math::max);
    knownAttempts = new ArrayList<>(listed);
    knownAttempts.add(new Attempt(start, attempt, true, true));
    compactMarkers();
    sweepRolledBackIfDue();
  }

  /**
   * Deletes the markers of all but the newest {@link #RETAINED_ATTEMPTS} attempts, except those of
   * rolled-back attempts: their intents say which files to sweep, however late they appear.
   */
  private void compactMarkers() {
    int excess = knownAttempts.size() - RETAINED_ATTEMPTS;
    if (excess <= 0) {
      return;
    }
    List<Attempt> old = new ArrayList<>(knownAttempts.subList(0, excess));
    try {
      for (Attempt a : old) {
        if (rolledBack.contains(a)) {
          continue;
        }
        markers.delete(a);
        knownAttempts.remove(a);
        lastAttempt.remove(a.start());
      }
    } catch (IOException e) {
      // Harmless: the next commit tries again, recovery reads only the newest markers.
      LOG.warn("{} cannot delete old commit markers: {}", log, e.toString());
    }
  }

  /** Settles a claimed attempt as aborted (or learns another writer completed it). */
  @Override
  public boolean abort(long start, int attempt) {
    PendingCommit mine = claimed;
    claimed = null;
    if (mine == null || mine.start() != start || mine.attempt() != attempt) {
      return false;
    }
    try {
      Intent intent = markers.readIntent(start, attempt);
      if (intent != null && intent.writer().equals(writerId)) {
        Outcome outcome = markers.settle(aborted(intent));
        if (outcome.done()) {
          // Another task instance saw every file and rolled the commit forward.
          committed(start, mine.end(), attempt, knownAttempts);
          return true;
        }
        rolledBack.add(intent);
        sweep(intent);
      }
    } catch (IOException | RuntimeException settleFailure) {
      // Recovery sees the intent (this writer's own) and rolls it back then.
      LOG.warn(
          "{} cannot roll back offsets {}-{} now ({}); recovery will",
          log,
          start,
          mine.end(),
          settleFailure.toString());
    }
    return false;
  }
}
