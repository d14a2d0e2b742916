package dev.parquetconnect.engines;

import static dev.parquetconnect.engines.EngineAssertions.assertSameRows;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a lake user's Spark reads of the sink's default output and of {@code pq rewrite}'s
 * compatible settings: every row equal to parquet-java's reading, with Spark's default reader
 * (vectorized) and with its row-by-row reader, in each Spark version the build resolves ({@code
 * spark.it.versions}). One Spark JVM per version for the whole class.
 *
 * <p>The files: {@link SinkOutputFiles}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkSinkOutputIT {
  private static final Logger LOG = LoggerFactory.getLogger(SparkSinkOutputIT.class);
  private static final long SEED = 20_261_126L;
  private static final List<Map<String, String>> READERS =
      List.of(SparkOracle.DEFAULTS, SparkOracle.NOT_VECTORIZED);

  @TempDir static Path dir;
  private final Map<String, SparkOracle> sparks = new LinkedHashMap<>();
  private final Map<Path, List<String>> parquetJavaRows = new HashMap<>();
  private Path lake;

  @BeforeAll
  void writeLakeAndStartSpark() throws Exception {
    LOG.info("seed {}", SEED);
    List<CompletableFuture<SparkOracle>> starting = new ArrayList<>();
    for (String version : SparkOracle.versions()) {
      starting.add(
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return SparkOracle.start(version);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              }));
    }
    lake = SinkOutputFiles.sharedLake(SEED);
    SinkOutputFiles.writeOddPartitionsLake(dir.resolve("odd-lake"), SEED);
    for (CompletableFuture<SparkOracle> s : starting) {
      SparkOracle spark = s.join();
      sparks.put(spark.version(), spark);
    }
  }

  @Test
  void sparkReadsOddPartitionValuesAsDuckDbDoes() {
    SparkLakeCheck.assertSparkReadsAsDuckDb(dir.resolve("odd-lake/topics/odd_partitions"));
  }

  @AfterAll
  void stopSpark() {
    sparks.values().forEach(SparkOracle::close);
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
    List<Path> rewrites = SinkOutputFiles.compatibleRewrites(source, dir.resolve("rewrites"));
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
      String name = SinkOutputFiles.displayName(dir, lake, file);
      for (SparkOracle spark : sparks.values()) {
        for (Map<String, String> reader : READERS) {
          tests.add(
              DynamicTest.dynamicTest(
                  "Spark " + spark.version() + ", " + SparkOracle.describe(reader) + ": " + name,
                  () -> {
                    SparkOracle.Answer answer = spark.read(file, reader);
                    if (answer.failed()) {
                      throw new AssertionError(
                          "Spark "
                              + spark.version()
                              + " ("
                              + SparkOracle.describe(reader)
                              + ") cannot read "
                              + what
                              + " "
                              + name
                              + ": "
                              + answer.error());
                    }
                    assertSameRows(
                        parquetJavaRows(file),
                        answer.rows(),
                        "Spark "
                            + spark.version()
                            + " ("
                            + SparkOracle.describe(reader)
                            + ") reading "
                            + what
                            + " "
                            + name
                            + " [schema "
                            + answer.schema()
                            + "]");
                  }));
        }
      }
    }
    return tests.stream();
  }
}
