package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code pq cat}: exact lines for a parquet-java file with every logical type; DuckDB's JSON of
 * every corpus file DuckDB reads and of a DuckDB file with its own types, compared by meaning
 * ({@link DuckDbJson}); and, for every corpus file parquet-java reads, the same lines as
 * parquet-java's values rendered by pq's renderer (the reading, independently checked).
 */
class CatCommandTest {
  /**
   * Corpus files our reader reads that DuckDB does not, or not the same, and why. Their values are
   * checked against parquet-java instead (or, for non_hadoop_lz4, in the reader's tests).
   */
  private static final Map<String, String> NOT_COMPARED_WITH_DUCKDB =
      Map.of(
          "data/hadoop_lz4_compressed.parquet", "DuckDB has no LZ4 (Hadoop) codec",
          "data/hadoop_lz4_compressed_larger.parquet", "DuckDB has no LZ4 (Hadoop) codec",
          "data/non_hadoop_lz4_compressed.parquet", "DuckDB has no LZ4 (Hadoop) codec",
          "data/map_no_value.parquet", "DuckDB refuses a MAP_KEY_VALUE group of one field");

  /**
   * Rows DuckDB shows differently from pq on purpose: the last INT96 of int96_from_spark is outside
   * DuckDB's microsecond timestamps and wraps there, while pq prints its exact date.
   */
  private static final Map<String, Integer> DUCKDB_ROW_LIMIT =
      Map.of("data/int96_from_spark.parquet", 5);

  /** Corpus files parquet-java cannot read, and why; DuckDB checks them. */
  private static final Map<String, String> PARQUET_JAVA_FAILS =
      Map.of(
          "data/unknown-logical-type.parquet", "NullPointerException on an unknown logical type",
          "data/nation.dict-malformed.parquet",
              "end of stream: the chunk sizes leave out the" + " dictionary page header",
          "data/non_hadoop_lz4_compressed.parquet", "no fallback to bare LZ4 blocks");

  /** One in-memory DuckDB for the class: opening one per file costs more than the query. */
  private static Connection duckdb;

  @BeforeAll
  static void openDuckDb() throws SQLException {
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
  }

  @AfterAll
  static void closeDuckDb() throws SQLException {
    duckdb.close();
  }

  static Stream<Path> readableCorpusFiles() {
    return Corpus.allFiles().stream().filter(f -> CorpusOutcomes.readable(Corpus.name(f)));
  }

  @Test
  void rendersEveryLogicalTypeOfAParquetJavaFile() {
    PqRun run = PqRun.run("cat", TestFiles.parquetJavaFile());
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(TestFiles.PARQUET_JAVA_EXPECTED_JSON, run.outLines());
  }

  @Test
  void duckDbFileMatchesDuckDbsJson() throws Exception {
    assertMatchesDuckDb(TestFiles.duckDbFile(), Integer.MAX_VALUE);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("readableCorpusFiles")
  void corpusFileMatchesDuckDbsJson(Path file) throws Exception {
    String name = Corpus.name(file);
    if (NOT_COMPARED_WITH_DUCKDB.containsKey(name)) {
      return; // listed above with the reason; parquet-java's reading covers these
    }
    assertMatchesDuckDb(file, DUCKDB_ROW_LIMIT.getOrDefault(name, Integer.MAX_VALUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("readableCorpusFiles")
  void corpusFileMatchesParquetJavasValues(Path file) throws Exception {
    if (PARQUET_JAVA_FAILS.containsKey(Corpus.name(file))) {
      return; // listed above with the reason; DuckDB's JSON covers these
    }
    MessageType schema = schemaOf(file);
    RowRenderer renderer = new RowRenderer(schema);
    List<String> expected = new ArrayList<>();
    for (Row row : ParquetJavaOracle.read(file, schema)) {
      StringBuilder line = new StringBuilder();
      renderer.render(row, line);
      expected.add(line.toString());
    }
    PqRun run = PqRun.run("cat", file);
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(expected, run.outLines());
  }

  private static void assertMatchesDuckDb(Path file, int rows)
      throws IOException, ParquetException, SQLException {
    MessageType schema = schemaOf(file);
    List<String> duck = DuckDbJson.rows(duckdb, file);
    PqRun run = PqRun.run("cat", file);
    assertEquals(Pq.OK, run.exit(), run.describe());
    List<String> ours = run.outLines();
    assertEquals(duck.size(), ours.size(), "rows");
    for (int i = 0; i < Math.min(rows, ours.size()); i++) {
      DuckDbJson.assertSameRow(schema, ours.get(i), duck.get(i), file + " row " + i);
    }
  }

  @Test
  void limitStopsEarly() {
    Path file = Corpus.file("data/alltypes_tiny_pages.parquet");
    assertEquals(3, PqRun.run("cat", file, "--limit", "3").outLines().size());
    assertEquals(List.of(), PqRun.run("cat", file, "--limit", "0").outLines());
    assertEquals(Pq.USAGE, PqRun.run("cat", file, "--limit", "-1").exit());
    assertEquals(Pq.USAGE, PqRun.run("cat", file, "--limit", "many").exit());
  }

  @Test
  void columnsProjectAndKeepMapKeys() {
    Path file = TestFiles.parquetJavaFile();
    PqRun run = PqRun.run("cat", file, "--columns", "id,m.key_value.value", "--limit", "2");
    assertEquals(Pq.OK, run.exit(), run.describe());
    // Choosing a map's values brings its keys along: the entries cannot be rebuilt without.
    assertEquals(
        List.of(
            "{\"id\":0,\"m\":null}", "{\"id\":1,\"m\":{\"k1\":[1,null,3],\"k2\":null,\"k3\":[]}}"),
        run.outLines());
    PqRun group = PqRun.run("cat", file, "--columns", "deep", "--limit", "2");
    assertEquals(
        List.of(
            "{\"deep\":null}",
            "{\"deep\":{\"mid\":[{\"inner\":{\"1\":0.5,\"2\":null}},{\"inner\":null}]}}"),
        group.outLines());
  }

  @Test
  void unknownColumnIsAUsageErrorListingTheColumns() {
    PqRun run =
        PqRun.run("cat", Corpus.file("data/alltypes_plain.parquet"), "--columns", "id,nope");
    assertEquals(Pq.USAGE, run.exit());
    assertTrue(
        run.err()
            .startsWith("pq cat: no column nope in schema; its columns are: id," + " bool_col,"),
        run.err());
    assertEquals(2, run.errLines().size(), run.err());
  }

  static MessageType schemaOf(Path file) throws IOException, ParquetException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.schema();
    }
  }
}
