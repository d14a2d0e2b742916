package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.engines.SparkLakeCheck;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.it.Await;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.Json;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.it.KafkaRuntime;
import dev.parquetconnect.source.SinkArchive.Original;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source end to end, through a real KRaft broker and Connect worker (child JVMs, the plugin
 * from {@code target/plugin}): an archive in the sink's layout is replayed into new topics.
 *
 * <p>The archive is written by the sink's record writer in the sink's layout ({@link SinkArchive})
 * rather than by a sink connector, so that this test of the source controls each file exactly
 * (names, row groups, earlier sink versions' names, rolled-back attempts) and produces the same
 * records to the original topic, to compare the original records and the replayed ones as Kafka
 * stores them. Archives written by the real sink connector are replayed by {@code
 * PluginIsolationIT} (sink, then source, on one worker) and {@code RandomReplayRoundTripTest}.
 */
final class ParquetSourceIT {
  private static final Logger LOG = LoggerFactory.getLogger(ParquetSourceIT.class);
  private static final Duration IO_TIMEOUT = Duration.ofMinutes(3);
  private static final int PARTITIONS = 6;
  private static final String CONNECTOR = "dev.parquetconnect.source.ParquetSourceConnector";

  private static Path workDir;
  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() {
    workDir = ItPaths.freshWorkDir("ParquetSourceIT");
    broker =
        KafkaBroker.builder(KafkaRuntime.defaultVersion(), workDir.resolve("broker"))
            // A killed worker's open transaction is aborted within a second of its timeout.
            .brokerProperty("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000")
            .start();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  /** The archives the test wrote, checked with Spark after its own checks. */
  private static final List<Path> ARCHIVES = new ArrayList<>();

  /** The archives the source replayed, as Spark's default reader and DuckDB see them. */
  @AfterEach
  void sparkReadsTheArchive() {
    List<Path> archives = List.copyOf(ARCHIVES);
    ARCHIVES.clear();
    archives.forEach(SparkLakeCheck::assertSparkReadsAsDuckDb);
  }

  /** {@code total} records over the partitions, archived in files of {@code perFile}. */
  private static List<Original> archive(String topic, int total, int perFile, Path storeRoot)
      throws Exception {
    return archive(topic, total, perFile, storeRoot, Integer.MAX_VALUE);
  }

  /** As above, with data pages of at most {@code pageRows} rows. */
  private static List<Original> archive(
      String topic, int total, int perFile, Path storeRoot, int pageRows) throws Exception {
    List<Original> all = new ArrayList<>(total);
    for (int p = 0; p < PARTITIONS; p++) {
      int count = total / PARTITIONS + (p < total % PARTITIONS ? 1 : 0);
      for (int first = 0; first < count; first += perFile) {
        List<Original> file =
            SinkArchive.records(topic, p, first, Math.min(perFile, count - first));
        SinkArchive.write(
            storeRoot.resolve(
                "topics/"
                    + topic
                    + "/partition="
                    + p
                    + "/"
                    + SinkArchive.fileName(topic, p, first, 0)),
            file,
            WriterOptions.builder()
                .codec(CompressionCodec.ZSTD)
                .rowGroupRowLimit(1_000)
                .pageRowLimit(pageRows)
                .build());
        all.addAll(file);
      }
    }
    ARCHIVES.add(storeRoot.resolve("topics/" + topic));
    return all;
  }

  /** The original record as a producer sent it: JSON value, string key, headers, timestamp. */
  private static JsonRecord asProduced(Original o) {
    Map<String, Object> value = new LinkedHashMap<>();
    value.put("id", o.id());
    value.put("name", o.name());
    if (o.id() % 11 == 0) {
      value.put("address", null);
    } else {
      Map<String, Object> address = new LinkedHashMap<>();
      address.put("street", o.street());
      address.put("zip", o.zip());
      value.put("address", address);
    }
    value.put("tags", o.tags());
    value.put("amount", o.amountCents() == null ? null : BigDecimal.valueOf(o.amountCents(), 2));
    value.put("scores", o.scores());
    JsonRecord r =
        new JsonRecord(o.key(), Json.write(value), o.partition(), o.timestamp(), List.of());
    for (Map.Entry<String, String> h : o.headers()) {
      r = r.withHeader(h.getKey(), h.getValue());
    }
    return r;
  }

  private static Map<String, String> connectorConfig(
      Path storeRoot, String from, String to, String... more) {
    Map<String, String> c = new HashMap<>();
    c.put("connector.class", CONNECTOR);
    c.put("tasks.max", "3");
    c.put("store.url", storeRoot.toUri().toString());
    c.put("discovery.interval.ms", "1000");
    c.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    c.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    c.put("value.converter.schemas.enable", "false");
    c.put("value.converter.decimal.format", "NUMERIC");
    c.put("transforms", "rename");
    c.put("transforms.rename.type", "org.apache.kafka.connect.transforms.RegexRouter");
    c.put("transforms.rename.regex", from);
    c.put("transforms.rename.replacement", to);
    for (int i = 0; i < more.length; i += 2) {
      c.put(more[i], more[i + 1]);
    }
    return c;
  }

  @Test
  @Timeout(value = 8, unit = TimeUnit.MINUTES)
  void replaysAnArchiveRecordForRecordIntoANewTopic() throws Exception {
    Path store = workDir.resolve("store-roundtrip");
    List<Original> originals = archive("orders", 100_000, 4_000, store);
    broker.createTopic("orders", PARTITIONS);
    broker.createTopic("orders-restored", PARTITIONS);
    List<JsonRecord> produced = originals.stream().map(ParquetSourceIT::asProduced).toList();
    List<RecordMetadata> placed =
        KafkaRecords.produce(broker.bootstrapServers(), "orders", produced, IO_TIMEOUT);
    for (int i = 0; i < placed.size(); i++) {
      assertEquals(originals.get(i).offset(), placed.get(i).offset(), "archived offsets");
    }
    try (ConnectWorker worker =
        ConnectWorker.builder(KafkaRuntime.defaultVersion(), broker.bootstrapServers())
            .workDir(workDir.resolve("worker-roundtrip"))
            .groupId("source-roundtrip")
            .start()) {
      long started = System.nanoTime();
      worker.putConnectorConfig("replay", connectorConfig(store, "orders", "orders-restored"));
      worker.awaitConnectorRunning("replay", 3, IO_TIMEOUT);
      List<ConsumerRecord<String, String>> restored =
          KafkaRecords.consumeAtLeast(
              broker.bootstrapServers(), "orders-restored", originals.size(), IO_TIMEOUT);
      LOG.info(
          "replayed {} records in {} ms",
          restored.size(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      List<ConsumerRecord<String, String>> original =
          KafkaRecords.consumeAll(broker.bootstrapServers(), "orders", IO_TIMEOUT);
      assertEquals(original.size(), restored.size(), "record count");
      for (int i = 0; i < original.size(); i++) {
        assertSameRecord(original.get(i), restored.get(i));
      }
    }
  }

  private static void assertSameRecord(
      ConsumerRecord<String, String> want, ConsumerRecord<String, String> got) {
    String what = "record " + want.partition() + "@" + want.offset();
    assertEquals(want.partition(), got.partition(), what);
    assertEquals(want.offset(), got.offset(), what + ": order within the partition");
    assertEquals(want.key(), got.key(), what);
    assertEquals(Json.read(want.value()), Json.read(got.value()), what);
    assertEquals(want.timestamp(), got.timestamp(), what);
    assertEquals(headers(want), headers(got), what);
  }

  private static List<String> headers(ConsumerRecord<String, String> r) {
    List<String> out = new ArrayList<>();
    for (Header h : r.headers()) {
      out.add(h.key() + "=" + new String(h.value(), StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void workerKilledThreeTimesLosesNothingAndWithExactlyOnceDuplicatesNothing() throws Exception {
    Path store = workDir.resolve("store-crash");
    // Small files and batches: many transactions, so the kills land mid-replay.
    List<Original> originals = archive("events", 30_000, 500, store);
    for (boolean exactlyOnce : new boolean[] {true, false}) {
      String target = exactlyOnce ? "events-eos" : "events-alo";
      broker.createTopic(target, PARTITIONS);
      ConnectWorker.Builder builder =
          ConnectWorker.builder(KafkaRuntime.defaultVersion(), broker.bootstrapServers())
              .workDir(workDir.resolve("worker-" + target))
              .groupId("source-" + target);
      if (exactlyOnce) {
        builder.workerProperty("exactly.once.source.support", "enabled");
      }
      try (ConnectWorker worker = builder.start()) {
        worker.putConnectorConfig(
            "replay",
            connectorConfig(
                store,
                "events",
                target,
                "batch.size",
                "200",
                "transaction.boundary",
                exactlyOnce ? "connector" : "poll",
                "transaction.unit",
                "file",
                // The killed task's transaction holds back every read_committed reader of the
                // offsets topic, the restarted worker's too, until it times out (60 s by
                // default); a file's transaction takes well under a second.
                "producer.override.transaction.timeout.ms",
                "15000"));
        for (int kill = 1; kill <= 3; kill++) {
          long threshold = originals.size() * kill / 5;
          Await.until(
              threshold + " records in " + target,
              IO_TIMEOUT,
              () -> endOffsetSum(target) >= threshold);
          long at = endOffsetSum(target);
          worker.kill();
          LOG.info("killed the worker at {} of {} records in {}", at, originals.size(), target);
          assertTrue(at < originals.size(), "the kill landed before the replay finished");
          worker.restart();
        }
        // At least once: duplicates count towards any number of records, so wait for every
        // distinct one; exactly once: the committed records are exactly the originals.
        List<List<ConsumerRecord<String, String>>> last = new ArrayList<>();
        Await.until(
            "every record in " + target,
            IO_TIMEOUT,
            () -> {
              last.clear();
              last.add(KafkaRecords.consumeAll(broker.bootstrapServers(), target, IO_TIMEOUT));
              return distinct(last.get(0)) >= originals.size();
            });
        List<ConsumerRecord<String, String>> restored = last.get(0);
        int duplicates = restored.size() - distinct(restored);
        LOG.info("{}: {} records, {} duplicates", target, restored.size(), duplicates);
        if (exactlyOnce) {
          assertEquals(0, duplicates, "exactly once: no duplicate");
          assertEquals(originals.size(), restored.size());
        }
      }
    }
  }

  /**
   * A selective replay (a time range across partitions and a filter on value columns, one of them
   * nested, with the original coordinates as headers) on a worker with exactly-once source support,
   * the worker killed part-way: a read_committed consumer then sees exactly the selected records,
   * each once, in offset order per partition.
   */
  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void aSelectiveReplayKilledPartWayIsExactlyOnce() throws Exception {
    Path store = workDir.resolve("store-selective");
    // Pages of 10 rows: the time range and the filter leave pages out of the row groups they open,
    // so the kill lands in a row group read page by page and the restart resumes inside it.
    List<Original> originals = archive("picks", 12_000, 250, store, 10);
    ARCHIVES.remove(store.resolve("topics/picks")); // the other tests' archives are Spark's
    long from = 1_700_000_000_000L + 300; // partition 0, offset 300
    long until = 1_700_000_000_000L + 2_000_000L + 700; // partition 2, offset 700
    // Three-valued logic as in SQL: a null address has a null zip, and NOT of null is null.
    List<Original> selected =
        originals.stream()
            .filter(o -> o.timestamp() >= from && o.timestamp() < until)
            .filter(
                o ->
                    o.amountCents() != null
                        && o.id() % 11 != 0
                        && !(o.zip() >= 10_400 && o.zip() <= 10_999))
            .toList();
    LOG.info("{} records selected of {}", selected.size(), originals.size());
    String target = "picks-eos";
    broker.createTopic(target, PARTITIONS);
    try (ConnectWorker worker =
        ConnectWorker.builder(KafkaRuntime.defaultVersion(), broker.bootstrapServers())
            .workDir(workDir.resolve("worker-selective"))
            .groupId("source-selective")
            .workerProperty("exactly.once.source.support", "enabled")
            .start()) {
      long started = System.nanoTime();
      worker.putConnectorConfig(
          "selective",
          connectorConfig(
              store,
              "picks",
              target,
              "batch.size",
              "100",
              "transaction.boundary",
              "connector",
              "transaction.unit",
              "batch",
              "replay.from.timestamp",
              java.time.Instant.ofEpochMilli(from).toString(),
              "replay.until.timestamp",
              Long.toString(until),
              "replay.filter",
              "amount IS NOT NULL AND NOT (address.zip BETWEEN 10400 AND 10999)",
              "replay.headers.original",
              "true",
              // The killed task's open transaction holds back the restarted worker's
              // read_committed reader of the offsets topic until it times out (60 s by default);
              // a batch's transaction takes well under a second.
              "producer.override.transaction.timeout.ms",
              "10000"));
      List<ConsumerRecord<String, String>> restored =
          killOnceAndConsumeAll(broker, worker, target, PARTITIONS, selected.size(), IO_TIMEOUT);
      LOG.info(
          "selective replay: {} records in {} ms, one kill",
          restored.size(),
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
      assertEachOnceInOrder(
          selected,
          restored,
          (o, r, what) -> {
            assertEquals(o.timestamp(), r.timestamp(), what);
            List<String> h = headers(r);
            assertEquals(
                List.of(
                    "__original.topic=picks",
                    "__original.partition=" + o.partition(),
                    "__original.offset=" + o.offset(),
                    "__original.timestamp=" + o.timestamp()),
                h.subList(h.size() - 4, h.size()),
                what);
          });
    }
  }

  /**
   * Kills {@code worker} once a third of the {@code selected} records are in {@code target},
   * restarts it, and returns what a read_committed consumer reads there once it reads at least
   * {@code selected} records (the replay of {@code partitions} partitions, with exactly-once source
   * support, ended). Shared with TableReplayIT.
   */
  static List<ConsumerRecord<String, String>> killOnceAndConsumeAll(
      KafkaBroker broker,
      ConnectWorker worker,
      String target,
      int partitions,
      int selected,
      Duration timeout)
      throws Exception {
    long threshold = selected / 3;
    Await.until(
        threshold + " records in " + target,
        timeout,
        () -> endOffsetSum(broker, target, partitions) >= threshold);
    long at = endOffsetSum(broker, target, partitions);
    worker.kill();
    LOG.info("killed the worker at {} of {} selected records in {}", at, selected, target);
    assertTrue(at < selected, "the kill landed before the replay finished");
    worker.restart();
    List<List<ConsumerRecord<String, String>>> last = new ArrayList<>();
    Await.until(
        "every selected record in " + target,
        timeout,
        () -> {
          last.clear();
          last.add(KafkaRecords.consumeAll(broker.bootstrapServers(), target, timeout));
          return last.get(0).size() >= selected;
        });
    return last.get(0);
  }

  /** What a replayed record must share with its original, besides its place and id. */
  interface SameRecord {
    void check(Original original, ConsumerRecord<String, String> replayed, String what);
  }

  /**
   * The {@code restored} records are the {@code selected} originals, each once, in offset order
   * within each partition (ids carry partition and offset), each passing {@code same}. Shared with
   * TableReplayIT.
   */
  static void assertEachOnceInOrder(
      List<Original> selected, List<ConsumerRecord<String, String>> restored, SameRecord same) {
    assertEquals(selected.size(), restored.size(), "each selected record once");
    Map<Integer, List<Original>> byPartition = new HashMap<>();
    for (Original o : selected) {
      byPartition.computeIfAbsent(o.partition(), k -> new ArrayList<>()).add(o);
    }
    Map<Integer, Integer> next = new HashMap<>();
    for (ConsumerRecord<String, String> r : restored) {
      int i = next.merge(r.partition(), 1, Integer::sum) - 1;
      Original o = byPartition.get(r.partition()).get(i);
      String what = "partition " + r.partition() + " record " + i;
      assertEquals(o.id(), Json.read(r.value()).path("id").asLong(), what + ", in order");
      same.check(o, r, what);
    }
  }

  /** Distinct original records among replayed ones (ids carry partition and offset). */
  private static int distinct(List<ConsumerRecord<String, String>> records) {
    BitSet[] seen = new BitSet[PARTITIONS];
    for (int p = 0; p < PARTITIONS; p++) {
      seen[p] = new BitSet();
    }
    for (ConsumerRecord<String, String> r : records) {
      long id = Json.read(r.value()).path("id").asLong();
      int p = (int) (id / 1_000_000L);
      assertEquals(p, r.partition(), "the original partition");
      seen[p].set((int) (id % 1_000_000L));
    }
    int distinct = 0;
    for (BitSet s : seen) {
      distinct += s.cardinality();
    }
    return distinct;
  }

  /** The sum of the topic's end offsets (with transactions: records and markers). */
  private static long endOffsetSum(String topic) throws Exception {
    return endOffsetSum(broker, topic, PARTITIONS);
  }

  /** As above, for a topic of {@code partitions} partitions on {@code broker}. */
  static long endOffsetSum(KafkaBroker broker, String topic, int partitions) throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    long sum = 0;
    for (var e : broker.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS).values()) {
      sum += e.offset();
    }
    return sum;
  }
}
