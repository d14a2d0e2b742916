package dev.parquetconnect.engines;

import static dev.parquetconnect.engines.EngineAssertions.assertSameRows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What Trino's Parquet reader (trino-parquet, the reader its Hive, Iceberg and Delta connectors
 * share, with its default options) reads of the sink's default output and of {@code pq rewrite}'s
 * compatible settings: every row equal to parquet-java's reading. One Trino JVM for the whole
 * class.
 *
 * <p>The files: {@link SinkOutputFiles}, the same as SparkSinkOutputIT's. Trino's reader has no
 * LZ4_RAW codec (it decompresses LZ4 only with Hadoop's framing): the LZ4_RAW rewrites must fail
 * with exactly that error and nothing else, so the limit docs/compatibility.md states stays true,
 * and a Trino that learns the codec fails here until the rows are compared.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TrinoSinkOutputIT {
  private static final Logger LOG = LoggerFactory.getLogger(TrinoSinkOutputIT.class);
  private static final long SEED = 20_261_126L;

  /** What Trino says of a file whose chunks are LZ4_RAW. */
  private static final String NO_LZ4_RAW = "Codec not supported in Parquet: LZ4_RAW";

  @TempDir static Path dir;
  private TrinoOracle trino;
  private Path lake;

  @BeforeAll
  void writeLakeAndStartTrino() throws Exception {
    LOG.info("seed {}", SEED);
    CompletableFuture<TrinoOracle> starting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return TrinoOracle.start();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    lake = SinkOutputFiles.sharedLake(SEED);
    trino = starting.join();
  }

  @AfterAll
  void stopTrino() {
    if (trino != null) {
      trino.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> trinoReadsTheSinksDefaultOutputAsParquetJavaDoes() {
    List<Path> files = EngineAssertions.parquetFiles(lake);
    assertFalse(files.isEmpty(), "the sink wrote no file under " + lake);
    return sameRows(files, "sink default output");
  }

  @TestFactory
  Stream<DynamicTest> trinoReadsEveryCompatibleRewriteAsParquetJavaDoes() throws IOException {
    Path source = EngineAssertions.parquetFiles(lake.resolve("topics/every_type")).get(0);
    return sameRows(
        SinkOutputFiles.compatibleRewrites(source, dir.resolve("rewrites")),
        "pq rewrite --policy compatible");
  }

  private Stream<DynamicTest> sameRows(List<Path> files, String what) {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      String name = SinkOutputFiles.displayName(dir, lake, file);
      String reader = "Trino " + TrinoOracle.version();
      boolean lz4Raw = file.getFileName().toString().startsWith("lz4_raw-");
      tests.add(
          DynamicTest.dynamicTest(
              reader + ": " + name,
              () -> {
                TrinoOracle.Answer answer = trino.read(file);
                if (lz4Raw) {
                  assertTrue(
                      answer.failed() && answer.error().contains(NO_LZ4_RAW),
                      reader
                          + " was expected to refuse LZ4_RAW ("
                          + NO_LZ4_RAW
                          + ") reading "
                          + what
                          + " "
                          + name
                          + ", but "
                          + (answer.failed()
                              ? "failed otherwise: " + answer.error()
                              : "read it: compare its rows with parquet-java's and update docs/compatibility.md"));
                  return;
                }
                if (answer.failed()) {
                  throw new AssertionError(
                      reader + " cannot read " + what + " " + name + ": " + answer.error());
                }
                assertSameRows(
                    EngineCanonical.parquetJavaRows(file),
                    answer.rows(),
                    reader + " reading " + what + " " + name + " [schema " + answer.schema() + "]");
              }));
    }
    return tests.stream();
  }
}
