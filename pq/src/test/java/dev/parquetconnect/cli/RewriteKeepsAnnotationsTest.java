package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaConverter;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code pq rewrite} and {@code pq merge} keep every column's annotations exactly as the input
 * wrote them, so DuckDB types each column of the output as it typed the input's and reads the same
 * rows: files DuckDB wrote itself (every type it writes, under each of its codecs and both page
 * versions) and files whose columns carry only the legacy converted types old writers wrote
 * (parquet-mr before 1.11, Impala, Hive). The corpus files are {@link RewriteCorpusTest}'s.
 */
class RewriteKeepsAnnotationsTest {
  private static final Logger LOG = LoggerFactory.getLogger(RewriteKeepsAnnotationsTest.class);

  /** DuckDB's names of its Parquet codecs ({@code lz4} is LZ4_RAW). */
  private static final List<String> DUCKDB_CODECS =
      List.of("uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli");

  /** One column of each type DuckDB writes, a seventh of each null. */
  private static final String DUCKDB_TABLE =
      """
      CREATE TABLE every_type AS
      SELECT
        CASE WHEN i % 7 = 0 THEN NULL ELSE (i % 100)::TINYINT END AS i8,
        (i * 10)::SMALLINT AS i16, (i * 100000)::INTEGER AS i32, (i * 10000000000)::BIGINT AS i64,
        (i % 256)::UTINYINT AS u8, (i * 90)::USMALLINT AS u16, (i * 70000)::UINTEGER AS u32,
        (i * 5000000000)::UBIGINT AS u64, (i * 12345678901234567)::HUGEINT AS i128,
        (i * 1.5)::FLOAT AS f32, (i * 1.25)::DOUBLE AS f64,
        (i / 10)::DECIMAL(4, 1) AS d4, (i * 1000.125)::DECIMAL(18, 3) AS d18,
        (i * 123456789.0123)::DECIMAL(38, 10) AS d38,
        i % 2 = 0 AS b, 'text ' || i AS s, ('bytes ' || i)::BLOB AS bl,
        DATE '2024-01-01' + i::INTEGER AS dt, TIME '12:00:00' + INTERVAL (i) SECOND AS t,
        TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE AS ts,
        (TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE)::TIMESTAMP_S AS ts_s,
        (TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE)::TIMESTAMP_MS AS ts_ms,
        (TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE)::TIMESTAMP_NS AS ts_ns,
        (TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) MINUTE)::TIMESTAMPTZ AS tstz,
        INTERVAL (i) DAY + INTERVAL (i) MINUTE AS iv,
        ('00000000-0000-0000-0000-' || lpad(i::VARCHAR, 12, '0'))::UUID AS id,
        (['sad', 'ok', 'happy'][i % 3 + 1])::mood AS e,
        json_object('n', i) AS j,
        [i, i + 1, NULL] AS l, {'a': i, 'b': 'x' || i} AS st,
        MAP {'k' || i: i} AS m, [{'x': i}, NULL] AS ls
      FROM range(0, 700) r(i)
      """;

  private static Connection duckdb;

  @BeforeAll
  static void openDuckDb() throws SQLException {
    duckdb = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = duckdb.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')");
      s.execute(DUCKDB_TABLE);
    }
  }

  @AfterAll
  static void closeDuckDb() throws SQLException {
    duckdb.close();
  }

  @Test
  void rewritesOfDuckDbFilesKeepDuckDbsTypesAndRowsUnderEveryCodecAndPageVersion(@TempDir Path dir)
      throws Exception {
    long start = System.nanoTime();
    for (String codec : DUCKDB_CODECS) {
      for (String version : List.of("V1", "V2")) {
        Path in = dir.resolve("duckdb-" + codec + "-" + version + ".parquet");
        try (Statement s = duckdb.createStatement()) {
          s.execute(
              "COPY every_type TO '"
                  + in
                  + "' (FORMAT parquet, COMPRESSION "
                  + codec
                  + ", PARQUET_VERSION "
                  + version
                  + ", FIELD_IDS 'auto')");
        }
        Path out = dir.resolve("rewritten-" + codec + "-" + version + ".parquet");
        String variant = "DuckDB " + codec + " " + version;
        PqRun run =
            PqRun.run(
                "rewrite",
                in.toString(),
                out.toString(),
                "--page-version",
                version.equals("V1") ? "1" : "2");
        assertEquals(Pq.OK, run.exit(), variant + ": " + run.describe());
        assertSameInDuckDb(in, out, variant);
        assertSameAnnotations(in, out, variant);
        assertEquals(0, footer(out).get(1).fieldId(), variant + ": DuckDB's field ids, kept");
      }
    }
    LOG.info(
        "rewrote {} DuckDB-written files in {} ms",
        DUCKDB_CODECS.size() * 2,
        (System.nanoTime() - start) / 1_000_000);
  }

  @Test
  void aColumnWithOnlyALegacyConvertedTypeKeepsOnlyThat(@TempDir Path dir) throws Exception {
    Path in = dir.resolve("legacy.parquet");
    writeLegacyFile(in, 0);
    Path out = dir.resolve("rewritten.parquet");
    PqRun run = PqRun.run("rewrite", in.toString(), out.toString(), "--codec", "snappy");
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertSameInDuckDb(in, out, "legacy file");
    assertSameAnnotations(in, out, "legacy file");
    // A converted-only TIMESTAMP_MILLIS is DuckDB's TIMESTAMP; the logical type our reader derives
    // from it, TIMESTAMP(isAdjustedToUTC=true), would have been TIMESTAMP WITH TIME ZONE.
    assertTrue(describe(out).contains("ts_millis TIMESTAMP"), describe(out).toString());
    SchemaElement timestamp = footerElement(out, "ts_millis");
    assertEquals(ConvertedType.TIMESTAMP_MILLIS, timestamp.convertedType());
    assertNull(timestamp.logicalType());
    assertEquals(1, timestamp.fieldId());
    assertEquals(RewriteCommand.keyValues(keyValues(in)), RewriteCommand.keyValues(keyValues(out)));
  }

  @Test
  void mergeKeepsLegacyAnnotationsAndRefusesInputsAnnotatedOtherwise(@TempDir Path dir)
      throws Exception {
    Path a = dir.resolve("a.parquet");
    Path b = dir.resolve("b.parquet");
    writeLegacyFile(a, 0);
    writeLegacyFile(b, 100);
    Path out = dir.resolve("merged.parquet");
    PqRun run = PqRun.run("merge", out.toString(), a.toString(), b.toString());
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(describe(a), describe(out));
    List<String> expected = new ArrayList<>(rows(a));
    expected.addAll(rows(b));
    assertEquals(expected, rows(out));
    assertSameAnnotations(a, out, "merged legacy files");

    // The same columns with logical types beside the converted ones: our reader sees one schema,
    // DuckDB types the timestamps differently, so the two cannot share a file.
    Path modern = dir.resolve("modern.parquet");
    writeFile(modern, 0, false);
    PqRun refused =
        PqRun.run(
            "merge", dir.resolve("mixed.parquet").toString(), a.toString(), modern.toString());
    assertEquals(1, refused.errLines().size(), refused.describe());
    assertTrue(
        refused.err().contains("does not annotate column ts_millis as " + a), refused.describe());
    assertTrue(Files.notExists(dir.resolve("mixed.parquet")));
  }

  /** DuckDB's types and rows of the output are those of the input. */
  private static void assertSameInDuckDb(Path in, Path out, String variant) throws SQLException {
    assertEquals(describe(in), describe(out), variant + ": DuckDB's DESCRIBE");
    assertEquals(rows(in), rows(out), variant + ": DuckDB's rows");
  }

  /** The output's footer schema is the input's: every annotation and field id, in order. */
  private static void assertSameAnnotations(Path in, Path out, String variant) throws Exception {
    List<SchemaElement> expected = footer(in);
    List<SchemaElement> actual = footer(out);
    assertEquals(expected.subList(1, expected.size()), actual.subList(1, actual.size()), variant);
  }

  private static List<SchemaElement> footer(Path file) throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.metadata().schema();
    }
  }

  private static List<dev.parquetconnect.format.meta.KeyValue> keyValues(Path file)
      throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.metadata().keyValueMetadata();
    }
  }

  private static SchemaElement footerElement(Path file, String name) throws Exception {
    for (SchemaElement e : footer(file)) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw new AssertionError(file + " has no column " + name);
  }

  private static List<String> describe(Path file) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (Statement s = duckdb.createStatement();
        ResultSet r = s.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + file + "')")) {
      while (r.next()) {
        columns.add(r.getString("column_name") + " " + r.getString("column_type"));
      }
    }
    return columns;
  }

  private static List<String> rows(Path file) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = duckdb.createStatement();
        ResultSet r =
            s.executeQuery("SELECT to_json(pq_row) FROM read_parquet('" + file + "') pq_row")) {
      while (r.next()) {
        rows.add(r.getString(1));
      }
    }
    return rows;
  }

  private static void writeLegacyFile(Path file, int first) throws Exception {
    writeFile(file, first, true);
  }

  /**
   * A file of annotated columns, with their logical types or, {@code legacy}, with only the
   * converted types (the footer as parquet-mr wrote it before logical types existed).
   */
  private static void writeFile(Path file, int first, boolean legacy) throws Exception {
    FieldRepetitionType optional = FieldRepetitionType.OPTIONAL;
    List<SchemaNode> fields =
        List.of(
            PrimitiveNode.of("ts_millis", optional, PhysicalType.INT64)
                .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MILLIS)),
            PrimitiveNode.of("ts_micros", optional, PhysicalType.INT64)
                .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MICROS)),
            PrimitiveNode.of("time_millis", optional, PhysicalType.INT32)
                .withLogicalType(new LogicalType.TimeType(true, TimeUnit.MILLIS)),
            PrimitiveNode.of("u8", optional, PhysicalType.INT32)
                .withLogicalType(new LogicalType.IntType((byte) 8, false)),
            PrimitiveNode.of("i16", optional, PhysicalType.INT32)
                .withLogicalType(new LogicalType.IntType((byte) 16, true)),
            PrimitiveNode.of("day", optional, PhysicalType.INT32).withLogicalType(LogicalType.DATE),
            PrimitiveNode.of("price", optional, PhysicalType.INT32)
                .withLogicalType(new LogicalType.DecimalType(2, 9)),
            PrimitiveNode.of("name", optional, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.of("kind", optional, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.ENUM),
            NestedTypes.list(
                "tags",
                optional,
                PrimitiveNode.of("element", optional, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING)),
            NestedTypes.map(
                "counts",
                optional,
                PrimitiveNode.of("key", FieldRepetitionType.REQUIRED, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING),
                PrimitiveNode.of("value", optional, PhysicalType.INT64)));
    List<SchemaNode> withIds = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      SchemaNode field = fields.get(i);
      withIds.add(
          field instanceof PrimitiveNode leaf
              ? leaf.withFieldId(i + 1)
              : ((GroupNode) field).withFieldId(i + 1));
    }
    MessageType schema = new MessageType("legacy", withIds);
    WriterOptions.Builder options =
        WriterOptions.builder().keyValue("writer.model", "legacy").keyValue("rows", "50");
    if (legacy) {
      List<SchemaElement> footer = new ArrayList<>();
      for (SchemaElement e : SchemaConverter.toSchemaElements(schema)) {
        footer.add(
            e.convertedType() == null
                ? e
                : new SchemaElement(
                    e.type(),
                    e.typeLength(),
                    e.repetitionType(),
                    e.name(),
                    e.numChildren(),
                    e.convertedType(),
                    e.scale(),
                    e.precision(),
                    e.fieldId(),
                    null));
      }
      options.footerSchema(footer);
    }
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer = new ParquetFileWriter(out, schema, options.build())) {
      for (int i = first; i < first + 50; i++) {
        boolean nulls = i % 5 == 0;
        Map<byte[], Object> counts = new LinkedHashMap<>();
        counts.put(utf8("c" + i), nulls ? null : (long) i);
        writer.write(
            Row.of(
                schema.root(),
                nulls ? null : 1_700_000_000_000L + i * 60_000L,
                1_700_000_000_000_000L + i,
                i * 1000,
                i % 256,
                i * 7 - 100,
                19_000 + i,
                i * 1234,
                utf8("name " + i),
                utf8(i % 2 == 0 ? "RED" : "GREEN"),
                nulls ? null : List.of(utf8("t" + i), utf8("u" + i)),
                counts));
      }
    }
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
