package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parquetconnect.connect.SchemaInference;
import dev.parquetconnect.engines.SparkLakeCheck;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.Json;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.it.KafkaRuntime;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schemaless JSON on a real worker does not shatter into small files: the shipped {@code
 * config/sink-local.json} (only topic and store changed) on a KRaft broker and a Connect worker
 * (child JVMs on 127.0.0.1), 4 partitions, 20,000 {@link MessyJson} documents (optional fields null
 * or absent, absent keys, empty arrays, objects with null values, one long-to-double widening)
 * partitioned by a field of 8 values, produced at 1,000 a second. Alongside, a second connector
 * writes the same records with an embedded fixed schema. Checks: every offset once (DuckDB), all
 * committed within the rotation interval (plus polling slack) after the last record was produced,
 * "schema change" commits at most the distinct widenings (the open files take a widening in place
 * while they have written no row group), and about the files of the fixed schema.
 */
final class SchemalessFilesIT {
  private static final Logger LOG = LoggerFactory.getLogger(SchemalessFilesIT.class);
  private static final int PARTITIONS = 4;
  private static final int RECORDS = 20_000;
  private static final long SEED = 0x5c4e_3a1eL;

  /** Distinct widenings of written values in {@link MessyJson}: amount INT64 to DOUBLE. */
  private static final int WIDENINGS = 1;

  @Test
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void schemalessJsonNeedsAboutTheFilesOfAFixedSchema() throws Exception {
    Path work = ItPaths.freshWorkDir("SchemalessFilesIT");
    KafkaRuntime runtime = KafkaRuntime.defaultVersion();
    try (KafkaBroker broker = KafkaBroker.start(runtime, work.resolve("broker"));
        ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(work.resolve("worker"))
                .start();
        ItStores.Running store = ItStores.local(work.resolve("store"))) {
      Map<String, String> shipped = shippedConfig();
      long rotationMs = Long.parseLong(shipped.get("rotate.schedule.interval.ms"));
      broker.createTopic("messy", PARTITIONS);
      broker.createTopic("fixed", PARTITIONS);
      worker.putConnectorConfig("messy", config(shipped, store, "messy", false));
      worker.putConnectorConfig("fixed", config(shipped, store, "fixed", true));
      worker.awaitConnectorRunning("messy", 1, Duration.ofMinutes(2));
      worker.awaitConnectorRunning("fixed", 1, Duration.ofMinutes(2));

      List<JsonRecord> schemaless = new ArrayList<>();
      List<JsonRecord> fixed = new ArrayList<>();
      records(schemaless, fixed);
      long[] counts = new long[PARTITIONS];
      for (JsonRecord r : schemaless) {
        counts[r.partition()]++;
      }
      // As an application would: 1,000 records a second (each batch to both topics).
      for (int i = 0; i < RECORDS; i += 1000) {
        long batchStart = System.nanoTime();
        KafkaRecords.produce(
            broker.bootstrapServers(), "fixed", fixed.subList(i, i + 1000), Duration.ofMinutes(1));
        KafkaRecords.produce(
            broker.bootstrapServers(),
            "messy",
            schemaless.subList(i, i + 1000),
            Duration.ofMinutes(1));
        long spentMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - batchStart);
        Thread.sleep(Math.max(0, 1000 - spentMs));
      }
      long produced = System.nanoTime();
      try (Store check = store.open("lake")) {
        Map<TopicPartition, Long> messyEnds = new HashMap<>();
        Map<TopicPartition, Long> fixedEnds = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
          messyEnds.put(new TopicPartition("messy", p), counts[p]);
          fixedEnds.put(new TopicPartition("fixed", p), counts[p]);
        }
        SinkIts.awaitCommitted(check, "messy", messyEnds, Duration.ofMinutes(3), () -> {});
        long committedAfterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - produced);
        SinkIts.awaitCommitted(check, "fixed", fixedEnds, Duration.ofMinutes(3), () -> {});
        worker.deleteConnector("messy");
        worker.deleteConnector("fixed");
        worker.awaitConnectorDeleted("messy", Duration.ofMinutes(1));
        worker.awaitConnectorDeleted("fixed", Duration.ofMinutes(1));

        Path lake = work.resolve("store/lake/" + SinkIts.TOPICS_DIR);
        long messyFiles = parquetFiles(lake.resolve("messy"));
        long fixedFiles = parquetFiles(lake.resolve("fixed"));
        Map<String, Integer> reasons = commitReasons(worker.logFile(), "messy");
        Map<String, Integer> fixedReasons = commitReasons(worker.logFile(), "fixed");
        int schemaChanges = reasons.getOrDefault("schema change", 0);
        LOG.info(
            "schemaless: {} files, commits by reason {}, all committed {} ms after the last "
                + "record was produced; fixed schema: {} files, commits by reason {}",
            messyFiles,
            reasons,
            committedAfterMs,
            fixedFiles,
            fixedReasons);

        SinkIts.Found found = SinkIts.duckDb(lake.resolve("messy"), null);
        assertEquals(new SinkIts.Found(RECORDS, RECORDS, 0, 0, found.maxOffset()), found);
        // Each document once, in the directory of its country, across files whose schemas
        // differ (columns added in place, amount widened).
        assertEquals(
            0,
            SinkIts.duckDbCount(
                "SELECT count(*) - count(DISTINCT id) + count(*) "
                    + "FILTER (WHERE id IS NULL OR country IS NULL) + abs(count(*) - "
                    + RECORDS
                    + ") FROM read_parquet('"
                    + lake.resolve("messy")
                    + "/**/*.parquet', "
                    + "hive_partitioning=true, union_by_name=true)"));
        // Spark over the whole directory, as a lake user reads it: its mergeSchema refuses
        // the files in which amount is still INT64 beside the later DOUBLE ones; read by
        // groups of files of one type, cast and unioned (docs/compatibility.md), every row is
        // DuckDB's.
        SparkLakeCheck.assertSparkReadsChangedTypesAsDuckDb(
            lake.resolve("messy"), "CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE");
        // The schedule's interval, plus the worker's poll and a loaded test machine.
        assertTrue(
            committedAfterMs <= rotationMs + 5_000,
            "committed " + committedAfterMs + " ms after the last record");
        assertTrue(schemaChanges <= WIDENINGS, reasons.toString());
        // Each schema change commit makes up to one file per directory; the schedule's timing
        // differs between the two connectors by up to one commit per partition.
        long slack = (long) (schemaChanges + PARTITIONS) * MessyJson.COUNTRIES.length;
        assertTrue(
            messyFiles <= fixedFiles + slack,
            messyFiles + " files, the fixed schema's " + fixedFiles);
      }
    }
  }

  /** config/sink-local.json as shipped. */
  private static Map<String, String> shippedConfig() throws Exception {
    JsonNode json =
        Json.read(
            Files.readString(
                Path.of(System.getProperty("repo.root", ".."), "config/sink-local.json")));
    Map<String, String> config = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      config.put(e.getKey(), e.getValue().asText());
    }
    return config;
  }

  /** The shipped config with only the topic and the store changed (and schemas, for fixed). */
  private static Map<String, String> config(
      Map<String, String> shipped, ItStores.Running store, String topic, boolean withSchema) {
    Map<String, String> config = new LinkedHashMap<>(shipped);
    config.put("topics", topic);
    config.put(ParquetSinkConfig.STORE_URL_CONFIG, store.url("lake"));
    config.putAll(store.settings());
    if (withSchema) {
      config.put("value.converter.schemas.enable", "true");
    }
    return config;
  }

  /**
   * The documents as produced: schemaless JSON text, and the same values with an envelope of one
   * schema (the merge of all of them), to the same partitions.
   */
  private static void records(List<JsonRecord> schemaless, List<JsonRecord> fixed) {
    MessyJson gen = new MessyJson(SEED);
    Random partitions = new Random(SEED + 1);
    JsonConverter plain = new JsonConverter();
    plain.configure(Map.of("schemas.enable", "false"), false);
    JsonConverter enveloped = new JsonConverter();
    enveloped.configure(Map.of("schemas.enable", "true"), false);
    SchemaInference inference = new SchemaInference(SchemaInference.ConflictPolicy.STRING);
    List<Object> values = new ArrayList<>();
    Schema schema = null;
    for (int id = 0; id < RECORDS; id++) {
      String key = gen.key(id);
      String doc = gen.document(id);
      int partition = partitions.nextInt(PARTITIONS);
      schemaless.add(JsonRecord.of(key, doc).withPartition(partition));
      Object value = plain.toConnectData("messy", doc.getBytes(StandardCharsets.UTF_8)).value();
      values.add(value);
      schema = inference.merge(schema, inference.infer(value));
    }
    for (int id = 0; id < RECORDS; id++) {
      JsonRecord r = schemaless.get(id);
      byte[] bytes =
          enveloped.fromConnectData("fixed", schema, inference.conform(schema, values.get(id)));
      fixed.add(
          JsonRecord.of(r.key(), new String(bytes, StandardCharsets.UTF_8))
              .withPartition(r.partition()));
    }
  }

  private static long parquetFiles(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(f -> f.getFileName().toString().endsWith(".parquet")).count();
    }
  }

  /** The task's commit log lines of {@code connector}, counted by reason. */
  private static Map<String, Integer> commitReasons(Path log, String connector) throws Exception {
    Map<String, Integer> out = new LinkedHashMap<>();
    java.util.regex.Pattern line =
        java.util.regex.Pattern.compile(
            "\\[" + connector + "-\\d+ [^\\]]+\\] committed offsets .* files; ([^)]*)\\)");
    for (String l : Files.readAllLines(log)) {
      java.util.regex.Matcher m = line.matcher(l);
      if (m.find()) {
        out.merge(m.group(1), 1, Integer::sum);
      }
    }
    return out;
  }
}
