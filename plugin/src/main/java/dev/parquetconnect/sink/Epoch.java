package dev.parquetconnect.sink;

import dev.parquetconnect.sink.partition.PartitionColumn;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * The open commit of one Kafka partition: a contiguous range of offsets {@code [start, end]} read
 * since the last commit, and the files its records went to (one per partition directory). Committed
 * all together, or not at all.
 */
final class Epoch {
  /** A file's place: the record's topic and its partition columns (before encoding). */
  record Place(String topic, List<PartitionColumn> columns) {}

  private final long start;
  private final int attempt;
  private final long openedWallMillis;
  private final long scheduleDeadline;
  private final Map<Place, OpenFile> byPlace = new HashMap<>();
  private final Map<String, OpenFile> byKey = new LinkedHashMap<>();
  private final Map<String, OpenFile> byDirectory = new HashMap<>();
  private final List<Future<Void>> deadLettered = new ArrayList<>();
  private long end = -1;
  private long offsetsRead;
  private long recordsWritten;
  private long firstRecordTime = Long.MIN_VALUE;

  /** The last place looked up and its file (null: none), so a run of records hashes nothing. */
  private Place lastPlace;

  private OpenFile lastFile;

  /**
   * @param start the offset of the first record
   * @param attempt 0, or one more than the last rolled-back attempt at {@code start}
   * @param scheduleDeadline the wall-clock time at which {@code rotate.schedule.interval.ms}
   *     commits it, {@link Long#MAX_VALUE} for never
   */
  Epoch(long start, int attempt, long openedWallMillis, long scheduleDeadline) {
    this.start = start;
    this.attempt = attempt;
    this.openedWallMillis = openedWallMillis;
    this.scheduleDeadline = scheduleDeadline;
  }

  long start() {
    return start;
  }

  int attempt() {
    return attempt;
  }

  /** The last offset read, -1 before the first. */
  long end() {
    return end;
  }

  long openedWallMillis() {
    return openedWallMillis;
  }

  long scheduleDeadline() {
    return scheduleDeadline;
  }

  /** Offsets read: written, skipped and dead-lettered records alike ({@code flush.size}). */
  long offsetsRead() {
    return offsetsRead;
  }

  long recordsWritten() {
    return recordsWritten;
  }

  /** The time of the first record written ({@code rotate.interval.ms}), MIN_VALUE before. */
  long firstRecordTime() {
    return firstRecordTime;
  }

  /** Counts one offset as read. */
  void read(long offset, long recordTime, boolean written) {
    end = offset;
    offsetsRead++;
    if (written) {
      recordsWritten++;
      if (firstRecordTime == Long.MIN_VALUE) {
        firstRecordTime = recordTime;
      }
    }
  }

  OpenFile file(Place place) {
    if (place == lastPlace && lastFile != null) {
      return lastFile;
    }
    OpenFile file = byPlace.get(place);
    lastPlace = place;
    lastFile = file;
    return file;
  }

  void add(Place place, OpenFile file) {
    byPlace.put(place, file);
    byKey.put(file.key(), file);
    byDirectory.put(file.directory(), file);
    lastPlace = null;
    lastFile = null;
  }

  /** The open file in {@code directory}, or null. */
  OpenFile fileIn(String directory) {
    return byDirectory.get(directory);
  }

  /** Records of {@code place} go to {@code file}, which another place's columns opened. */
  void alias(Place place, OpenFile file) {
    byPlace.put(place, file);
    lastPlace = null;
    lastFile = null;
  }

  /** Drops a file that never received a record (its first record was refused). */
  void remove(Place place, OpenFile file) {
    byPlace.values().removeIf(f -> f == file);
    byKey.remove(file.key());
    byDirectory.remove(file.directory());
    lastPlace = null;
    lastFile = null;
  }

  Collection<OpenFile> files() {
    return byKey.values();
  }

  void deadLettered(Future<Void> delivery) {
    deadLettered.add(delivery);
  }

  List<Future<Void>> deadLettered() {
    return deadLettered;
  }

  /** The heap all files hold, as last accounted. */
  long accountedBytes() {
    long sum = 0;
    for (OpenFile file : byKey.values()) {
      sum += file.accountedBytes();
    }
    return sum;
  }
}
