package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.SchemaInference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.StringConverter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schemaless JSON of many shapes does not shatter into small files: the real task with the settings
 * of {@code config/sink-local.json} (Kafka's own {@link JsonConverter} with {@code
 * schemas.enable=false}, the field partitioner on 8 countries, flush.size 500, a 10 s schedule), 4
 * Kafka partitions and 20,000 {@link MessyJson} documents, writes about the files the same records
 * with one fixed schema need: files start from the schema learned for the topic, new optional
 * columns are added to the open file, and only a real widening of written values (here: the integer
 * amount turning into a double) rolls the files.
 */
final class SchemalessFilesTest {
  private static final Logger LOG = LoggerFactory.getLogger(SchemalessFilesTest.class);
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 4;
  private static final int RECORDS = 20_000;
  private static final long SEED = 0x5c4e_3a1eL;

  @TempDir Path dir;

  /** What one run of the task left. */
  record Run(
      long files,
      long schemaChanges,
      long flushSize,
      long schedule,
      long committed,
      double recordsPerSecond,
      long inPlace,
      long filesMetric) {}

  @Test
  void schemalessRecordsNeedAboutTheFilesOfAFixedSchema() throws Exception {
    LOG.info("seed {}", SEED);
    List<SinkRecord> schemaless = records(SEED);
    Run free = run(schemaless, dir.resolve("schemaless"));
    Run fixed = run(withFixedSchema(schemaless), dir.resolve("fixed"));
    LOG.info("schemaless: {}; the same records with a fixed schema: {}", free, fixed);
    assertEquals(RECORDS, free.committed(), "every record committed");
    assertEquals(RECORDS, fixed.committed(), "every record committed");
    // One distinct widening in the data (amount: INT64 -> DOUBLE): the open files take it in
    // place (their longs re-encoded as doubles), so at most it commits, not once per partition.
    long widenings = 1;
    assertTrue(free.schemaChanges() <= widenings, free.toString());
    // New keys and first types went into the open files; the metrics count what the store has.
    assertTrue(free.inPlace() > 0, free.toString());
    assertEquals(0, fixed.inPlace(), fixed.toString());
    assertEquals(free.files(), free.filesMetric(), "files-committed");
    // Each schema change commit makes up to a file per directory more; the schedule's
    // boundaries follow the wall clock the task starts at, which differs between the two runs
    // by up to one scheduled commit per Kafka partition.
    assertTrue(
        free.files()
            <= fixed.files() + (free.schemaChanges() + PARTITIONS) * MessyJson.COUNTRIES.length,
        free + " vs " + fixed);
  }

  /**
   * The same documents nested: all but country and id moved into an object and into a list's
   * element, so new keys (the rare ones), first types (discount) and the widening (amount) happen
   * inside nested objects and lists. They are taken in the open files as at the top level.
   */
  @Test
  void nestedSchemalessRecordsNeedAboutTheFilesOfAFixedSchema() throws Exception {
    List<SinkRecord> nested = nested(records(SEED));
    Run free = run(nested, dir.resolve("nested"));
    Run fixed = run(withFixedSchema(nested), dir.resolve("nested-fixed"));
    LOG.info("nested schemaless: {}; the same records with a fixed schema: {}", free, fixed);
    assertEquals(RECORDS, free.committed(), "every record committed");
    long widenings = 1; // order.amount and lines[].amount: INT64 -> DOUBLE, learned together
    assertTrue(free.schemaChanges() <= widenings, free.toString());
    assertTrue(free.inPlace() > 0, free.toString());
    assertTrue(
        free.files()
            <= fixed.files() + (free.schemaChanges() + PARTITIONS) * MessyJson.COUNTRIES.length,
        free + " vs " + fixed);
  }

  /** {@code {country, id, order: {the rest}, lines: [{the rest}]}} of each document. */
  static List<SinkRecord> nested(List<SinkRecord> records) {
    List<SinkRecord> out = new ArrayList<>(records.size());
    for (SinkRecord r : records) {
      Map<String, Object> doc = new LinkedHashMap<>();
      Map<String, Object> rest = new LinkedHashMap<>();
      ((Map<?, ?>) r.value())
          .forEach(
              (k, v) -> {
                if (k.equals("country") || k.equals("id")) {
                  doc.put((String) k, v);
                } else {
                  rest.put((String) k, v);
                }
              });
      doc.put("order", rest);
      doc.put("lines", List.of(rest));
      out.add(
          r.newRecord(
              r.topic(), r.kafkaPartition(), r.keySchema(), r.key(), null, doc, r.timestamp()));
    }
    return out;
  }

  /**
   * What a task learned survives its restart: the new task reads the footers of the last commit's
   * files, so its files start from the widened schema, and the second half of the records (integer
   * and fractional amounts alike) commits nothing for a schema change (nor does the first: the
   * widening is taken in the open files).
   */
  @Test
  void aRestartedTaskStartsFromTheSchemasOfItsLastCommit() throws Exception {
    List<SinkRecord> records = records(SEED);
    int half = records.size() / 2;
    Path store = dir.resolve("restart");
    Run first = run(records.subList(0, half), store);
    Run second = run(records.subList(half, records.size()), store);
    LOG.info("before the restart: {}; after: {}", first, second);
    assertTrue(first.schemaChanges() <= 1, first.toString());
    assertEquals(0, second.schemaChanges(), second.toString());
    assertEquals(RECORDS, second.committed(), "every record committed");
  }

  /**
   * Records with schemas under {@code schema.compatibility=BACKWARD}, two versions interleaved (as
   * while producers upgrade) across the 8 directories, need about the files of one version: they
   * made 9,298 files and 1,631 schema change commits when each new file started from its first
   * record's version (an old one rolled again at the next new one).
   */
  @Test
  void interleavedSchemaVersionsAcrossDirectories() throws Exception {
    Schema v1 =
        SchemaBuilder.struct()
            .name("Order")
            .version(1)
            .field("country", Schema.STRING_SCHEMA)
            .field("id", Schema.INT64_SCHEMA)
            .field("amount", Schema.INT64_SCHEMA)
            .build();
    Schema v2 =
        SchemaBuilder.struct()
            .name("Order")
            .version(2)
            .field("country", Schema.STRING_SCHEMA)
            .field("id", Schema.INT64_SCHEMA)
            .field("amount", Schema.INT64_SCHEMA)
            .field("note", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    List<SinkRecord> base = records(SEED);
    List<SinkRecord> interleaved = new ArrayList<>();
    List<SinkRecord> single = new ArrayList<>();
    Random versions = new Random(SEED + 3);
    for (SinkRecord r : base) {
      Map<?, ?> doc = (Map<?, ?>) r.value();
      boolean newer = versions.nextBoolean();
      Struct value =
          new Struct(newer ? v2 : v1)
              .put("country", doc.get("country"))
              .put("id", doc.get("id"))
              .put("amount", ((Number) doc.get("amount")).longValue());
      Struct only =
          new Struct(v2)
              .put("country", doc.get("country"))
              .put("id", doc.get("id"))
              .put("amount", ((Number) doc.get("amount")).longValue());
      interleaved.add(
          r.newRecord(
              r.topic(),
              r.kafkaPartition(),
              r.keySchema(),
              r.key(),
              value.schema(),
              value,
              r.timestamp()));
      single.add(
          r.newRecord(
              r.topic(), r.kafkaPartition(), r.keySchema(), r.key(), v2, only, r.timestamp()));
    }
    Run mixed = run(interleaved, dir.resolve("interleaved"), "BACKWARD");
    Run one = run(single, dir.resolve("single"), "BACKWARD");
    LOG.info("two schema versions interleaved (BACKWARD): {}; one version: {}", mixed, one);
    assertEquals(RECORDS, mixed.committed(), "every record committed");
    // New files start from the newest version learned, to which the older one projects: at
    // most one schema change commit per Kafka partition (the first v2 record meeting a v1 file).
    assertTrue(mixed.schemaChanges() <= PARTITIONS, mixed.toString());
    assertTrue(
        mixed.files()
            <= one.files()
                + mixed.schemaChanges() * MessyJson.COUNTRIES.length
                + MessyJson.COUNTRIES.length * PARTITIONS,
        mixed + " vs " + one);
  }

  /** The documents through JsonConverter and StringConverter, spread over the partitions. */
  static List<SinkRecord> records(long seed) {
    MessyJson gen = new MessyJson(seed);
    Random partitions = new Random(seed + 1);
    JsonConverter values = new JsonConverter();
    values.configure(Map.of("schemas.enable", "false"), false);
    StringConverter keys = new StringConverter();
    keys.configure(Map.of(), true);
    long[] next = new long[PARTITIONS];
    List<SinkRecord> out = new ArrayList<>(RECORDS);
    for (int id = 0; id < RECORDS; id++) {
      String key = gen.key(id);
      String doc = gen.document(id);
      var k = keys.toConnectData(TOPIC, key == null ? null : key.getBytes(StandardCharsets.UTF_8));
      var v = values.toConnectData(TOPIC, doc.getBytes(StandardCharsets.UTF_8));
      int p = partitions.nextInt(PARTITIONS);
      out.add(
          new SinkRecord(
              TOPIC,
              p,
              k.schema(),
              k.value(),
              v.schema(),
              v.value(),
              next[p]++,
              1_700_000_000_000L + id,
              TimestampType.CREATE_TIME));
    }
    return out;
  }

  /** The same records with the values as Structs of one schema, the merge of all of them. */
  static List<SinkRecord> withFixedSchema(List<SinkRecord> records) {
    SchemaInference inference = new SchemaInference(SchemaInference.ConflictPolicy.STRING);
    Schema schema = null;
    for (SinkRecord r : records) {
      schema = inference.merge(schema, inference.infer(r.value()));
    }
    List<SinkRecord> out = new ArrayList<>(records.size());
    for (SinkRecord r : records) {
      out.add(
          r.newRecord(
              r.topic(),
              r.kafkaPartition(),
              r.keySchema(),
              r.key(),
              schema,
              inference.conform(schema, r.value()),
              r.timestamp()));
    }
    return out;
  }

  /** The records through the task with sink-local.json's settings, 2 ms of clock per record. */
  static Run run(List<SinkRecord> records, Path store) throws Exception {
    return run(records, store, null);
  }

  static Run run(List<SinkRecord> records, Path store, String compatibility) throws Exception {
    Map<String, String> props = new HashMap<>();
    if (compatibility != null) {
      props.put(ParquetSinkConfig.SCHEMA_COMPATIBILITY_CONFIG, compatibility);
    }
    props.put("name", "orders-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, store.toUri().toString());
    props.put("topics.dir", "topics");
    props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "field");
    props.put(ParquetSinkConfig.PARTITION_FIELDS_CONFIG, "country");
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "500");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "10000");
    props.put(ParquetSinkConfig.PARQUET_CODEC_CONFIG, "zstd");
    props.put(ParquetSinkConfig.STORE_KAFKA_METADATA_CONFIG, "true");
    props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    props.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      tps.add(new TopicPartition(TOPIC, p));
    }
    Random batches = new Random(SEED + 2);
    try (SinkTaskHarness sink = new SinkTaskHarness(props, tps)) {
      long started = System.nanoTime();
      for (int i = 0; i < records.size(); ) {
        int n = Math.min(records.size() - i, 1 + batches.nextInt(500));
        sink.put(new ArrayList<>(records.subList(i, i + n)));
        sink.commitOpenFiles(2L * n);
        i += n;
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      sink.commitOpenFiles(10_000);
      long committed = 0;
      for (long offset : sink.committed().values()) {
        committed += offset;
      }
      long files;
      try (Stream<Path> walk = Files.walk(store.resolve("topics"))) {
        files = walk.filter(f -> f.getFileName().toString().endsWith(".parquet")).count();
      }
      return new Run(
          files,
          sink.rotations("schema change"),
          sink.rotations("flush.size"),
          sink.rotations("rotate.schedule.interval.ms"),
          committed,
          records.size() / seconds,
          sink.schemaChangesInPlace(),
          sink.filesCommitted());
    }
  }
}
