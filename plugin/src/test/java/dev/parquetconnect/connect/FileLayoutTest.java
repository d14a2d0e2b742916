package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import java.math.BigDecimal;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class FileLayoutTest {
  private static String text(FileLayout layout) {
    return layout.parquetSchema().toString().replaceAll("\\s+", " ").trim();
  }

  @Test
  void primitiveAndLogicalTypesMapAsDocumented() {
    Schema value =
        SchemaBuilder.struct()
            .field("i8", Schema.INT8_SCHEMA)
            .field("i16", Schema.OPTIONAL_INT16_SCHEMA)
            .field("i32", Schema.INT32_SCHEMA)
            .field("i64", Schema.INT64_SCHEMA)
            .field("f32", Schema.FLOAT32_SCHEMA)
            .field("f64", Schema.FLOAT64_SCHEMA)
            .field("b", Schema.BOOLEAN_SCHEMA)
            .field("s", Schema.STRING_SCHEMA)
            .field("y", Schema.BYTES_SCHEMA)
            .field("d", org.apache.kafka.connect.data.Date.SCHEMA)
            .field("t", org.apache.kafka.connect.data.Time.SCHEMA)
            .field("ts", Timestamp.SCHEMA)
            .build();
    FileLayout layout =
        FileLayout.of(null, value, MappingOptions.defaults().withKafkaMetadata(false));
    assertEquals(
        "message kafka_record { required int32 i8 (INTEGER(8,true)); optional int32 i16"
            + " (INTEGER(16,true)); required int32 i32; required int64 i64; required float f32;"
            + " required double f64; required boolean b; required binary s (STRING); required binary"
            + " y; required int32 d (DATE); required int32 t; required int64 ts"
            + " (TIMESTAMP(MILLIS,true)); }",
        text(layout));
    // Time is plain INT32 milliseconds of the day by default: Spark 3.x and 4.0 refuse a file
    // with a TIME column. The TIME logical type is there for who asks.
    FileLayout timeType =
        FileLayout.of(
            null,
            value,
            MappingOptions.defaults().withKafkaMetadata(false).withTimeLogicalType(true));
    assertTrue(text(timeType).contains("required int32 t (TIME(MILLIS,true));"));
    FileLayout micros =
        FileLayout.of(
            null,
            value,
            MappingOptions.defaults().withKafkaMetadata(false).withTimestampUnit(TimeUnit.MICROS));
    assertTrue(text(micros).contains("required int64 ts (TIMESTAMP(MICROS,true));"));
    assertThrows(
        IllegalArgumentException.class,
        () -> MappingOptions.defaults().withTimestampUnit(TimeUnit.NANOS));
  }

  @Test
  void decimalsTakeTheSmallestPhysicalType() {
    record Case(
        int scale,
        Integer precision,
        PhysicalType type,
        int length,
        int parquetScale,
        int parquetPrecision) {}
    for (Case c :
        List.of(
            new Case(2, 1, PhysicalType.INT32, 0, 2, 2),
            new Case(2, 9, PhysicalType.INT32, 0, 2, 9),
            new Case(0, 10, PhysicalType.INT64, 0, 0, 10),
            new Case(4, 18, PhysicalType.INT64, 0, 4, 18),
            new Case(6, 19, PhysicalType.FIXED_LEN_BYTE_ARRAY, 9, 6, 19),
            new Case(6, 30, PhysicalType.FIXED_LEN_BYTE_ARRAY, 13, 6, 30),
            new Case(3, null, PhysicalType.FIXED_LEN_BYTE_ARRAY, 16, 3, 38),
            new Case(40, null, PhysicalType.FIXED_LEN_BYTE_ARRAY, 17, 40, 40),
            new Case(-2, 5, PhysicalType.INT32, 0, 0, 7),
            new Case(-9, 9, PhysicalType.INT64, 0, 0, 18),
            new Case(-10, 9, PhysicalType.FIXED_LEN_BYTE_ARRAY, 9, 0, 19))) {
      DecimalLayout d = DecimalLayout.of(ConnectTestData.decimal(c.scale(), c.precision()));
      assertEquals(c.type(), d.type(), c.toString());
      assertEquals(c.length(), d.byteLength(), c.toString());
      assertEquals(c.parquetScale(), d.scale(), c.toString());
      assertEquals(c.parquetPrecision(), d.precision(), c.toString());
    }
    DecimalLayout d = DecimalLayout.of(ConnectTestData.decimal(2, 5));
    StringBuilder problem = new StringBuilder();
    assertEquals(new BigDecimal("123.45"), d.fit(new BigDecimal("123.45"), problem));
    assertEquals(new BigDecimal("1.20"), d.fit(new BigDecimal("1.2"), problem), "exact rescale");
    assertNull(d.fit(new BigDecimal("1234.56"), problem));
    assertTrue(problem.toString().contains("6 digits, the column holds 5"), problem.toString());
    assertNull(d.fit(new BigDecimal("1.234"), new StringBuilder()), "never rounds");
    assertThrows(
        DataException.class,
        () ->
            DecimalLayout.of(
                SchemaBuilder.bytes()
                    .name(org.apache.kafka.connect.data.Decimal.LOGICAL_NAME)
                    .build()));
  }

  @Test
  void metadataColumnsFollowTheValue() {
    FileLayout layout =
        FileLayout.of(Schema.STRING_SCHEMA, ConnectTestData.POINT, MappingOptions.fullFidelity());
    String text = text(layout);
    assertTrue(
        text.startsWith(
            "message kafka_record { optional int32 x; optional binary label"
                + " (STRING); required binary __kafka_topic (STRING); required int32 __kafka_partition;"
                + " required int64 __kafka_offset; optional int64 __kafka_timestamp"
                + " (TIMESTAMP(MILLIS,true)); optional binary __kafka_key (STRING); required group"
                + " __kafka_headers (LIST) { repeated group list { required group element { required"
                + " binary key (STRING); optional binary schema (STRING); optional binary value; } } }"
                + " required boolean __kafka_tombstone; }"),
        text);
    assertTrue(layout.hasTombstoneColumn());
    assertEquals(
        ConnectTestData.POINT,
        ConnectSchemaJson.read(layout.keyValueMetadata().get(FileLayout.VALUE_SCHEMA_KEY)));
    assertEquals(
        Schema.STRING_SCHEMA,
        ConnectSchemaJson.read(layout.keyValueMetadata().get(FileLayout.KEY_SCHEMA_KEY)));
    assertEquals(FileLayout.LAYOUT_VERSION, layout.keyValueMetadata().get(FileLayout.LAYOUT_KEY));
  }

  @Test
  void aValueThatIsNoStructIsOneColumn() {
    FileLayout layout =
        FileLayout.of(
            null, SchemaBuilder.array(Schema.STRING_SCHEMA).build(), MappingOptions.defaults());
    assertFalse(layout.isStructValue());
    assertTrue(
        text(layout).startsWith("message kafka_record { required group value (LIST) {"),
        text(layout));
    FileLayout nullable =
        FileLayout.of(null, Schema.INT64_SCHEMA, MappingOptions.defaults().withTombstones(true));
    assertTrue(text(nullable).startsWith("message kafka_record { optional int64 value;"));
    assertFalse(nullable.hasTombstoneColumn(), "a null in the value column is the tombstone");
  }

  @Test
  void emptyStructsGetAPlaceholderAndKeysAreOptional() {
    FileLayout layout =
        FileLayout.of(
            ConnectTestData.POINT,
            ConnectTestData.EMPTY,
            MappingOptions.defaults().withKafkaMetadata(false).withKafkaKey(true));
    assertEquals(
        "message kafka_record { optional boolean __empty; optional group __kafka_key {"
            + " required int32 x; optional binary label (STRING); } }",
        text(layout));
  }

  @Test
  void aFieldNamedLikeAMetadataColumnIsRefused() {
    Schema clash =
        SchemaBuilder.struct().field(FileLayout.OFFSET_COLUMN, Schema.INT64_SCHEMA).build();
    DataException e =
        assertThrows(
            DataException.class, () -> FileLayout.of(null, clash, MappingOptions.defaults()));
    assertTrue(e.getMessage().contains("__kafka_offset"), e.getMessage());
    FileLayout.of(null, clash, MappingOptions.defaults().withKafkaMetadata(false));
  }

  @Test
  void parquetJavaAcceptsTheEveryTypeLayoutWithTheSameLevels() {
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA,
            ConnectTestData.EVERY_TYPE,
            MappingOptions.fullFidelity());
    org.apache.parquet.schema.MessageType theirs =
        ParquetJavaOracle.toParquetJava(layout.parquetSchema());
    assertEquals(layout.parquetSchema().columns().size(), theirs.getColumns().size());
    for (int i = 0; i < theirs.getColumns().size(); i++) {
      var c = theirs.getColumns().get(i);
      var ours = layout.parquetSchema().column(i);
      assertEquals(c.getMaxDefinitionLevel(), ours.maxDefinitionLevel(), ours.dottedPath());
      assertEquals(c.getMaxRepetitionLevel(), ours.maxRepetitionLevel(), ours.dottedPath());
    }
  }
}
