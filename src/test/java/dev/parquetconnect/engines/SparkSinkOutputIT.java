package dev.parquetconnect.engines;

import static dev.parquetconnect.engines.EngineAssertions.assertSameRows;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.parquetconnect.cli.PqInProcess;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a lake user's Spark reads of the sink's default output and of {@code pq rewrite}'s
 * compatible settings: every row equal to parquet-java's reading, with Spark's default reader
 * (vectorized) and with its row-by-row reader, in each Spark version the build resolves
 * ({@code spark.it.versions}). One Spark JVM per version for the whole class.
 *
 * <p>The data: every Connect type (EngineTestRecords), once without and once with Connect
 * {@code Time} fields, so a type Spark refuses fails its own files only; and a topic of many
 * distinct floating-point values, whose FLOAT64 dictionary overflows the default 1 MiB so the
 * writer's fallback encoding is what Spark reads.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkSinkOutputIT {
  private static final long SEED = 20_261_126L;
  private static final List<Map<String, String>> READERS =
      List.of(SparkOracle.DEFAULTS, SparkOracle.NOT_VECTORIZED);
  /** pq rewrite's settings that docs/pq.md marks for other readers: the compatible policy. */
  private static final List<String> CODECS = List.of("uncompressed", "snappy", "gzip", "zstd", "lz4_raw");

  @TempDir static Path dir;
  private final Map<String, SparkOracle> sparks = new LinkedHashMap<>();
  private final Map<Path, List<String>> parquetJavaRows = new HashMap<>();
  private Path lake;

  @BeforeAll
  void writeLakeAndStartSpark() throws Exception {
    System.out.println("SparkSinkOutputIT seed " + SEED);
    List<CompletableFuture<SparkOracle>> starting = new ArrayList<>();
    for (String version : SparkOracle.versions()) {
      starting.add(CompletableFuture.supplyAsync(() -> {
        try {
          return SparkOracle.start(version);
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }));
    }
    lake = dir.resolve("lake");
    runSink(EngineTestRecords.everyType("every_type", 2, 3000, false, SEED));
    runSink(EngineTestRecords.everyType("every_type_with_time", 1, 300, true, SEED + 1));
    runSink(EngineTestRecords.manyDistinctFloats("distinct_floats", 140_000, SEED + 2));
    for (CompletableFuture<SparkOracle> s : starting) {
      SparkOracle spark = s.join();
      sparks.put(spark.version(), spark);
    }
  }

  @AfterAll
  void stopSpark() {
    sparks.values().forEach(SparkOracle::close);
  }

  private void runSink(List<SinkRecord> records) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "engine-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, lake.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "1000000");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    List<TopicPartition> tps = records.stream()
        .map(r -> new TopicPartition(r.topic(), r.kafkaPartition())).distinct().toList();
    try (SinkTaskHarness sink = new SinkTaskHarness(props, tps)) {
      sink.putInRandomBatches(records, new Random(SEED), 500);
      sink.commitOpenFiles(120_000);
    }
  }

  @TestFactory
  Stream<DynamicTest> sparkReadsTheSinksDefaultOutputAsParquetJavaDoes() {
    List<Path> files = EngineAssertions.parquetFiles(lake);
    assertFalse(files.isEmpty(), "the sink wrote no file under " + lake);
    return sameRows(files, "sink default output");
  }

  @TestFactory
  Stream<DynamicTest> sparkReadsEveryCompatibleRewriteAsParquetJavaDoes() throws IOException {
    Path source = EngineAssertions.parquetFiles(lake.resolve("topics/every_type")).get(0);
    Path out = Files.createDirectories(dir.resolve("rewrites"));
    List<Path> rewrites = new ArrayList<>();
    // Each codec with v1 pages and the dictionary, and with v2 pages without it; the other two
    // page/dictionary pairs once: readers decode pages the same whatever the codec.
    List<String[]> settings = new ArrayList<>();
    for (String codec : CODECS) {
      settings.add(new String[] {codec, "1", "on"});
      settings.add(new String[] {codec, "2", "off"});
    }
    settings.add(new String[] {"zstd", "1", "off"});
    settings.add(new String[] {"zstd", "2", "on"});
    for (String[] s : settings) {
      Path file = out.resolve(s[0] + "-v" + s[1] + "-dictionary-" + s[2] + ".parquet");
      PqInProcess.runOrFail("rewrite", source.toString(), file.toString(),
          "--policy", "compatible", "--codec", s[0], "--page-version", s[1],
          "--dictionary", s[2], "--page-size", "4096", "--row-group-rows", "700");
      rewrites.add(file);
    }
    return sameRows(rewrites, "pq rewrite --policy compatible");
  }

  private synchronized List<String> parquetJavaRows(Path file) throws IOException {
    List<String> rows = parquetJavaRows.get(file);
    if (rows == null) {
      rows = EngineCanonical.parquetJavaRows(file);
      parquetJavaRows.put(file, rows);
    }
    return rows;
  }

  private Stream<DynamicTest> sameRows(List<Path> files, String what) {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      String name = lake.getParent().relativize(file).toString();
      for (SparkOracle spark : sparks.values()) {
        for (Map<String, String> reader : READERS) {
          tests.add(DynamicTest.dynamicTest(
              "Spark " + spark.version() + ", " + SparkOracle.describe(reader) + ": " + name, () -> {
                SparkOracle.Answer answer = spark.read(file, reader);
                if (answer.failed()) {
                  throw new AssertionError("Spark " + spark.version() + " ("
                      + SparkOracle.describe(reader) + ") cannot read " + what + " " + name + ": "
                      + answer.error());
                }
                assertSameRows(parquetJavaRows(file), answer.rows(),
                    "Spark " + spark.version() + " (" + SparkOracle.describe(reader) + ") reading "
                        + what + " " + name + " [schema " + answer.schema() + "]");
              }));
        }
      }
    }
    return tests.stream();
  }
}
