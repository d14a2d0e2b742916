package dev.parquetconnect.engines;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Spark reads of a schemaless topic's whole directory (partition discovery, the default
 * vectorized reader), against DuckDB's {@code union_by_name} reading. Four lakes written by the
 * sink task from schemaless JSON (small files, so that the files' schemas differ):
 *
 * <ul>
 *   <li>{@code messy}: optional values null or absent, arrays empty or not, objects empty or with
 *       null values, a text key that is null for a while, nested and top-level keys that first turn
 *       up late, partitioned by a field; no value changes its type. Spark with {@code mergeSchema}
 *       reads it as DuckDB does: what we promise.
 *   <li>{@code widened}: {@code v} an integer in the first records, then with a fraction: INT64
 *       files, then DOUBLE files (the learned schema widens; written files stay).
 *   <li>{@code texted}: {@code w} an integer, then a string: INT64 files, then STRING files (the
 *       type conflict policy {@code string}).
 *   <li>{@code null_first}: {@code d} null in the first records, then a number: the files written
 *       while it was only null have no column {@code d} (a key without a value so far has none),
 *       the later ones a DOUBLE one. Spark with {@code mergeSchema} reads it as DuckDB does, as it
 *       does a lake whose later files add a key. (It used to hold a STRING column of nulls there,
 *       and Spark refused the directory as for {@code texted}.)
 * </ul>
 *
 * For {@code widened} and {@code texted}, every way a lake user would try (without {@code
 * mergeSchema}, with it, with a schema of their own giving the wider type; vectorized reader and
 * row reader) fails, with the errors {@link #EXPECTED_ERRORS} pins (docs/compatibility.md shows
 * them), and the workaround the document gives (files read by groups of one type, cast, unioned)
 * reads them right. Spark 4.0.1, the shared JVM of the lake checks; {@code
 * -Dengines.schemaless.allVersions=true} adds Spark 3.5.8 (which answered the same, 2026-11-26).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkSchemalessLakeIT {
  private static final Logger LOG = LoggerFactory.getLogger(SparkSchemalessLakeIT.class);
  private static final long SEED = 20_261_126L;
  private static final int RECORDS = 600;
  private static final String[] COUNTRIES = {"de", "fr", "us"};

  private static final String EQUAL = "equal to DuckDB";

  /**
   * How a read of a lake with a changed type fails, by way and reader (the error's start), or
   * {@link #EQUAL}; a key with the lake's name first holds for that lake alone.
   */
  private static final Map<String, String> EXPECTED_ERRORS = new LinkedHashMap<>();

  static {
    String convert =
        "org.apache.spark.sql.execution.datasources" + ".SchemaColumnConvertNotSupportedException";
    String cast = "java.lang.ClassCastException";
    String merge = "org.apache.spark.SparkException: [CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE]";
    EXPECTED_ERRORS.put("without mergeSchema, defaults (vectorized, pushdown)", convert);
    EXPECTED_ERRORS.put("without mergeSchema, row reader, pushdown", cast);
    EXPECTED_ERRORS.put("mergeSchema, defaults (vectorized, pushdown)", merge);
    EXPECTED_ERRORS.put("mergeSchema, row reader, pushdown", merge);
    EXPECTED_ERRORS.put("user schema, defaults (vectorized, pushdown)", convert);
    EXPECTED_ERRORS.put("user schema, row reader, pushdown", cast);
  }

  @TempDir static Path dir;

  @BeforeAll
  void writeLakes() {
    LOG.info("seed {}", SEED);
    writeLake(
        "messy",
        messyDocuments(new Random(SEED)),
        Map.of(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "field",
            ParquetSinkConfig.PARTITION_FIELDS_CONFIG,
            "country"));
    writeLake(
        "widened",
        i ->
            i < RECORDS / 2
                ? "{\"id\":" + i + ",\"v\":" + (i * 3) + "}"
                : "{\"id\":" + i + ",\"v\":" + i + ".5}",
        Map.of());
    writeLake(
        "texted",
        i ->
            i < RECORDS / 2
                ? "{\"id\":" + i + ",\"w\":" + (i * 3) + "}"
                : "{\"id\":" + i + ",\"w\":\"text " + i + "\"}",
        Map.of());
    writeLake(
        "null_first",
        i ->
            i < RECORDS / 2
                ? "{\"id\":" + i + ",\"d\":null}"
                : "{\"id\":" + i + ",\"d\":" + i + ".5}",
        Map.of());
  }

  @Test
  void sparkMergesALakeWhoseColumnsKeepTheirTypes() throws Exception {
    Path lake = topicDir("messy");
    assertEquals(
        1,
        SchemalessLakeCheck.filesByChangedTypes(lake).size(),
        () -> "no column of the messy lake may change its type: " + groups(lake));
    Set<Set<List<String>>> shapes = new HashSet<>();
    for (Path file : EngineAssertions.parquetFiles(lake)) {
      shapes.add(SchemalessLakeCheck.leafTypes(file).keySet());
    }
    assertTrue(shapes.size() > 1, "the messy lake's files all have the same columns");
    for (SparkOracle spark : sparks()) {
      SparkLakeCheck.assertSparkMergesSchemalessLakeAsDuckDb(spark, lake);
    }
  }

  /**
   * A key null in every record of the early files, then a number: the early files have no column
   * for it, so no file disagrees on its type, and Spark reads the lake with {@code mergeSchema} (or
   * with a schema of the user's) as DuckDB does, both readers.
   */
  @Test
  void sparkMergesALakeWhoseKeyWasNullInEveryRecordOfTheEarlyFiles() throws Exception {
    Path lake = topicDir("null_first");
    List<Path> files = EngineAssertions.parquetFiles(lake);
    long without = files.stream().filter(f -> !leafTypes(f).containsKey(List.of("d"))).count();
    assertTrue(
        without > 0 && without < files.size(),
        "early files without a column d, later ones with it: " + without + " of " + files);
    assertEquals(
        1,
        SchemalessLakeCheck.filesByChangedTypes(lake).size(),
        () -> "d's type differs between files: " + groups(lake));
    List<String> wrong = new ArrayList<>();
    StringBuilder table = new StringBuilder();
    for (SparkOracle spark : sparks()) {
      SparkLakeCheck.assertSparkMergesSchemalessLakeAsDuckDb(spark, lake);
      ways(spark, lake, "d", "DOUBLE")
          .forEach(
              (way, outcome) -> {
                table
                    .append("\n  Spark ")
                    .append(spark.version())
                    .append(", ")
                    .append(way)
                    .append(": ")
                    .append(outcome);
                // Without mergeSchema Spark takes one file's footer, which may lack d.
                if (!way.startsWith("without mergeSchema") && !outcome.equals(EQUAL)) {
                  wrong.add("Spark " + spark.version() + ", " + way + ": " + outcome);
                }
              });
    }
    LOG.info("Spark on a lake whose key was null in the early files:{}", table);
    assertTrue(
        wrong.isEmpty(),
        "Spark did not read it as DuckDB does (update"
            + " docs/compatibility.md): "
            + String.join("\n", wrong));
  }

  private static Map<List<String>, String> leafTypes(Path file) {
    try {
      return SchemalessLakeCheck.leafTypes(file);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void sparkRefusesALakeWithAChangedTypeAndReadsItByGroups() throws Exception {
    List<String> wrong = new ArrayList<>();
    StringBuilder table = new StringBuilder();
    for (SparkOracle spark : sparks()) {
      for (String[] lake :
          List.of(
              new String[] {"widened", "v", "DOUBLE"}, new String[] {"texted", "w", "STRING"})) {
        Path topicDir = topicDir(lake[0]);
        Map<String, String> found = ways(spark, topicDir, lake[1], lake[2]);
        found.forEach(
            (way, outcome) -> {
              table
                  .append("\n  Spark ")
                  .append(spark.version())
                  .append(", ")
                  .append(lake[0])
                  .append(", ")
                  .append(way)
                  .append(": ")
                  .append(outcome);
              String general = way.replaceFirst("user schema [^,]*", "user schema");
              String expected =
                  EXPECTED_ERRORS.getOrDefault(
                      lake[0] + ": " + general, EXPECTED_ERRORS.get(general));
              if (!outcome.startsWith(expected)) {
                wrong.add(
                    "Spark "
                        + spark.version()
                        + ", "
                        + lake[0]
                        + ", "
                        + way
                        + ": expected "
                        + expected
                        + ", got "
                        + outcome);
              }
            });
        SparkLakeCheck.assertSparkReadsChangedTypesAsDuckDb(
            spark, topicDir, "CANNOT_MERGE_INCOMPATIBLE_DATA_TYPE");
      }
    }
    LOG.info("Spark on lakes whose files disagree on a column's type:{}", table);
    assertTrue(
        wrong.isEmpty(),
        "Spark's answers changed (update docs/compatibility.md): " + String.join("\n", wrong));
  }

  /**
   * Spark's error for each way a lake user would try, or {@link #EQUAL} where it answers as DuckDB
   * does (else what differs).
   */
  private static Map<String, String> ways(
      SparkOracle spark, Path topicDir, String column, String widerType) throws Exception {
    List<List<String>> columns = List.of(List.of("id"), List.of(column));
    List<String> duckDb = SchemalessLakeCheck.duckDbRows(topicDir, columns);
    // A user's schema decides the column's type, which DuckDB's reading is cast to.
    List<String> duckDbAsGiven =
        SchemalessLakeCheck.duckDbRows(topicDir, columns, Map.of(List.of(column), widerType));
    Map<String, Map<String, String>> ways = new LinkedHashMap<>();
    ways.put("without mergeSchema", Map.of());
    ways.put("mergeSchema", Map.of("mergeSchema", "true"));
    ways.put(
        "user schema " + column + " " + widerType,
        Map.of("schema", "id BIGINT, " + column + " " + widerType));
    Map<String, String> found = new LinkedHashMap<>();
    for (Map.Entry<String, Map<String, String>> way : ways.entrySet()) {
      for (Map<String, String> reader : List.of(SparkOracle.DEFAULTS, SparkOracle.NOT_VECTORIZED)) {
        Map<String, String> settings = new HashMap<>(reader);
        settings.putAll(way.getValue());
        SparkOracle.Answer answer =
            spark.query(topicDir, Map.copyOf(settings), SchemalessLakeCheck.sparkSql(columns));
        String outcome = EQUAL;
        if (answer.failed()) {
          outcome = answer.error();
        } else {
          try {
            EngineAssertions.assertSameRows(
                way.getValue().containsKey("schema") ? duckDbAsGiven : duckDb,
                answer.rows(),
                "rows differ");
          } catch (AssertionError e) {
            outcome = e.getMessage();
          }
        }
        found.put(way.getKey() + ", " + SparkOracle.describe(reader), outcome);
      }
    }
    return found;
  }

  private static Object groups(Path lake) {
    try {
      return SchemalessLakeCheck.filesByChangedTypes(lake).keySet();
    } catch (java.io.IOException e) {
      return e;
    }
  }

  private static List<SparkOracle> sparks() throws Exception {
    List<SparkOracle> sparks = new ArrayList<>(List.of(SparkLakeCheck.spark()));
    if (Boolean.getBoolean("engines.schemaless.allVersions")) {
      for (String version : SparkOracle.versions().subList(1, SparkOracle.versions().size())) {
        SparkOracle started = SparkOracle.start(version);
        Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop-spark-" + version));
        sparks.add(started);
      }
    }
    return sparks;
  }

  private static Path topicDir(String topic) {
    return dir.resolve("lake/topics/" + topic);
  }

  /**
   * Orders shaped like real JSON, with no value changing its type: amounts always with a fraction,
   * a coupon code null for the first documents, keys that turn up late.
   */
  private static IntFunction<String> messyDocuments(Random random) {
    return id -> {
      StringBuilder out =
          new StringBuilder("{\"country\":\"")
              .append(COUNTRIES[random.nextInt(COUNTRIES.length)])
              .append("\",\"id\":")
              .append(id)
              .append(",\"amount\":")
              .append(random.nextInt(1000))
              .append(".25");
      switch (random.nextInt(3)) {
        case 0 -> {}
        case 1 -> out.append(",\"note\":null");
        default -> out.append(",\"note\":\"note ").append(random.nextInt(100)).append('"');
      }
      switch (random.nextInt(3)) {
        case 0 -> {}
        case 1 -> out.append(",\"tags\":[]");
        default -> out.append(",\"tags\":[\"t").append(random.nextInt(5)).append("\"]");
      }
      switch (random.nextInt(4)) {
        case 0 -> out.append(",\"attrs\":{}");
        case 1 -> out.append(",\"attrs\":{\"color\":null,\"size\":\"L\"}");
        case 2 -> {}
        default -> out.append(",\"attrs\":{\"color\":\"red\",\"size\":null}");
      }
      // Null for the first documents, then text: a file of nulls only has it as a string.
      if (random.nextBoolean()) {
        out.append(",\"coupon\":")
            .append(
                id > 150 && random.nextBoolean() ? "\"SAVE" + random.nextInt(50) + "\"" : "null");
      }
      out.append(",\"address\":{\"city\":\"city-").append(random.nextInt(9)).append('"');
      if (id > 300 && random.nextBoolean()) {
        out.append(",\"zip\":\"").append(10_000 + random.nextInt(90_000)).append('"');
      }
      out.append('}');
      if (id > 400 && random.nextInt(10) == 0) {
        out.append(",\"late\":").append(random.nextInt(100)).append(".5");
      }
      return out.append('}').toString();
    };
  }

  /** The sink task with its defaults (and {@code extra}) over schemaless JSON documents. */
  private static void writeLake(
      String topic, IntFunction<String> document, Map<String, String> extra) {
    JsonConverter json = new JsonConverter();
    json.configure(Map.of("schemas.enable", "false"), false);
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      Object value =
          json.toConnectData(topic, document.apply(i).getBytes(StandardCharsets.UTF_8)).value();
      records.add(new SinkRecord(topic, i % 2, null, null, null, value, i / 2));
    }
    Map<String, String> props = new HashMap<>(extra);
    props.put("name", "schemaless-lake-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.resolve("lake").toUri().toString());
    // Small files: the lake's files then differ in the keys they have seen.
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "50");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    try (SinkTaskHarness sink =
        new SinkTaskHarness(
            props, List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1)))) {
      sink.putInRandomBatches(records, new Random(SEED), 40);
      sink.commitOpenFiles(120_000);
    }
  }
}
