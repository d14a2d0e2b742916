package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.metrics.MaintenanceMetrics;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.FaultInjector;
import dev.parquetconnect.sink.commit.iceberg.IcebergCatalogs;
import dev.parquetconnect.sink.commit.iceberg.IcebergSettings;
import dev.parquetconnect.sink.commit.iceberg.IcebergTables;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.iceberg.Table;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table maintenance of one sink task, in a background thread of its own (lowest priority) so
 * that {@code put} never waits for it: compaction every {@code iceberg.compaction.interval.ms},
 * snapshot expiry then orphan clean-up every {@code iceberg.snapshots.interval.ms}, one table at a
 * time.
 *
 * <p><b>Which task.</b> The task that owns partition 0 of a topic maintains the topic's table:
 * Kafka assigns each partition to one task of the connector, so one task per table does, and the
 * tables of a connector's topics are spread over its tasks. During a rebalance the old and the new
 * owner may both run for a moment: every change is an Iceberg commit validated against the table as
 * it is then (a rewrite whose inputs another one replaced is refused), and files are deleted only
 * when no snapshot references them, so two runs at once stay safe, only wasteful.
 *
 * <p>It opens a catalog of its own ({@code tables}): Iceberg's table objects are not shared with
 * the task's thread.
 */
public final class TableMaintenance implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TableMaintenance.class);

  private final MaintenanceSettings settings;
  private final IcebergTables tables;
  private final UnaryOperator<String> topicDir;
  private final MaintenanceMetrics metrics;
  private final String log;
  private final TableCompactor compactor;
  private final SnapshotExpiry expiry;
  private final OrphanFiles orphans;
  private final Set<String> topics = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService thread;

  /**
   * Starts the schedules (nothing runs before a topic's partition 0 is {@link #assigned}).
   *
   * @param tables a catalog of this maintenance's own, closed by {@link #close()}
   * @param topicDir the store directory of a topic's data files
   */
  public TableMaintenance(
      MaintenanceSettings settings,
      IcebergTables tables,
      Store store,
      UnaryOperator<String> topicDir,
      MaintenanceMetrics metrics,
      String log) {
    this(settings, tables, store, topicDir, metrics, log, CrashPoints.NONE);
  }

  /**
   * As above, passing {@code crashPoints} at the {@link MaintenanceCrashPoints} of its runs (crash
   * tests).
   */
  public TableMaintenance(
      MaintenanceSettings settings,
      IcebergTables tables,
      Store store,
      UnaryOperator<String> topicDir,
      MaintenanceMetrics metrics,
      String log,
      CrashPoints crashPoints) {
    this.settings = settings;
    this.tables = tables;
    this.topicDir = topicDir;
    this.metrics = metrics;
    this.log = log;
    this.compactor = new TableCompactor(store, settings.compaction());
    this.expiry =
        new SnapshotExpiry(
            store,
            settings.snapshotMaxAgeMs(),
            settings.snapshotsToKeep(),
            System::currentTimeMillis);
    this.orphans = new OrphanFiles(store, settings.orphanMinAgeMs(), System::currentTimeMillis);
    compactor.crashPoints(crashPoints);
    expiry.crashPoints(crashPoints);
    orphans.crashPoints(crashPoints);
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "iceberg-maintenance-" + log);
              t.setDaemon(true);
              t.setPriority(Thread.MIN_PRIORITY);
              return t;
            });
    if (settings.compactionEnabled()) {
      long every = settings.compactionIntervalMs();
      thread.scheduleWithFixedDelay(this::compactAll, every, every, TimeUnit.MILLISECONDS);
    }
    if (settings.expiryEnabled() || settings.orphansEnabled()) {
      long every = settings.cleanupIntervalMs();
      thread.scheduleWithFixedDelay(this::cleanAll, every, every, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The maintenance of a sink task in table mode, or null when no maintenance key is on or its
   * catalog cannot be opened (logged: ingestion goes on without maintenance).
   *
   * @param taskContext the task's context, for the metrics
   */
  public static TableMaintenance start(
      MaintenanceSettings settings,
      IcebergSettings iceberg,
      Store store,
      UnaryOperator<String> topicDir,
      Object taskContext,
      String connector,
      String taskNumber,
      String taskName) {
    if (!settings.anyEnabled()) {
      return null;
    }
    IcebergTables own;
    try {
      own = new IcebergTables(IcebergCatalogs.open(iceberg), iceberg, null);
    } catch (IOException e) {
      LOG.warn("[{}] runs no table maintenance: {}", taskName, e.getMessage());
      return null;
    }
    MaintenanceMetrics metrics = new MaintenanceMetrics();
    metrics.register(taskContext, connector, taskNumber);
    // An injector of its own: the task's is not shared with this thread (none in production).
    return new TableMaintenance(
        settings,
        own,
        store,
        topicDir,
        metrics,
        "[" + taskName + "]",
        FaultInjector.fromSystemProperty());
  }

  /** Partitions the task was given: it maintains the tables of topics whose partition 0 it has. */
  public void assigned(Collection<TopicPartition> partitions) {
    for (TopicPartition p : partitions) {
      if (p.partition() == 0 && topics.add(p.topic())) {
        LOG.info("{} maintains the table of topic {}", log, p.topic());
      }
    }
  }

  /** Partitions taken from the task. */
  public void revoked(Collection<TopicPartition> partitions) {
    for (TopicPartition p : partitions) {
      if (p.partition() == 0) {
        topics.remove(p.topic());
      }
    }
  }

  /** The topics whose tables this task maintains. */
  public Set<String> topics() {
    return Set.copyOf(topics);
  }

  private void compactAll() {
    for (String topic : List.copyOf(topics)) {
      long began = System.nanoTime();
      boolean failed = false;
      try {
        Table table = tables.load(topic);
        if (table != null) {
          CompactionResult r = compactor.compact(table);
          metrics.compacted(
              r.filesRewritten(),
              r.filesWritten(),
              r.bytesBefore(),
              r.bytesAfter(),
              r.groupsGivenUp());
        }
      } catch (IOException | RuntimeException e) {
        failed = true;
        LOG.warn("{} cannot compact the table of {}: {}", log, topic, e.toString());
      }
      metrics.ran(System.nanoTime() - began, failed);
    }
  }

  private void cleanAll() {
    for (String topic : List.copyOf(topics)) {
      long began = System.nanoTime();
      boolean failed = false;
      try {
        Table table = tables.load(topic);
        if (table != null) {
          if (settings.expiryEnabled()) {
            metrics.expired(expiry.expire(table));
          }
          if (settings.orphansEnabled()) {
            metrics.orphansDeleted(orphans.clean(table, topicDir.apply(topic)));
          }
        }
      } catch (IOException | RuntimeException e) {
        failed = true;
        LOG.warn("{} cannot clean up the table of {}: {}", log, topic, e.toString());
      }
      metrics.ran(System.nanoTime() - began, failed);
    }
  }

  /**
   * Stops the thread (a run in progress is interrupted and ends at its next file) and the catalog.
   */
  @Override
  public void close() {
    thread.shutdownNow();
    try {
      if (!thread.awaitTermination(30, TimeUnit.SECONDS)) {
        LOG.warn("{} table maintenance did not stop within 30 s", log);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      tables.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("{} closing the maintenance catalog failed: {}", log, e.toString());
    }
    metrics.close();
  }
}
