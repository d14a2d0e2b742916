package dev.parquetconnect.sink;

import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.sink.CommitMarkers.Intent;
import dev.parquetconnect.sink.CommitMarkers.Outcome;
import dev.parquetconnect.sink.Epoch.Place;
import dev.parquetconnect.sink.MarkerLog.Attempt;
import dev.parquetconnect.sink.ParquetSinkConfig.NullValueBehavior;
import dev.parquetconnect.sink.partition.HivePaths;
import dev.parquetconnect.sink.partition.PartitionColumn;
import dev.parquetconnect.storage.StoreInput;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.StoreOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a task does for one Kafka partition it consumes: recovering the committed offset
 * from the store, writing records into the files of the open commit ({@link Epoch}), rotating,
 * and committing with the marker protocol of docs/exactly-once.md.
 *
 * <p>States: <em>recovering</em> (paused at Connect, records dropped, until the markers say where
 * to resume) and <em>active</em>. Any failure of a commit or of the store discards the open
 * commit, rolls back what it made visible, and goes back to recovering, which rewinds the
 * consumer to the first offset not committed. Called from the task's thread only.
 */
final class TopicPartitionWriter {
  private static final Logger LOG = LoggerFactory.getLogger(TopicPartitionWriter.class);
  /** Newest commit attempts whose markers are kept; older ones are deleted after a commit. */
  static final int RETAINED_ATTEMPTS = 6;
  /** Store failures in a row (each followed by a rewind) before the task gives up. */
  static final int MAX_CONSECUTIVE_FAILURES = 5;
  private static final long MAX_BACKOFF_MS = 30_000;

  private final TopicPartition source;
  private final SinkRuntime rt;
  private final MarkerLog markers;
  private final String log;

  private boolean recovering = true;
  private boolean paused;
  /** Last offset of the newest done commit, -1 when there is none. */
  private long committedEnd = -1;
  /** The newest done commit as recovery found it, null when there is none. */
  private Attempt lastDone;
  /** Where to resume after recovery when the store knows no later point (a failed commit). */
  private long rewindTo = -1;
  /** The highest attempt seen per start offset (a retry of that start uses the next one). */
  private final Map<Long, Integer> lastAttempt = new HashMap<>();
  /** The markers as last listed, plus what this writer created since (for compaction). */
  private List<Attempt> knownAttempts = new ArrayList<>();
  /** Rolled-back attempts whose files a late zombie may still make visible. */
  private final RolledBackAttempts rolledBack = new RolledBackAttempts();
  /** When an unfinished commit of another writer was first seen (monotonic nanos). */
  private final Map<Attempt, Long> pendingSince = new HashMap<>();
  /** After a rewind, the rest of the current batch is stale: Connect seeks before the next. */
  private boolean dropRestOfBatch;
  private int consecutiveFailures;
  private long retryNotBeforeNanos;
  private Epoch epoch;
  /** The place of the previous record, reused while records keep going to the same one. */
  private Place lastPlace;

  TopicPartitionWriter(TopicPartition source, SinkRuntime runtime) {
    this.source = source;
    this.rt = runtime;
    this.markers = new MarkerLog(runtime.store(), runtime.keys(), source);
    this.log = "[" + runtime.taskName() + " " + source + "]";
  }

  TopicPartition source() {
    return source;
  }

  boolean recovering() {
    return recovering;
  }

  Epoch epoch() {
    return epoch;
  }

  /** The offset to commit to Kafka: after the newest done commit, or -1 for none yet. */
  long committedOffset() {
    return committedEnd < 0 ? -1 : committedEnd + 1;
  }

  /** A new batch begins: records after a rewind are current again. */
  void startBatch() {
    dropRestOfBatch = false;
  }

  // ---------------------------------------------------------------------------------------------
  // Recovery

  /**
   * Tries to learn from the store where this partition resumes, settling any unfinished commit.
   * On success the consumer is sought there and resumed; while another writer's commit is still
   * unfinished (and not yet timed out) or the store fails, the partition stays paused and the
   * task tries again on its next call.
   */
  void recover() {
    if (!recovering || rt.clock().nanos() - retryNotBeforeNanos < 0) {
      return;
    }
    boolean settled;
    try {
      settled = settleMarkers();
    } catch (IOException | RuntimeException e) {
      onStoreFailure("recovering from the commit markers", e);
      pause();
      return;
    }
    if (!settled) {
      pause();
      return;
    }
    recovering = false;
    learnFromLastCommit();
    // After the newest done commit; with none, where the failed commit began (-1: nothing was
    // ever written, the consumer's own position is right).
    long resumeAt = committedEnd >= 0 ? committedEnd + 1 : rewindTo;
    rewindTo = -1;
    if (resumeAt >= 0) {
      rt.context().offset(source, resumeAt);
      dropRestOfBatch = true;
    }
    LOG.info("{} recovered: last committed offset {}, resuming at {}", log,
        committedEnd < 0 ? "none" : committedEnd,
        resumeAt < 0 ? "the consumer's position" : resumeAt);
    resume();
  }

  /**
   * Gives the format the footers of the newest done commit's files, so the schemas learned
   * before a restart or rebalance are where new files start again. Best effort: a file that
   * cannot be read only means the schema is learned again from the records.
   */
  private void learnFromLastCommit() {
    Attempt done = lastDone;
    if (done == null || !done.hasIntent()) {
      return;
    }
    try {
      Intent intent = markers.readIntent(done.start(), done.attempt());
      if (intent == null) {
        return;
      }
      for (String file : intent.files()) {
        StoreInput in = rt.store().open(file);
        ParquetFileReader reader;
        try {
          reader = ParquetFileReader.open(in);
        } catch (IOException | ParquetException | RuntimeException e) {
          in.close(); // the reader owns its input only once open
          throw e;
        }
        try (reader) {
          rt.writers().learnFromFooter(source.topic(),
              ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
        }
      }
    } catch (IOException | ParquetException | RuntimeException e) {
      LOG.info("{} cannot read the schemas of the last commit's files ({}); new files learn "
          + "them from the records", log, e.toString());
    }
  }

  /** Reads the markers; false while an unfinished commit must be waited for. */
  private boolean settleMarkers() throws IOException {
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
   * sees that when it lists the markers again after its intent, before any file (commit step 3),
   * so it never makes a file visible; its files' names may even be those of a done commit whose
   * markers were compacted, so they must not be deleted.
   */
  private void settleOvertaken(Attempt a) throws IOException {
    if (a.hasOutcome()) {
      readOutcome(a);
    }
  }

  /** Deletes the files of every rolled-back attempt again (a zombie may have made one visible). */
  private void sweepRolledBack() throws IOException {
    int deleted = rolledBack.sweep(rt.store(), rt.clock().nanos());
    if (deleted > 0) {
      LOG.warn("{} deleted {} files of rolled-back commits that appeared after their rollback "
          + "(a task that had lost this partition made them visible late)", log, deleted);
    }
  }

  /** While committing: sweeps rolled-back attempts at most once per commit timeout. */
  private void sweepRolledBackIfDue() {
    if (!rolledBack.sweepDue(rt.clock().nanos(),
        TimeUnit.MILLISECONDS.toNanos(rt.commitTimeoutMs()))) {
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
   * An intent without outcome: rolled forward if all its files are there, rolled back if it is
   * this task instance's own, or older than the commit timeout by the writer's clock, or seen
   * unfinished for the commit timeout by ours; else null (wait).
   */
  private Outcome settlePending(Attempt a) throws IOException {
    Intent intent = markers.readIntent(a.start(), a.attempt());
    if (intent == null) {
      return new Outcome(false, a.start(), a.start(), a.attempt(), rt.writerId());
    }
    boolean complete = true;
    for (String file : intent.files()) {
      if (!rt.store().exists(file)) {
        complete = false;
        break;
      }
    }
    if (complete) {
      Outcome outcome = markers.settle(done(intent));
      LOG.info("{} rolled forward the unfinished commit of offsets {}-{} (attempt {}) by {}: "
          + "all {} files exist; outcome {}", log, intent.start(), intent.end(), intent.attempt(),
          intent.task(), intent.files().size(), outcome.done() ? "done" : "aborted");
      if (!outcome.done()) {
        rolledBack.add(intent);
        sweep(intent);
      }
      return outcome;
    }
    long timeoutNanos = TimeUnit.MILLISECONDS.toNanos(rt.commitTimeoutMs());
    long firstSeen = pendingSince.computeIfAbsent(a, k -> rt.clock().nanos());
    boolean mine = intent.writer().equals(rt.writerId());
    boolean seenLongEnough = rt.clock().nanos() - firstSeen >= timeoutNanos;
    boolean oldByItsClock =
        rt.clock().wallMillis() - intent.createdMillis() >= 2 * rt.commitTimeoutMs();
    if (!mine && !seenLongEnough && !oldByItsClock) {
      LOG.info("{} waiting for the unfinished commit of offsets {}-{} by {} to finish or time out",
          log, intent.start(), intent.end(), intent.task());
      return null;
    }
    Outcome outcome = markers.settle(aborted(intent));
    if (!outcome.done()) {
      rolledBack.add(intent);
      sweep(intent);
      LOG.warn("{} rolled back the unfinished commit of offsets {}-{} (attempt {}) by {}", log,
          intent.start(), intent.end(), intent.attempt(), intent.task());
    }
    return outcome;
  }

  /** Deletes whatever an aborted commit made visible (idempotent). */
  private void sweep(Intent intent) throws IOException {
    for (String file : intent.files()) {
      rt.store().delete(file);
    }
  }

  private Outcome done(Intent intent) {
    return new Outcome(true, intent.start(), intent.end(), intent.attempt(), rt.writerId());
  }

  private Outcome aborted(Intent intent) {
    return new Outcome(false, intent.start(), intent.end(), intent.attempt(), rt.writerId());
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  /** Writes one record of this partition (or drops it when stale), rotating as configured. */
  void write(SinkRecord record) {
    long offset = record.originalKafkaOffset();
    if (recovering || dropRestOfBatch || offset <= committedEnd
        || (epoch != null && offset <= epoch.end())) {
      return;
    }
    boolean skip = record.value() == null && rt.nullValues() == NullValueBehavior.IGNORE;
    Place place;
    long time;
    try {
      if (record.value() == null && rt.nullValues() == NullValueBehavior.FAIL) {
        throw new DataException("the record has a null value (a tombstone) and "
            + ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG + "=fail");
      }
      time = rt.rotation().intervalMs() > 0 ? rt.recordTime().of(record) : 0;
      place = skip ? null : place(record.topic(), rt.partitioner().partition(record));
    } catch (DataException e) {
      badRecord(record, e);
      return;
    }
    if (epoch != null && rt.rotation().intervalMs() > 0
        && epoch.firstRecordTime() != Long.MIN_VALUE
        && time - epoch.firstRecordTime() >= rt.rotation().intervalMs()) {
      if (!commit("rotate.interval.ms")) {
        return;
      }
    }
    if (skip) {
      openEpochIfNone(offset).read(offset, time, false);
      afterRecord(null);
      return;
    }
    OpenFile file = epoch == null ? null : epoch.file(place);
    if (file == null && epoch != null) {
      file = fileInSameDirectory(epoch, place);
    }
    RecordFileWriter predecessor = null;
    try {
      if (file != null && !file.writer().accepts(record)) {
        predecessor = file.writer();
        if (!commit("schema change")) {
          return;
        }
        file = null;
      }
    } catch (DataException e) {
      badRecord(record, e);
      return;
    }
    Epoch current = openEpochIfNone(offset);
    boolean created = false;
    try {
      if (file == null) {
        file = startFile(current, place, record, predecessor);
        if (file == null) {
          return;
        }
        created = true;
      }
      file.writer().write(record);
    } catch (DataException e) {
      if (created && file.writer().recordCount() == 0) {
        current.remove(place, file);
        rt.budget().release(file);
        file.abortQuietly();
      }
      badRecord(record, e);
      return;
    } catch (IOException | UncheckedIOException e) {
      fail("writing offset " + offset, e);
      return;
    }
    current.read(offset, time, true);
    rt.budget().update(file);
    rt.faults().at("put");
    afterRecord(file);
  }

  /**
   * The place of a record: the previous record's when topic and partition columns are the same
   * (the columns by identity, as partitioners that cache them return them), so the open file's
   * lookup in {@link Epoch#file} finds it without hashing.
   */
  private Place place(String topic, List<PartitionColumn> columns) {
    Place last = lastPlace;
    if (last != null && last.columns() == columns && last.topic().equals(topic)) {
      return last;
    }
    lastPlace = new Place(topic, columns);
    return lastPlace;
  }

  /**
   * The open file of another place whose columns name the same directory as {@code place}'s, or
   * null. Different columns can: null and "" are both the default partition (and values past the
   * cap share a directory when their hashes do). They must share its file: a second file of the
   * commit would get the same key and replace the first, whose records would be lost although
   * their offsets are committed.
   */
  private OpenFile fileInSameDirectory(Epoch current, Place place) {
    String dir;
    try {
      dir = rt.keys().dataDir(place.topic(), HivePaths.path(place.columns()));
    } catch (IllegalArgumentException e) {
      return null; // startFile makes it the record's error
    }
    OpenFile file = current.fileIn(dir);
    if (file != null) {
      current.alias(place, file);
    }
    return file;
  }

  private Epoch openEpochIfNone(long offset) {
    if (epoch == null) {
      int attempt = lastAttempt.containsKey(offset) ? lastAttempt.get(offset) + 1 : 0;
      long now = rt.clock().wallMillis();
      epoch = new Epoch(offset, attempt, now, rt.rotation().scheduleDeadline(now));
    }
    return epoch;
  }

  /** A new file of the open commit for {@code first}; null if the record was refused. */
  private OpenFile startFile(Epoch current, Place place, SinkRecord first,
      RecordFileWriter predecessor) throws IOException {
    String dir;
    String key;
    try {
      dir = rt.keys().dataDir(place.topic(), HivePaths.path(place.columns()));
      key = rt.keys().check(StoreKeys.join(dir,
          SinkKeys.dataName(source, current.start(), SinkKeys.OPEN, current.attempt())));
      // Every final name has this length (offsets are printed with 20 digits) and only digits
      // differ: if this one passes, the name given at the commit will too.
      rt.keys().check(StoreKeys.join(dir,
          SinkKeys.dataName(source, current.start(), Long.MAX_VALUE, current.attempt())));
    } catch (IllegalArgumentException e) {
      // The store's key rules refused the path (e.g. too long in total): a property of the
      // record, so it is the record's error.
      badRecord(first, new DataException("its partition directory cannot be stored: "
          + e.getMessage(), e));
      return null;
    }
    StoreOutput output = new DeferredOutput(rt.store(), key);
    OpenFile file = new OpenFile(key, dir, output);
    try {
      file.writer(rt.writers().create(output, first, predecessor));
    } catch (IOException | RuntimeException e) {
      file.abortQuietly();
      throw e;
    }
    current.add(place, file);
    return file;
  }

  /** Commits when a count or size limit is reached by the record just read. */
  private void afterRecord(OpenFile file) {
    if (epoch == null) {
      return;
    }
    if (epoch.offsetsRead() >= rt.rotation().flushSize()) {
      commit("flush.size");
    } else if (file != null && file.fileBytes() >= rt.rotation().fileMaxBytes()) {
      commit("file.max.bytes");
    }
  }

  private void badRecord(SinkRecord record, RuntimeException error) {
    Future<Void> delivery = rt.errors().report(record, error);
    rt.metrics().errantRecord(delivery != null);
    Epoch current = openEpochIfNone(record.originalKafkaOffset());
    current.read(record.originalKafkaOffset(), 0, false);
    if (delivery != null) {
      current.deadLettered(delivery);
    }
    afterRecord(null);
  }

  /** Commits the open files when the wall-clock schedule says so. */
  void commitIfScheduled() {
    if (epoch != null && !recovering && rt.clock().wallMillis() >= epoch.scheduleDeadline()) {
      commit("rotate.schedule.interval.ms");
    }
  }

  /** Writes the buffered rows of {@code file} out as a row group (memory pressure). */
  void flushRowGroup(OpenFile file) {
    try {
      file.writer().flushRowGroup();
      rt.budget().update(file);
    } catch (IOException | UncheckedIOException e) {
      fail("flushing a row group of " + file.key(), e);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Committing

  /**
   * Commits the open files: finish them, claim the attempt with an intent, make each visible,
   * record the outcome. Returns false when the commit failed and the partition went back to
   * recovering (the caller must not write further records of this batch).
   */
  boolean commit(String reason) {
    Epoch e = epoch;
    if (e == null || recovering) {
      return !recovering;
    }
    boolean claimed = false;
    try {
      for (OpenFile file : e.files()) {
        file.writer().finish();
        rt.budget().update(file);
      }
      rt.faults().at("before-intent");
      ErrantRecords.await(e.deadLettered());
      // The end offset is known now: every file is committed under its full name, which the
      // intent lists, so that recovery finds (or deletes) exactly what this commit made visible.
      String name = SinkKeys.dataName(source, e.start(), e.end(), e.attempt());
      List<String> finalKeys = new ArrayList<>(e.files().size());
      for (OpenFile file : e.files()) {
        file.finalKey(StoreKeys.join(file.directory(), name));
        finalKeys.add(file.finalKey());
      }
      List<Attempt> listed = markers.list();
      for (Attempt a : listed) {
        if (a.start() > e.start() || (a.start() == e.start() && a.attempt() >= e.attempt())) {
          throw new Fenced("the store has a commit of offset " + a.start() + " (attempt "
              + a.attempt() + ") this task did not expect");
        }
      }
      Intent intent = new Intent(source.topic(), source.partition(), e.start(), e.end(),
          e.attempt(), e.recordsWritten(), rt.writerId(), rt.taskName(), rt.clock().wallMillis(),
          finalKeys);
      long claimedAt = rt.clock().nanos();
      if (!markers.createIntent(intent)) {
        throw new Fenced("another writer claimed offsets from " + e.start() + " (attempt "
            + e.attempt() + ")");
      }
      rt.faults().at("after-intent");
      // Listed again now that the intent holds the attempt: a writer that stalled between the
      // check above and its intent may have been overtaken meanwhile, by enough commits that
      // compaction deleted this attempt's markers (so the intent could be created again, and
      // its names may be those of a done commit). It publishes nothing and withdraws the intent,
      // without an outcome: no sweep may ever delete files under those names.
      for (Attempt a : markers.list()) {
        if (a.isAfter(e.start(), e.attempt())) {
          markers.deleteIntent(e.start(), e.attempt());
          throw new Fenced("the store has a commit of offset " + a.start() + " (attempt "
              + a.attempt() + ") made after this task checked; withdrew its intent");
        }
      }
      claimed = true;
      long halfTimeout = TimeUnit.MILLISECONDS.toNanos(rt.commitTimeoutMs()) / 2;
      boolean first = true;
      for (OpenFile file : e.files()) {
        if (rt.clock().nanos() - claimedAt > halfTimeout) {
          throw new IOException("the commit took longer than half of commit.timeout.ms ("
              + rt.commitTimeoutMs() + " ms): stopping so that a new owner may roll it back");
        }
        // Between the deadline check and the file's appearance a stalled writer can outlive its
        // commit: the window a later sweep of rolled-back attempts closes.
        rt.faults().at("before-file");
        file.output().commitAs(file.finalKey());
        rt.budget().release(file);
        if (first) {
          rt.faults().at("mid-commit");
          first = false;
        }
      }
      rt.faults().at("before-done");
      Outcome outcome = markers.settle(done(intent));
      if (!outcome.done()) {
        sweep(intent);
        throw new Fenced("another writer rolled back this commit of offsets " + e.start() + "-"
            + e.end() + " while it was being made");
      }
      rt.faults().at("after-done");
      committed(e, listed);
      long tookNanos = rt.clock().nanos() - claimedAt;
      rt.metrics().committed(reason, e.recordsWritten(), e.files(), tookNanos);
      long tookMs = TimeUnit.NANOSECONDS.toMillis(tookNanos);
      LOG.info("{} committed offsets {}-{} ({} records, {} files; {}) in {} ms{}", log, e.start(),
          e.end(), e.recordsWritten(), e.files().size(), reason, tookMs, inPlace(e));
      LOG.debug("{} committed files {}", log, finalKeys);
      if (tookMs > rt.commitTimeoutMs() / 4) {
        LOG.warn("{} making {} files visible took {} ms, more than a quarter of "
            + "commit.timeout.ms ({} ms): at half of it commits are rolled back; raise it",
            log, e.files().size(), tookMs, rt.commitTimeoutMs());
      }
      return true;
    } catch (Fenced fenced) {
      LOG.warn("{} fenced: {}; discarding the open commit and recovering", log,
          fenced.getMessage());
      rt.metrics().commitFailed();
      discard(e, claimed);
      return false;
    } catch (FaultInjector.InjectedFault injected) {
      throw injected;
    } catch (IOException | RuntimeException failure) {
      rt.metrics().commitFailed();
      fail("committing offsets " + e.start() + "-" + e.end() + " (" + reason + ")", failure,
          claimed);
      return false;
    }
  }

  /** For the commit's log line: the schema changes its files took in place, if any. */
  private static String inPlace(Epoch e) {
    int reshapes = 0;
    for (OpenFile file : e.files()) {
      reshapes += file.writer().reshapes();
    }
    return reshapes == 0 ? "" : "; " + reshapes + " schema changes made in place";
  }

  private void committed(Epoch e, List<Attempt> listed) {
    committedEnd = e.end();
    lastAttempt.merge(e.start(), e.attempt(), Math::max);
    epoch = null;
    consecutiveFailures = 0;
    knownAttempts = new ArrayList<>(listed);
    knownAttempts.add(new Attempt(e.start(), e.attempt(), true, true));
    compactMarkers();
    sweepRolledBackIfDue();
  }

  /**
   * Deletes the markers of all but the newest {@link #RETAINED_ATTEMPTS} attempts, except those
   * of rolled-back attempts: their intents say which files to sweep, however late they appear.
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

  /**
   * The failure path: discard the open commit (rolling back what it made visible if this writer
   * claimed it), then recover from the store, rewinding to the first offset not committed.
   */
  private void fail(String what, Exception cause) {
    fail(what, cause, false);
  }

  private void fail(String what, Exception cause, boolean claimed) {
    consecutiveFailures++;
    LOG.error("{} {} failed ({} in a row): {}", log, what, consecutiveFailures, cause.toString(),
        cause);
    if (consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
      throw new ConnectException(log + " " + what + " failed " + consecutiveFailures
          + " times in a row; last: " + cause.getMessage(), cause);
    }
    retryNotBeforeNanos = rt.clock().nanos()
        + TimeUnit.MILLISECONDS.toNanos(Math.min(MAX_BACKOFF_MS, 1000L << consecutiveFailures));
    if (epoch != null) {
      discard(epoch, claimed);
    } else {
      goRecovering(-1);
    }
  }

  private void onStoreFailure(String what, Exception cause) {
    consecutiveFailures++;
    LOG.error("{} {} failed ({} in a row): {}", log, what, consecutiveFailures, cause.toString());
    if (consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
      throw new ConnectException(log + " " + what + " failed " + consecutiveFailures
          + " times in a row; last: " + cause.getMessage(), cause);
    }
    retryNotBeforeNanos = rt.clock().nanos()
        + TimeUnit.MILLISECONDS.toNanos(Math.min(MAX_BACKOFF_MS, 1000L << consecutiveFailures));
  }

  /** Drops the open commit; if it was claimed, settles it as aborted (or learns it is done). */
  private void discard(Epoch e, boolean claimed) {
    for (OpenFile file : e.files()) {
      rt.budget().release(file);
      if (!file.output().committed()) {
        file.abortQuietly();
      }
    }
    epoch = null;
    if (claimed) {
      try {
        Intent intent = markers.readIntent(e.start(), e.attempt());
        if (intent != null && intent.writer().equals(rt.writerId())) {
          Outcome outcome = markers.settle(aborted(intent));
          if (outcome.done()) {
            // Another task instance saw every file and rolled the commit forward.
            committed(e, knownAttempts);
            LOG.info("{} the commit of offsets {}-{} was completed by another writer", log,
                e.start(), e.end());
            return;
          }
          rolledBack.add(intent);
          sweep(intent);
        }
      } catch (IOException | RuntimeException settleFailure) {
        // Recovery sees the intent (this writer's own) and rolls it back then.
        LOG.warn("{} cannot roll back offsets {}-{} now ({}); recovery will", log, e.start(),
            e.end(), settleFailure.toString());
      }
    }
    goRecovering(e.start());
  }

  private void goRecovering(long resumeAt) {
    recovering = true;
    if (resumeAt >= 0) {
      rewindTo = rewindTo < 0 ? resumeAt : Math.min(rewindTo, resumeAt);
    }
    recover();
  }

  /** Discards the open commit without committing (partition revoked, task stopped). */
  void close() {
    if (epoch != null) {
      for (OpenFile file : epoch.files()) {
        rt.budget().release(file);
        file.abortQuietly();
      }
      LOG.info("{} closed with offsets {}-{} uncommitted (they will be read again)", log,
          epoch.start(), epoch.end());
      epoch = null;
    }
  }

  private void pause() {
    if (!paused) {
      rt.context().pause(source);
      paused = true;
    }
  }

  private void resume() {
    if (paused) {
      rt.context().resume(source);
      paused = false;
    }
  }

  /** A sign that another writer owns this partition now. */
  private static final class Fenced extends Exception {
    Fenced(String message) {
      super(message);
    }
  }
}
