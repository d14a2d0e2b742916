package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.Row;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files DuckDB writes, read by our reader and mapped to Connect as a generic source would. */
class DuckDbFilesTest {
  @TempDir Path dir;

  @Test
  void duckDbTypesMapToTheirConnectEquivalents() throws Exception {
    Path file = dir.resolve("duck.parquet");
    String select =
        "SELECT true AS b, -8::TINYINT AS i8, -16::SMALLINT AS i16, 32 AS i32,"
            + " -64::BIGINT AS i64, 200::UTINYINT AS u8, 65000::USMALLINT AS u16,"
            + " 4000000000::UINTEGER AS u32, 18446744073709551615::UBIGINT AS u64,"
            + " 1.5::FLOAT AS f, -2.25::DOUBLE AS d, 123.4::DECIMAL(4,1) AS dec4,"
            + " -123456789012345.678::DECIMAL(18,3) AS dec18,"
            + " 1234567890123456789012345678.0123456789::DECIMAL(38,10) AS dec38,"
            + " 'h\u00e9llo' AS s, '\\x01\\x02'::BLOB AS blob, DATE '1969-12-31' AS day,"
            + " TIME '01:02:03.004005' AS t, TIMESTAMP '2024-01-02 03:04:05.006007' AS ts,"
            + " TIMESTAMPTZ '2024-01-02 03:04:05.006007+00' AS tstz,"
            + " '123e4567-e89b-12d3-a456-426614174000'::UUID AS id, [1, NULL, 3] AS ints,"
            + " {'a': 1, 'b': ['x', 'y']} AS st, MAP {'k': 1, 'm': NULL} AS m,"
            + " [{'p': 1}, {'p': NULL}] AS list_of_structs, NULL::VARCHAR AS nothing";
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute("SET TimeZone = 'UTC'");
      s.execute("COPY (" + select + ") TO '" + file.toAbsolutePath() + "' (FORMAT PARQUET)");
    }
    List<Row> rows = new ArrayList<>();
    ParquetToConnect converter;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader rowReader = reader.rowReader()) {
      converter =
          ParquetToConnect.of(
              reader.schema(), ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
      while (rowReader.hasNext()) {
        rows.add(rowReader.next());
      }
    }
    assertFalse(converter.sinkFile());
    Schema schema = converter.valueSchema();
    Map<String, String> types = new LinkedHashMap<>();
    schema.fields().forEach(f -> types.put(f.name(), ConnectTypes.describe(f.schema())));
    assertEquals("optional int8", types.get("i8"));
    assertEquals("optional int16", types.get("u8"));
    assertEquals("optional int32", types.get("u16"));
    assertEquals("optional int64", types.get("u32"));
    assertEquals("optional decimal(0)", types.get("u64"));
    assertEquals("optional decimal(10)", types.get("dec38"));
    assertEquals("optional date", types.get("day"));
    assertEquals("optional time", types.get("t"));
    assertEquals("optional timestamp", types.get("ts"));
    assertEquals("optional timestamp", types.get("tstz"));
    assertEquals("optional string", types.get("id"));
    assertEquals("optional array", types.get("ints"));
    assertEquals("optional struct", types.get("st"));
    assertEquals("optional map", types.get("m"));

    Struct v = (Struct) new RowToConnect(converter).convert(rows.get(0)).value();
    v.validate();
    assertEquals(true, v.get("b"));
    assertEquals((byte) -8, v.get("i8"));
    assertEquals((short) -16, v.get("i16"));
    assertEquals(32, v.get("i32"));
    assertEquals(-64L, v.get("i64"));
    assertEquals((short) 200, v.get("u8"));
    assertEquals(65000, v.get("u16"));
    assertEquals(4_000_000_000L, v.get("u32"));
    assertEquals(new BigDecimal("18446744073709551615"), v.get("u64"));
    assertEquals(1.5f, v.get("f"));
    assertEquals(-2.25, v.get("d"));
    assertEquals(new BigDecimal("123.4"), v.get("dec4"));
    assertEquals(new BigDecimal("-123456789012345.678"), v.get("dec18"));
    assertEquals(new BigDecimal("1234567890123456789012345678.0123456789"), v.get("dec38"));
    assertEquals("h\u00e9llo", v.get("s"));
    assertArrayEquals(new byte[] {1, 2}, (byte[]) v.get("blob"));
    assertEquals(new java.util.Date(-86_400_000L), v.get("day"));
    assertEquals(new java.util.Date(3_723_004L), v.get("t"), "microseconds truncated");
    assertEquals(new java.util.Date(1_704_164_645_006L), v.get("ts"));
    assertEquals(new java.util.Date(1_704_164_645_006L), v.get("tstz"));
    assertEquals("123e4567-e89b-12d3-a456-426614174000", v.get("id"));
    assertEquals(java.util.Arrays.asList(1, null, 3), v.get("ints"));
    Struct st = v.getStruct("st");
    assertEquals(1, st.get("a"));
    assertEquals(List.of("x", "y"), st.get("b"));
    Map<String, Integer> m = new LinkedHashMap<>();
    m.put("k", 1);
    m.put("m", null);
    assertEquals(m, v.get("m"));
    List<?> structs = (List<?>) v.get("list_of_structs");
    assertEquals(1, ((Struct) structs.get(0)).get("p"));
    assertNull(((Struct) structs.get(1)).get("p"));
    assertNull(v.get("nothing"));
  }
}
