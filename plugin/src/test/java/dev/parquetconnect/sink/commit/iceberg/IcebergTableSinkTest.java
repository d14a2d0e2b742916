package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.it.IcebergRestServer;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.ParquetSinkConnector;
import dev.parquetconnect.sink.SinkClock;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.ValueRecords;
import dev.parquetconnect.sink.commit.CommitProtocol;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's table mode through the production task in-process, against Iceberg's own catalogs
 * (Hadoop on local disk, JDBC on SQLite, REST on Iceberg's REST catalog servlet): every offset once
 * in the table as Iceberg's generic reader reads it, one snapshot per round of the table commit
 * (all partitions' and all tasks' staged ranges) with the offsets in its summary, a restart
 * resuming from the table, a zombie's range refused and its files deleted, a paused committer that
 * comes back adding nothing twice.
 */
final class IcebergTableSinkTest {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergTableSinkTest.class);
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 3;
  private static final long SCHEDULE_MS = 10_000;
  private static final Schema VALUE = IcebergFixture.ORDER_VALUE;

  @TempDir static Path dir;
  private static IcebergRestServer rest;

  @BeforeAll
  static void startRestCatalog() throws Exception {
    rest =
        IcebergRestServer.start(
            Files.createDirectories(dir.resolve("rest")),
            dir.resolve("rest-warehouse").toString(),
            Map.of());
  }

  /** The test's own catalogs, closed last (a REST catalog's FileIO closes with it). */
  private static final List<Catalog> CATALOGS = new ArrayList<>();

  @AfterAll
  static void stopRestCatalog() throws Exception {
    for (Catalog catalog : CATALOGS) {
      if (catalog instanceof java.io.Closeable closeable) {
        closeable.close();
      }
    }
    if (rest != null) {
      rest.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"hadoop", "jdbc", "rest"})
  void everyOffsetOnceAndRestartResumesFromTheTable(String catalogType) throws Exception {
    Map<String, String> props = props(catalogType, "sink-" + catalogType);
    List<TopicPartition> partitions = partitions();
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      task.put(records(0, 40));
      task.commitOpenFiles(SCHEDULE_MS);
      task.put(records(40, 70));
      task.commitOpenFiles(SCHEDULE_MS);
    }
    // A restart: Connect delivers from its own (older) offsets; the table says where to resume.
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      task.put(records(0, 100));
      task.commitOpenFiles(SCHEDULE_MS);
      assertEquals(
          Map.of(partitions.get(0), 100L, partitions.get(1), 100L, partitions.get(2), 100L),
          task.committed());
    }
    Table table = loadTable(props);
    {
      assertEquals(expectedRows(100), rows(table), catalogType);
      int snapshots = 0;
      for (Snapshot s : table.snapshots()) {
        snapshots++;
      }
      // One snapshot per round of the table commit, each with the ranges of all three
      // partitions: three rounds (the table's creation, a name mapping, holds no data).
      assertEquals(3, countAppends(table), catalogType);
      Map<String, String> summary = table.currentSnapshot().summary();
      for (int p = 0; p < PARTITIONS; p++) {
        assertEquals(
            "99", summary.get("parquet-connect.offset.sink-" + catalogType + "/orders/" + p));
        String range = summary.get("parquet-connect.commit.sink-" + catalogType + "/orders/" + p);
        assertTrue(range != null && range.matches("70/99/\\d+"), range);
      }
      assertEquals(List.of(), unreferencedFiles(table), "every data file is referenced");
      LOG.info("{}: {} snapshots, {} rows", catalogType, snapshots, expectedRows(100).size());
    }
  }

  @Test
  void aZombieCommitIsRefusedAndItsFilesDeleted() throws Exception {
    Map<String, String> props = props("hadoop", "zombie");
    List<TopicPartition> one = List.of(new TopicPartition(TOPIC, 0));
    try (SinkTaskHarness zombie = new SinkTaskHarness(props, one)) {
      zombie.put(records(0, 10, 0));
      // The partition moves to a new owner, which commits a longer range first.
      try (SinkTaskHarness owner = new SinkTaskHarness(props, one)) {
        owner.put(records(0, 20, 0));
        owner.commitOpenFiles(SCHEDULE_MS);
      }
      zombie.commitOpenFiles(SCHEDULE_MS);
      // Fenced: it read the table again and resumes after the owner's range.
      assertEquals(Map.of(one.get(0), 20L), zombie.committed());
    }
    Table table = loadTable(props);
    {
      Map<Long, Long> expected = new TreeMap<>();
      for (long o = 0; o < 20; o++) {
        expected.put(o, o * PARTITIONS);
      }
      Map<Long, Long> offsets = new TreeMap<>();
      for (Map.Entry<List<Object>, Integer> row : rows(table).entrySet()) {
        assertEquals(1, row.getValue(), "row " + row.getKey() + " once");
        offsets.put((Long) row.getKey().get(3), (Long) row.getKey().get(0));
      }
      assertEquals(expected, offsets);
      assertEquals(List.of(), unreferencedFiles(table), "the zombie's files are deleted");
    }
  }

  /**
   * Two tasks that stage their ranges in the same interval: the first whose round comes due commits
   * both in one snapshot; the second finds its range there and commits nothing.
   */
  @Test
  void theRangesOfTwoTasksGoIntoOneSnapshotPerInterval() throws Exception {
    Map<String, String> props = props("jdbc", "two-tasks");
    List<TopicPartition> all = partitions();
    try (SinkTaskHarness first = new SinkTaskHarness(props, all.subList(0, 2));
        SinkTaskHarness second = new SinkTaskHarness(props, all.subList(2, 3))) {
      SinkTaskHarness.alignClocks(first, second);
      first.put(recordsOf(0, 30, all.subList(0, 2)));
      second.put(recordsOf(0, 30, all.subList(2, 3)));
      first.stageOpenFiles(SCHEDULE_MS);
      second.stageOpenFiles(SCHEDULE_MS);
      assertEquals(Map.of(), first.committed(), "staged, not in the table yet");
      // The next interval: the first task's round is due, the second's after it.
      first.stageOpenFiles(SCHEDULE_MS);
      second.stageOpenFiles(SCHEDULE_MS);
      assertEquals(Map.of(all.get(0), 30L, all.get(1), 30L), first.committed());
      assertEquals(Map.of(all.get(2), 30L), second.committed());
      Table table = loadTable(props);
      assertEquals(1, countAppends(table), "one snapshot for both tasks");
      Map<String, String> summary = table.currentSnapshot().summary();
      for (int p = 0; p < PARTITIONS; p++) {
        assertEquals("29", summary.get("parquet-connect.offset.two-tasks/orders/" + p));
      }
      assertEquals(expectedRows(30), rows(table));
    }
    assertEquals(List.of(), stagedDescriptors(props), "every descriptor removed");
  }

  /**
   * A committer paused after it chose its ranges, before its catalog commit, while another task
   * commits the same staged ranges: when it comes back its commit fails Iceberg's validation (the
   * table moved), and on the refreshed table it finds nothing left to add.
   */
  @Test
  void aPausedCommitterThatComesBackAddsNothingTwice() throws Exception {
    Map<String, String> props = props("rest", "paused");
    // The REST catalog is the class's: a table of its own.
    props.put(IcebergConfig.TABLE_CONFIG, "paused.${topic}");
    List<TopicPartition> all = partitions();
    try (SinkTaskHarness other = new SinkTaskHarness(props, all.subList(2, 3))) {
      boolean[] paused = {false};
      CrashPoints pause =
          point -> {
            if (point.equals(CrashPoints.BEFORE_TABLE_COMMIT) && !paused[0]) {
              paused[0] = true;
              // While this committer is paused, the other task commits every staged range.
              other.commitOpenFiles(SCHEDULE_MS);
            }
          };
      try (SinkTaskHarness committer =
          new SinkTaskHarness(props, all.subList(0, 2), false, pause)) {
        SinkTaskHarness.alignClocks(committer, other);
        committer.put(recordsOf(0, 25, all.subList(0, 2)));
        other.put(recordsOf(0, 25, all.subList(2, 3)));
        other.stageOpenFiles(SCHEDULE_MS);
        committer.commitOpenFiles(SCHEDULE_MS);
        assertTrue(paused[0], "paused before its catalog commit");
        assertEquals(Map.of(all.get(0), 25L, all.get(1), 25L), committer.committed());
        assertEquals(Map.of(all.get(2), 25L), other.committed());
      }
    }
    Table table = loadTable(props);
    assertEquals(1, countAppends(table), "the paused committer added no second snapshot");
    assertEquals(expectedRows(25), rows(table));
    assertEquals(List.of(), unreferencedFiles(table));
    assertEquals(List.of(), stagedDescriptors(props));
  }

  /** The staged range descriptors left in the store's staging directory. */
  private static List<String> stagedDescriptors(Map<String, String> props) throws IOException {
    Path staging = Path.of(URI.create(props.get(ParquetSinkConfig.STORE_URL_CONFIG)));
    List<String> left = new ArrayList<>();
    if (Files.exists(staging)) {
      try (Stream<Path> files = Files.walk(staging)) {
        files
            .filter(f -> f.toString().endsWith(".json") && f.toString().contains("_staging"))
            .forEach(f -> left.add(f.toString()));
      }
    }
    return left;
  }

  /**
   * A spec'd table: records routed to Iceberg's partitions, the spec and schema as configured,
   * DuckDB reading the current snapshot's data files equal, and a scan with a filter on the
   * partition source planning only the matching files, its bounds (our writer's statistics) pruning
   * the others.
   */
  @Test
  void partitionedTableScansPruneAndDuckDbReadsTheSameRows() throws Exception {
    Map<String, String> props = props("jdbc", "spec");
    props.put(IcebergConfig.PARTITION_SPEC_CONFIG, "bucket(4, id), truncate(2, name)");
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions())) {
      task.put(records(0, 50));
      task.commitOpenFiles(SCHEDULE_MS);
    }
    Table table = loadTable(props);
    assertEquals(expectedRows(50), rows(table));
    assertEquals(
        "[1000: id_bucket: bucket[4](1), 1001: name_trunc: truncate[2](2)]",
        table.spec().fields().toString());
    assertEquals(
        List.of("id", "name", "amount"),
        table.schema().columns().stream().limit(3).map(f -> f.name()).toList());
    List<String> all = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(t -> all.add(t.file().location()));
    }
    // id 5: bucket and truncate(name-5 -> "na") prune by partition; the bounds by id.
    List<String> planned = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().filter(Expressions.equal("id", 5L)).planFiles()) {
      tasks.forEach(t -> planned.add(t.file().location()));
    }
    LOG.info("filter id = 5 plans {} of {} data files", planned.size(), all.size());
    assertTrue(all.size() >= 4 * PARTITIONS, "files per bucket and Kafka partition: " + all);
    assertTrue(planned.size() <= PARTITIONS && !planned.isEmpty(), "planned: " + planned);
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement()) {
      String files =
          all.stream()
              .map(f -> "'" + Path.of(java.net.URI.create(f)) + "'")
              .collect(java.util.stream.Collectors.joining(", "));
      ResultSet r =
          sql.executeQuery(
              "SELECT count(*), count(DISTINCT (__kafka_partition, __kafka_offset)), sum(id),"
                  + " count(name), sum(amount) FROM read_parquet(["
                  + files
                  + "])");
      r.next();
      long n = 50L * PARTITIONS;
      assertEquals(n, r.getLong(1));
      assertEquals(n, r.getLong(2));
      assertEquals(n * (n - 1) / 2, r.getLong(3));
      assertEquals(n - (n + 6) / 7, r.getLong(4));
      assertEquals(n * (n - 1) / 2 / 4.0, r.getDouble(5), 1e-9);
    }
  }

  /**
   * Interleaved schema versions widen the table (a new optional column, int to long): every row
   * reads back in the widest schema, rows written before a column existed with null there.
   */
  @Test
  void interleavedSchemaVersionsWidenTheTable() throws Exception {
    Map<String, String> props = props("hadoop", "evolve");
    Schema v1 = SchemaBuilder.struct().name("V").field("id", Schema.INT32_SCHEMA).build();
    Schema v2 =
        SchemaBuilder.struct()
            .name("V")
            .field("id", Schema.INT64_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    List<TopicPartition> one = List.of(new TopicPartition(TOPIC, 0));
    try (SinkTaskHarness task = new SinkTaskHarness(props, one)) {
      List<SinkRecord> records = new ArrayList<>();
      for (long o = 0; o < 30; o++) {
        boolean newer = o >= 10 && o % 2 == 0;
        Struct value =
            newer
                ? new Struct(v2).put("id", o).put("note", "note-" + o)
                : new Struct(v1).put("id", (int) o);
        records.add(ValueRecords.of(TOPIC, 0, newer ? v2 : v1, value, o, 0L));
        if (o == 9) {
          task.put(records);
          task.commitOpenFiles(SCHEDULE_MS);
          records = new ArrayList<>();
        }
      }
      task.put(records);
      task.commitOpenFiles(SCHEDULE_MS);
    }
    Table table = loadTable(props);
    assertEquals("long", table.schema().findField("id").type().toString(), "int widened to long");
    assertTrue(table.schema().findField("note").isOptional());
    Map<Long, Object> notes = new TreeMap<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        notes.put((Long) r.getField("__kafka_offset"), r.getField("note"));
        assertEquals(r.getField("__kafka_offset"), r.getField("id"));
      }
    }
    assertEquals(30, notes.size());
    for (long o = 0; o < 30; o++) {
      assertEquals(o >= 10 && o % 2 == 0 ? "note-" + o : null, notes.get(o), "offset " + o);
    }
  }

  /** Recovery names the data files of the partition's last commit (the writer learns from them). */
  @Test
  void recoveryFindsTheLastCommitsFiles() throws Exception {
    Map<String, String> props = props("hadoop", "learn");
    TopicPartition p0 = new TopicPartition(TOPIC, 0);
    try (SinkTaskHarness task = new SinkTaskHarness(props, List.of(p0))) {
      task.put(records(0, 5, 0));
      task.commitOpenFiles(SCHEDULE_MS);
      task.put(records(5, 9, 0));
      task.commitOpenFiles(SCHEDULE_MS);
    }
    ParquetSinkConfig config = new ParquetSinkConfig(props);
    try (Store store = Stores.open(config.storeUrl(), config.storeSettings());
        IcebergTables tables =
            new IcebergTables(
                IcebergCatalogs.open(config.iceberg()),
                config.iceberg(),
                new IcebergBindings(config))) {
      CommitProtocol protocol =
          IcebergCommitProtocol.factory(
                  tables,
                  store,
                  "learn",
                  topic -> "topics/" + topic,
                  new TableCommitter(
                      tables,
                      store,
                      "learn",
                      "topics",
                      SinkClock.SYSTEM,
                      60_000,
                      SCHEDULE_MS,
                      0,
                      CrashPoints.NONE,
                      "[test]"),
                  SinkClock.SYSTEM,
                  60_000,
                  CrashPoints.NONE)
              .open(p0, "[test]");
      assertTrue(protocol.recover());
      assertEquals(8, protocol.lastCommitted());
      List<String> files = protocol.lastCommitFiles();
      assertEquals(1, files.size(), files.toString());
      assertTrue(
          files
              .get(0)
              .endsWith(
                  "+00000000000000000005+00000000000000000008-"
                      + files.get(0).replaceAll(".*-", "")),
          files.toString());
      assertTrue(store.exists(files.get(0)), files.toString());
    }
  }

  /** validate() reports a catalog it cannot reach, and a table it may not create. */
  @Test
  void validateReportsAnUnreachableCatalogAndAMissingTable() throws Exception {
    Map<String, String> unreachable = props("rest", "unreachable");
    unreachable.put(IcebergConfig.CATALOG_URI_CONFIG, "http://127.0.0.1:1/");
    unreachable.put("iceberg.catalog.rest.client.max-retries", "0");
    assertTrue(
        errors(unreachable, IcebergConfig.CATALOG_URI_CONFIG).contains("cannot reach the catalog"),
        errors(unreachable, IcebergConfig.CATALOG_URI_CONFIG));
    Map<String, String> missing = props("hadoop", "missing");
    missing.put(IcebergConfig.TABLE_AUTO_CREATE_CONFIG, "false");
    missing.put("topics", "absent");
    assertTrue(
        errors(missing, IcebergConfig.TABLE_CONFIG)
            .contains("table lake.absent of topic absent does not exist"),
        errors(missing, IcebergConfig.TABLE_CONFIG));
    missing.put(IcebergConfig.TABLE_AUTO_CREATE_CONFIG, "true");
    assertEquals("[]", errors(missing, IcebergConfig.TABLE_CONFIG));
  }

  private static String errors(Map<String, String> props, String key) {
    return new ParquetSinkConnector()
        .validate(props).configValues().stream()
            .filter(v -> v.name().equals(key))
            .findFirst()
            .orElseThrow()
            .errorMessages()
            .toString();
  }

  private static Map<String, String> props(String catalogType, String connector)
      throws IOException {
    Path root = dir.resolve(connector);
    if (catalogType.equals("hadoop")) {
      return IcebergFixture.localSinkOnHadoop(root, connector, SCHEDULE_MS);
    }
    Map<String, String> props = IcebergFixture.localSink(root, connector, SCHEDULE_MS);
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, catalogType);
    if (catalogType.equals("jdbc")) {
      props.put(IcebergConfig.CATALOG_URI_CONFIG, "jdbc:sqlite:" + root.resolve("catalog.db"));
      props.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, root.resolve("warehouse").toString());
      props.put("iceberg.catalog.jdbc.schema-version", "V1");
    } else {
      props.put(IcebergConfig.CATALOG_URI_CONFIG, rest.uri());
    }
    return props;
  }

  /** The table as a catalog of its own (the test's, not the task's) loads it. */
  private static Table loadTable(Map<String, String> props) {
    Catalog catalog = IcebergFixture.catalogOf(props);
    CATALOGS.add(catalog);
    return catalog.loadTable(
        TableIdentifier.parse(props.get(IcebergConfig.TABLE_CONFIG).replace("${topic}", TOPIC)));
  }

  private static List<TopicPartition> partitions() {
    return IcebergFixture.partitions(TOPIC, PARTITIONS);
  }

  /** Offsets {@code [from, to)} of every partition. */
  private static List<SinkRecord> records(long from, long to) {
    return IcebergFixture.records(TOPIC, PARTITIONS, from, to, VALUE, IcebergFixture::order);
  }

  /** Offsets {@code [from, to)} of some partitions. */
  private static List<SinkRecord> recordsOf(long from, long to, List<TopicPartition> partitions) {
    List<SinkRecord> records = new ArrayList<>();
    for (TopicPartition tp : partitions) {
      records.addAll(records(from, to, tp.partition()));
    }
    return records;
  }

  private static List<SinkRecord> records(long from, long to, int partition) {
    List<SinkRecord> records = new ArrayList<>();
    for (long o = from; o < to; o++) {
      long id = o * PARTITIONS + partition;
      records.add(
          ValueRecords.of(
              TOPIC, partition, VALUE, IcebergFixture.order(id), o, 1_700_000_000_000L + id));
    }
    return records;
  }

  /** {@code [id, name, amount, offset, partition]} of each row, with how often it occurs. */
  private static Map<List<Object>, Integer> rows(Table table) throws IOException {
    Map<List<Object>, Integer> rows = new HashMap<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        List<Object> row = new ArrayList<>();
        row.add(r.getField("id"));
        row.add(r.getField("name"));
        row.add(r.getField("amount"));
        row.add(r.getField("__kafka_offset"));
        row.add(((Number) r.getField("__kafka_partition")).longValue());
        rows.merge(row, 1, Integer::sum);
      }
    }
    return rows;
  }

  private static Map<List<Object>, Integer> expectedRows(long offsets) {
    Map<List<Object>, Integer> rows = new HashMap<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (long o = 0; o < offsets; o++) {
        long id = o * PARTITIONS + p;
        rows.put(List.of(id, id % 7 == 0 ? "\0" : "name-" + id, id / 4.0, o, (long) p), 1);
      }
    }
    // List.of refuses nulls: the rows without a name are put back with one.
    Map<List<Object>, Integer> withNulls = new HashMap<>();
    rows.forEach(
        (row, n) -> {
          List<Object> copy = new ArrayList<>(row);
          if ("\0".equals(copy.get(1))) {
            copy.set(1, null);
          }
          withNulls.put(copy, n);
        });
    return withNulls;
  }

  private static int countAppends(Table table) {
    int appends = 0;
    for (Snapshot s : table.snapshots()) {
      if ("append".equals(s.operation())) {
        appends++;
      }
    }
    return appends;
  }

  /** Data files under the table's data directories that the current snapshot does not hold. */
  static List<String> unreferencedFiles(Table table) throws IOException {
    Set<String> referenced = new HashSet<>();
    Set<Path> dirs = new HashSet<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        Path path = Path.of(java.net.URI.create(file.location()));
        referenced.add(path.toString());
        dirs.add(path.getParent());
      }
    }
    List<String> unreferenced = new ArrayList<>();
    for (Path d : dirs) {
      try (Stream<Path> files = Files.list(d)) {
        files
            .filter(f -> f.toString().endsWith(".parquet"))
            .filter(f -> !referenced.contains(f.toString()))
            .forEach(f -> unreferenced.add(f.toString()));
      }
    }
    return unreferenced;
  }
}
