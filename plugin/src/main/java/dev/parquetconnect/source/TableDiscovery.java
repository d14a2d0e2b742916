package dev.parquetconnect.source;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.read.ColumnBatch;
import dev.parquetconnect.format.read.ColumnReader;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.sink.commit.iceberg.IcebergCatalogs;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The data files of an Iceberg table the sink wrote, as one snapshot references them: the
 * configured snapshot id, the snapshot current at {@code replay.as.of.timestamp}, or else the
 * table's current snapshot when the task starts (pinned: every later listing gives the same files,
 * so the replay is repeatable; a new task pins the then current one). Iceberg's scan planning
 * leaves out the files whose partition values and column bounds rule out the selection ({@link
 * TableScanFilter}); the rest are read from the store, like a directory's files, by {@link
 * PartitionReplay}.
 *
 * <p>Every file the snapshot references is committed, so each is listed as attempt 0 (in the table
 * the attempt number is random and says nothing about order). A file carries its original topic,
 * partition and first offset in the sink's name; a file named otherwise (one a compaction wrote) by
 * the bounds of its {@code __kafka_*} columns. Files whose offsets overlap (a compacted file and
 * the files it replaced, read at different snapshots) are safe: a partition's replay never sends an
 * offset that is not above the last one sent.
 */
final class TableDiscovery implements SourceDiscovery {
  private static final Logger LOG = LoggerFactory.getLogger(TableDiscovery.class);

  private final Store store;
  private final ParquetSourceConfig config;
  private final TaskAssignment assignment;
  private final String logPrefix;
  private Catalog catalog;
  private List<FileDiscovery.Found> pinned;

  TableDiscovery(Store store, ParquetSourceConfig config, String logPrefix) {
    this.store = store;
    this.config = config;
    this.assignment = new TaskAssignment(config.taskIndex(), config.taskCount());
    this.logPrefix = logPrefix;
  }

  @Override
  public List<FileDiscovery.Found> list() throws IOException {
    if (pinned != null) {
      return pinned;
    }
    if (catalog == null) {
      catalog = IcebergCatalogs.open(TableReplayConfig.catalogSettings(config));
    }
    String name = config.getString(TableReplayConfig.TABLE_CONFIG).trim();
    Table table;
    try {
      table = catalog.loadTable(TableIdentifier.parse(name));
    } catch (org.apache.iceberg.exceptions.NoSuchTableException e) {
      throw new ConnectException(
          logPrefix + " table " + name + " does not exist: " + e.getMessage());
    } catch (RuntimeException e) {
      throw new IOException("loading table " + name + ": " + e, e);
    }
    Snapshot snapshot = snapshot(table, name);
    if (snapshot == null) {
      LOG.info("{} table {} has no snapshot yet; looking again later", logPrefix, name);
      return List.of();
    }
    Expression filter =
        TableScanFilter.of(
            ReplaySelectionConfig.filter(config.getString(ReplaySelectionConfig.FILTER_CONFIG)),
            ReplaySelectionConfig.timestamp(
                config.getString(ReplaySelectionConfig.FROM_TIMESTAMP_CONFIG)),
            ReplaySelectionConfig.timestamp(
                config.getString(ReplaySelectionConfig.UNTIL_TIMESTAMP_CONFIG)),
            ReplaySelectionConfig.offsets(config.getList(ReplaySelectionConfig.FROM_OFFSET_CONFIG)),
            ReplaySelectionConfig.offsets(
                config.getList(ReplaySelectionConfig.UNTIL_OFFSET_CONFIG)),
            table.schemas().get(snapshot.schemaId()) != null
                ? table.schemas().get(snapshot.schemaId())
                : table.schema());
    List<FileDiscovery.Found> found = new ArrayList<>();
    int planned = 0;
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(snapshot.snapshotId()).filter(filter).planFiles()) {
      for (FileScanTask task : tasks) {
        planned++;
        DataFile file = task.file();
        if (!task.deletes().isEmpty()) {
          throw new ConnectException(
              logPrefix
                  + " data file "
                  + file.location()
                  + " of table "
                  + name
                  + " has delete files: the sink never writes deletes, and replaying rows "
                  + "another writer deleted is not supported");
        }
        StoreFile storeFile =
            new StoreFile(
                key(file.location(), name),
                file.fileSizeInBytes(),
                Instant.ofEpochMilli(snapshot.timestampMillis()),
                false);
        for (SinkFileName origin : origins(table, file, storeFile, name)) {
          if (assignment.ownsPartition(origin.topic(), origin.partition())) {
            found.add(new FileDiscovery.Found(storeFile, origin));
          }
        }
      }
    } catch (RuntimeException e) {
      if (e instanceof ConnectException c) {
        throw c;
      }
      throw new IOException("planning the scan of table " + name + ": " + e, e);
    }
    String total = snapshot.summary().get("total-data-files");
    LOG.info(
        "{} replaying table {} at snapshot {} ({}): {} of its {} data files planned (scan filter"
            + " {}), {} of them this task's",
        logPrefix,
        name,
        snapshot.snapshotId(),
        Instant.ofEpochMilli(snapshot.timestampMillis()),
        planned,
        total == null ? "?" : total,
        filter,
        found.size());
    pinned = List.copyOf(found);
    return pinned;
  }

  /** The snapshot replayed, or null for a table without any (its current one, not yet made). */
  private Snapshot snapshot(Table table, String name) {
    Long id = TableReplayConfig.snapshotId(config);
    Long asOf = TableReplayConfig.asOfTimestamp(config);
    if (id != null) {
      Snapshot s = table.snapshot(id);
      if (s == null) {
        throw new ConnectException(
            logPrefix
                + " table "
                + name
                + " has no snapshot "
                + id
                + " (expired, or another table's)");
      }
      return s;
    }
    if (asOf != null) {
      try {
        return table.snapshot(SnapshotUtil.snapshotIdAsOfTime(table, asOf));
      } catch (IllegalArgumentException e) {
        throw new ConnectException(
            logPrefix
                + " table "
                + name
                + " has no snapshot at or before "
                + Instant.ofEpochMilli(asOf)
                + " ("
                + TableReplayConfig.AS_OF_TIMESTAMP_CONFIG
                + ")");
      }
    }
    return table.currentSnapshot();
  }

  /** The store key of a data file's location, which must lie under {@code store.url}. */
  private String key(String location, String table) {
    try {
      return storeKey(store, location, table);
    } catch (IllegalArgumentException e) {
      throw new ConnectException(logPrefix + " " + e.getMessage());
    }
  }

  /**
   * The key in {@code store} of a table's data file at {@code location}.
   *
   * @throws IllegalArgumentException when the location is not under the store's URL
   */
  static String storeKey(Store store, String location, String table) {
    String root = store.url();
    String prefix = root.endsWith("/") ? root : root + "/";
    if (location.startsWith(prefix)) {
      return location.substring(prefix.length());
    }
    // file:/path and file:///path name the same local file.
    if (root.startsWith("file:") && location.startsWith("file:")) {
      String r = prefix.replaceFirst("^file:/+", "/");
      String l = location.replaceFirst("^file:/+", "/");
      if (l.startsWith(r)) {
        return l.substring(r.length());
      }
    }
    throw new IllegalArgumentException(
        "data file "
            + location
            + " of table "
            + table
            + " is not under store.url "
            + root
            + ": set store.url to the store the sink wrote the table's files to");
  }

  /**
   * The original topics, partitions and first offsets of a data file: from the sink's name, else (a
   * file a compaction wrote) from the bounds of its {@code __kafka_*} columns when it holds one
   * Kafka partition, else from its {@code __kafka_partition} and {@code __kafka_offset} columns,
   * read once here: a compacted file of an Iceberg partition holds the rows of every Kafka
   * partition routed there, each partition's in offset order. {@link PartitionReplay} reads such a
   * file once per Kafka partition, only that partition's rows.
   */
  private List<SinkFileName> origins(Table table, DataFile file, StoreFile storeFile, String name)
      throws IOException {
    SinkFileName parsed = SinkFileName.parse(storeFile.name());
    if (parsed != null) {
      // The attempt of a table's file is random and says nothing: every referenced file counts.
      return List.of(
          new SinkFileName(
              parsed.topic(), parsed.partition(), parsed.firstOffset(), 0, parsed.lastOffset()));
    }
    Object topicLow = bound(table, file, FileLayout.TOPIC_COLUMN, Types.StringType.get(), false);
    Object topicHigh = bound(table, file, FileLayout.TOPIC_COLUMN, Types.StringType.get(), true);
    Object partLow =
        bound(table, file, FileLayout.PARTITION_COLUMN, Types.IntegerType.get(), false);
    Object partHigh =
        bound(table, file, FileLayout.PARTITION_COLUMN, Types.IntegerType.get(), true);
    Object first = bound(table, file, FileLayout.OFFSET_COLUMN, Types.LongType.get(), false);
    Object last = bound(table, file, FileLayout.OFFSET_COLUMN, Types.LongType.get(), true);
    if (topicLow != null
        && topicLow.toString().equals(String.valueOf(topicHigh))
        && partLow != null
        && partLow.equals(partHigh)
        && first != null
        && last != null) {
      return List.of(
          new SinkFileName(topicLow.toString(), (Integer) partLow, (Long) first, 0, (Long) last));
    }
    List<SinkFileName> origins = new ArrayList<>();
    try {
      for (Map.Entry<TopicPartition, long[]> e : offsetRanges(storeFile.key()).entrySet()) {
        long[] range = e.getValue();
        origins.add(
            new SinkFileName(e.getKey().topic(), e.getKey().partition(), range[0], 0, range[1]));
      }
    } catch (ParquetException | RuntimeException e) {
      throw new ConnectException(
          logPrefix
              + " data file "
              + file.location()
              + " of table "
              + name
              + " is not named like the sink's files, and its Kafka partitions cannot be read"
              + " from its __kafka_topic, __kafka_partition and __kafka_offset columns: "
              + e.getMessage(),
          e);
    }
    return origins;
  }

  /**
   * The first and last {@code __kafka_offset} of each original topic-partition in a file: the last
   * one tells the replay which other files' offsets interleave with this one's (a compacted file of
   * another Iceberg partition), to be read together in offset order.
   */
  private Map<TopicPartition, long[]> offsetRanges(String key)
      throws IOException, ParquetException {
    Map<TopicPartition, long[]> ranges =
        new TreeMap<>(
            Comparator.comparing(TopicPartition::topic)
                .thenComparingInt(TopicPartition::partition));
    try (StoreInput input = store.open(key);
        ParquetFileReader reader = ParquetFileReader.open(input)) {
      ColumnDescriptor topics = reader.schema().column(FileLayout.TOPIC_COLUMN);
      ColumnDescriptor partitions = reader.schema().column(FileLayout.PARTITION_COLUMN);
      ColumnDescriptor offsets = reader.schema().column(FileLayout.OFFSET_COLUMN);
      if (topics == null
          || partitions == null
          || offsets == null
          || topics.maxRepetitionLevel() != 0
          || partitions.maxRepetitionLevel() != 0
          || offsets.maxRepetitionLevel() != 0
          || topics.primitive().type() != PhysicalType.BYTE_ARRAY
          || partitions.primitive().type() != PhysicalType.INT32
          || offsets.primitive().type() != PhysicalType.INT64) {
        throw new IllegalArgumentException(
            "no top-level __kafka_topic, INT32 __kafka_partition and INT64 __kafka_offset");
      }
      ColumnBatch t = new ColumnBatch(PhysicalType.BYTE_ARRAY, 4096);
      ColumnBatch p = new ColumnBatch(PhysicalType.INT32, 4096);
      ColumnBatch o = new ColumnBatch(PhysicalType.INT64, 4096);
      for (int g = 0; g < reader.rowGroups().size(); g++) {
        try (ColumnReader tr = reader.columnReader(g, topics);
            ColumnReader pr = reader.columnReader(g, partitions);
            ColumnReader or = reader.columnReader(g, offsets)) {
          int n;
          while ((n = pr.readBatch(p)) > 0) {
            if (or.readBatch(o) != n || tr.readBatch(t) != n) {
              throw new IllegalArgumentException("the __kafka_* columns hold different row counts");
            }
            BinaryBatch names = t.plainBinaries();
            int tv = 0;
            int pv = 0;
            int ov = 0;
            String topic = null;
            byte[] topicBytes = null;
            for (int i = 0; i < n; i++) {
              boolean hasT = topics.maxDefinitionLevel() == 0 || t.definitionLevels()[i] > 0;
              boolean hasP = partitions.maxDefinitionLevel() == 0 || p.definitionLevels()[i] > 0;
              boolean hasO = offsets.maxDefinitionLevel() == 0 || o.definitionLevels()[i] > 0;
              int at = hasT ? tv++ : -1;
              int partition = hasP ? p.ints()[pv++] : -1;
              long offset = hasO ? o.longs()[ov++] : -1;
              if (at < 0 || !hasP || !hasO) {
                continue;
              }
              // Rows of one topic come in long runs: a new String only where the topic changes.
              if (topicBytes == null
                  || !Arrays.equals(
                      topicBytes,
                      0,
                      topicBytes.length,
                      names.data(),
                      names.offset(at),
                      names.offset(at) + names.length(at))) {
                topicBytes =
                    Arrays.copyOfRange(
                        names.data(), names.offset(at), names.offset(at) + names.length(at));
                topic = new String(topicBytes, StandardCharsets.UTF_8);
              }
              long[] range =
                  ranges.computeIfAbsent(
                      new TopicPartition(topic, partition),
                      tp -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE});
              range[0] = Math.min(range[0], offset);
              range[1] = Math.max(range[1], offset);
            }
          }
        }
      }
    }
    return ranges;
  }

  private static Object bound(Table table, DataFile file, String column, Type type, boolean upper) {
    Types.NestedField field = table.schema().findField(column);
    if (field == null) {
      return null;
    }
    ByteBuffer b =
        upper
            ? (file.upperBounds() == null ? null : file.upperBounds().get(field.fieldId()))
            : (file.lowerBounds() == null ? null : file.lowerBounds().get(field.fieldId()));
    return b == null ? null : Conversions.fromByteBuffer(type, b);
  }

  @Override
  public void close() {
    if (catalog instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.debug("{} closing the catalog: {}", logPrefix, e.toString());
      }
    }
  }
}
