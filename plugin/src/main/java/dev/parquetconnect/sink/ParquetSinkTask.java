package dev.parquetconnect.sink;

import dev.parquetconnect.format.write.ProjectVersion;
import dev.parquetconnect.iceberg.maintenance.MaintenanceConfig;
import dev.parquetconnect.iceberg.maintenance.TableMaintenance;
import dev.parquetconnect.sink.SinkRuntime.Rotation;
import dev.parquetconnect.sink.commit.CommitProtocol;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.sink.commit.FaultInjector;
import dev.parquetconnect.sink.commit.FileCommitProtocol;
import dev.parquetconnect.sink.commit.MarkerKeys;
import dev.parquetconnect.sink.commit.iceberg.IcebergBindings;
import dev.parquetconnect.sink.commit.iceberg.IcebergCatalogs;
import dev.parquetconnect.sink.commit.iceberg.IcebergCommitProtocol;
import dev.parquetconnect.sink.commit.iceberg.IcebergSettings;
import dev.parquetconnect.sink.commit.iceberg.IcebergTables;
import dev.parquetconnect.sink.commit.iceberg.TableBindings;
import dev.parquetconnect.sink.commit.iceberg.TableCommitter;
import dev.parquetconnect.sink.commit.iceberg.TableRouting;
import dev.parquetconnect.sink.partition.Partitioner;
import dev.parquetconnect.sink.partition.Partitioners;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the records of its Kafka partitions into Parquet files, exactly once.
 *
 * <p>Each assigned partition gets a {@link TopicPartitionWriter} that first recovers the committed
 * offset from the commit markers in the store (Connect's own committed offsets are only reported,
 * never trusted), then streams records into the files of its open commit. {@link #preCommit}
 * reports, per partition, the offset after its newest completed commit. The memory of all open
 * files is kept under {@code buffer.max.bytes}. See docs/exactly-once.md for the protocol.
 */
public final class ParquetSinkTask extends SinkTask {
  private static final Logger LOG = LoggerFactory.getLogger(ParquetSinkTask.class);

  private final Function<ParquetSinkConfig, RecordWriterFactory> formats;
  private final StoreOpener stores;
  private final SinkClock clock;
  private final CrashPoints crashPoints;
  private final Map<TopicPartition, TopicPartitionWriter> writers = new LinkedHashMap<>();
  private final Set<String> cleanedDirectories = new HashSet<>();

  /** Topics whose directory {@link #put} has cleaned (saves encoding the name per batch). */
  private final Set<String> cleanedTopics = new HashSet<>();

  private final Function<ParquetSinkConfig, TableBindings> bindings;
  private ParquetSinkConfig config;
  private Store store;
  private IcebergTables tables;
  private TableMaintenance maintenance;
  private TableCommitter tableCommitter;
  private SinkRuntime runtime;

  /** Records {@code input.format=json} wrote from rows staged from their JSON (tests). */
  long jsonRecordsStaged() {
    return runtime == null || runtime.jsonInput() == null ? 0 : runtime.jsonInput().stagedRecords();
  }

  private MarkerKeys markerKeys;
  private String taskName = "parquet-sink";

  /** The task Connect instantiates: Parquet files through the conversion layer. */
  public ParquetSinkTask() {
    this(
        ParquetFiles::writerFactory,
        config -> Stores.open(config.storeUrl(), config.storeSettings()),
        SinkClock.SYSTEM,
        FaultInjector.fromSystemProperty());
  }

  /** A task with another record format, store, clock or crash points (tests). */
  ParquetSinkTask(
      Function<ParquetSinkConfig, RecordWriterFactory> formats,
      StoreOpener stores,
      SinkClock clock,
      CrashPoints crashPoints) {
    this(formats, stores, clock, crashPoints, IcebergBindings::new);
  }

  /** As above, with another mapping of files to tables (tests). */
  ParquetSinkTask(
      Function<ParquetSinkConfig, RecordWriterFactory> formats,
      StoreOpener stores,
      SinkClock clock,
      CrashPoints crashPoints,
      Function<ParquetSinkConfig, TableBindings> bindings) {
    this.bindings = bindings;
    this.formats = formats;
    this.stores = stores;
    this.clock = clock;
    this.crashPoints = crashPoints;
  }

  /** Opens the store a configuration names. */
  interface StoreOpener {
    Store open(ParquetSinkConfig config) throws IOException;
  }

  @Override
  public String version() {
    return ProjectVersion.VERSION;
  }

  @Override
  public void start(Map<String, String> props) {
    try {
      config = new ParquetSinkConfig(props);
    } catch (ConfigException e) {
      throw new ConnectException("Invalid configuration: " + e.getMessage(), e);
    }
    String taskNumber = props.getOrDefault(ParquetSinkConnector.TASK_NUMBER_CONFIG, "0");
    taskName = config.connectorName() + "-" + taskNumber;
    try {
      store = stores.open(config);
    } catch (IOException | IllegalArgumentException e) {
      throw new ConnectException(
          taskName + " cannot open the store " + config.storeUrl() + ": " + e.getMessage(), e);
    }
    String writerId = UUID.randomUUID().toString();
    long scheduleMs = config.rotateScheduleIntervalMs();
    if (config.icebergTables() && scheduleMs <= 0) {
      scheduleMs = config.iceberg().commitIntervalMs();
    }
    Rotation rotation =
        new Rotation(
            config.flushSize(), config.fileMaxBytes(), config.rotateIntervalMs(), scheduleMs);
    markerKeys = new MarkerKeys(config.topicsDir(), config.connectorName());
    SinkKeys keys = new SinkKeys(config.topicsDir(), SinkKeys.rootPrefixBytes(config.storeUrl()));
    CommitProtocol.Factory commits;
    if (config.icebergTables()) {
      tables = openTables(config);
      tableCommitter =
          new TableCommitter(
              tables,
              store,
              config.connectorName(),
              config.topicsDir(),
              clock,
              config.commitTimeoutMs(),
              scheduleMs,
              taskNumberOf(taskNumber),
              crashPoints,
              "[" + taskName + "]");
      commits =
          IcebergCommitProtocol.factory(
              tables,
              store,
              config.connectorName(),
              keys::topicDir,
              tableCommitter,
              clock,
              config.commitTimeoutMs(),
              crashPoints);
    } else {
      commits =
          FileCommitProtocol.factory(
              store, markerKeys, clock, config.commitTimeoutMs(), writerId, taskName, crashPoints);
    }
    RecordWriterFactory format = formats.apply(config);
    Partitioner partitioner = Partitioners.create(config, clock::wallMillis);
    if (tables != null && format instanceof ParquetFiles files) {
      IcebergTables withIds = tables;
      files.fileSchemas(record -> withIds.fileSchema(record.originalTopic()));
      partitioner = new TableRouting(tables, files::schemaFor);
    }
    runtime =
        new SinkRuntime(
            store,
            keys,
            commits,
            format,
            partitioner,
            Partitioners.recordTime(config, clock::wallMillis),
            rotation,
            config.nullValueBehavior(),
            config.commitTimeoutMs(),
            new MemoryBudget(config.bufferMaxBytes()),
            new ErrantRecords(config.toleratesErrors(), context, "[" + taskName + "]"),
            crashPoints,
            clock,
            context,
            taskName,
            new SinkMetrics(),
            config.jsonInput());
    runtime.metrics().register(context, config.connectorName(), taskNumber);
    if (tables != null) {
      maintenance =
          TableMaintenance.start(
              MaintenanceConfig.settings(config),
              config.iceberg(),
              store,
              keys::topicDir,
              context,
              config.connectorName(),
              taskNumber,
              taskName);
    }
    LOG.info(
        "[{}] started: writer {}, store {}, topics dir {}",
        taskName,
        writerId,
        store.url(),
        config.topicsDir());
  }

  private static int taskNumberOf(String taskNumber) {
    try {
      return Integer.parseInt(taskNumber);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The table commit's rounds that are due ({@code all}: every pending one, before partitions go),
   * then the partitions whose staged ranges the table refused go back to recovering.
   */
  private void runTableCommits(boolean all) {
    if (tableCommitter == null) {
      return;
    }
    tableCommitter.runDue(all);
    for (TopicPartitionWriter writer : writers.values()) {
      writer.checkLost();
    }
  }

  /** The catalog and tables of {@code table.format=iceberg}. */
  private IcebergTables openTables(ParquetSinkConfig config) {
    IcebergSettings settings = config.iceberg();
    try {
      IcebergTables opened =
          new IcebergTables(IcebergCatalogs.open(settings), settings, bindings.apply(config));
      opened.shareVendedCredentials(config.vendedCredentials());
      return opened;
    } catch (IOException e) {
      closeStoreQuietly();
      throw new ConnectException(
          taskName + " cannot open the Iceberg catalog: " + e.getMessage(), e);
    }
  }

  private void closeStoreQuietly() {
    try {
      store.close();
    } catch (IOException e) {
      LOG.warn("[{}] closing the store failed: {}", taskName, e.toString());
    }
  }

  @Override
  public void open(Collection<TopicPartition> partitions) {
    for (TopicPartition partition : partitions) {
      // Markers are written only by this partition's owner, which this task is now: whatever
      // temporary marker is there belongs to a dead or fenced writer.
      cleanOrphansOnce(markerKeys.markerDir(partition), Instant.ofEpochMilli(clock.wallMillis()));
      cleanOrphansOnce(runtime.keys().topicDir(partition.topic()), orphanCutoff());
      TopicPartitionWriter writer = new TopicPartitionWriter(partition, runtime);
      writers.put(partition, writer);
      writer.recover();
    }
    if (maintenance != null) {
      maintenance.assigned(partitions);
    }
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    for (TopicPartitionWriter writer : writers.values()) {
      writer.startBatch();
      writer.recover();
      // A schedule boundary that passed since the last put commits the files opened before it
      // now, before this batch is written: else the batch's records, read after the boundary,
      // would go into those files and be committed with them at the end of this put.
      writer.commitIfScheduled();
    }
    // The writer and topic of the previous record: a batch is runs of one partition's records,
    // so the lookups (and a TopicPartition per record) are made only when the run changes.
    String lastSourceTopic = null;
    Integer lastSourcePartition = null;
    TopicPartitionWriter lastWriter = null;
    String lastTopic = null;
    for (SinkRecord record : records) {
      String sourceTopic = record.originalTopic();
      Integer sourcePartition = record.originalKafkaPartition();
      if (lastSourceTopic == null
          || !sourceTopic.equals(lastSourceTopic)
          || !sourcePartition.equals(lastSourcePartition)) {
        lastSourceTopic = sourceTopic;
        lastSourcePartition = sourcePartition;
        lastWriter = writers.get(new TopicPartition(sourceTopic, sourcePartition));
      }
      if (lastWriter == null) {
        // Not (or no longer) this task's partition: its owner reads the record.
        LOG.warn(
            "[{}] dropping a record of {}, which is not assigned to this task",
            taskName,
            new TopicPartition(sourceTopic, sourcePartition));
        continue;
      }
      if (!record.topic().equals(lastTopic)) {
        lastTopic = record.topic();
        if (cleanedTopics.add(lastTopic)) {
          cleanOrphansOnce(runtime.keys().topicDir(lastTopic), orphanCutoff());
        }
      }
      lastWriter.write(record);
      if (runtime.budget().exceeded()) {
        relieveMemory();
      }
    }
    long now = runtime.clock().wallMillis();
    long untilSchedule = Long.MAX_VALUE;
    for (TopicPartitionWriter writer : writers.values()) {
      writer.commitIfScheduled();
      untilSchedule = Math.min(untilSchedule, writer.untilScheduledCommit(now));
    }
    if (tableCommitter != null) {
      runTableCommits(false);
      untilSchedule =
          Math.min(untilSchedule, tableCommitter.untilDue(runtime.clock().wallMillis()));
    }
    if (untilSchedule != Long.MAX_VALUE) {
      // Connect calls put next when records arrive or when its offset flush is due (every
      // offset.flush.interval.ms, a minute by default): a quiet partition's open files would wait
      // that long past the schedule. Asking for the consumer's poll to end at the schedule's
      // boundary brings the next put, with or without records, in time.
      context.timeout(untilSchedule);
    }
    runtime.metrics().bufferedBytes(runtime.budget().total());
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    // Only a report: commits happen in put (which Connect calls even without records), never
    // here, where Connect also calls during a rebalance.
    Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
    for (TopicPartitionWriter writer : writers.values()) {
      long offset = writer.committedOffset();
      if (offset >= 0) {
        committed.put(writer.source(), new OffsetAndMetadata(offset));
      }
    }
    return committed;
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    if (maintenance != null) {
      maintenance.revoked(partitions);
    }
    // Staged ranges are committed before the partitions go, so their new owners find them there.
    runTableCommits(true);
    for (TopicPartition partition : partitions) {
      TopicPartitionWriter writer = writers.remove(partition);
      if (writer != null) {
        writer.close();
      }
    }
  }

  @Override
  public void stop() {
    if (runtime != null) {
      runTableCommits(true);
    }
    for (TopicPartitionWriter writer : writers.values()) {
      writer.close();
    }
    writers.clear();
    if (maintenance != null) {
      maintenance.close();
      maintenance = null;
    }
    if (store != null) {
      try {
        store.close();
      } catch (IOException e) {
        LOG.warn("[{}] closing the store failed: {}", taskName, e.toString());
      }
      store = null;
    }
    if (tables != null) {
      try {
        tables.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("[{}] closing the Iceberg catalog failed: {}", taskName, e.toString());
      }
      tables = null;
    }
    if (runtime != null) {
      runtime.metrics().close();
    }
    LOG.info("[{}] stopped", taskName);
  }

  /**
   * Runs the table commit now for every staged range (tests: a harness that wants everything put in
   * the table without waiting for the round's due time).
   */
  void commitStagedNow() {
    runTableCommits(true);
  }

  /** The task's metrics (tests); null before {@code start}. */
  SinkMetrics metrics() {
    return runtime == null ? null : runtime.metrics();
  }

  /** The heap the open files hold, as last accounted (tests, metrics). */
  long bufferedBytes() {
    return runtime.budget().total();
  }

  private Instant orphanCutoff() {
    return Instant.ofEpochMilli(clock.wallMillis() - config.orphanMinAgeMs());
  }

  /**
   * Removes what crashed writers left under {@code prefix}, once per task instance and before this
   * task writes there (so none of its own live files is touched). Failing is harmless: an orphan is
   * invisible to readers.
   */
  private void cleanOrphansOnce(String prefix, Instant olderThan) {
    if (!cleanedDirectories.add(prefix)) {
      return;
    }
    try {
      int removed = store.cleanupOrphans(prefix, olderThan);
      if (removed > 0) {
        LOG.info(
            "[{}] removed {} orphaned temporary files or uploads under {}",
            taskName,
            removed,
            prefix);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("[{}] cannot clean up orphans under {}: {}", taskName, prefix, e.toString());
    }
  }

  /**
   * Brings the open files' heap back under half of {@code buffer.max.bytes}: first by writing out
   * the row groups of the largest files, then, if the stores' own buffers still hold too much (S3
   * parts), by committing the Kafka partitions that hold the most.
   */
  private void relieveMemory() {
    MemoryBudget budget = runtime.budget();
    List<Map.Entry<OpenFile, TopicPartitionWriter>> files = new ArrayList<>();
    for (TopicPartitionWriter writer : writers.values()) {
      if (writer.epoch() != null) {
        for (OpenFile file : writer.epoch().files()) {
          budget.update(file);
          files.add(Map.entry(file, writer));
        }
      }
    }
    if (!budget.exceeded()) {
      return;
    }
    long before = budget.total();
    long target = budget.maxBytes() / 2;
    files.sort(
        Comparator.comparingLong(
                (Map.Entry<OpenFile, TopicPartitionWriter> e) -> e.getKey().accountedBytes())
            .reversed());
    for (Map.Entry<OpenFile, TopicPartitionWriter> entry : files) {
      if (budget.total() <= target) {
        break;
      }
      if (entry.getValue().epoch() != null && entry.getKey().writer() != null) {
        entry.getValue().flushRowGroup(entry.getKey());
      }
    }
    if (budget.total() > budget.maxBytes() * 3 / 4) {
      List<TopicPartitionWriter> byMemory = new ArrayList<>();
      for (TopicPartitionWriter writer : writers.values()) {
        if (writer.epoch() != null) {
          byMemory.add(writer);
        }
      }
      byMemory.sort(
          Comparator.comparingLong((TopicPartitionWriter w) -> w.epoch().accountedBytes())
              .reversed());
      for (TopicPartitionWriter writer : byMemory) {
        if (budget.total() <= target) {
          break;
        }
        writer.commit("buffer.max.bytes");
      }
    }
    LOG.debug(
        "[{}] memory budget: {} -> {} bytes of {}",
        taskName,
        before,
        budget.total(),
        budget.maxBytes());
  }
}
