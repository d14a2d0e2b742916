package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.ConnectFiles;
import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.ParquetRecordWriter;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code parquet.column.*} keys: validated when the connector is configured, checked against
 * each file's columns when it opens, and carried into whole files that parquet-java reads back
 * (BYTE_STREAM_SPLIT on INT32, INT64 and FIXED_LEN_BYTE_ARRAY too) and DuckDB 1.4 too, except
 * BYTE_STREAM_SPLIT on those three types, which it refuses; GROUP_VAR_INT makes the file unreadable
 * to both, as the opt-in's warning says.
 */
class ColumnTuningTest {
  private static final Logger LOG = LoggerFactory.getLogger(ColumnTuningTest.class);

  private static final Schema VALUE =
      SchemaBuilder.struct()
          .name("com.example.Reading")
          .field("i32", Schema.INT32_SCHEMA)
          .field("i64", Schema.INT64_SCHEMA)
          .field("f32", Schema.FLOAT32_SCHEMA)
          .field("f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("dec", Decimal.builder(4).parameter("connect.decimal.precision", "30").build())
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("id", Schema.STRING_SCHEMA)
          .field("flag", Schema.BOOLEAN_SCHEMA)
          .build();

  @TempDir Path dir;

  private static Map<String, String> props(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "tuned-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, "file:///data/lake");
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  private static String errorOf(Map<String, String> props, String key) {
    Map<String, List<String>> errors = ParquetSinkConfigTest.validate(props);
    assertTrue(errors.containsKey(key), key + " has no error in " + errors);
    return String.join("; ", errors.get(key));
  }

  @Test
  void entriesAreValidatedWhenTheConnectorIsConfigured() {
    assertTrue(
        errorOf(props(ColumnTuning.ENCODING_CONFIG, "price=zigzag"), ColumnTuning.ENCODING_CONFIG)
            .contains("'price=zigzag': unknown encoding zigzag; one of plain,"));
    assertTrue(
        errorOf(
                props(ColumnTuning.ENCODING_CONFIG, "s=rle_dictionary"),
                ColumnTuning.ENCODING_CONFIG)
            .contains("dictionary encoding is parquet.column.dictionary"));
    assertTrue(
        errorOf(
                props(ColumnTuning.ENCODING_CONFIG, "byte_stream_split"),
                ColumnTuning.ENCODING_CONFIG)
            .contains("is not PATH=VALUE"));
    assertTrue(
        errorOf(props(ColumnTuning.DICTIONARY_CONFIG, "a=on,a=off"), ColumnTuning.DICTIONARY_CONFIG)
            .contains("names column a twice"));
    assertTrue(
        errorOf(props(ColumnTuning.STATISTICS_CONFIG, "a=maybe"), ColumnTuning.STATISTICS_CONFIG)
            .contains("'a=maybe': on or off"));
    assertTrue(
        errorOf(props(ColumnTuning.BLOOM_FILTER_CONFIG, "id=0"), ColumnTuning.BLOOM_FILTER_CONFIG)
            .contains("NDV must be at least 1"));
    assertTrue(
        errorOf(
                props(ColumnTuning.BLOOM_FILTER_CONFIG, "id=10:0.9"),
                ColumnTuning.BLOOM_FILTER_CONFIG)
            .contains("FPP must be 1e-6 to 0.5"));
    String groupVarInt =
        errorOf(
            props(ColumnTuning.ENCODING_CONFIG, "n=group_var_int"), ColumnTuning.ENCODING_CONFIG);
    assertTrue(
        groupVarInt.contains("set " + ColumnTuning.GROUP_VAR_INT_CONFIG + "=true"), groupVarInt);
    assertThrows(
        ConfigException.class,
        () -> new ParquetSinkConfig(props(ColumnTuning.ENCODING_CONFIG, "n=group_var_int")));
    assertEquals(
        Map.of(),
        ParquetSinkConfigTest.validate(
            props(
                ColumnTuning.ENCODING_CONFIG,
                "n=group_var_int, price = BYTE_STREAM_SPLIT",
                ColumnTuning.GROUP_VAR_INT_CONFIG,
                "true",
                ColumnTuning.BLOOM_FILTER_CONFIG,
                "id,sku=500,customer.id=50000:0.001,x=:0.05")));
  }

  @Test
  void settingsThatDoNotFitAFilesColumnsNameKeyColumnAndTopic() {
    ParquetSinkConfig config =
        new ParquetSinkConfig(
            props(
                ColumnTuning.ENCODING_CONFIG,
                "note=delta_binary_packed,i32=delta_binary_packed,missing=plain",
                ColumnTuning.BLOOM_FILTER_CONFIG,
                "flag",
                ColumnTuning.STATISTICS_CONFIG,
                "__kafka_headers=off"));
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA, VALUE, MappingOptions.defaults().withKafkaHeaders(true));
    ConnectException e =
        assertThrows(
            ConnectException.class,
            () -> config.columnTuning().check(layout.parquetSchema(), "readings"));
    LOG.info("the problem reads: {}", e.getMessage());
    assertTrue(e.getMessage().contains("topic readings"), e.getMessage());
    assertTrue(
        e.getMessage()
            .contains(
                "parquet.column.encoding: column note is BYTE_ARRAY, for which"
                    + " DELTA_BINARY_PACKED is not defined"),
        e.getMessage());
    assertTrue(
        e.getMessage()
            .contains("parquet.column.bloom.filter: column flag is BOOLEAN, which has no bloom"),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("parquet.column.statistics: __kafka_headers is a group, not a"),
        e.getMessage());
    assertTrue(!e.getMessage().contains("i32") && !e.getMessage().contains("missing"));
  }

  @Test
  void aSchemalessColumnThatAppearsLaterIsCheckedToo() throws Exception {
    ParquetSinkConfig config =
        new ParquetSinkConfig(props(ColumnTuning.ENCODING_CONFIG, "extra=delta_binary_packed"));
    RecordWriterFactory files = ParquetFiles.writerFactory(config);
    SinkRecord first = new SinkRecord("events", 0, null, null, null, Map.of("a", 1L), 0);
    SinkRecord second =
        new SinkRecord("events", 0, null, null, null, Map.of("a", 2L, "extra", "text"), 1);
    RecordFileWriter file = files.create(new java.io.ByteArrayOutputStream(), first, null);
    file.write(first);
    ConnectException e = assertThrows(ConnectException.class, () -> file.accepts(second));
    assertTrue(
        e.getMessage().contains("column extra is BYTE_ARRAY, for which DELTA_BINARY_PACKED"),
        e.getMessage());
    assertTrue(e.getMessage().contains("topic events"), e.getMessage());
  }

  @Test
  void byteStreamSplitStatisticsAndBloomFiltersPerColumnReadBackInParquetJavaAndDuckDb()
      throws Exception {
    ParquetSinkConfig config =
        new ParquetSinkConfig(
            props(
                ColumnTuning.ENCODING_CONFIG,
                "i32=byte_stream_split,i64=byte_stream_split,dec=byte_stream_split,"
                    + "f32=byte_stream_split,f64=byte_stream_split",
                ColumnTuning.DICTIONARY_CONFIG,
                "i32=off,i64=off,dec=off,f32=off,f64=off,note=off",
                ColumnTuning.STATISTICS_CONFIG,
                "note=off",
                ColumnTuning.BLOOM_FILTER_CONFIG,
                "id=5000:0.001"));
    FileLayout layout =
        FileLayout.of(Schema.OPTIONAL_STRING_SCHEMA, VALUE, MappingOptions.defaults());
    config.columnTuning().check(layout.parquetSchema(), "readings");
    Path file = dir.resolve("tuned.parquet");
    List<SinkRecord> records = records(3_000);
    write(file, layout, records, ParquetFiles.writerOptions(config));
    // parquet-java's rows (and ours), converted back to Connect, equal the records.
    ConnectFiles.assertReadBackEqual(file, layout, records, null);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      for (String column : List.of("i32", "i64", "dec", "f32", "f64")) {
        ColumnChunk chunk = chunk(reader, column);
        assertTrue(
            chunk.metaData().encodings().contains(Encoding.BYTE_STREAM_SPLIT),
            column + ": " + chunk.metaData().encodings());
        assertNull(chunk.metaData().dictionaryPageOffset(), column);
      }
      ColumnChunk note = chunk(reader, "note");
      assertNull(note.metaData().statistics(), "statistics off");
      assertNull(note.columnIndexOffset(), "no column index without statistics");
      assertNotNull(note.offsetIndexOffset(), "the offset index stays");
      assertNotNull(chunk(reader, "i32").metaData().statistics());
      assertNotNull(chunk(reader, "id").metaData().bloomFilterOffset(), "id's bloom filter");
      assertNull(chunk(reader, "i32").metaData().bloomFilterOffset());
    }
    // DuckDB 1.4 reads BYTE_STREAM_SPLIT on FLOAT and DOUBLE only, and refuses it on the others
    // (so the docs say); every other column of the file it reads.
    double f32 = 0;
    double f64 = 0;
    long notes = 0;
    for (SinkRecord record : records) {
      Struct v = (Struct) record.value();
      f32 += v.getFloat32("f32");
      f64 += v.getFloat64("f64") == null ? 0 : v.getFloat64("f64");
      notes += v.getString("note") == null ? 0 : 1;
    }
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      try (ResultSet r =
          s.executeQuery(
              "SELECT sum(f32), sum(f64), count(note), count(DISTINCT id), count(*) FILTER (flag)"
                  + " FROM read_parquet('"
                  + file
                  + "')")) {
        assertTrue(r.next());
        assertEquals(f32, r.getDouble(1), 1e-6 * Math.abs(f32));
        assertEquals(f64, r.getDouble(2), 1e-9 * Math.abs(f64));
        assertEquals(notes, r.getLong(3));
        assertEquals(1_000, r.getLong(4));
        assertEquals(records.size() / 2, r.getLong(5));
      }
      for (String column : List.of("i32", "i64", "dec")) {
        SQLException e;
        try (Statement failing = c.createStatement()) {
          e =
              assertThrows(
                  SQLException.class,
                  () ->
                      failing
                          .executeQuery(
                              "SELECT sum(" + column + ") FROM read_parquet('" + file + "')")
                          .next(),
                  column);
        }
        assertTrue(
            e.getMessage()
                .contains("BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE data"),
            e.getMessage());
      }
    }
  }

  @Test
  void groupVarIntIsWrittenOnlyOnRequestAndOtherReadersRefuseIt() throws Exception {
    ParquetSinkConfig config =
        new ParquetSinkConfig(
            props(
                ColumnTuning.ENCODING_CONFIG,
                "i64=group_var_int",
                ColumnTuning.DICTIONARY_CONFIG,
                "i64=off",
                ColumnTuning.GROUP_VAR_INT_CONFIG,
                "true"));
    FileLayout layout =
        FileLayout.of(Schema.OPTIONAL_STRING_SCHEMA, VALUE, MappingOptions.defaults());
    Path file = dir.resolve("group-var-int.parquet");
    List<SinkRecord> records = records(200);
    write(file, layout, records, ParquetFiles.writerOptions(config));
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      assertTrue(chunk(reader, "i64").metaData().encodings().contains(Encoding.GROUP_VAR_INT));
    }
    assertEquals(records.size(), ConnectFiles.readWithOurReader(file).size());
    Exception parquetJava =
        assertThrows(Exception.class, () -> ParquetJavaOracle.read(file, layout.parquetSchema()));
    LOG.info("parquet-java on GROUP_VAR_INT: {}", parquetJava.toString());
    // Neither opens the file at all: their footer's Thrift enum has no encoding 1.
    assertTrue(
        parquetJava.toString().contains("Required field 'encoding' was not present"),
        parquetJava.toString());
    SQLException duckdb;
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      duckdb =
          assertThrows(
              SQLException.class,
              () -> s.executeQuery("SELECT sum(i64) FROM read_parquet('" + file + "')").next());
    }
    LOG.info("DuckDB on GROUP_VAR_INT: {}", duckdb.getMessage());
    assertTrue(duckdb.getMessage().contains("TProtocolException"), duckdb.getMessage());
  }

  private static ColumnChunk chunk(ParquetFileReader reader, String column) {
    for (ColumnChunk chunk : reader.rowGroups().get(0).columns()) {
      if (String.join(".", chunk.metaData().pathInSchema()).equals(column)) {
        return chunk;
      }
    }
    throw new AssertionError("no column " + column);
  }

  private static List<SinkRecord> records(int count) {
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Struct value =
          new Struct(VALUE)
              .put("i32", i * 7919 - 1_000_000)
              .put("i64", 1_700_000_000_000L + i * 1_234_567L)
              .put("f32", i * 0.25f)
              .put("f64", i % 10 == 0 ? null : Math.sqrt(i))
              .put("dec", BigDecimal.valueOf(123_456_789_012_345L * i + 17, 4))
              .put("note", i % 3 == 0 ? null : "note " + i)
              .put("id", "id-" + (i % 1_000))
              .put("flag", i % 2 == 0);
      records.add(
          new SinkRecord("readings", 0, Schema.OPTIONAL_STRING_SCHEMA, null, VALUE, value, i));
    }
    return records;
  }

  private static void write(
      Path file, FileLayout layout, List<SinkRecord> records, WriterOptions options)
      throws Exception {
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, options)) {
      for (SinkRecord record : records) {
        writer.write(record);
      }
    }
  }
}
