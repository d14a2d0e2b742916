package dev.parquetconnect.engines;

import static dev.parquetconnect.engines.EngineAssertions.assertSameRows;
import static org.junit.jupiter.api.Assertions.assertFalse;

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
 * What Arrow C++'s Parquet reader (Arrow Java's dataset module over JNI: a file-system dataset
 * of one file, scanned with its default Parquet options, as pyarrow.dataset reads) reads of the
 * sink's default output and of {@code pq rewrite}'s compatible settings: every row equal to
 * parquet-java's reading. One Arrow JVM for the whole class.
 *
 * <p>The files: {@link SinkOutputFiles}, the same as SparkSinkOutputIT's and
 * TrinoSinkOutputIT's, LZ4_RAW included (Arrow C++ reads it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArrowSinkOutputIT {
  private static final Logger LOG = LoggerFactory.getLogger(ArrowSinkOutputIT.class);
  private static final long SEED = 20_261_126L;

  @TempDir static Path dir;
  private ArrowOracle arrow;
  private Path lake;

  @BeforeAll
  void writeLakeAndStartArrow() throws Exception {
    LOG.info("seed {}", SEED);
    CompletableFuture<ArrowOracle> starting = CompletableFuture.supplyAsync(() -> {
      try {
        return ArrowOracle.start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    lake = dir.resolve("lake");
    SinkOutputFiles.writeLake(lake, SEED);
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
    return sameRows(SinkOutputFiles.compatibleRewrites(source, dir.resolve("rewrites")),
        "pq rewrite --policy compatible");
  }

  private Stream<DynamicTest> sameRows(List<Path> files, String what) {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path file : files) {
      String name = dir.relativize(file).toString();
      String reader = "Arrow C++ (Arrow Java dataset " + ArrowOracle.version() + ")";
      tests.add(DynamicTest.dynamicTest(reader + ": " + name, () -> {
        ArrowOracle.Answer answer = arrow.read(file);
        if (answer.failed()) {
          throw new AssertionError(reader + " cannot read " + what + " " + name + ": "
              + answer.error());
        }
        assertSameRows(EngineCanonical.parquetJavaRows(file), answer.rows(),
            reader + " reading " + what + " " + name + " [schema " + answer.schema() + "]");
      }));
    }
    return tests.stream();
  }
}
