package dev.parquetconnect.sink;

import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.connect.StagedRow;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.sink.Epoch.Place;
import dev.parquetconnect.sink.ParquetSinkConfig.NullValueBehavior;
import dev.parquetconnect.sink.commit.CommitProtocol;
import dev.parquetconnect.sink.commit.CommitProtocol.Fenced;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.FaultInjector;
import dev.parquetconnect.sink.partition.PartitionColumn;
import dev.parquetconnect.sink.partition.StagedRouting;
import dev.parquetconnect.storage.StoreInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a task does for one Kafka partition it consumes: routing each record to the file of
 * its partition directory in the open commit ({@link Epoch}), opening files ({@link FileOpener}),
 * rotating, and committing through the partition's {@link CommitProtocol} (the marker protocol of
 * docs/exactly-once.md on a file store). {@link StoreFailures} counts failures and backs off.
 *
 * <p>States: <em>recovering</em> (paused at Connect, records dropped, until the protocol says where
 * to resume) and <em>active</em>. Any failure of a commit or of the store discards the open commit,
 * has the protocol roll back what it made visible, and goes back to recovering, which rewinds the
 * consumer to the first offset not committed. Called from the task's thread only.
 */
final class TopicPartitionWriter {
  private static final Logger LOG = LoggerFactory.getLogger(TopicPartitionWriter.class);
  private final TopicPartition source;
  private final SinkRuntime rt;
  private final CommitProtocol protocol;
  private final String log;
  private final FileOpener files;
  private final StoreFailures failures;

  private boolean recovering = true;
  private boolean paused;

  /** Where to resume after recovery when the store knows no later point (a failed commit). */
  private long rewindTo = -1;

  /** After a rewind, the rest of the current batch is stale: Connect seeks before the next. */
  private boolean dropRestOfBatch;

  private Epoch epoch;

  /**
   * Whether raw JSON values may be written without a Connect value ({@link #writeStaged}): only
   * where the partitioner does not read the value or routes staged rows itself ({@link
   * StagedRouting}: table mode), and the record time does not read it.
   */
  private final boolean stagesJson;

  /** The partitioner when it routes staged rows from their leaves, else null. */
  private final StagedRouting stagedRouting;

  TopicPartitionWriter(TopicPartition source, SinkRuntime runtime) {
    this.source = source;
    this.rt = runtime;
    this.log = "[" + runtime.taskName() + " " + source + "]";
    this.protocol = runtime.commits().open(source, log);
    this.files = new FileOpener(source, runtime);
    this.failures = new StoreFailures(log, runtime.clock());
    this.stagedRouting = runtime.partitioner() instanceof StagedRouting routing ? routing : null;
    this.stagesJson =
        runtime.jsonInput() != null
            && runtime.jsonInput().stagesValues()
            && (stagedRouting != null || !runtime.partitioner().readsValue())
            && !(runtime.rotation().intervalMs() > 0 && runtime.recordTime().readsValue());
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
    long committedEnd = protocol.lastCommitted();
    return committedEnd < 0 ? -1 : committedEnd + 1;
  }

  /** A new batch begins: records after a rewind are current again. */
  void startBatch() {
    dropRestOfBatch = false;
  }

  // ---------------------------------------------------------------------------------------------
  // Recovery

  /**
   * Tries to learn from the store where this partition resumes, settling any unfinished commit. On
   * success the consumer is sought there and resumed; while another writer's commit is still
   * unfinished (and not yet timed out) or the store fails, the partition stays paused and the task
   * tries again on its next call.
   */
  void recover() {
    if (!recovering || failures.backingOff()) {
      return;
    }
    boolean settled;
    try {
      settled = protocol.recover();
    } catch (IOException | RuntimeException e) {
      failures.recoveryFailed("recovering from the commit markers", e);
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
    long committedEnd = protocol.lastCommitted();
    long resumeAt = committedEnd >= 0 ? committedEnd + 1 : rewindTo;
    rewindTo = -1;
    if (resumeAt >= 0) {
      rt.context().offset(source, resumeAt);
      dropRestOfBatch = true;
    }
    LOG.info(
        "{} recovered: last committed offset {}, resuming at {}",
        log,
        committedEnd < 0 ? "none" : committedEnd,
        resumeAt < 0 ? "the consumer's position" : resumeAt);
    resume();
  }

  /**
   * Gives the format the footers of the newest done commit's files, so the schemas learned before a
   * restart or rebalance are where new files start again. Best effort: a file that cannot be read
   * only means the schema is learned again from the records.
   */
  private void learnFromLastCommit() {
    try {
      for (String file : protocol.lastCommitFiles()) {
        StoreInput in = rt.store().open(file);
        ParquetFileReader reader;
        try {
          reader = ParquetFileReader.open(in);
        } catch (IOException | ParquetException | RuntimeException e) {
          in.close(); // the reader owns its input only once open
          throw e;
        }
        try (reader) {
          rt.writers()
              .learnFromFooter(
                  source.topic(),
                  ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
        }
      }
    } catch (IOException | ParquetException | RuntimeException e) {
      LOG.info(
          "{} cannot read the schemas of the last commit's files ({}); new files learn "
              + "them from the records",
          log,
          e.toString());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Writing

  /** Writes one record of this partition (or drops it when stale), rotating as configured. */
  void write(SinkRecord record) {
    long offset = record.originalKafkaOffset();
    if (recovering
        || dropRestOfBatch
        || offset <= protocol.lastCommitted()
        || (epoch != null && offset <= epoch.end())) {
      return;
    }
    if (rt.jsonInput() != null) {
      if (stagesJson && writeStaged(record, offset)) {
        return;
      }
      try {
        record = rt.jsonInput().decode(record);
      } catch (DataException e) {
        badRecord(record, e);
        return;
      }
    }
    boolean skip = record.value() == null && rt.nullValues() == NullValueBehavior.IGNORE;
    Place place;
    long time;
    try {
      if (record.value() == null && rt.nullValues() == NullValueBehavior.FAIL) {
        throw new DataException(
            "the record has a null value (a tombstone) and "
                + ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG
                + "=fail");
      }
      time = rt.rotation().intervalMs() > 0 ? rt.recordTime().of(record) : 0;
      place = skip ? null : files.place(record.topic(), rt.partitioner().partition(record));
    } catch (DataException e) {
      badRecord(record, e);
      return;
    }
    if (epoch != null
        && rt.rotation().intervalMs() > 0
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
    OpenFile file = epoch == null ? null : files.find(epoch, place);
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
        try {
          file = files.open(current, place, record, predecessor);
        } catch (FileOpener.UnstorableDirectory e) {
          badRecord(record, e);
          return;
        }
        created = true;
      }
      file.writer().write(record);
    } catch (DataException e) {
      if (created && file.writer().recordCount() == 0) {
        files.dropUnwritten(current, place, file);
      }
      badRecord(record, e);
      return;
    } catch (IOException | UncheckedIOException e) {
      fail("writing offset " + offset, e);
      return;
    }
    current.read(offset, time, true);
    rt.budget().update(file);
    rt.faults().at(CrashPoints.PUT);
    afterRecord(file);
  }

  /**
   * {@code input.format=json}, the common case: the record's raw JSON read straight into a {@link
   * StagedRow} and appended to the open file of its place, with no Connect value in between. True
   * when the record is done (written, or a bad record of its key, headers or metadata); false, with
   * nothing written or decided, when it must go the way of a decoded record: the JSON is not of the
   * common shape, no file of its schema is open, a commit is due first.
   */
  private boolean writeStaged(SinkRecord raw, long offset) {
    if (epoch == null) {
      return false;
    }
    StagedRow row = rt.jsonInput().stage(raw.value());
    if (row == null) {
      return false;
    }
    SinkRecord record = rt.jsonInput().withDecodedKey(raw);
    if (record == null) {
      return false;
    }
    long time;
    OpenFile file;
    try {
      time = rt.rotation().intervalMs() > 0 ? rt.recordTime().of(record) : 0;
      if (rt.rotation().intervalMs() > 0
          && epoch.firstRecordTime() != Long.MIN_VALUE
          && time - epoch.firstRecordTime() >= rt.rotation().intervalMs()) {
        return false;
      }
      List<PartitionColumn> columns =
          stagedRouting != null
              ? stagedRouting.partition(record, row)
              : rt.partitioner().partition(record);
      if (columns == null) {
        return false;
      }
      file = files.find(epoch, files.place(record.topic(), columns));
    } catch (DataException e) {
      return false; // the decoded record's way names it as before
    }
    try {
      if (file == null || !file.writer().writeStaged(record, row)) {
        return false;
      }
    } catch (DataException e) {
      badRecord(raw, e);
      return true;
    } catch (IOException | UncheckedIOException e) {
      fail("writing offset " + offset, e);
      return true;
    }
    rt.jsonInput().countStaged();
    epoch.read(offset, time, true);
    rt.budget().update(file);
    rt.faults().at(CrashPoints.PUT);
    afterRecord(file);
    return true;
  }

  private Epoch openEpochIfNone(long offset) {
    if (epoch == null) {
      long now = rt.clock().wallMillis();
      epoch =
          new Epoch(offset, protocol.attemptAt(offset), now, rt.rotation().scheduleDeadline(now));
    }
    return epoch;
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

  /**
   * Milliseconds from {@code now} until the schedule commits the open files, or {@link
   * Long#MAX_VALUE} when nothing is open (or the schedule is off).
   */
  long untilScheduledCommit(long now) {
    if (epoch == null || recovering || epoch.scheduleDeadline() == Long.MAX_VALUE) {
      return Long.MAX_VALUE;
    }
    return Math.max(1, epoch.scheduleDeadline() - now);
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
   * Commits the open files: finishes them and hands them, under their final names, to the protocol.
   * Returns false when the commit failed and the partition went back to recovering (the caller must
   * not write further records of this batch).
   */
  boolean commit(String reason) {
    Epoch e = epoch;
    if (e == null || recovering) {
      return !recovering;
    }
    try {
      for (OpenFile file : e.files()) {
        file.writer().finish();
        rt.budget().update(file);
      }
      rt.faults().at(CrashPoints.BEFORE_INTENT);
      ErrantRecords.await(e.deadLettered());
      long tookNanos = protocol.commit(files.named(e));
      epoch = null;
      failures.reset();
      reportCommitted(e, reason, tookNanos);
      return true;
    } catch (Fenced fenced) {
      LOG.warn(
          "{} fenced: {}; discarding the open commit and recovering", log, fenced.getMessage());
      rt.metrics().commitFailed();
      discard(e);
      return false;
    } catch (FaultInjector.InjectedFault injected) {
      throw injected;
    } catch (IOException | RuntimeException failure) {
      rt.metrics().commitFailed();
      fail("committing offsets " + e.start() + "-" + e.end() + " (" + reason + ")", failure);
      return false;
    }
  }

  private void reportCommitted(Epoch e, String reason, long tookNanos) {
    rt.metrics().committed(reason, e.recordsWritten(), e.files(), tookNanos);
    long tookMs = TimeUnit.NANOSECONDS.toMillis(tookNanos);
    LOG.info(
        "{} committed offsets {}-{} ({} records, {} files; {}) in {} ms{}",
        log,
        e.start(),
        e.end(),
        e.recordsWritten(),
        e.files().size(),
        reason,
        tookMs,
        inPlace(e));
    if (LOG.isDebugEnabled()) {
      List<String> finalKeys = new ArrayList<>(e.files().size());
      for (OpenFile file : e.files()) {
        finalKeys.add(file.finalKey());
      }
      LOG.debug("{} committed files {}", log, finalKeys);
    }
    if (tookMs > rt.commitTimeoutMs() / 4) {
      LOG.warn(
          "{} making {} files visible took {} ms, more than a quarter of "
              + "commit.timeout.ms ({} ms): at half of it commits are rolled back; raise it",
          log,
          e.files().size(),
          tookMs,
          rt.commitTimeoutMs());
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

  /**
   * The failure path: discard the open commit (the protocol rolls back what it made visible), then
   * recover from the store, rewinding to the first offset not committed.
   */
  private void fail(String what, Exception cause) {
    failures.writeFailed(what, cause);
    if (epoch != null) {
      discard(epoch);
    } else {
      goRecovering(-1);
    }
  }

  /** Drops the open commit; the protocol aborts what it claimed (or learns it is done). */
  private void discard(Epoch e) {
    for (OpenFile file : e.files()) {
      rt.budget().release(file);
      if (!file.output().committed()) {
        file.abortQuietly();
      }
    }
    epoch = null;
    if (protocol.abort(e.start(), e.attempt())) {
      // Another task instance saw every file and rolled the commit forward.
      failures.reset();
      LOG.info(
          "{} the commit of offsets {}-{} was completed by another writer",
          log,
          e.start(),
          e.end());
      return;
    }
    goRecovering(e.start());
  }

  private void goRecovering(long resumeAt) {
    recovering = true;
    // Ranges the protocol accepted but the table does not hold yet are read again when the
    // table holds nothing of this partition.
    long unconfirmed = protocol.unconfirmedFrom();
    if (unconfirmed >= 0) {
      resumeAt = resumeAt < 0 ? unconfirmed : Math.min(resumeAt, unconfirmed);
    }
    if (resumeAt >= 0) {
      rewindTo = rewindTo < 0 ? resumeAt : Math.min(rewindTo, resumeAt);
    }
    recover();
  }

  /**
   * Goes back to recovering when the protocol refused a range it had accepted ({@link
   * CommitProtocol#lost}): the open commit is discarded, and the partition resumes after what the
   * table holds.
   */
  void checkLost() {
    if (recovering || !protocol.lost()) {
      return;
    }
    LOG.warn("{} a staged range was refused or withdrawn; recovering from the table", log);
    rt.metrics().commitFailed();
    if (epoch != null) {
      discard(epoch);
    } else {
      goRecovering(-1);
    }
  }

  /** Discards the open commit without committing (partition revoked, task stopped). */
  void close() {
    protocol.release();
    if (epoch != null) {
      for (OpenFile file : epoch.files()) {
        rt.budget().release(file);
        file.abortQuietly();
      }
      LOG.info(
          "{} closed with offsets {}-{} uncommitted (they will be read again)",
          log,
          epoch.start(),
          epoch.end());
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
}
