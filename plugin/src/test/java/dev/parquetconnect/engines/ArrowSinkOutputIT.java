package dev.parquetconnect.engines;

import static dev.parquetconnect.engines.EngineAssertions.assertSameRows;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * What Arrow C++'s Parquet reader (Arrow Java's dataset module over JNI: a file-system dataset of
 * one file, scanned with its default Parquet options, as pyarrow.dataset reads) reads of the sink's
 * default output and of {@code pq rewrite}'s compatible settings: every row equal to parquet-java's
 * reading. One Arrow JVM for the whole class.
 *
 * <p>The files: {@link SinkOutputFiles}, the same as SparkSinkOutputIT's and TrinoSinkOutputIT's,
 * LZ4_RAW included (Arrow C++ reads it); and the settings other engines cannot read, so that
 * docs/compatibility.md's Arrow column is what this test shows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArrowSinkOutputIT {
  private static final Logger LOG = LoggerFactory.getLogger(ArrowSinkOutputIT.class);
  private static final long SEED = 20_261_126L;

  /** What the JNI build of Arrow C++ in arrow-dataset says of a Brotli file. */
  private static final String NO_BROTLI = "Support for codec 'brotli' not built";

  @TempDir static Path dir;
  private ArrowOracle arrow;
  private Path lake;

  @BeforeAll
  void writeLakeAndStartArrow() throws Exception {
    LOG.info("seed {}", SEED);
    CompletableFuture<ArrowOracle> starting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return ArrowOracle.start();
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    lake = SinkOutputFiles.sharedLake(SEED);
    arrow = starting.join();
  }

  @AfterAll
  void stopArrow() {
    if (arrow != null) {
      arrow.close();
    }
  }

  @TestFactory
  Stream<DynamicTest> arrowReadsTheSinksDefaultOutputAsParquetJavaDoes() {
    List<Path> files = EngineAssertions.parquetFiles(lake);
    assertFalse(files.isEmpty(), "the sink wrote no file under " + lake);
    return sameRows(files, "sink default output");
  }

  @TestFactory
  Stream<DynamicTest> arrowReadsEveryCompatibleRewriteAsParquetJavaDoes() throws IOException {
    Path source = EngineAssertions.parquetFiles(lake.resolve("topics/every_type")).get(0);
    return sameRows(
        SinkOutputFiles.compatibleRewrites(source, dir.resolve("rewrites")),
        "pq rewrite --policy compatible");
  }

  /**
   * The settings docs/compatibility.md marks not compatible: the extended policy's
   * BYTE_STREAM_SPLIT floats (the file must hold that encoding, else the test proves nothing), LZ4
   * with Hadoop's framing and Connect {@code Time} as {@code TIME(MILLIS, true)}, which Arrow C++
   * reads; and Brotli, which the dataset module's native library is built without: those files must
   * fail with exactly {@link #NO_BROTLI}, so that the limit the document states stays true.
   */
  @TestFactory
  Stream<DynamicTest> arrowReadsTheSettingsSparkOrTrinoCannot() throws IOException {
    Path source = EngineAssertions.parquetFiles(lake.resolve("topics/every_type")).get(0);
    Path floats = EngineAssertions.parquetFiles(lake.resolve("topics/distinct_floats")).get(0);
    Path timeMillisLake = dir.resolve("time-millis-lake");
    SinkOutputFiles.writeTimeMillisLake(timeMillisLake, SEED);
    List<Path> files =
        new ArrayList<>(
            SinkOutputFiles.incompatibleRewrites(source, floats, dir.resolve("incompatible")));
    files.addAll(EngineAssertions.parquetFiles(timeMillisLake));
    String reader = "Arrow C++ (Arrow Java dataset " + ArrowOracle.version() + ")";
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      String name = SinkOutputFiles.displayName(dir, lake, file);
      tests.add(
          DynamicTest.dynamicTest(
              reader + ": " + name,
              () -> {
                if (name.contains("extended-")) {
                  assertTrue(
                      encodings(file).contains("BYTE_STREAM_SPLIT"),
                      name + " holds no BYTE_STREAM_SPLIT chunk: " + encodings(file));
                }
                ArrowOracle.Answer answer = arrow.read(file);
                if (name.contains("brotli-")) {
                  assertTrue(
                      answer.failed() && answer.error().contains(NO_BROTLI),
                      reader
                          + " was expected to refuse Brotli ("
                          + NO_BROTLI
                          + ") reading "
                          + name
                          + ", but "
                          + (answer.failed()
                              ? "failed otherwise: " + answer.error()
                              : "read it: compare "
                                  + "its rows with parquet-java's reading of "
                                  + source
                                  + " and update docs/compatibility.md"));
                  return;
                }
                if (answer.failed()) {
                  throw new AssertionError(reader + " cannot read " + name + ": " + answer.error());
                }
                assertSameRows(
                    EngineCanonical.parquetJavaRows(file),
                    answer.rows(),
                    reader + " reading " + name + " [schema " + answer.schema() + "]");
              }));
    }
    return tests.stream();
  }

  /** The encodings of every column chunk of {@code file}, as DuckDB lists them. */
  private static String encodings(Path file) throws SQLException {
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = db.createStatement();
        ResultSet rs =
            sql.executeQuery(
                "SELECT string_agg(DISTINCT encodings, ' ') FROM "
                    + "parquet_metadata('"
                    + file.toString().replace("'", "''")
                    + "')")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private Stream<DynamicTest> sameRows(List<Path> files, String what) {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      String name = SinkOutputFiles.displayName(dir, lake, file);
      String reader = "Arrow C++ (Arrow Java dataset " + ArrowOracle.version() + ")";
      tests.add(
          DynamicTest.dynamicTest(
              reader + ": " + name,
              () -> {
                ArrowOracle.Answer answer = arrow.read(file);
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
