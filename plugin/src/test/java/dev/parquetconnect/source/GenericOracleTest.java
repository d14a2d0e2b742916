package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.oracle.DuckDbRowOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generic mode replays files that DuckDB and parquet-java wrote (nested types, decimals on every
 * physical type, timestamps and dates, every codec each engine writes) with values equal to what
 * those engines read.
 */
final class GenericOracleTest {
  @TempDir Path root;

  private List<Struct> replay() throws Exception {
    TaskDriver driver =
        new TaskDriver(
                ReplayModeTest.props(
                    root, "mode", "generic", "topic", "t", "topics.dir", "", "batch.size", "97"))
            .start();
    List<SourceRecord> records = driver.drain(2);
    driver.stop();
    List<Struct> values = new ArrayList<>();
    for (SourceRecord r : records) {
      Struct s = (Struct) r.value();
      s.validate();
      values.add(s);
    }
    return values;
  }

  @ParameterizedTest
  @ValueSource(strings = {"uncompressed", "snappy", "gzip", "zstd", "lz4", "brotli"})
  void duckDbFiles(String codec) throws Exception {
    Path file = root.resolve("duck.parquet");
    DuckDbRowOracle.copy(
        "SELECT i::BIGINT AS id, 'n' || i AS name,"
            + " (i * 1.25)::DECIMAL(9,2) AS small_dec, (i * 1234567.891)::DECIMAL(18,3) AS mid_dec,"
            + " (i * 98765432109876.5)::DECIMAL(38,1) AS big_dec,"
            + " TIMESTAMP '2024-01-01 00:00:00' + to_microseconds(i * 1000003) AS ts,"
            + " DATE '2020-01-01' + (i % 1000)::INT AS d,"
            + " CASE WHEN i % 4 = 0 THEN NULL ELSE [i, i + 1, NULL] END AS arr,"
            + " {'a': i, 'b': 'x' || i, 'c': [i % 3]} AS st,"
            + " MAP {'k' || (i % 5): i} AS m, (i % 100)::TINYINT AS tiny, (i % 2 = 0) AS flag,"
            + " i / 3.0 AS dbl FROM range(700) t(i)",
        file, "FORMAT parquet, COMPRESSION " + codec);
    List<Struct> got = replay();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT id, name, small_dec, mid_dec, big_dec,"
                    + " epoch_ms(ts), d - DATE '1970-01-01', arr, st.a, st.b, st.c, m, tiny, flag, dbl"
                    + " FROM read_parquet('"
                    + file.toAbsolutePath()
                    + "')")) {
      int i = 0;
      while (rs.next()) {
        Struct v = got.get(i);
        String what = codec + " row " + i;
        assertEquals(rs.getLong(1), v.getInt64("id"), what);
        assertEquals(rs.getString(2), v.getString("name"), what);
        assertEquals(rs.getBigDecimal(3), v.get("small_dec"), what);
        assertEquals(rs.getBigDecimal(4), v.get("mid_dec"), what);
        assertEquals(rs.getBigDecimal(5), v.get("big_dec"), what);
        assertEquals(rs.getLong(6), ((java.util.Date) v.get("ts")).getTime(), what);
        assertEquals(rs.getLong(7) * 86_400_000L, ((java.util.Date) v.get("d")).getTime(), what);
        assertEquals(list(rs.getArray(8)), v.get("arr"), what);
        Struct st = v.getStruct("st");
        assertEquals(rs.getLong(9), ((Number) st.get("a")).longValue(), what);
        assertEquals(rs.getString(10), st.getString("b"), what);
        assertEquals(list(rs.getArray(11)), longs(st.getArray("c")), what);
        assertEquals(
            new LinkedHashMap<>((Map<?, ?>) rs.getObject(12)), longValues(v.getMap("m")), what);
        assertEquals(rs.getByte(13), v.getInt8("tiny"), what);
        assertEquals(rs.getBoolean(14), v.getBoolean("flag"), what);
        assertEquals(rs.getDouble(15), v.getFloat64("dbl"), what);
        i++;
      }
      assertEquals(700, i);
      assertEquals(700, got.size());
    }
  }

  private static List<Object> list(Array array) throws Exception {
    if (array == null) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (Object o : (Object[]) array.getArray()) {
      out.add(o instanceof Number n ? Long.valueOf(n.longValue()) : o);
    }
    return out;
  }

  private static List<Object> longs(List<?> values) {
    List<Object> out = new ArrayList<>();
    for (Object o : values) {
      out.add(o == null ? null : ((Number) o).longValue());
    }
    return out;
  }

  private static Map<Object, Object> longValues(Map<?, ?> map) {
    Map<Object, Object> out = new LinkedHashMap<>();
    map.forEach((k, val) -> out.put(k, val == null ? null : ((Number) val).longValue()));
    return out;
  }

  static final GroupNode POINT =
      GroupNode.of(
          "point",
          FieldRepetitionType.OPTIONAL,
          List.of(
              PrimitiveNode.of("x", FieldRepetitionType.REQUIRED, PhysicalType.DOUBLE),
              PrimitiveNode.of("label", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                  .withLogicalType(LogicalType.STRING)));

  static final MessageType PJ_SCHEMA =
      new MessageType(
          "pj",
          List.of(
              PrimitiveNode.of("id", FieldRepetitionType.REQUIRED, PhysicalType.INT64),
              PrimitiveNode.of("d32", FieldRepetitionType.OPTIONAL, PhysicalType.INT32)
                  .withLogicalType(new LogicalType.DecimalType(3, 9)),
              PrimitiveNode.of("d64", FieldRepetitionType.REQUIRED, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.DecimalType(4, 18)),
              PrimitiveNode.fixed("dfixed", FieldRepetitionType.REQUIRED, 16)
                  .withLogicalType(new LogicalType.DecimalType(6, 38)),
              PrimitiveNode.of("dbinary", FieldRepetitionType.REQUIRED, PhysicalType.BYTE_ARRAY)
                  .withLogicalType(new LogicalType.DecimalType(2, 30)),
              PrimitiveNode.of("ts_millis", FieldRepetitionType.REQUIRED, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MILLIS)),
              PrimitiveNode.of("ts_micros", FieldRepetitionType.OPTIONAL, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.TimestampType(false, TimeUnit.MICROS)),
              PrimitiveNode.of("ts_nanos", FieldRepetitionType.REQUIRED, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.NANOS)),
              PrimitiveNode.of("day", FieldRepetitionType.REQUIRED, PhysicalType.INT32)
                  .withLogicalType(new LogicalType.DateType()),
              POINT,
              NestedTypes.list(
                  "tags",
                  FieldRepetitionType.OPTIONAL,
                  PrimitiveNode.of("element", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                      .withLogicalType(LogicalType.STRING)),
              NestedTypes.map(
                  "attrs",
                  FieldRepetitionType.OPTIONAL,
                  PrimitiveNode.of("key", FieldRepetitionType.REQUIRED, PhysicalType.BYTE_ARRAY)
                      .withLogicalType(LogicalType.STRING),
                  NestedTypes.list(
                      "value",
                      FieldRepetitionType.OPTIONAL,
                      PrimitiveNode.of(
                          "element", FieldRepetitionType.REQUIRED, PhysicalType.INT32)))));

  private static List<Row> parquetJavaRows() {
    List<Row> rows = new ArrayList<>();
    GroupNode tagsList = (GroupNode) PJ_SCHEMA.root().field(10);
    for (long i = 0; i < 900; i++) {
      byte[] fixed = new byte[16];
      byte[] unscaled = BigInteger.valueOf(i * 1_000_003L - 450_000_000L).toByteArray();
      byte fill = (byte) (unscaled[0] < 0 ? 0xFF : 0);
      java.util.Arrays.fill(fixed, fill);
      System.arraycopy(unscaled, 0, fixed, 16 - unscaled.length, unscaled.length);
      List<Object> tags = new ArrayList<>();
      for (int t = 0; t < i % 4; t++) {
        tags.add(t == 1 ? null : ("tag" + t).getBytes(StandardCharsets.UTF_8));
      }
      Map<Object, Object> attrs = new LinkedHashMap<>();
      attrs.put(("a" + i % 3).getBytes(StandardCharsets.UTF_8), List.of((int) i, (int) -i));
      if (i % 2 == 0) {
        attrs.put("zero".getBytes(StandardCharsets.UTF_8), null);
      }
      rows.add(
          Row.of(
              PJ_SCHEMA.root(),
              i,
              i % 6 == 0 ? null : (int) (i * 37 - 9000),
              i * 123_456_789L,
              fixed,
              BigInteger.valueOf(i).pow(5).negate().toByteArray(),
              1_700_000_000_000L + i * 1_001,
              i % 5 == 0 ? null : 1_700_000_000_000_000L - i * 777,
              -1_000_000_123L * i,
              (int) (19_000 + i),
              i % 7 == 0
                  ? null
                  : Row.of(
                      POINT,
                      i / 8.0,
                      i % 3 == 0 ? null : ("p" + i).getBytes(StandardCharsets.UTF_8)),
              i % 9 == 0 ? null : tags,
              i % 10 == 0 ? null : attrs));
      assertTrue(tagsList.isList());
    }
    return rows;
  }

  @ParameterizedTest
  @ValueSource(strings = {"UNCOMPRESSED", "SNAPPY", "GZIP", "ZSTD", "LZ4_RAW"})
  void parquetJavaFiles(String codec) throws Exception {
    Path file = root.resolve("pj.parquet");
    List<Row> rows = parquetJavaRows();
    ParquetJavaOracle.write(
        file,
        PJ_SCHEMA,
        rows,
        new ParquetJavaOracle.WriteOptions(
            CompressionCodecName.valueOf(codec),
            true,
            org.apache.parquet.column.ParquetProperties.WriterVersion.PARQUET_2_0,
            4096,
            64 << 10));
    List<Row> read = ParquetJavaOracle.read(file, PJ_SCHEMA);
    List<Struct> got = replay();
    assertEquals(read.size(), got.size());
    for (int i = 0; i < read.size(); i++) {
      Row r = read.get(i);
      Struct v = got.get(i);
      String what = codec + " row " + i;
      assertEquals(r.get("id"), v.get("id"), what);
      assertEquals(
          r.get("d32") == null ? null : BigDecimal.valueOf((Integer) r.get("d32"), 3),
          v.get("d32"),
          what);
      assertEquals(BigDecimal.valueOf((Long) r.get("d64"), 4), v.get("d64"), what);
      assertEquals(
          new BigDecimal(new BigInteger((byte[]) r.get("dfixed")), 6), v.get("dfixed"), what);
      assertEquals(
          new BigDecimal(new BigInteger((byte[]) r.get("dbinary")), 2), v.get("dbinary"), what);
      assertEquals(r.get("ts_millis"), ((java.util.Date) v.get("ts_millis")).getTime(), what);
      assertEquals(
          r.get("ts_micros") == null ? null : Math.floorDiv((Long) r.get("ts_micros"), 1000L),
          v.get("ts_micros") == null ? null : ((java.util.Date) v.get("ts_micros")).getTime(),
          what);
      assertEquals(
          Math.floorDiv((Long) r.get("ts_nanos"), 1_000_000L),
          ((java.util.Date) v.get("ts_nanos")).getTime(),
          what);
      assertEquals(
          (Integer) r.get("day") * 86_400_000L, ((java.util.Date) v.get("day")).getTime(), what);
      Row point = (Row) r.get("point");
      Struct p = v.getStruct("point");
      assertEquals(point == null, p == null, what);
      if (point != null) {
        assertEquals(point.get("x"), p.get("x"), what);
        assertEquals(
            point.get("label") == null
                ? null
                : new String((byte[]) point.get("label"), StandardCharsets.UTF_8),
            p.get("label"),
            what);
      }
      assertEquals(strings((List<?>) r.get("tags")), v.get("tags"), what);
      Map<?, ?> attrs = (Map<?, ?>) r.get("attrs");
      if (attrs == null) {
        assertEquals(null, v.get("attrs"), what);
      } else {
        Map<Object, Object> expected = new LinkedHashMap<>();
        attrs.forEach(
            (k, val) -> expected.put(new String((byte[]) k, StandardCharsets.UTF_8), val));
        assertEquals(expected, v.get("attrs"), what);
      }
    }
  }

  private static List<Object> strings(List<?> values) {
    if (values == null) {
      return null;
    }
    List<Object> out = new ArrayList<>();
    for (Object o : values) {
      out.add(o == null ? null : new String((byte[]) o, StandardCharsets.UTF_8));
    }
    return out;
  }
}
