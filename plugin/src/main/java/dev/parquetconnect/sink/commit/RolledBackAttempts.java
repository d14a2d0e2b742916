package dev.parquetconnect.sink.commit;

import dev.parquetconnect.sink.commit.CommitMarkers.Intent;
import dev.parquetconnect.sink.commit.MarkerLog.Attempt;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The commit attempts of one Kafka partition that were rolled back (outcome {@code aborted}) and
 * the files their intents list. A zombie that stalled between its deadline check and making one of
 * those files visible can make it appear at any time after the rollback, and then die before it
 * notices: nothing but a later sweep removes that file. So these attempts' markers are never
 * compacted away, and their files are deleted again at every recovery and, while the partition is
 * committing, at most once per {@code commit.timeout.ms}.
 *
 * <p>A file of a rolled-back attempt never has the name of a file of a done commit (names carry the
 * attempt number, and one outcome key decides each attempt), so deleting it never touches committed
 * records.
 */
final class RolledBackAttempts {
  /** Ordered (and looked up) by start offset and attempt only: {@link Attempt#compareTo}. */
  private final TreeMap<Attempt, List<String>> files = new TreeMap<>();

  private long lastSweepNanos;
  private boolean swept;

  /** Whether {@code a} is a known rolled-back attempt (whose markers must stay). */
  boolean contains(Attempt a) {
    return files.containsKey(a);
  }

  int size() {
    return files.size();
  }

  /** Remembers a rolled-back attempt and its files. */
  void add(Intent intent) {
    files.put(new Attempt(intent.start(), intent.attempt(), true, true), intent.files());
  }

  /** Forgets attempts whose markers are gone (deleted by hand or by an older version). */
  void retainAll(Collection<Attempt> listed) {
    files.keySet().retainAll(new TreeSet<>(listed));
  }

  /** Deletes every file of every rolled-back attempt that exists (deletes are idempotent). */
  int sweep(Store store, long nowNanos) throws IOException {
    int deleted = 0;
    for (List<String> keys : files.values()) {
      for (String key : keys) {
        if (store.exists(key)) {
          store.delete(key);
          deleted++;
        }
      }
    }
    lastSweepNanos = nowNanos;
    swept = true;
    return deleted;
  }

  /** Whether a sweep is due: none yet, or the last one {@code intervalNanos} ago or more. */
  boolean sweepDue(long nowNanos, long intervalNanos) {
    return !files.isEmpty() && (!swept || nowNanos - lastSweepNanos >= intervalNanos);
  }
}
