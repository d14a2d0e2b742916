package dev.parquetconnect.source;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.storage.StoreFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replay mode: the files of one original topic-partition, replayed in offset order.
 *
 * <p>Files are ordered by the first offset in their name (then attempt, then key). The files that
 * share a first offset are one commit of the sink spread over several directories (a field or time
 * partitioner), or an attempt that was rolled back and rewritten: they are read together and merged
 * by {@code __kafka_offset}. Of the files sharing a first offset only those of the highest attempt
 * are read: a file of a lower attempt belongs to a commit that was rolled back (the sink retries a
 * first offset with the next attempt only after rolling the previous one back), not yet deleted.
 * Every record whose offset is not above the last one sent is dropped, so overlapping files never
 * send a record twice, and a restart resumes exactly after the last record whose offset Connect
 * committed.
 *
 * <p>Source partition {@code {topic, partition}}; offset {@code {offset, file, rowGroup, row}}.
 */
final class PartitionReplay implements ReplayUnit {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionReplay.class);

  /**
   * A file not yet read, in replay order.
   *
   * @param last its last offset when known (the name's, or the discovery's), else -1
   */
  private record Pending(SinkFileName name, StoreFile file, long last) {}

  private static final Comparator<Pending> ORDER =
      Comparator.comparingLong((Pending p) -> p.name().firstOffset())
          .thenComparingInt(p -> p.name().attempt())
          .thenComparing(p -> p.file().key());

  /** An open file of the group being merged, with its next row read ahead (the cursor's). */
  private static final class Member {
    final FileCursor cursor;
    final ReplayRowMapper mapper;
    long headOffset;
    int headRowGroup;
    long headRowAfter;

    Member(FileCursor cursor, ReplayRowMapper mapper) {
      this.cursor = cursor;
      this.mapper = mapper;
    }
  }

  private final TaskRuntime rt;
  private final String topic;
  private final int partition;
  private final Map<String, Object> sourcePartition;
  private final TreeSet<Pending> pending = new TreeSet<>(ORDER);
  private final Set<String> known = new HashSet<>();

  /** The highest attempt of a file seen per first offset. */
  private final Map<Long, Integer> highestAttempt = new HashMap<>();

  private final List<Member> group = new ArrayList<>();

  /** The Kafka offset of the last record sent (or committed before a restart); -1 for none. */
  private long lastOffset;

  /** The file and position a restart resumes at, until that file is opened. */
  private String resumeFile;

  private int resumeRowGroup;
  private long resumeRow;

  /** The first offset of the group read last (-1 before the first). */
  private long groupFirstOffset = -1;

  private SourceRecord lastOfGroup;

  PartitionReplay(TaskRuntime rt, String topic, int partition) {
    this.rt = rt;
    this.topic = topic;
    this.partition = partition;
    this.sourcePartition = SourcePositions.replayPartition(topic, partition);
    Map<String, Object> committed = rt.committedOffset(sourcePartition);
    // Offsets below replay.from.offset count as sent: the files and row groups that hold only
    // those are then passed over by the same rules as after a restart.
    this.lastOffset =
        Math.max(
            SourcePositions.longOf(committed, SourcePositions.OFFSET, -1),
            rt.selection.fromOffset(topic, partition) - 1);
    this.resumeFile = SourcePositions.stringOf(committed, SourcePositions.FILE);
    this.resumeRowGroup = (int) SourcePositions.longOf(committed, SourcePositions.ROW_GROUP, 0);
    this.resumeRow = SourcePositions.longOf(committed, SourcePositions.ROW, 0);
    if (committed != null) {
      LOG.info(
          "{} resuming {}-{} after offset {} (file {}, row group {}, row {})",
          rt.logPrefix,
          topic,
          partition,
          lastOffset,
          resumeFile,
          resumeRowGroup,
          resumeRow);
    }
  }

  String topic() {
    return topic;
  }

  int partition() {
    return partition;
  }

  /** Adds a discovered file (once; a file seen before is ignored). */
  void add(SinkFileName name, StoreFile file) {
    if (!known.add(file.key())) {
      return;
    }
    long first = name.firstOffset();
    Integer highest = highestAttempt.get(first);
    if (highest != null && name.attempt() < highest) {
      LOG.info(
          "{} skipping {}: a file of a later attempt at offset {} exists, so its commit "
              + "was rolled back",
          rt.logPrefix,
          file.key(),
          first);
      return;
    }
    if (highest == null || name.attempt() > highest) {
      highestAttempt.put(first, name.attempt());
      pending.removeIf(
          p -> {
            boolean superseded =
                p.name().firstOffset() == first && p.name().attempt() < name.attempt();
            if (superseded) {
              LOG.info(
                  "{} skipping {}: {} is a later attempt at offset {}, so its commit was rolled "
                      + "back",
                  rt.logPrefix,
                  p.file().key(),
                  file.key(),
                  first);
            }
            return superseded;
          });
    }
    if (name.firstOffset() < groupFirstOffset) {
      LOG.warn(
          "{} file {} appeared after the files of {}-{} from offset {} were read; only its "
              + "records above offset {} are sent",
          rt.logPrefix,
          file.key(),
          topic,
          partition,
          groupFirstOffset,
          lastOffset);
    }
    long last = name.lastOffset() >= 0 ? name.lastOffset() : SinkFileName.lastOffset(file.name());
    if (!rt.selection.fileMayMatch(topic, partition, first, last)) {
      LOG.debug(
          "{} passing over {}: its offsets lie outside replay.from.offset/replay.until.offset",
          rt.logPrefix,
          file.key());
      return;
    }
    pending.add(new Pending(name, file, last));
  }

  /** Files discovered and not yet read to the end (open or pending). */
  int filesLeft() {
    return pending.size() + group.size();
  }

  @Override
  public boolean hasWork() {
    return !group.isEmpty() || !pending.isEmpty();
  }

  @Override
  public void read(List<SourceRecord> out, int max) {
    while (out.size() < max) {
      if (group.isEmpty() && !openNextGroup(out)) {
        return;
      }
      Member next = null;
      for (Member m : group) {
        if (next == null || m.headOffset < next.headOffset) {
          next = m;
        }
      }
      if (next == null) {
        endGroup();
        continue;
      }
      if (next.headOffset > lastOffset
          && rt.selection.selected(
              topic, partition, next.headOffset, next.cursor.record().timestamp())) {
        SourceRecord record;
        try {
          record =
              next.mapper.toRecord(
                  next.cursor.record(),
                  sourcePartition,
                  SourcePositions.replayOffset(
                      next.headOffset, next.cursor.key(), next.headRowGroup, next.headRowAfter));
        } catch (RuntimeException e) {
          fail(next, e, out); // a value the file's own schema does not describe
          continue;
        }
        rt.selection.addOriginalHeaders(record, topic, partition, next.headOffset);
        out.add(record);
        rt.sent(next.cursor.key());
        lastOffset = next.headOffset;
        lastOfGroup = record;
      }
      advance(next, out);
    }
  }

  /**
   * Opens the files of the next first offset, and with them every file whose offsets interleave
   * with theirs: a table's compacted files of different Iceberg partitions each hold part of the
   * same Kafka offsets (the even ones here, the odd ones there), so they are merged in offset order
   * like the files of one commit. Groups that a later group's first offset shows to be entirely
   * sent already (a restart) are passed over without being opened.
   *
   * @return false when there is nothing to read
   */
  private boolean openNextGroup(List<SourceRecord> out) {
    while (!pending.isEmpty()) {
      long first = pending.first().name().firstOffset();
      List<Pending> members = new ArrayList<>();
      long end = -1;
      while (!pending.isEmpty()
          && (pending.first().name().firstOffset() == first
              || pending.first().name().firstOffset() <= end)) {
        Pending p = pending.pollFirst();
        members.add(p);
        end = Math.max(end, p.last());
      }
      Pending after = pending.isEmpty() ? null : pending.first();
      if (after != null && after.name().firstOffset() <= lastOffset + 1) {
        for (Pending p : members) {
          // Sent before a restart: its records are safe, so its after-replay action is due.
          rt.files.finished(p.file(), ReplayedFiles.Action.AFTER_REPLAY);
        }
        continue;
      }
      groupFirstOffset = first;
      lastOfGroup = null;
      for (Pending p : members) {
        openMember(p, out);
      }
      if (!group.isEmpty()) {
        return true;
      }
      rt.fileEnded(lastOfGroup);
    }
    return false;
  }

  private void openMember(Pending p, List<SourceRecord> out) {
    FileCursor cursor = null;
    try {
      cursor = FileCursor.open(rt.store, p.file());
      ReplayRowMapper mapper =
          ReplayRowMapper.of(
              cursor.schema(), cursor.keyValueMetadata(), p.name().topic(), rt.partitions);
      cursor.readWith(mapper.mapping());
      if (SinkFileName.parse(p.file().name()) != null) {
        rt.selection.filter(cursor);
      } else {
        rt.selection.filter(cursor, topic, partition); // a table's compacted file
      }
      cursor.selectRowGroups(
          rt.selection.rowGroups(cursor.schema(), cursor.rowGroups(), topic, partition));
      rt.selection.skipPagesOutside(cursor, topic, partition);
      if (p.file().key().equals(resumeFile)) {
        cursor.seek(resumeRowGroup, resumeRow);
      } else if (lastOffset >= 0) {
        cursor.skipRowGroupsBelow(FileLayout.OFFSET_COLUMN, lastOffset + 1);
      }
      Member m = new Member(cursor, mapper);
      group.add(m);
      LOG.info(
          "{} replaying file {} of {}-{} ({} bytes)",
          rt.logPrefix,
          p.file().key(),
          topic,
          partition,
          p.file().size());
      advance(m, out);
    } catch (IOException | ParquetException | RuntimeException e) {
      if (e instanceof ConnectException c && !(e instanceof DataException)) {
        if (cursor != null) {
          closeQuietly(cursor);
        }
        throw c; // replay.filter does not fit the file: the configuration, not the file
      }
      // A RuntimeException too, as in advance: whatever opening a damaged file throws (a
      // footer or stored schema the checks did not foresee) is that file's failure, handled by
      // errors.on.corrupt.file, never an exception out of poll that stops the task. Nothing
      // after group.add throws (advance handles its own), so no member is left behind.
      if (cursor != null) {
        closeQuietly(cursor);
      }
      reportFailure(p.file(), 0, 0, e, out);
    }
  }

  /** Reads a member's next row ahead; a member at its end is closed and its file finished. */
  private void advance(Member m, List<SourceRecord> out) {
    try {
      if (!m.cursor.hasNext()) {
        group.remove(m);
        closeQuietly(m.cursor);
        rt.files.finished(m.cursor.file(), ReplayedFiles.Action.AFTER_REPLAY);
        if (group.isEmpty()) {
          endGroup();
        }
        return;
      }
      m.cursor.next();
      m.headRowGroup = m.cursor.rowGroup();
      m.headRowAfter = m.cursor.rowInGroup();
      m.headOffset = m.mapper.kafkaOffset(m.cursor.record());
    } catch (IOException | ParquetException | RuntimeException e) {
      // A RuntimeException: a value the file's own schema does not describe (rows are
      // converted as they are read).
      fail(m, e, out);
    }
  }

  private void endGroup() {
    rt.fileEnded(lastOfGroup);
    lastOfGroup = null;
  }

  private void fail(Member m, Exception e, List<SourceRecord> out) {
    group.remove(m);
    int rowGroup = m.cursor.rowGroup();
    long row = m.cursor.rowInGroup();
    closeQuietly(m.cursor);
    reportFailure(m.cursor.file(), rowGroup, row, e, out);
    if (group.isEmpty()) {
      endGroup();
    }
  }

  private void reportFailure(
      StoreFile file, int rowGroup, long row, Exception e, List<SourceRecord> out) {
    Map<String, Object> offset =
        new HashMap<>(SourcePositions.replayOffset(lastOffset, file.key(), rowGroup, row));
    offset.put(SourcePositions.SKIPPED, true);
    SourceRecord report = rt.corruptFiles.handle(file, rowGroup, row, e, sourcePartition, offset);
    if (report != null) {
      out.add(report);
      lastOfGroup = report;
    }
  }

  private void closeQuietly(FileCursor cursor) {
    try {
      cursor.close();
    } catch (IOException e) {
      LOG.debug("{} closing {}: {}", rt.logPrefix, cursor.key(), e.toString());
    }
  }

  @Override
  public void close() {
    for (Member m : group) {
      closeQuietly(m.cursor);
    }
    group.clear();
  }
}
