package dev.parquetconnect.format.write;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The {@link WriterMatrix} with data pages V1: read back by parquet-java and DuckDB. */
class WriterMatrixV1Test {
  private static DuckDbOracle duckdb;

  @TempDir static Path dir;

  @BeforeAll
  static void openDuckDb() throws Exception {
    duckdb = new DuckDbOracle();
  }

  @AfterAll
  static void closeDuckDb() throws Exception {
    duckdb.close();
  }

  static Stream<Arguments> configurations() {
    return WriterMatrix.configurations(PageVersion.V1);
  }

  @ParameterizedTest(name = "V1 dictionary {0} {1} {2}")
  @MethodSource("configurations")
  void parquetJavaAndDuckDbReadOurFile(
      WriterMatrix.Dictionary dictionary, CompressionCodec codec, EncodingPolicy policy)
      throws Exception {
    WriterMatrix.check(dir, duckdb, PageVersion.V1, dictionary, codec, policy);
  }
}
