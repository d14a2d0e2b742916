package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.oracle.CanonicalValues;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code pq rewrite} of every corpus file, under every codec and both page versions, gives a file
 * that DuckDB and parquet-java see with the same schema and the same rows as the original (and pq
 * too). Every corpus file is either rewritten here or refused by pq with the reason below; nothing
 * is skipped silently.
 *
 * <p>Each engine is compared with itself: DuckDB's {@code DESCRIBE} and {@code to_json} rows of the
 * rewritten file against those of the original; parquet-java's schema and rows of the rewritten
 * file against those of the original. Where an engine cannot read the original, the rewritten file
 * is compared with pq's reading of the original instead (checked against the other engines by
 * CorpusReadTest). The engines' own limits, listed in {@link #DUCKDB_LIMITS} and {@link
 * #PARQUET_JAVA_LIMITS}, are asserted, not assumed: DuckDB must fail where listed.
 */
class RewriteCorpusTest {
  /** UNCOMPRESSED .. BROTLI, and LZ4 (Hadoop-framed) for old readers. */
  private static final List<CompressionCodec> CODECS =
      List.of(
          CompressionCodec.UNCOMPRESSED,
          CompressionCodec.SNAPPY,
          CompressionCodec.GZIP,
          CompressionCodec.ZSTD,
          CompressionCodec.LZ4_RAW,
          CompressionCodec.BROTLI,
          CompressionCodec.LZ4);

  /** Corpus files DuckDB cannot read, and why; what pq rewrites of them stays unreadable too. */
  static final Map<String, String> DUCKDB_LIMITS =
      Map.of(
          "data/hadoop_lz4_compressed.parquet", "DuckDB has no LZ4 (Hadoop) codec",
          "data/hadoop_lz4_compressed_larger.parquet", "DuckDB has no LZ4 (Hadoop) codec",
          "data/non_hadoop_lz4_compressed.parquet", "DuckDB has no LZ4 (Hadoop) codec",
          "data/map_no_value.parquet", "DuckDB refuses a MAP_KEY_VALUE group of one field");

  /** Corpus files parquet-java cannot read, and why. */
  static final Map<String, String> PARQUET_JAVA_LIMITS =
      Map.of(
          "data/unknown-logical-type.parquet", "a NullPointerException on the unknown logical type",
          "data/nation.dict-malformed.parquet",
              "the chunk sizes leave out the dictionary page"
                  + " header (an old parquet-mr bug parquet-java does not work around)",
          "data/non_hadoop_lz4_compressed.parquet", "no fallback to bare LZ4 blocks");

  private static Connection duckdb;
  private static DuckDbOracle duckdbValues;

  @BeforeAll
  static void openDuckDb() throws SQLException {
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    duckdbValues = new DuckDbOracle();
  }

  @AfterAll
  static void closeDuckDb() throws Exception {
    duckdb.close();
    duckdbValues.close();
  }

  static Stream<Path> corpusFiles() {
    return Corpus.allFiles().stream();
  }

  /** Files pq reads in full; CRC-damaged ones with checks off, which pq rewrite allows. */
  private static boolean rewritable(String name) {
    return CorpusOutcomes.readable(name) || CorpusOutcomes.onlyChecksumsFail(name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpusFiles")
  void rewriteKeepsSchemaAndRowsForEveryEngine(Path file, @TempDir Path dir) throws Exception {
    String name = Corpus.name(file);
    if (!rewritable(name)) {
      assertRefused(file, name, dir);
      return;
    }
    boolean crcDamaged = CorpusOutcomes.onlyChecksumsFail(name);
    Original original = Original.of(file, name, crcDamaged);
    for (CompressionCodec codec : CODECS) {
      for (String version : List.of("1", "2")) {
        Path out = dir.resolve(codec + "-v" + version + ".parquet");
        String variant = name + " as " + codec + ", page v" + version;
        List<String> args =
            new ArrayList<>(
                List.of(
                    "rewrite",
                    file.toString(),
                    out.toString(),
                    "--codec",
                    codec.name().toLowerCase(Locale.ROOT),
                    "--page-version",
                    version));
        if (crcDamaged) {
          args.addAll(List.of("--verify-checksums", "off"));
        }
        PqRun run = PqRun.run(args.toArray(String[]::new));
        assertEquals(Pq.OK, run.exit(), variant + ": " + run.describe());
        assertSameForPq(original, out, variant);
        assertSameForDuckDb(original, out, codec, variant);
        assertSameForParquetJava(original, out, codec, variant);
        Files.delete(out);
      }
    }
  }

  /** pq refuses the file with its one-line error and leaves nothing behind. */
  private static void assertRefused(Path file, String name, Path dir) throws IOException {
    Path out = dir.resolve("out.parquet");
    PqRun run = PqRun.run("rewrite", file.toString(), out.toString());
    assertEquals(CorpusOutcomes.failure(name).exit(), run.exit(), run.describe());
    assertEquals(1, run.errLines().size(), run.err());
    try (Stream<Path> left = Files.list(dir)) {
      assertEquals(List.of(), left.toList(), "a refused rewrite leaves no file");
    }
  }

  /** What each engine sees in the original; null where it cannot read it. */
  private record Original(
      Path file,
      String name,
      MessageType schema,
      MessageType writableSchema,
      List<Row> rows,
      List<String> duckDbColumns,
      List<String> duckDbRows,
      String parquetJavaSchema,
      List<Row> parquetJavaRows) {

    static Original of(Path file, String name, boolean crcDamaged) throws Exception {
      MessageType schema;
      MessageType writableSchema;
      List<Row> rows = new ArrayList<>();
      ReadOptions options = ReadOptions.defaults().withVerifyChecksums(!crcDamaged);
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file), options);
          RowReader rowReader = reader.rowReader()) {
        schema = reader.schema();
        writableSchema = WritableSchema.of(reader.metadata().schema()).schema();
        while (rowReader.hasNext()) {
          rows.add(rowReader.next());
        }
      }
      List<String> columns = null;
      List<String> duckRows = null;
      if (DUCKDB_LIMITS.containsKey(name)) {
        assertThrows(
            SQLException.class,
            () -> duckDbJsonOf(file),
            name + " is listed as" + " unreadable by DuckDB: " + DUCKDB_LIMITS.get(name));
      } else {
        columns = duckDbDescribeOf(file);
        duckRows = duckDbJsonOf(file);
      }
      String pjSchema = null;
      List<Row> pjRows = null;
      if (PARQUET_JAVA_LIMITS.containsKey(name)) {
        assertThrows(
            Exception.class,
            () -> ParquetJavaOracle.read(file, schema),
            name + " is listed as unreadable by parquet-java: " + PARQUET_JAVA_LIMITS.get(name));
      } else {
        pjSchema = parquetJavaSchemaOf(file);
        // parquet-java checks no CRCs by default: it reads the damaged files' bytes as they are.
        pjRows = ParquetJavaOracle.read(file, schema);
      }
      return new Original(
          file, name, schema, writableSchema, rows, columns, duckRows, pjSchema, pjRows);
    }
  }

  private static void assertSameForPq(Original original, Path out, String variant)
      throws IOException, ParquetException {
    MessageType expected = original.writableSchema();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(out));
        RowReader rows = reader.rowReader()) {
      assertEquals(expected.toString(), reader.schema().toString(), variant);
      for (int i = 0; i < original.rows().size(); i++) {
        assertTrue(rows.hasNext(), variant + ": row " + i + " missing");
        Row row = rows.next();
        if (!original.rows().get(i).equals(row)) {
          assertEquals(original.rows().get(i).toString(), row.toString(), variant + " row " + i);
        }
      }
      assertFalse(rows.hasNext(), variant + ": more rows than the original");
    }
  }

  private static void assertSameForDuckDb(
      Original original, Path out, CompressionCodec codec, String variant) throws SQLException {
    if (original.name().equals("data/map_no_value.parquet")) {
      // The rewrite keeps the one-field MAP_KEY_VALUE group DuckDB refuses.
      assertThrows(SQLException.class, () -> duckDbJsonOf(out), variant);
      return;
    }
    if (codec == CompressionCodec.LZ4 && !duckDbReads(out)) {
      // DuckDB has no LZ4 (Hadoop) codec: these files are for parquet-java and old readers.
      // (It still reads those whose pages need no decompression: no rows, or v2 pages the
      // writer left uncompressed because compression did not pay; they are compared below.)
      return;
    }
    if (original.duckDbRows() != null) {
      assertEquals(original.duckDbColumns(), duckDbDescribeOf(out), variant + ": DuckDB's schema");
      assertEquals(original.duckDbRows(), duckDbJsonOf(out), variant + ": DuckDB's rows");
    } else {
      // DuckDB cannot read the original (its LZ4 codec): it reads the rewrite, whose values
      // must be pq's reading of the original.
      List<List<String>> expected = new ArrayList<>();
      for (Row row : original.rows()) {
        expected.add(CanonicalValues.fields(row, original.schema()));
      }
      assertEquals(expected, duckdbValues.read(out, original.schema()), variant);
    }
  }

  /** Whether DuckDB reads the file; false only for its missing LZ4 (Hadoop) codec. */
  private static boolean duckDbReads(Path file) {
    try {
      duckDbJsonOf(file);
      return true;
    } catch (SQLException e) {
      assertTrue(e.getMessage().contains("Unsupported compression codec \"LZ4\""), e.getMessage());
      return false;
    }
  }

  private static void assertSameForParquetJava(
      Original original, Path out, CompressionCodec codec, String variant) throws IOException {
    String schema = parquetJavaSchemaOf(out);
    if (original.parquetJavaSchema() != null) {
      assertEquals(original.parquetJavaSchema(), schema, variant + ": parquet-java's schema");
    } else {
      assertEquals(
          SchemaCommandTest.normalized(original.writableSchema().toString()),
          SchemaCommandTest.normalized(schema),
          variant);
    }
    if (codec == CompressionCodec.BROTLI) {
      // parquet-java has no Brotli codec on this class path (a separate jar): DuckDB and pq
      // read these files' rows; parquet-java's footer reading is checked above.
      return;
    }
    List<Row> rows = ParquetJavaOracle.read(out, original.schema());
    List<Row> expected =
        original.parquetJavaRows() != null ? original.parquetJavaRows() : original.rows();
    assertEquals(expected.size(), rows.size(), variant + ": parquet-java's row count");
    for (int i = 0; i < rows.size(); i++) {
      if (!expected.get(i).equals(rows.get(i))) {
        assertEquals(
            expected.get(i).toString(),
            rows.get(i).toString(),
            variant + ": parquet-java's row " + i);
      }
    }
  }

  private static String parquetJavaSchemaOf(Path file) throws IOException {
    // A plain configuration: parquet-java's default one loads Hadoop's, ~15 ms a file.
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(
            new LocalInputFile(file),
            ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
      return reader.getFooter().getFileMetaData().getSchema().toString();
    }
  }

  /** DuckDB's column names and types. */
  private static List<String> duckDbDescribeOf(Path file) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (Statement s = duckdb.createStatement();
        ResultSet r =
            s.executeQuery(
                "DESCRIBE SELECT * FROM read_parquet('" + file.toAbsolutePath() + "')")) {
      while (r.next()) {
        columns.add(r.getString("column_name") + " " + r.getString("column_type"));
      }
    }
    assertNotNull(columns);
    return columns;
  }

  /** DuckDB's JSON of each row, in file order. */
  private static List<String> duckDbJsonOf(Path file) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = duckdb.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT to_json(pq_row) FROM read_parquet('"
                    + file.toAbsolutePath()
                    + "') pq_row")) {
      while (r.next()) {
        rows.add(r.getString(1));
      }
    }
    return rows;
  }
}
