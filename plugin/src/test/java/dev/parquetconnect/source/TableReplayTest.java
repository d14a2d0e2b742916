package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.filter.PredicateParser;
import dev.parquetconnect.iceberg.maintenance.CompactionPolicy;
import dev.parquetconnect.iceberg.maintenance.CompactionResult;
import dev.parquetconnect.iceberg.maintenance.TableCompactor;
import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.source.SinkArchive.Original;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source replaying an Iceberg table the sink wrote in table mode (Iceberg's REST catalog
 * in-process, a local warehouse): at the current snapshot, at an older snapshot id and at a
 * timestamp, with a filter and a time range, and after a restart mid-replay, the records equal the
 * files-mode replay of the same records, written by the same sink in files mode.
 */
final class TableReplayTest {
  private static final Logger LOG = LoggerFactory.getLogger(TableReplayTest.class);
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 2;
  private static final int PER_COMMIT = 40;
  private static final int COMMITS = 3;
  private static final long SCHEDULE_MS = 10_000;

  @TempDir static Path dir;
  private static IcebergFixture rest;
  private static Catalog catalog;
  private static Path tableStore;
  private static Path filesStore;
  private static long firstSnapshotId;
  private static long firstSnapshotMillis;

  @BeforeAll
  static void writeTheTableAndTheFiles() throws Exception {
    rest = IcebergFixture.restOnLocalDisk(dir);
    catalog = rest.catalog();
    tableStore = Files.createDirectories(dir.resolve("table-store"));
    filesStore = Files.createDirectories(dir.resolve("files-store"));
    Map<String, String> table = rest.tableMode(sinkProps(tableStore, "table-sink"));
    Map<String, String> files = sinkProps(filesStore, "files-sink");
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition(TOPIC, p));
    }
    try (SinkTaskHarness tableSink = new SinkTaskHarness(table, partitions);
        SinkTaskHarness filesSink = new SinkTaskHarness(files, partitions)) {
      for (int c = 0; c < COMMITS; c++) {
        List<SinkRecord> batch = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
          for (Original o : SinkArchive.records(TOPIC, p, (long) c * PER_COMMIT, PER_COMMIT)) {
            batch.add(o.asSinkRecord());
          }
        }
        tableSink.put(batch);
        tableSink.commitOpenFiles(SCHEDULE_MS);
        filesSink.put(batch);
        filesSink.commitOpenFiles(SCHEDULE_MS);
        if (c == 0) {
          Snapshot first = table().currentSnapshot();
          firstSnapshotId = first.snapshotId();
          firstSnapshotMillis = first.timestampMillis();
          Thread.sleep(5); // later snapshots are committed after this instant
        }
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (rest != null) {
      rest.close();
    }
  }

  @Test
  void theCurrentSnapshotReplaysAsTheFilesDo() throws Exception {
    List<SourceRecord> fromTable = replay(tableProps());
    List<SourceRecord> fromFiles = replay(filesProps());
    assertEquals(PARTITIONS * PER_COMMIT * COMMITS, fromTable.size());
    assertSameRecords(fromFiles, fromTable);
    Map<Long, Original> originals = originals();
    for (SourceRecord r : fromTable) {
      ReplayAssertions.assertReplayed(originals.get(id(r)), r);
    }
  }

  @Test
  void anOlderSnapshotIdAndATimestampReplayWhatTheTableHeldThen() throws Exception {
    List<SourceRecord> expected = new ArrayList<>();
    for (SourceRecord r : replay(filesProps())) {
      if (offset(r) < PER_COMMIT) {
        expected.add(r);
      }
    }
    assertEquals(PARTITIONS * PER_COMMIT, expected.size());
    assertSameRecords(
        expected,
        replay(tableProps(TableReplayConfig.SNAPSHOT_ID_CONFIG, Long.toString(firstSnapshotId))));
    assertSameRecords(
        expected,
        replay(
            tableProps(
                TableReplayConfig.AS_OF_TIMESTAMP_CONFIG, Long.toString(firstSnapshotMillis))));
  }

  @Test
  void aFilterAndATimeRangeSelectWhatTheyDoInFiles() throws Exception {
    String[] selection = {
      ReplaySelectionConfig.FILTER_CONFIG,
      "(id < 60 AND name <> 'record-7') OR address.zip IN (20090, 20100)"
          + " OR (__kafka_partition = 1 AND __kafka_offset >= 110)",
      ReplaySelectionConfig.FROM_TIMESTAMP_CONFIG,
      Long.toString(1_700_000_000_000L + 3),
    };
    List<SourceRecord> fromFiles = replay(filesProps(selection));
    List<SourceRecord> fromTable = replay(tableProps(selection));
    LOG.info("filter and time range: {} records", fromTable.size());
    assertTrue(fromTable.size() > 60 && fromTable.size() < 100, "a selection: " + fromTable.size());
    assertSameRecords(fromFiles, fromTable);
  }

  /** Iceberg's planning leaves out the files the translated selection rules out. */
  @Test
  void scanPlanningPrunesByTheTranslatedFilter() throws Exception {
    Table t = table();
    assertEquals(PARTITIONS * COMMITS, plannedFiles(t, "__kafka_offset >= 0"));
    // Partition 0's ids are 0..119, partition 1's from 1,000,000: only partition 0's files.
    assertEquals(COMMITS, plannedFiles(t, "id < 1000"));
    // The offsets of one commit, of each partition.
    assertEquals(PARTITIONS, plannedFiles(t, "__kafka_offset BETWEEN 40 AND 79"));
    // An OR with a part that does not translate (a decimal column) prunes nothing.
    assertEquals(PARTITIONS * COMMITS, plannedFiles(t, "id < 1000 OR amount > 1"));
    // A NOT over an inexact AND neither.
    assertEquals(PARTITIONS * COMMITS, plannedFiles(t, "NOT (id < 1000 AND amount > 1)"));
    // A NOT over an exact one does.
    assertEquals(PARTITIONS * COMMITS - COMMITS, plannedFiles(t, "NOT (id < 1000000)"));
  }

  @Test
  void aRestartMidReplayResumesExactlyAfterTheLastCommittedRecord() throws Exception {
    Map<String, String> props = tableProps(ParquetSourceConfig.BATCH_SIZE_CONFIG, "17");
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> sent = new ArrayList<>();
    try {
      for (int i = 0; i < 5; i++) {
        sent.addAll(driver.poll(true));
      }
      driver.poll(false); // polled, never committed: sent again after the restart
      driver = driver.restart();
      sent.addAll(driver.drain(20));
    } finally {
      driver.stop();
    }
    assertSameRecords(replay(filesProps()), sent);
  }

  /**
   * After a compaction (the maintenance's {@code TableCompactor}: one file of every Kafka
   * partition's rows per Iceberg partition), the replay sends the same records; a replay
   * interrupted before the compaction resumes after it exactly, from a file that no longer exists.
   */
  @Test
  void aCompactedTableReplaysTheSameRecordsAndResumesAcrossTheCompaction() throws Exception {
    replaysTheSameRecordsAcrossACompaction("events", null, 1);
  }

  /**
   * A partitioned table's compacted files each hold part of every Kafka partition's offsets (here
   * the ids of one bucket, so offsets interleave between the two files): the replay reads them
   * together in offset order, as the files of one commit, and loses none.
   */
  @Test
  void aCompactedPartitionedTableReplaysTheInterleavedFilesTogether() throws Exception {
    replaysTheSameRecordsAcrossACompaction("bucketed", "bucket(2, id)", 2);
  }

  private void replaysTheSameRecordsAcrossACompaction(
      String topic, String partitionSpec, int compactedFiles) throws Exception {
    Map<String, String> sink = sinkProps(tableStore, "compaction-sink-" + topic);
    rest.tableMode(sink);
    if (partitionSpec != null) {
      sink.put(IcebergConfig.PARTITION_SPEC_CONFIG, partitionSpec);
    }
    List<TopicPartition> partitions =
        List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
    Schema value =
        SchemaBuilder.struct()
            .name("Event")
            .field("id", Schema.INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    try (SinkTaskHarness tableSink = new SinkTaskHarness(sink, partitions)) {
      for (int c = 0; c < COMMITS; c++) {
        List<SinkRecord> batch = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
          for (long o = (long) c * PER_COMMIT; o < (c + 1L) * PER_COMMIT; o++) {
            long id = p * 1_000_000L + o;
            ConnectHeaders headers = new ConnectHeaders();
            headers.addString("source", "event-" + id);
            batch.add(
                new SinkRecord(
                    topic,
                    p,
                    Schema.OPTIONAL_STRING_SCHEMA,
                    id % 7 == 0 ? null : "key-" + id,
                    value,
                    new Struct(value).put("id", id).put("name", id % 5 == 0 ? null : "n" + id),
                    o,
                    1_700_000_000_000L + id,
                    TimestampType.CREATE_TIME,
                    headers));
          }
        }
        tableSink.put(batch);
        tableSink.commitOpenFiles(SCHEDULE_MS);
      }
    }
    Map<String, String> props = tableProps(ParquetSourceConfig.BATCH_SIZE_CONFIG, "23");
    props.put(TableReplayConfig.TABLE_CONFIG, "lake." + topic);
    List<SourceRecord> before = replay(props);
    assertEquals(PARTITIONS * PER_COMMIT * COMMITS, before.size());
    // Part of a replay, committed, before the compaction.
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> sent = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      sent.addAll(driver.poll(true));
    }
    Table table = catalog.loadTable(TableIdentifier.of("lake", topic));
    try (Store store = Stores.open(tableStore.toUri().toString(), Map.of())) {
      CompactionResult result =
          new TableCompactor(store, CompactionPolicy.ofTarget(64L << 20)).compact(table);
      LOG.info("compaction: {}", result);
    }
    table.refresh();
    List<String> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> files.add(t.file().location()));
    }
    LOG.info("data files after the compaction: {}", files);
    assertEquals(
        compactedFiles,
        files.size(),
        "one compacted file of both Kafka partitions per Iceberg partition: " + files);
    assertSameRecords(before, replay(props));
    try {
      driver = driver.restart();
      sent.addAll(driver.drain(20));
    } finally {
      driver.stop();
    }
    assertSameRecords(before, sent);
  }

  @Test
  void validateNamesWhatATableReplayLacks() {
    Map<String, String> props = tableProps();
    props.remove(TableReplayConfig.TABLE_CONFIG);
    props.put(ParquetSourceConfig.AFTER_REPLAY_CONFIG, "delete");
    props.put(TableReplayConfig.SNAPSHOT_ID_CONFIG, "1");
    props.put(TableReplayConfig.AS_OF_TIMESTAMP_CONFIG, "2026-11-24T00:00:00Z");
    Config result = ParquetSourceConfig.validate(props);
    Map<String, List<String>> errors = new TreeMap<>();
    for (ConfigValue v : result.configValues()) {
      if (!v.errorMessages().isEmpty()) {
        errors.put(v.name(), v.errorMessages());
      }
    }
    LOG.info("validate: {}", errors);
    assertTrue(errors.containsKey(TableReplayConfig.TABLE_CONFIG), errors.toString());
    assertTrue(errors.containsKey(ParquetSourceConfig.AFTER_REPLAY_CONFIG), errors.toString());
    assertTrue(errors.containsKey(TableReplayConfig.AS_OF_TIMESTAMP_CONFIG), errors.toString());
    assertFalse(errors.containsKey(IcebergConfig.CATALOG_URI_CONFIG), "the catalog's URI is set");
  }

  @Test
  void aSnapshotTheTableDoesNotHaveFailsTheTask() throws Exception {
    TaskDriver driver =
        new TaskDriver(tableProps(TableReplayConfig.SNAPSHOT_ID_CONFIG, "42")).start();
    try {
      ConnectException e =
          org.junit.jupiter.api.Assertions.assertThrows(
              ConnectException.class, () -> driver.poll(true));
      assertTrue(e.getMessage().contains("has no snapshot 42"), e.getMessage());
    } finally {
      driver.stop();
    }
  }

  // ---- helpers

  private static Map<String, String> sinkProps(Path store, String name) {
    Map<String, String> props = new HashMap<>();
    props.put("name", name);
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, store.toUri().toString());
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(SCHEDULE_MS));
    props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    props.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
    return props;
  }

  private static Map<String, String> tableProps(String... keyValues) {
    Map<String, String> p = ReplayModeTest.props(tableStore, keyValues);
    p.put(TableReplayConfig.SOURCE_TABLE_FORMAT_CONFIG, "iceberg");
    p.put(TableReplayConfig.TABLE_CONFIG, "lake." + TOPIC);
    p.put(IcebergConfig.CATALOG_URI_CONFIG, rest.uri());
    return p;
  }

  private static Map<String, String> filesProps(String... keyValues) {
    return ReplayModeTest.props(filesStore, keyValues);
  }

  private static Table table() {
    return catalog.loadTable(TableIdentifier.of("lake", TOPIC));
  }

  private static int plannedFiles(Table t, String filter) throws Exception {
    Expression e =
        TableScanFilter.of(
            PredicateParser.parse(filter), null, null, Map.of(), Map.of(), t.schema());
    int n = 0;
    try (CloseableIterable<FileScanTask> tasks = t.newScan().filter(e).planFiles()) {
      for (FileScanTask task : tasks) {
        n++;
      }
    }
    LOG.info("'{}' as {}: {} files", filter, e, n);
    return n;
  }

  private static List<SourceRecord> replay(Map<String, String> props) throws Exception {
    TaskDriver driver = new TaskDriver(props).start();
    try {
      return driver.drain(15);
    } finally {
      driver.stop();
    }
  }

  private static Map<Long, Original> originals() {
    Map<Long, Original> byId = new HashMap<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (Original o : SinkArchive.records(TOPIC, p, 0, PER_COMMIT * COMMITS)) {
        byId.put(o.id(), o);
      }
    }
    return byId;
  }

  private static long id(SourceRecord r) {
    return ((Struct) r.value()).getInt64("id");
  }

  private static long offset(SourceRecord r) {
    return ((Number) r.sourceOffset().get(SourcePositions.OFFSET)).longValue();
  }

  /**
   * The same records per original partition, in the same order, each once: topic, partition,
   * timestamp, key and value with their schemas, headers, original offset.
   */
  private static void assertSameRecords(List<SourceRecord> expected, List<SourceRecord> actual) {
    assertEquals(byPartition(expected), byPartition(actual));
    Set<String> seen = new HashSet<>();
    for (SourceRecord r : actual) {
      assertTrue(seen.add(r.kafkaPartition() + "@" + offset(r)), "sent once: " + r);
    }
  }

  private static Map<Integer, List<String>> byPartition(List<SourceRecord> records) {
    Map<Integer, List<String>> out = new TreeMap<>();
    for (SourceRecord r : records) {
      List<String> headers = new ArrayList<>();
      for (Header h : r.headers()) {
        headers.add(h.key() + ":" + h.schema() + "=" + h.value());
      }
      out.computeIfAbsent(r.kafkaPartition(), k -> new ArrayList<>())
          .add(
              String.join(
                  " | ",
                  r.topic(),
                  String.valueOf(offset(r)),
                  String.valueOf(r.timestamp()),
                  String.valueOf(r.keySchema()),
                  String.valueOf(r.key()),
                  String.valueOf(r.valueSchema()),
                  String.valueOf(r.value()),
                  headers.toString()));
    }
    return out;
  }
}
