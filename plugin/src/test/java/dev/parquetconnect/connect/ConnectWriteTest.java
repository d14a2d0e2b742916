package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records of every Connect type and logical type, written by us, read back equal by parquet-java
 * and DuckDB, and converted back to the same Connect records.
 */
class ConnectWriteTest {
  @TempDir Path dir;

  private static List<SinkRecord> everyTypeRecords(boolean withTombstone) {
    List<SinkRecord> records = new ArrayList<>();
    long offset = 100;
    for (Struct value : ConnectTestData.everyTypeValues()) {
      records.add(ConnectTestData.record(ConnectTestData.EVERY_TYPE, value, offset++));
    }
    if (withTombstone) {
      records.add(ConnectTestData.record(ConnectTestData.EVERY_TYPE, null, offset));
    }
    return records;
  }

  @Test
  void everyTypeWithAllMetadataReadsBackEqual() throws Exception {
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA,
            ConnectTestData.EVERY_TYPE,
            MappingOptions.fullFidelity());
    List<SinkRecord> records = everyTypeRecords(true);
    Path file = dir.resolve("every.parquet");
    ConnectFiles.write(file, layout, records, WriterOptions.defaults());
    ConnectFiles.assertReadBackEqual(file, layout, records);
  }

  @Test
  void everyTypeInMicrosV2PagesAndSnappyReadsBackEqual() throws Exception {
    FileLayout layout =
        FileLayout.of(
            null,
            ConnectTestData.EVERY_TYPE,
            MappingOptions.defaults().withTimestampUnit(TimeUnit.MICROS));
    List<SinkRecord> records = everyTypeRecords(false);
    Path file = dir.resolve("micros.parquet");
    WriterOptions options =
        WriterOptions.builder()
            .codec(CompressionCodec.SNAPPY)
            .pageVersion(PageVersion.V2)
            .dictionary(false)
            .build();
    ConnectFiles.write(file, layout, records, options);
    List<Row> rows = ConnectFiles.assertReadBackEqual(file, layout, records);
    int ts = layout.parquetSchema().root().fieldIndex("ts");
    assertEquals(1_700_000_000_123_000L, rows.get(1).get(ts), "stored in microseconds");
  }

  @Test
  void physicalValuesAreTheDocumentedOnes() throws Exception {
    Schema schema =
        SchemaBuilder.struct()
            .field("i8", Schema.INT8_SCHEMA)
            .field("dec9", ConnectTestData.decimal(2, 9))
            .field("dec18", ConnectTestData.decimal(0, 18))
            .field("dec30", ConnectTestData.decimal(6, 30))
            .field("dec_default", ConnectTestData.decimal(1, null))
            .field("negative_scale", ConnectTestData.decimal(-3, 4))
            .field("date", org.apache.kafka.connect.data.Date.SCHEMA)
            .field("time", org.apache.kafka.connect.data.Time.SCHEMA)
            .field("ts", Timestamp.SCHEMA)
            .field("s", Schema.STRING_SCHEMA)
            .build();
    Struct value =
        new Struct(schema)
            .put("i8", (byte) -3)
            .put("dec9", new BigDecimal("-1.05"))
            .put("dec18", new BigDecimal("123456789012345678"))
            .put("dec30", new BigDecimal("-0.000001"))
            .put("dec_default", new BigDecimal("25.5"))
            .put("negative_scale", new BigDecimal(BigInteger.valueOf(42), -3))
            .put("date", ConnectTestData.date(-2))
            .put("time", new java.util.Date(3_723_004))
            .put("ts", new java.util.Date(-5))
            .put("s", "\ud83d\ude00\u0000x");
    FileLayout layout =
        FileLayout.of(null, schema, MappingOptions.defaults().withKafkaMetadata(false));
    Path file = dir.resolve("physical.parquet");
    List<SinkRecord> records = List.of(ConnectTestData.record(schema, value, 0));
    ConnectFiles.write(file, layout, records, WriterOptions.defaults());
    Row row = ParquetJavaOracle.read(file, layout.parquetSchema()).get(0);
    assertEquals(-3, row.get("i8"));
    assertEquals(-105, row.get("dec9"));
    assertEquals(123456789012345678L, row.get("dec18"));
    byte[] minusOne = new byte[13];
    Arrays.fill(minusOne, (byte) 0xFF);
    assertArrayEquals(minusOne, (byte[]) row.get("dec30"), "-1 unscaled, sign-extended to 13");
    byte[] twoFiftyFive = new byte[16];
    twoFiftyFive[15] = (byte) 255;
    assertArrayEquals(twoFiftyFive, (byte[]) row.get("dec_default"), "FLBA(16), precision 38");
    assertEquals(42_000, row.get("negative_scale"), "scale -3 stored at scale 0");
    assertEquals(-2, row.get("date"));
    assertEquals(3_723_004, row.get("time"));
    assertEquals(-5L, row.get("ts"));
    assertArrayEquals(
        "\ud83d\ude00\u0000x".getBytes(java.nio.charset.StandardCharsets.UTF_8),
        (byte[]) row.get("s"));
    ConnectFiles.assertReadBackEqual(file, layout, records);
  }

  @Test
  void duckDbSeesTheLogicalTypesAndTheNesting() throws Exception {
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA,
            ConnectTestData.EVERY_TYPE,
            MappingOptions.fullFidelity());
    Path file = dir.resolve("duck.parquet");
    ConnectFiles.write(file, layout, everyTypeRecords(false), WriterOptions.defaults());
    String path = file.toAbsolutePath().toString().replace("'", "''");
    Map<String, String> types = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      try (ResultSet r = s.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + path + "')")) {
        while (r.next()) {
          types.put(r.getString(1), r.getString(2));
        }
      }
      for (String expected :
          List.of(
              "i8=TINYINT",
              "i16=SMALLINT",
              "i32=INTEGER",
              "i64=BIGINT",
              "f32=FLOAT",
              "f64=DOUBLE",
              "bool=BOOLEAN",
              "str=VARCHAR",
              "bytes=BLOB",
              "dec9=DECIMAL(9,2)",
              "dec18=DECIMAL(18,4)",
              "dec30=DECIMAL(30,6)",
              "dec_unbounded=DECIMAL(38,3)",
              "date=DATE",
              "ts=TIMESTAMP WITH TIME ZONE",
              "ints=INTEGER[]",
              "string_map=MAP(VARCHAR, BIGINT)",
              "__kafka_offset=BIGINT",
              "__kafka_timestamp=TIMESTAMP WITH TIME ZONE")) {
        String[] kv = expected.split("=");
        assertEquals(kv[1], types.get(kv[0]), kv[0]);
      }
      // Connect Time: plain INT32 milliseconds of the day by default (parquet.time.type), which
      // Spark reads; the footer's Connect schema makes it Time again on replay.
      assertEquals("INTEGER", types.get("time"), "time");
      try (ResultSet r =
          s.executeQuery(
              "SELECT nested.level2.level3.points[1].x, nested.level2.depth, __kafka_offset,"
                  + " __kafka_headers[1].key, decode(__kafka_headers[1].value),"
                  + " CAST(dec30 AS VARCHAR), struct_key_map[1].key.x"
                  + " FROM read_parquet('"
                  + path
                  + "') WHERE __kafka_offset = 101")) {
        assertTrue(r.next());
        assertEquals(1, r.getInt(1));
        assertEquals(2, r.getInt(2));
        assertEquals(101L, r.getLong(3));
        assertEquals("trace", r.getString(4));
        assertEquals("id-101", r.getString(5));
        assertEquals("1.000000", r.getString(6));
        assertEquals(1, r.getInt(7));
      }
    }
  }

  @Test
  void valuesThatAreNoStructsAndStructKeysReadBackEqual() throws Exception {
    Schema pointList = SchemaBuilder.array(ConnectTestData.POINT).optional().build();
    List<Object[]> cases =
        List.of(
            new Object[] {Schema.INT64_SCHEMA, 5L},
            new Object[] {Schema.OPTIONAL_STRING_SCHEMA, "text"},
            new Object[] {ConnectTestData.decimal(2, 4), new BigDecimal("-12.34")},
            new Object[] {pointList, List.of(ConnectTestData.point(1, null))},
            new Object[] {
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.BOOLEAN_SCHEMA).build(),
              Map.of("yes", true)
            });
    int n = 0;
    for (Object[] c : cases) {
      Schema schema = (Schema) c[0];
      FileLayout layout =
          FileLayout.of(ConnectTestData.POINT, schema, MappingOptions.fullFidelity());
      List<SinkRecord> records = new ArrayList<>();
      records.add(
          ConnectTestData.record(
              ConnectTestData.POINT, ConnectTestData.point(7, "k"), schema, c[1], 10));
      records.add(ConnectTestData.record(ConnectTestData.POINT, null, schema, null, 11));
      Path file = dir.resolve("value-" + n++ + ".parquet");
      ConnectFiles.write(file, layout, records, WriterOptions.defaults());
      ConnectFiles.assertReadBackEqual(file, layout, records);
    }
  }

  @Test
  void schemalessValuesAreInferredAndReplayedAsMaps() throws Exception {
    SchemaInference inference = new SchemaInference(SchemaInference.ConflictPolicy.STRING);
    List<Object> values =
        List.of(
            SchemaInferenceTest.obj(
                "id",
                1L,
                "price",
                2.5,
                "tags",
                List.of("a", "b"),
                "address",
                SchemaInferenceTest.obj("city", "Oslo", "zip", 123L)),
            SchemaInferenceTest.obj(
                "id",
                2L,
                "price",
                3L,
                "note",
                null,
                "address",
                SchemaInferenceTest.obj("city", "Rome")),
            SchemaInferenceTest.obj("id", 3L, "tags", List.of(), "mixed", 1L),
            SchemaInferenceTest.obj("id", 4L, "mixed", SchemaInferenceTest.obj("deep", true)));
    Schema inferred = inference.inferAll(values);
    assertEquals(Schema.OPTIONAL_FLOAT64_SCHEMA, inferred.field("price").schema());
    assertEquals(Schema.OPTIONAL_STRING_SCHEMA, inferred.field("mixed").schema());
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA, false, inferred, true, MappingOptions.fullFidelity());
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      records.add(
          ConnectTestData.record(
              Schema.OPTIONAL_STRING_SCHEMA, "k" + i, null, values.get(i), i + 1));
    }
    Path file = dir.resolve("schemaless.parquet");
    ConnectFiles.write(file, layout, records, WriterOptions.defaults());
    List<Row> rows = ParquetJavaOracle.read(file, layout.parquetSchema());
    ParquetToConnect converter =
        ParquetToConnect.of(layout.parquetSchema(), ConnectFiles.footerMetadata(file));
    RowToConnect oracle = new RowToConnect(converter);
    assertNull(converter.valueSchema(), "replayed schemaless");
    List<Map<String, Object>> expected =
        List.of(
            Map.of(
                "id",
                1L,
                "price",
                2.5,
                "tags",
                List.of("a", "b"),
                "address",
                Map.of("city", "Oslo", "zip", 123L)),
            Map.of("id", 2L, "price", 3.0, "address", Map.of("city", "Rome")),
            Map.of("id", 3L, "tags", List.of(), "mixed", "1"),
            Map.of("id", 4L, "mixed", "{\"deep\":true}"));
    for (int i = 0; i < rows.size(); i++) {
      RestoredRecord r = oracle.convert(rows.get(i));
      assertEquals(expected.get(i), r.value(), "record " + i);
      assertEquals("k" + i, r.key());
      assertEquals((long) (i + 1), r.offset());
    }
    try (DuckDbOracle duck = new DuckDbOracle()) {
      assertEquals(4, duck.read(file, layout.parquetSchema()).size());
    }
  }

  @Test
  void rowGroupsFlushAndSizesAreReported() throws Exception {
    FileLayout layout = FileLayout.of(null, ConnectTestData.POINT, MappingOptions.defaults());
    Path file = dir.resolve("groups.parquet");
    WriterOptions options = WriterOptions.builder().rowGroupByteTarget(1).build();
    List<SinkRecord> records = new ArrayList<>();
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer =
            new ParquetRecordWriter(
                out,
                FileLayout.of(null, ConnectTestData.POINT, MappingOptions.defaults()),
                WriterOptions.defaults())) {
      long before = writer.bytesWritten();
      for (int i = 0; i < 1000; i++) {
        SinkRecord r =
            ConnectTestData.record(
                ConnectTestData.POINT, ConnectTestData.point(i, i % 2 == 0 ? null : "p" + i), i);
        records.add(r);
        writer.write(r);
      }
      assertTrue(writer.bufferedBytes() > 0);
      writer.flushRowGroup();
      assertEquals(0, writer.bufferedBytes());
      assertTrue(writer.bytesWritten() > before);
      assertEquals(1000, writer.recordCount());
    }
    ConnectFiles.assertReadBackEqual(file, layout, records);
    Path small = dir.resolve("small-groups.parquet");
    ConnectFiles.write(small, layout, records, options);
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(
            new org.apache.parquet.io.LocalInputFile(small))) {
      assertTrue(reader.getRowGroups().size() > 1, "a row group per byte target");
    }
    ConnectFiles.assertReadBackEqual(small, layout, records);
  }
}
