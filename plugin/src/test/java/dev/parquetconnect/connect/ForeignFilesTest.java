package dev.parquetconnect.connect;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REPEATED;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files of other writers (here parquet-java) map to Connect by the documented table. */
class ForeignFilesTest {
  @TempDir Path dir;

  private static PrimitiveNode p(String name, PhysicalType type, LogicalType logical) {
    PrimitiveNode node = PrimitiveNode.of(name, OPTIONAL, type);
    return logical == null ? node : node.withLogicalType(logical);
  }

  private static PrimitiveNode fixed(String name, int length, LogicalType logical) {
    PrimitiveNode node = PrimitiveNode.fixed(name, OPTIONAL, length);
    return logical == null ? node : node.withLogicalType(logical);
  }

  private static LogicalType.IntType intType(int bits, boolean signed) {
    return new LogicalType.IntType((byte) bits, signed);
  }

  static final MessageType SCHEMA =
      new MessageType(
          "spark_schema",
          List.of(
              p("b", PhysicalType.BOOLEAN, null),
              PrimitiveNode.of("i32", REQUIRED, PhysicalType.INT32),
              p("i8", PhysicalType.INT32, intType(8, true)),
              p("i16", PhysicalType.INT32, intType(16, true)),
              p("u8", PhysicalType.INT32, intType(8, false)),
              p("u16", PhysicalType.INT32, intType(16, false)),
              p("u32", PhysicalType.INT32, intType(32, false)),
              p("i64", PhysicalType.INT64, null),
              p("u64", PhysicalType.INT64, intType(64, false)),
              p("f", PhysicalType.FLOAT, null),
              p("d", PhysicalType.DOUBLE, null),
              fixed("half", 2, LogicalType.FLOAT16),
              p("dec_i32", PhysicalType.INT32, new LogicalType.DecimalType(2, 9)),
              p("dec_i64", PhysicalType.INT64, new LogicalType.DecimalType(3, 18)),
              fixed("dec_fixed", 9, new LogicalType.DecimalType(4, 20)),
              p("dec_binary", PhysicalType.BYTE_ARRAY, new LogicalType.DecimalType(5, 25)),
              p("s", PhysicalType.BYTE_ARRAY, LogicalType.STRING),
              p("e", PhysicalType.BYTE_ARRAY, LogicalType.ENUM),
              p("j", PhysicalType.BYTE_ARRAY, LogicalType.JSON),
              p("bson", PhysicalType.BYTE_ARRAY, LogicalType.BSON),
              fixed("uuid", 16, LogicalType.UUID),
              p("bin", PhysicalType.BYTE_ARRAY, null),
              fixed("fx", 3, null),
              p("date", PhysicalType.INT32, LogicalType.DATE),
              p("t_ms", PhysicalType.INT32, new LogicalType.TimeType(true, TimeUnit.MILLIS)),
              p("t_us", PhysicalType.INT64, new LogicalType.TimeType(true, TimeUnit.MICROS)),
              p("t_ns", PhysicalType.INT64, new LogicalType.TimeType(false, TimeUnit.NANOS)),
              p("ts_ms", PhysicalType.INT64, new LogicalType.TimestampType(true, TimeUnit.MILLIS)),
              p("ts_us", PhysicalType.INT64, new LogicalType.TimestampType(true, TimeUnit.MICROS)),
              p(
                  "ts_ns_local",
                  PhysicalType.INT64,
                  new LogicalType.TimestampType(false, TimeUnit.NANOS)),
              p("int96", PhysicalType.INT96, null),
              NestedTypes.list(
                  "list", OPTIONAL, PrimitiveNode.of("element", OPTIONAL, PhysicalType.INT64)),
              GroupNode.of(
                      "legacy_list",
                      OPTIONAL,
                      List.of(PrimitiveNode.of("array", REPEATED, PhysicalType.INT32)))
                  .withLogicalType(LogicalType.LIST),
              PrimitiveNode.of("repeated_plain", REPEATED, PhysicalType.DOUBLE),
              NestedTypes.map(
                  "map",
                  OPTIONAL,
                  PrimitiveNode.of("key", REQUIRED, PhysicalType.BYTE_ARRAY)
                      .withLogicalType(LogicalType.STRING),
                  PrimitiveNode.of("value", OPTIONAL, PhysicalType.INT32)),
              GroupNode.of(
                  "group",
                  OPTIONAL,
                  List.of(
                      PrimitiveNode.of("x", REQUIRED, PhysicalType.INT32),
                      GroupNode.of(
                          "inner",
                          OPTIONAL,
                          List.of(p("y", PhysicalType.BYTE_ARRAY, LogicalType.STRING)))))));

  private static byte[] half(int bits) {
    return new byte[] {(byte) bits, (byte) (bits >> 8)};
  }

  private static byte[] int96(long julianDay, long nanosOfDay) {
    byte[] b = new byte[12];
    LittleEndian.putLong(b, 0, nanosOfDay);
    LittleEndian.putInt(b, 8, (int) julianDay);
    return b;
  }

  private static byte[] fixedDecimal(String unscaled, int length) {
    byte[] digits = new BigInteger(unscaled).toByteArray();
    byte[] out = new byte[length];
    byte sign = (byte) (digits[0] < 0 ? -1 : 0);
    Arrays.fill(out, sign);
    System.arraycopy(digits, 0, out, length - digits.length, digits.length);
    return out;
  }

  private static Row full() {
    UUID uuid = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    byte[] uuidBytes = new byte[16];
    LittleEndian.putLong(uuidBytes, 0, Long.reverseBytes(uuid.getMostSignificantBits()));
    LittleEndian.putLong(uuidBytes, 8, Long.reverseBytes(uuid.getLeastSignificantBits()));
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put(ConnectTestData.utf8("a"), 1);
    map.put(ConnectTestData.utf8("b"), null);
    GroupNode group = (GroupNode) SCHEMA.root().field(SCHEMA.root().fieldIndex("group"));
    GroupNode inner = (GroupNode) group.field(1);
    return Row.of(
        SCHEMA.root(),
        true,
        -5,
        -128,
        -32768,
        200,
        65535,
        -1,
        Long.MIN_VALUE,
        -1L,
        1.25f,
        -2.5,
        half(0x3E00),
        12345,
        -123456789L,
        fixedDecimal("-12345678901234567890", 9),
        new BigInteger("1234567890123456789012345").toByteArray(),
        ConnectTestData.utf8("h\u00e9"),
        ConnectTestData.utf8("RED"),
        ConnectTestData.utf8("{\"a\":1}"),
        new byte[] {5, 0, 0, 0, 0},
        uuidBytes,
        new byte[] {1, 2},
        new byte[] {7, 8, 9},
        -1,
        86_399_999,
        3_600_000_999L,
        1_000_000_999_999L,
        -1L,
        -1L,
        1_700_000_000_123_456_789L,
        int96(2_440_589, 1_500_000),
        Arrays.asList(1L, null, 3L),
        List.of(4, 5),
        List.of(0.5, -0.5),
        map,
        Row.of(group, 9, Row.of(inner, ConnectTestData.utf8("y"))));
  }

  private static Row empty() {
    Object[] values = new Object[SCHEMA.fields().size()];
    values[1] = 0;
    values[SCHEMA.root().fieldIndex("repeated_plain")] = List.of();
    return Row.of(SCHEMA.root(), values);
  }

  @Test
  void everyParquetTypeMapsAsDocumented() throws Exception {
    Path file = dir.resolve("foreign.parquet");
    ParquetJavaOracle.write(
        file, SCHEMA, List.of(full(), empty()), ParquetJavaOracle.WriteOptions.defaults());
    List<Row> rows = ParquetJavaOracle.read(file, SCHEMA);
    assertEquals(rows, ConnectFiles.readWithOurReader(file), "our reader agrees");
    ParquetToConnect converter = ParquetToConnect.of(SCHEMA, Map.of());
    RowToConnect oracle = new RowToConnect(converter);
    assertFalse(converter.sinkFile());
    Schema s = converter.valueSchema();
    Map<String, String> expectedTypes = new LinkedHashMap<>();
    for (String pair :
        List.of(
            "b=optional boolean",
            "i32=int32",
            "i8=optional int8",
            "i16=optional int16",
            "u8=optional int16",
            "u16=optional int32",
            "u32=optional int64",
            "i64=optional int64",
            "u64=optional decimal(0)",
            "f=optional float32",
            "d=optional float64",
            "half=optional float32",
            "dec_i32=optional decimal(2)",
            "dec_i64=optional decimal(3)",
            "dec_fixed=optional decimal(4)",
            "dec_binary=optional decimal(5)",
            "s=optional string",
            "e=optional string",
            "j=optional string",
            "bson=optional bytes",
            "uuid=optional string",
            "bin=optional bytes",
            "fx=optional bytes",
            "date=optional date",
            "t_ms=optional time",
            "t_us=optional time",
            "t_ns=optional time",
            "ts_ms=optional timestamp",
            "ts_us=optional timestamp",
            "ts_ns_local=optional timestamp",
            "int96=optional timestamp",
            "list=optional array",
            "legacy_list=optional array",
            "repeated_plain=array",
            "map=optional map",
            "group=optional struct")) {
      String[] kv = pair.split("=");
      expectedTypes.put(kv[0], kv[1]);
    }
    for (SchemaNode node : SCHEMA.fields()) {
      assertEquals(
          expectedTypes.get(node.name()),
          ConnectTypes.describe(s.field(node.name()).schema()),
          node.name());
    }
    assertEquals(
        "25", s.field("dec_binary").schema().parameters().get(ConnectTypes.DECIMAL_PRECISION));
    assertEquals("20", s.field("u64").schema().parameters().get(ConnectTypes.DECIMAL_PRECISION));
    assertTrue(s.field("list").schema().valueSchema().isOptional());
    assertFalse(s.field("legacy_list").schema().valueSchema().isOptional());

    RestoredRecord record = oracle.convert(rows.get(0));
    assertNull(record.topic());
    assertNull(record.key());
    assertTrue(record.headers().isEmpty());
    Struct v = (Struct) record.value();
    assertEquals(true, v.get("b"));
    assertEquals(-5, v.get("i32"));
    assertEquals((byte) -128, v.get("i8"));
    assertEquals((short) -32768, v.get("i16"));
    assertEquals((short) 200, v.get("u8"));
    assertEquals(65535, v.get("u16"));
    assertEquals(4_294_967_295L, v.get("u32"));
    assertEquals(Long.MIN_VALUE, v.get("i64"));
    assertEquals(new BigDecimal("18446744073709551615"), v.get("u64"));
    assertEquals(1.25f, v.get("f"));
    assertEquals(-2.5, v.get("d"));
    assertEquals(1.5f, v.get("half"));
    assertEquals(new BigDecimal("123.45"), v.get("dec_i32"));
    assertEquals(new BigDecimal("-123456.789"), v.get("dec_i64"));
    assertEquals(new BigDecimal("-1234567890123456.7890"), v.get("dec_fixed"));
    assertEquals(new BigDecimal("12345678901234567890.12345"), v.get("dec_binary"));
    assertEquals("h\u00e9", v.get("s"));
    assertEquals("RED", v.get("e"));
    assertEquals("{\"a\":1}", v.get("j"));
    assertArrayEquals(new byte[] {5, 0, 0, 0, 0}, (byte[]) v.get("bson"));
    assertEquals("123e4567-e89b-12d3-a456-426614174000", v.get("uuid"));
    assertArrayEquals(new byte[] {1, 2}, (byte[]) v.get("bin"));
    assertArrayEquals(new byte[] {7, 8, 9}, (byte[]) v.get("fx"));
    assertEquals(new java.util.Date(-86_400_000L), v.get("date"));
    assertEquals(new java.util.Date(86_399_999), v.get("t_ms"));
    assertEquals(new java.util.Date(3_600_000), v.get("t_us"), "micros truncated");
    assertEquals(new java.util.Date(1_000_000), v.get("t_ns"), "nanos truncated");
    assertEquals(new java.util.Date(-1), v.get("ts_ms"));
    assertEquals(new java.util.Date(-1), v.get("ts_us"), "floor, not toward zero");
    assertEquals(new java.util.Date(1_700_000_000_123L), v.get("ts_ns_local"));
    assertEquals(new java.util.Date(86_400_001L), v.get("int96"));
    assertEquals(Arrays.asList(1L, null, 3L), v.get("list"));
    assertEquals(List.of(4, 5), v.get("legacy_list"));
    assertEquals(List.of(0.5, -0.5), v.get("repeated_plain"));
    Map<String, Integer> expectedMap = new LinkedHashMap<>();
    expectedMap.put("a", 1);
    expectedMap.put("b", null);
    assertEquals(expectedMap, v.get("map"));
    Struct group = v.getStruct("group");
    assertEquals(9, group.get("x"));
    assertEquals("y", group.getStruct("inner").get("y"));
    v.validate();

    Struct nulls = (Struct) oracle.convert(rows.get(1)).value();
    nulls.validate();
    assertNull(nulls.get("b"));
    assertEquals(List.of(), nulls.get("repeated_plain"));
    assertNull(nulls.get("group"));
  }

  @Test
  void halfPrecisionFloatsConvertExactly() {
    assertEquals(0f, ParquetValues.halfToFloat(half(0x0000), 0));
    assertEquals(-0f, ParquetValues.halfToFloat(half(0x8000), 0));
    assertEquals(0x1p-24f, ParquetValues.halfToFloat(half(0x0001), 0), "smallest subnormal");
    assertEquals(65504f, ParquetValues.halfToFloat(half(0x7BFF), 0), "largest normal");
    assertEquals(Float.POSITIVE_INFINITY, ParquetValues.halfToFloat(half(0x7C00), 0));
    assertTrue(Float.isNaN(ParquetValues.halfToFloat(half(0x7E00), 0)));
    assertEquals(-2f, ParquetValues.halfToFloat(half(0xC000), 0));
    List<Float> all = new ArrayList<>();
    for (int bits = 0; bits < 0x10000; bits++) {
      float f = ParquetValues.halfToFloat(half(bits), 0);
      if (!Float.isNaN(f)) {
        all.add(f);
      }
    }
    assertEquals(0x10000 - 2 * 1023, all.size(), "every non-NaN half maps to a float");
  }

  @Test
  void aStructTimeTimestampAndDecimalAreConnectLogicalTypes() {
    Schema s =
        ParquetToConnect.foreignSchema(SCHEMA.root().field(SCHEMA.root().fieldIndex("ts_us")));
    assertEquals(Timestamp.LOGICAL_NAME, s.name());
    assertEquals(
        Time.LOGICAL_NAME,
        ParquetToConnect.foreignSchema(SCHEMA.root().field(SCHEMA.root().fieldIndex("t_ms")))
            .name());
    assertEquals(
        Decimal.LOGICAL_NAME,
        ParquetToConnect.foreignSchema(SCHEMA.root().field(SCHEMA.root().fieldIndex("dec_fixed")))
            .name());
  }
}
