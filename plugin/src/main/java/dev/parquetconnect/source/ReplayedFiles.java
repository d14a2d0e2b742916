package dev.parquetconnect.source;

import dev.parquetconnect.source.ParquetSourceConfig.AfterReplay;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a file once it is read to the end: when every record sent from it is acknowledged
 * ({@code commitRecord}: written, or with exactly-once support committed), the file is left,
 * deleted or moved ({@code after.replay}), or for a skipped corrupt file moved to the quarantine
 * prefix. Acting only then means a crash never loses records of a file that is gone: the file stays
 * until its records are safe, and a restart that finds it gone goes on with the next.
 *
 * <p>{@link #acked} is called from the producer's threads; actions run on the task's thread in
 * {@link #runReadyActions()}.
 */
final class ReplayedFiles {
  private static final Logger LOG = LoggerFactory.getLogger(ReplayedFiles.class);

  /** What to do with a file once its records are safe. */
  enum Action {
    AFTER_REPLAY,
    QUARANTINE
  }

  private final Store store;
  private final String topicsDir;
  private final AfterReplay afterReplay;
  private final String movePrefix;
  private final String quarantinePrefix;
  private final String logPrefix;
  private final SourceMetrics metrics;
  private final Map<String, Tracked> tracked = new ConcurrentHashMap<>();
  private final Queue<Tracked> ready = new ConcurrentLinkedQueue<>();

  ReplayedFiles(Store store, ParquetSourceConfig config, String logPrefix, SourceMetrics metrics) {
    this.metrics = metrics;
    this.store = store;
    this.topicsDir = config.topicsDir();
    this.afterReplay = config.afterReplay();
    this.movePrefix = config.afterReplayMovePrefix();
    this.quarantinePrefix = config.quarantinePrefix();
    this.logPrefix = logPrefix;
  }

  /** A record of {@code file} was handed to Connect. */
  void sent(String file) {
    tracked.computeIfAbsent(file, Tracked::new).outstanding++;
  }

  /** A record of {@code file} is acknowledged (any thread). */
  void acked(String file) {
    Tracked t = tracked.get(file);
    if (t == null) {
      return;
    }
    synchronized (t) {
      t.acked++;
      t.queueIfReady(ready);
    }
  }

  /** Nothing more will be sent from {@code file}; act once what was sent is acknowledged. */
  void finished(StoreFile file, Action action) {
    metrics.fileFinished(action == Action.QUARANTINE);
    Tracked t = tracked.computeIfAbsent(file.key(), Tracked::new);
    synchronized (t) {
      t.file = file;
      t.action = action;
      t.queueIfReady(ready);
    }
  }

  /** Runs the actions of the files whose records are all acknowledged. */
  void runReadyActions() {
    Tracked t;
    while ((t = ready.poll()) != null) {
      tracked.remove(t.key);
      act(t.file, t.action);
    }
  }

  /** Files finished but with records not yet acknowledged (for tests and logs). */
  int waiting() {
    return tracked.size();
  }

  private void act(StoreFile file, Action action) {
    try {
      if (action == Action.QUARANTINE) {
        if (!quarantinePrefix.isEmpty()) {
          move(file, quarantinePrefix);
        }
        return;
      }
      switch (afterReplay) {
        case LEAVE -> {}
        case DELETE -> {
          store.delete(file.key());
          LOG.info("{} deleted replayed file {}", logPrefix, file.key());
        }
        case MOVE -> move(file, movePrefix);
      }
    } catch (IOException | RuntimeException e) {
      // The records are safe; only the clean-up failed. The next run finds the file again
      // and recognises it as replayed by its recorded position.
      LOG.warn(
          "{} could not {} file {}: {}",
          logPrefix,
          action == Action.QUARANTINE ? "quarantine" : afterReplay.name().toLowerCase(Locale.ROOT),
          file.key(),
          e.toString());
    }
  }

  private void move(StoreFile file, String prefix) throws IOException {
    String target = targetKey(file.key(), topicsDir, prefix);
    try {
      store.move(file.key(), target);
      LOG.info("{} moved file {} to {}", logPrefix, file.key(), target);
    } catch (FileAlreadyExistsException e) {
      // A move interrupted between copy and delete (S3) leaves both: finish it when equal.
      StoreFile existing = store.stat(target);
      if (existing.size() == file.size()) {
        store.delete(file.key());
        LOG.info("{} finished moving file {} to {}", logPrefix, file.key(), target);
      } else {
        LOG.warn(
            "{} cannot move file {}: a different file {} is in the way",
            logPrefix,
            file.key(),
            target);
      }
    } catch (NoSuchFileException e) {
      LOG.info("{} file {} is already gone", logPrefix, file.key());
    }
  }

  /** The key under {@code prefix} of a file, keeping its path below {@code topicsDir}. */
  static String targetKey(String key, String topicsDir, String prefix) {
    String relative = topicsDir.isEmpty() ? key : key.substring(topicsDir.length() + 1);
    return prefix + "/" + relative;
  }

  private static final class Tracked {
    final String key;

    /** Only written by the task thread; read under the lock. */
    volatile long outstanding;

    long acked;
    StoreFile file;
    Action action;
    boolean queued;

    Tracked(String key) {
      this.key = key;
    }

    /** Queues the file once, when it is finished and every record is acknowledged. */
    void queueIfReady(Queue<Tracked> ready) {
      if (!queued && action != null && acked >= outstanding) {
        queued = true;
        ready.add(this);
      }
    }
  }
}
