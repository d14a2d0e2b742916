package dev.parquetconnect.iceberg.maintenance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.ParquetSinkConnector;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.commit.iceberg.OffsetSummary;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreKeys;
import dev.parquetconnect.storage.Stores;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policies of table maintenance on a Hadoop catalog in a local directory, with files the
 * production task commits: the codec-level merge keeps every column's type and field id and each
 * Kafka partition's offset order (also when a compacted file is merged again); the minimum age and
 * minimum input files leave partitions alone; expiry keeps the snapshot the sink resumes from;
 * orphan clean-up deletes only unreferenced files; the keys' rules.
 */
final class TableMaintenanceTest {
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 3;
  private static final long SCHEDULE_MS = 10_000;
  private static final Schema VALUE =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("price", Decimal.schema(2))
          .field("qty", Schema.INT16_SCHEMA)
          .build();

  @TempDir Path dir;

  @Test
  void compactedFilesKeepTypesFieldIdsAndOffsetOrder() throws Exception {
    Map<String, String> props = props("order");
    ingest(props, 0, 6);
    Table table = table(props);
    List<Path> before = dataFiles(table);
    try (Store store = store(props)) {
      TableCompactor compactor = new TableCompactor(store, CompactionPolicy.ofTarget(1 << 20));
      CompactionResult first = compactor.compact(table);
      assertEquals(PARTITIONS * 6, first.filesRewritten(), first.toString());
      assertEquals(1, first.filesWritten(), first.toString());
      // More commits, then the compacted file is an input again, before the new small files.
      ingest(props, 6, 9);
      CompactionResult second = compactor.compact(table);
      assertEquals(1 + PARTITIONS * 3, second.filesRewritten(), second.toString());
    }
    table.refresh();
    List<Path> after = dataFiles(table);
    assertEquals(1, after.size(), after.toString());
    Path compacted = after.get(0);
    assertTrue(compacted.getFileName().toString().startsWith(TableCompactor.FILE_PREFIX));
    assertEquals(
        FileReadBack.parquetJavaSchema(before.get(0)), FileReadBack.parquetJavaSchema(compacted));
    assertEquals(FileReadBack.duckTypes(before.get(0)), FileReadBack.duckTypes(compacted));
    Map<Long, Long> nextOffset = new HashMap<>();
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement()) {
      sql.execute("SET threads = 1");
      try (ResultSet r =
          sql.executeQuery(
              "SELECT __kafka_partition, __kafka_offset, id FROM '" + compacted + "'")) {
        while (r.next()) {
          long p = r.getLong(1);
          long o = r.getLong(2);
          assertEquals(nextOffset.getOrDefault(p, 0L), o, "partition " + p + " in offset order");
          assertEquals(o * PARTITIONS + p, r.getLong(3));
          nextOffset.put(p, o + 1);
        }
      }
    }
    assertEquals(Map.of(0L, 27L, 1L, 27L, 2L, 27L), nextOffset);
  }

  /**
   * Two compactions of one table at once (a rebalance moving partition 0): the one that commits
   * second finds its inputs rewritten, gives the partition up and deletes its files; an append
   * between a compaction's plan and its commit does not stop it. Every row stays once.
   */
  @Test
  void aConcurrentCompactionGivesUpAndAConcurrentAppendDoesNot() throws Exception {
    Map<String, String> props = props("concurrent");
    ingest(props, 0, 3);
    Table table = table(props);
    Table other = table(props);
    try (Store store = store(props)) {
      CompactionResult[] rival = new CompactionResult[1];
      TableCompactor late =
          new TableCompactor(store, CompactionPolicy.ofTarget(1 << 20))
              .beforeEachCommit(
                  () -> {
                    try {
                      rival[0] =
                          new TableCompactor(store, CompactionPolicy.ofTarget(1 << 20))
                              .compact(other);
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  });
      CompactionResult lost = late.compact(table);
      assertEquals(PARTITIONS * 3, rival[0].filesRewritten(), rival[0].toString());
      assertEquals(1, lost.groupsGivenUp(), lost.toString());
      assertEquals(0, lost.filesRewritten(), lost.toString());
      table.refresh();
      assertEquals(1, dataFiles(table).size());
      try (var files = Files.list(dataFiles(table).get(0).getParent())) {
        assertEquals(
            1,
            files
                .filter(f -> f.getFileName().toString().startsWith(TableCompactor.FILE_PREFIX))
                .count(),
            "the files of the compaction given up are deleted");
      }

      ingest(props, 3, 5);
      TableCompactor appendedMeanwhile =
          new TableCompactor(store, CompactionPolicy.ofTarget(1 << 20))
              .beforeEachCommit(() -> ingest(props, 5, 6));
      CompactionResult won = appendedMeanwhile.compact(table);
      assertEquals(1 + PARTITIONS * 2, won.filesRewritten(), won.toString());
    }
    table.refresh();
    long rows = 0;
    for (Path f : dataFiles(table)) {
      try (org.apache.parquet.hadoop.ParquetFileReader reader =
          org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(f))) {
        rows += reader.getRecordCount();
      }
    }
    assertEquals(6L * 3 * PARTITIONS, rows, "every row once");
    assertEquals(
        1 + PARTITIONS, dataFiles(table).size(), "the compacted file and the appended ones");
  }

  @Test
  void youngPartitionsAndTooFewFilesAreLeftAlone() throws Exception {
    Map<String, String> props = props("alone");
    ingest(props, 0, 2);
    Table table = table(props);
    try (Store store = store(props)) {
      CompactionPolicy young =
          new CompactionPolicy(1 << 20, 2, Long.MAX_VALUE, 3_600_000, 60_000, 1 << 26);
      assertEquals(0, new TableCompactor(store, young).compact(table).filesRewritten());
      CompactionPolicy many =
          new CompactionPolicy(1 << 20, 100, Long.MAX_VALUE, 0, 60_000, 1 << 26);
      assertEquals(0, new TableCompactor(store, many).compact(table).filesRewritten());
      long largest = 0;
      for (Path f : dataFiles(table)) {
        largest = Math.max(largest, Files.size(f));
      }
      CompactionPolicy small =
          new CompactionPolicy(2 * largest, 2, Long.MAX_VALUE, 0, 60_000, 1 << 26);
      CompactionResult r = new TableCompactor(store, small).compact(table);
      assertEquals(PARTITIONS * 2, r.filesRewritten(), r.toString());
      assertEquals(1, r.filesWritten(), r.toString());
    }
  }

  @Test
  void expiryKeepsTheSnapshotTheSinkResumesFromAndOrphansGo() throws Exception {
    Map<String, String> props = props("expiry");
    ingest(props, 0, 4);
    Table table = table(props);
    try (Store store = store(props)) {
      new TableCompactor(store, CompactionPolicy.ofTarget(1 << 20)).compact(table);
      table.refresh();
      assertEquals("replace", table.currentSnapshot().operation());
      ingest(props, 4, 5);
      table.refresh();
      Snapshot withOffsets = OffsetSummary.newestWithOffsets(table);
      Thread.sleep(5);
      int expired = new SnapshotExpiry(store, 0, 1, System::currentTimeMillis).expire(table);
      table.refresh();
      assertTrue(expired > 0);
      assertNotNull(table.snapshot(withOffsets.snapshotId()), "the sink's offsets stay readable");
      assertEquals(withOffsets.snapshotId(), OffsetSummary.newestWithOffsets(table).snapshotId());
      // The compacted inputs went with the expired snapshots; the live files stay.
      List<Path> live = dataFiles(table);
      try (var files = Files.walk(dir.resolve("expiry/store"))) {
        assertEquals(
            live.size(), files.filter(f -> f.toString().endsWith(".parquet")).count(), "left");
      }
      Path orphan = live.get(0).resolveSibling(TableCompactor.FILE_PREFIX + "1-dead-00000.parquet");
      Files.copy(live.get(0), orphan);
      Path fresh =
          live.get(0)
              .resolveSibling("orders+0+00000000000000000100+00000000000000000101-7.parquet");
      Files.copy(live.get(0), fresh);
      Files.setLastModifiedTime(orphan, FileTime.fromMillis(System.currentTimeMillis() - 120_000));
      OrphanFiles orphans = new OrphanFiles(store, 60_000, System::currentTimeMillis);
      assertEquals(1, orphans.clean(table, "topics/" + TOPIC));
      assertFalse(Files.exists(orphan));
      assertTrue(Files.exists(fresh), "younger than the minimum age");
      for (Path f : live) {
        assertTrue(Files.exists(f), f + " is referenced");
      }
    }
    // The sink resumes from the table although the snapshots of its commits are gone.
    List<TopicPartition> partitions = partitions();
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      task.put(records(0, 6 * 3));
      task.commitOpenFiles(SCHEDULE_MS);
      assertEquals(
          Map.of(partitions.get(0), 18L, partitions.get(1), 18L, partitions.get(2), 18L),
          task.committed());
    }
    assertEquals(18L * PARTITIONS, rows(table), "every offset once after expiry and a restart");
  }

  /**
   * An expiry killed during its deletes (every delete refused, as a halt before the first) leaves
   * the expired snapshots' manifests and manifest lists in the warehouse, and a killed compaction
   * its temporary file: the orphan clean-up deletes them once older than its minimum age, and never
   * a file a retained snapshot or the metadata log references, a younger one, a file of another
   * kind ({@code version-hint.text}) or a sink's temporary file.
   */
  @Test
  void expiredSnapshotsMetadataAndCompactionTemporariesGoOnceOldAndUnreferenced() throws Exception {
    Map<String, String> props = props("metadata");
    ingest(props, 0, 4);
    Table table = table(props);
    try (Store store = store(props)) {
      new TableCompactor(store, CompactionPolicy.ofTarget(1 << 20)).compact(table);
      ingest(props, 4, 5);
      table.refresh();
      Path metadataDir = MaintenanceTableChecks.path(table.location()).resolve("metadata");
      List<Path> before = metadataFiles(metadataDir);
      Thread.sleep(5);
      int expired =
          new SnapshotExpiry(store, 0, 1, System::currentTimeMillis)
              .crashPoints(
                  point -> {
                    throw new IllegalStateException("killed at " + point);
                  })
              .expire(table);
      assertTrue(expired > 0);
      table.refresh();
      List<Path> left = new ArrayList<>(before);
      left.removeIf(f -> referencedMetadata(table).contains(f.toString()));
      assertTrue(
          left.stream().anyMatch(f -> f.getFileName().toString().startsWith("snap-"))
              && left.stream().anyMatch(f -> !f.getFileName().toString().startsWith("snap-")),
          "the killed expiry left manifest lists and manifests: " + left);
      // Everything old, but a copy of a left manifest and the planted temporaries' young ones.
      long old = System.currentTimeMillis() - 120_000;
      try (var files = Files.walk(metadataDir)) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          Files.setLastModifiedTime(f, FileTime.fromMillis(old));
        }
      }
      Path youngOrphan = metadataDir.resolve("young-m0.avro");
      Files.copy(left.get(0), youngOrphan);
      Path partitionDir = dataFiles(table).get(0).getParent();
      Path compactedTemp = temporary(partitionDir, TableCompactor.FILE_PREFIX + "9-dead-00000");
      Path youngCompactedTemp =
          temporary(partitionDir, TableCompactor.FILE_PREFIX + "9-live-00000");
      Path sinkTemp = temporary(partitionDir, "orders+0+00000000000000000100");
      Files.setLastModifiedTime(compactedTemp, FileTime.fromMillis(old));
      Files.setLastModifiedTime(sinkTemp, FileTime.fromMillis(old));
      Path hint = metadataDir.resolve("version-hint.text");

      int deleted =
          new OrphanFiles(store, 60_000, System::currentTimeMillis).clean(table, "topics");
      assertEquals(left.size() + 1, deleted, "the expired snapshots' files and one temporary");
      for (Path f : left) {
        assertFalse(Files.exists(f), f + " of an expired snapshot");
      }
      assertFalse(Files.exists(compactedTemp), "a killed compaction's temporary file");
      assertTrue(Files.exists(youngOrphan), "younger than the minimum age");
      assertTrue(Files.exists(youngCompactedTemp), "a compaction in flight");
      assertTrue(Files.exists(sinkTemp), "a sink's open file: its own clean-up's");
      assertTrue(Files.exists(hint), "not a metadata file by its name");
      table.refresh();
      for (String kept : referencedMetadata(table)) {
        assertTrue(Files.exists(Path.of(kept)), kept + " is referenced");
      }
      MaintenanceTableChecks.assertEveryRetainedSnapshotComplete(table, "after the clean-up");
    }
    assertEquals(15L * PARTITIONS, rows(table), "every offset once");
  }

  @Test
  void orphanAgeBelowTheCommitTimeoutIsRefused() throws Exception {
    Map<String, String> props = props("rules");
    props.put(MaintenanceConfig.ORPHANS_ENABLED_CONFIG, "true");
    props.put(MaintenanceConfig.ORPHANS_MIN_AGE_MS_CONFIG, "1000");
    props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "60000");
    String errors =
        new ParquetSinkConnector()
            .validate(props).configValues().stream()
                .filter(v -> v.name().equals(MaintenanceConfig.ORPHANS_MIN_AGE_MS_CONFIG))
                .findFirst()
                .orElseThrow()
                .errorMessages()
                .toString();
    assertTrue(errors.contains("less than commit.timeout.ms"), errors);
  }

  /** Rounds {@code [from, to)} of 3 records per Kafka partition, one commit each. */
  private void ingest(Map<String, String> props, int from, int to) {
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions())) {
      for (int round = from; round < to; round++) {
        task.put(records(round * 3L, round * 3L + 3));
        task.commitOpenFiles(SCHEDULE_MS);
      }
    }
  }

  private static List<TopicPartition> partitions() {
    return IcebergFixture.partitions(TOPIC, PARTITIONS);
  }

  private static List<SinkRecord> records(long from, long to) {
    return IcebergFixture.records(TOPIC, PARTITIONS, from, to, VALUE, TableMaintenanceTest::value);
  }

  /** The value of id {@code id}. */
  private static Struct value(long id) {
    return new Struct(VALUE)
        .put("id", id)
        .put("name", id % 4 == 0 ? null : "n" + id)
        .put("price", java.math.BigDecimal.valueOf(id, 2))
        .put("qty", (short) (id % 100));
  }

  private Map<String, String> props(String name) throws Exception {
    return IcebergFixture.localSinkOnHadoop(dir.resolve(name), name, SCHEDULE_MS);
  }

  private static Store store(Map<String, String> props) throws Exception {
    ParquetSinkConfig config = new ParquetSinkConfig(props);
    return Stores.open(config.storeUrl(), config.storeSettings());
  }

  private static Table table(Map<String, String> props) {
    return IcebergFixture.catalogOf(props)
        .loadTable(TableIdentifier.of(IcebergFixture.NAMESPACE, TOPIC));
  }

  /** The rows of the table's current snapshot, after a refresh. */
  private static long rows(Table table) throws Exception {
    table.refresh();
    long rows = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask t : tasks) {
        rows += t.file().recordCount();
      }
    }
    return rows;
  }

  private static List<Path> metadataFiles(Path metadataDir) throws Exception {
    try (var files = Files.list(metadataDir)) {
      return files
          .filter(f -> OrphanMetadataFiles.isMetadataFileName(f.getFileName().toString()))
          .sorted()
          .toList();
    }
  }

  private static Set<String> referencedMetadata(Table table) {
    return OrphanMetadataFiles.referenced(table, (HasTableOperations) table);
  }

  /** A temporary file as a store names one while it writes {@code finalName}.parquet. */
  private static Path temporary(Path dir, String finalName) throws Exception {
    return Files.writeString(
        dir.resolve(
            StoreKeys.TEMP_PREFIX + "0123456789abcdef0123456789abcdef-" + finalName + ".parquet"),
        "partial");
  }

  private static List<Path> dataFiles(Table table) throws Exception {
    List<Path> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(Path.of(URI.create(task.file().location())));
      }
    }
    files.sort(null);
    return files;
  }
}
