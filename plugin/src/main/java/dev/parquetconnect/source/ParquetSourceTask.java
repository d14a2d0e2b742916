package dev.parquetconnect.source;

import dev.parquetconnect.source.ParquetSourceConfig.Mode;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.apache.kafka.connect.source.TransactionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the files this task owns ({@link FileDiscovery}) and returns their rows as records, at most
 * {@code batch.size} per poll, streaming each file through ranged reads. When everything found is
 * read, the store is listed again every {@code discovery.interval.ms}.
 *
 * <p>Replay mode keeps one {@link PartitionReplay} per original topic-partition, in (topic,
 * partition) order; generic mode one {@link FileReplay} per file, in key order.
 */
public final class ParquetSourceTask extends SourceTask {
  private static final Logger LOG = LoggerFactory.getLogger(ParquetSourceTask.class);

  /** The longest poll() sleeps with nothing to do, so stop() is never kept waiting long. */
  private static final long MAX_IDLE_SLEEP_MS = 1_000;

  private final Object lock = new Object();
  private ParquetSourceConfig config;
  private Store store;
  private TaskRuntime rt;
  private SourceDiscovery discovery;
  private String logPrefix;
  private long nextDiscoveryNanos;
  private volatile boolean stopping;

  /** Replay mode: units by topic and partition, kept for their positions. */
  private final TreeMap<String, PartitionReplay> partitions = new TreeMap<>();

  /** Generic mode: files not yet finished, in key order. */
  private final Deque<FileReplay> fileQueue = new ArrayDeque<>();

  /** Generic mode: every file already handed to a unit or found finished. */
  private final Set<String> knownFiles = new HashSet<>();

  @Override
  public String version() {
    return ParquetSourceConnector.VERSION;
  }

  @Override
  public void start(Map<String, String> props) {
    config = new ParquetSourceConfig(props);
    String connector = props.getOrDefault("name", "parquet-source");
    String taskName = connector + "-" + config.taskIndex();
    logPrefix = "[" + taskName + "]";
    try {
      store = Stores.open(config.storeUrl(), config.storeSettings());
    } catch (IOException e) {
      throw new ConnectException(logPrefix + " cannot open store " + redacted() + ": " + e, e);
    }
    SourceMetrics metrics = new SourceMetrics();
    rt =
        new TaskRuntime(
            store,
            config,
            context.offsetStorageReader(),
            transactionContext(),
            taskName,
            logPrefix,
            metrics);
    discovery =
        TableReplayConfig.isIceberg(config)
            ? new TableDiscovery(store, config, logPrefix)
            : new FileDiscovery(store, config, logPrefix);
    nextDiscoveryNanos = System.nanoTime();
    // After everything that can fail: a failed start leaves no bean behind (stop() closes it).
    metrics.register(context, connector, Integer.toString(config.taskIndex()));
    LOG.info(
        "{} started: {} mode, store {}, directory '{}', task {} of {}",
        logPrefix,
        ParquetSourceConfig.spelling(config.mode()),
        redacted(),
        config.topicsDir(),
        config.taskIndex() + 1,
        config.taskCount());
  }

  /** The URL as the store prints it (never credentials: the URL cannot carry any). */
  private String redacted() {
    return store != null ? store.url() : "(" + ParquetSourceConfig.STORE_URL_CONFIG + ")";
  }

  /**
   * The worker's transaction context: present only with exactly-once support enabled and {@code
   * transaction.boundary=connector}; absent on workers older than Kafka 3.3.
   */
  private TransactionContext transactionContext() {
    try {
      return context.transactionContext();
    } catch (LinkageError e) {
      return null;
    }
  }

  @Override
  public List<SourceRecord> poll() throws InterruptedException {
    // Sized for a full batch up front: growing it copied the list a dozen times per poll.
    List<SourceRecord> out = new ArrayList<>(Math.min(config.batchSize(), 8192));
    synchronized (lock) {
      if (stopping) {
        return null;
      }
      rt.files.runReadyActions();
      if (!hasWork() && System.nanoTime() - nextDiscoveryNanos >= 0) {
        discover();
      }
      int max = config.batchSize();
      if (config.mode() == Mode.REPLAY) {
        for (PartitionReplay unit : partitions.values()) {
          if (out.size() >= max) {
            break;
          }
          unit.read(out, max);
        }
      } else {
        while (out.size() < max && !fileQueue.isEmpty()) {
          FileReplay unit = fileQueue.peekFirst();
          unit.read(out, max);
          if (!unit.hasWork()) {
            fileQueue.pollFirst();
          }
        }
      }
      rt.batchEnded(!out.isEmpty());
      rt.metrics.polled(out.size());
      rt.metrics.lagFiles(filesLeft());
    }
    if (out.isEmpty()) {
      long waitMs = (nextDiscoveryNanos - System.nanoTime()) / 1_000_000;
      if (waitMs > 0) {
        Thread.sleep(Math.min(waitMs, MAX_IDLE_SLEEP_MS));
      }
      return null;
    }
    return out;
  }

  /** Files discovered and not yet read to the end, for the lag-files metric. */
  private long filesLeft() {
    if (config.mode() == Mode.GENERIC) {
      return fileQueue.size();
    }
    long left = 0;
    for (PartitionReplay unit : partitions.values()) {
      left += unit.filesLeft();
    }
    return left;
  }

  private boolean hasWork() {
    if (config.mode() == Mode.GENERIC) {
      return !fileQueue.isEmpty();
    }
    for (PartitionReplay unit : partitions.values()) {
      if (unit.hasWork()) {
        return true;
      }
    }
    return false;
  }

  /** Lists the store and queues what is new. A failed listing is retried after the interval. */
  private void discover() {
    nextDiscoveryNanos = System.nanoTime() + config.discoveryIntervalMs() * 1_000_000;
    List<FileDiscovery.Found> found;
    try {
      found = discovery.list();
    } catch (IOException | RuntimeException e) {
      if (e instanceof ConnectException c && discovery instanceof TableDiscovery) {
        throw c; // the table or snapshot configured does not exist: retrying cannot help
      }
      LOG.warn(
          "{} listing {} failed, retrying in {} ms: {}",
          logPrefix,
          redacted(),
          config.discoveryIntervalMs(),
          e.toString());
      return;
    }
    if (config.mode() == Mode.REPLAY) {
      for (FileDiscovery.Found f : found) {
        SinkFileName name = f.name();
        String unitKey = name.topic() + "\u0000" + String.format("%010d", name.partition());
        partitions
            .computeIfAbsent(unitKey, k -> new PartitionReplay(rt, name.topic(), name.partition()))
            .add(name, f.file());
      }
      return;
    }
    List<FileDiscovery.Found> fresh = new ArrayList<>();
    List<Map<String, Object>> sourcePartitions = new ArrayList<>();
    for (FileDiscovery.Found f : found) {
      if (knownFiles.add(f.file().key())) {
        fresh.add(f);
        sourcePartitions.add(SourcePositions.filePartition(f.file().key()));
      }
    }
    if (fresh.isEmpty()) {
      return;
    }
    Map<Map<String, Object>, Map<String, Object>> committed = rt.committedOffsets(sourcePartitions);
    int finished = 0;
    for (int i = 0; i < fresh.size(); i++) {
      Map<String, Object> offset = committed.get(sourcePartitions.get(i));
      if (FileReplay.finishedBefore(offset)) {
        finished++;
        // Read before a restart: its records are safe, so its after-replay action is due.
        if (!SourcePositions.flagOf(offset, SourcePositions.SKIPPED)) {
          rt.files.finished(fresh.get(i).file(), ReplayedFiles.Action.AFTER_REPLAY);
        }
        continue;
      }
      fileQueue.addLast(new FileReplay(rt, fresh.get(i).file(), offset));
    }
    LOG.info("{} found {} new files ({} already replayed)", logPrefix, fresh.size(), finished);
  }

  @Override
  public void commitRecord(SourceRecord record, RecordMetadata metadata) {
    String file = SourcePositions.stringOf(record.sourceOffset(), SourcePositions.FILE);
    if (file == null) {
      file = SourcePositions.stringOf(record.sourcePartition(), SourcePositions.FILE);
    }
    if (file != null && rt != null) {
      rt.files.acked(file);
    }
  }

  @Override
  public void stop() {
    stopping = true;
    synchronized (lock) {
      partitions.values().forEach(PartitionReplay::close);
      fileQueue.forEach(FileReplay::close);
      if (discovery != null) {
        discovery.close();
      }
      if (store != null) {
        try {
          store.close();
        } catch (IOException e) {
          LOG.warn("{} closing the store: {}", logPrefix, e.toString());
        }
      }
      if (rt != null) {
        rt.metrics.close();
      }
    }
    LOG.info("{} stopped", logPrefix);
  }
}
