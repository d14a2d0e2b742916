package dev.parquetconnect.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.read.MemoryInput;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.WriterOptions;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class IcebergSchemasTest {
  static final org.apache.kafka.connect.data.Schema ADDRESS =
      SchemaBuilder.struct()
          .name("Address")
          .field("city", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .field("zip", org.apache.kafka.connect.data.Schema.OPTIONAL_INT32_SCHEMA)
          .optional()
          .build();

  static final org.apache.kafka.connect.data.Schema VALUE =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
          .field("tiny", org.apache.kafka.connect.data.Schema.OPTIONAL_INT8_SCHEMA)
          .field("small", org.apache.kafka.connect.data.Schema.OPTIONAL_INT16_SCHEMA)
          .field("count", org.apache.kafka.connect.data.Schema.OPTIONAL_INT32_SCHEMA)
          .field("ratio", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT32_SCHEMA)
          .field("score", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("paid", org.apache.kafka.connect.data.Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("name", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .field("blob", org.apache.kafka.connect.data.Schema.OPTIONAL_BYTES_SCHEMA)
          .field("price", Decimal.builder(2).optional().build())
          .field("day", org.apache.kafka.connect.data.Date.builder().optional().build())
          .field("at", Timestamp.builder().optional().build())
          .field("address", ADDRESS)
          .field(
              "tags",
              SchemaBuilder.array(org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                  .optional()
                  .build())
          .field(
              "attrs",
              SchemaBuilder.map(
                      org.apache.kafka.connect.data.Schema.STRING_SCHEMA,
                      org.apache.kafka.connect.data.Schema.OPTIONAL_INT64_SCHEMA)
                  .optional()
                  .build())
          .field("empty", SchemaBuilder.struct().optional().build())
          .build();

  static final MappingOptions TABLE_OPTIONS =
      MappingOptions.fullFidelity().withTombstones(false).forIcebergTables();

  static MessageType written() {
    return FileLayout.of(
            org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA, VALUE, TABLE_OPTIONS)
        .parquetSchema();
  }

  @Test
  void newTableTypesFollowTheParquetTypesOurSinkWrites() {
    Schema schema = IcebergSchemas.forNewTable(written());
    Types.StructType s = schema.asStruct();
    assertEquals(Types.LongType.get(), s.field("id").type());
    assertTrue(s.field("id").isRequired());
    assertEquals(Types.IntegerType.get(), s.field("tiny").type());
    assertEquals(Types.IntegerType.get(), s.field("small").type());
    assertEquals(Types.IntegerType.get(), s.field("count").type());
    assertEquals(Types.FloatType.get(), s.field("ratio").type());
    assertEquals(Types.DoubleType.get(), s.field("score").type());
    assertEquals(Types.BooleanType.get(), s.field("paid").type());
    assertEquals(Types.StringType.get(), s.field("name").type());
    assertEquals(Types.BinaryType.get(), s.field("blob").type());
    assertTrue(s.field("price").type() instanceof Types.DecimalType);
    assertEquals(2, ((Types.DecimalType) s.field("price").type()).scale());
    assertEquals(Types.DateType.get(), s.field("day").type());
    assertEquals(Types.TimestampType.withZone(), s.field("at").type());
    assertEquals(
        Types.StructType.of(
            Types.NestedField.required(0, "city", Types.StringType.get()),
            Types.NestedField.optional(0, "zip", Types.IntegerType.get())),
        withZeroIds(s.field("address").type()));
    assertTrue(s.field("tags").type().isListType());
    assertTrue(s.field("tags").type().asListType().isElementRequired());
    assertEquals(Types.StringType.get(), s.field("tags").type().asListType().elementType());
    assertTrue(s.field("attrs").type().isMapType());
    assertEquals(Types.LongType.get(), s.field("attrs").type().asMapType().valueType());
    assertTrue(s.field("attrs").type().asMapType().isValueOptional());
    assertEquals(
        Types.BooleanType.get(),
        s.field("empty").type().asStructType().field("__empty").type(),
        "a struct without fields keeps its placeholder column, always null");
    assertEquals(Types.StringType.get(), s.field(FileLayout.TOPIC_COLUMN).type());
    assertEquals(Types.IntegerType.get(), s.field(FileLayout.PARTITION_COLUMN).type());
    assertEquals(Types.LongType.get(), s.field(FileLayout.OFFSET_COLUMN).type());
    assertEquals(Types.TimestampType.withZone(), s.field(FileLayout.TIMESTAMP_COLUMN).type());
    assertEquals(Types.StringType.get(), s.field(FileLayout.KEY_COLUMN).type());
    Types.StructType header =
        s.field(FileLayout.HEADERS_COLUMN).type().asListType().elementType().asStructType();
    assertEquals(
        List.of("key", "schema", "value"), header.fields().stream().map(f -> f.name()).toList());
    assertEquals(Types.BinaryType.get(), header.field("value").type());
  }

  @Test
  void newTableIdsAreAssignedAsIcebergAssignsThemOnCreate() {
    MessageType written = written();
    Schema schema = IcebergSchemas.forNewTable(written);
    for (int i = 0; i < written.fields().size(); i++) {
      assertEquals(i + 1, schema.columns().get(i).fieldId(), "top-level columns first, 1 to n");
    }
    Table table = TableFiles.create(TableFiles.catalog(), schema, PartitionSpec.unpartitioned());
    assertEquals(schema.asStruct(), table.schema().asStruct(), "Iceberg keeps the ids on create");
  }

  @Test
  void everyGroupAndLeafCarriesTheIdOfItsTableColumn() {
    MessageType written = written();
    Schema table = IcebergSchemas.forNewTable(written);
    MessageType withIds = IcebergSchemas.withFieldIds(written, table);
    assertEquals(table.asStruct(), IcebergSchemas.fromParquet(withIds).asStruct());
    for (ColumnDescriptor column : withIds.columns()) {
      assertTrue(column.primitive().fieldId() != null, column.dottedPath());
    }
    GroupNode tags = (GroupNode) withIds.root().field(withIds.root().fieldIndex("tags"));
    assertEquals(table.findField("tags").fieldId(), tags.fieldId());
    GroupNode repeated = (GroupNode) tags.field(0);
    assertEquals(null, repeated.fieldId(), "the repeated group of a LIST has no id");
    assertEquals(table.findField("tags.element").fieldId(), repeated.field(0).fieldId());
    GroupNode attrs = (GroupNode) withIds.root().field(withIds.root().fieldIndex("attrs"));
    GroupNode keyValue = (GroupNode) attrs.field(0);
    assertEquals(table.findField("attrs.key").fieldId(), keyValue.field(0).fieldId());
    assertEquals(table.findField("attrs.value").fieldId(), keyValue.field(1).fieldId());
  }

  @Test
  void icebergsGenericReaderReadsOurFileAsTheTable() {
    MessageType written = written();
    Schema schema = IcebergSchemas.forNewTable(written);
    Table table = TableFiles.create(TableFiles.catalog(), schema, PartitionSpec.unpartitioned());
    long at =
        OffsetDateTime.of(2024, 3, 5, 10, 11, 12, 345_000_000, ZoneOffset.UTC)
            .toInstant()
            .toEpochMilli();
    Struct value =
        new Struct(VALUE)
            .put("id", 7L)
            .put("tiny", (byte) -3)
            .put("small", (short) 300)
            .put("count", 42)
            .put("ratio", 1.5f)
            .put("score", Double.NaN)
            .put("paid", true)
            .put("name", "zürich")
            .put("blob", new byte[] {1, 2})
            .put("price", new BigDecimal("12.34"))
            .put("day", new Date(LocalDate.of(2024, 3, 5).toEpochDay() * 86_400_000L))
            .put("at", new Date(at))
            .put("address", new Struct(ADDRESS).put("city", "Bern"))
            .put("tags", List.of("a", "b"))
            .put("attrs", Map.of("k", 5L));
    ConnectHeaders headers = new ConnectHeaders();
    headers.addString("h", "v");
    SinkRecord record =
        new SinkRecord(
            "orders",
            2,
            org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA,
            "key-7",
            VALUE,
            value,
            99L,
            at,
            TimestampType.CREATE_TIME,
            headers);
    FileLayout layout =
        FileLayout.of(
            org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA, VALUE, TABLE_OPTIONS);
    TableFiles.append(
        table,
        TableFiles.write(layout, table.schema(), List.of(record), WriterOptions.defaults()),
        null);

    List<Record> rows = TableFiles.read(table);
    assertEquals(1, rows.size());
    Record row = rows.get(0);
    assertEquals(7L, row.getField("id"));
    assertEquals(-3, row.getField("tiny"));
    assertEquals(300, row.getField("small"));
    assertEquals(42, row.getField("count"));
    assertEquals(1.5f, row.getField("ratio"));
    assertTrue(((Double) row.getField("score")).isNaN());
    assertEquals(true, row.getField("paid"));
    assertEquals("zürich", row.getField("name").toString());
    assertEquals(new BigDecimal("12.34"), row.getField("price"));
    assertEquals(LocalDate.of(2024, 3, 5), row.getField("day"));
    OffsetDateTime expectedAt =
        OffsetDateTime.of(2024, 3, 5, 10, 11, 12, 345_000_000, ZoneOffset.UTC);
    assertEquals(expectedAt, row.getField("at"));
    assertEquals(expectedAt, row.getField(FileLayout.TIMESTAMP_COLUMN), "micros in table files");
    assertEquals("Bern", ((Record) row.getField("address")).getField("city"));
    assertEquals(null, ((Record) row.getField("address")).getField("zip"));
    assertEquals(List.of("a", "b"), row.getField("tags"));
    assertEquals(Map.of("k", 5L), row.getField("attrs"));
    assertEquals("orders", row.getField(FileLayout.TOPIC_COLUMN));
    assertEquals(2, row.getField(FileLayout.PARTITION_COLUMN));
    assertEquals(99L, row.getField(FileLayout.OFFSET_COLUMN));
    assertEquals("key-7", row.getField(FileLayout.KEY_COLUMN));
    @SuppressWarnings("unchecked")
    List<Record> headerRows = (List<Record>) row.getField(FileLayout.HEADERS_COLUMN);
    assertEquals("h", headerRows.get(0).getField("key"));
  }

  @Test
  void theSourceReadsTheMicrosecondKafkaTimestampOfATablesFileAsMilliseconds() throws Exception {
    long at = 1_709_633_472_345L;
    SinkRecord record =
        new SinkRecord(
            "orders",
            0,
            null,
            null,
            VALUE,
            new Struct(VALUE).put("id", 1L),
            4L,
            at,
            TimestampType.CREATE_TIME);
    FileLayout layout = FileLayout.of(null, VALUE, TABLE_OPTIONS);
    Schema table = IcebergSchemas.forNewTable(layout.parquetSchema());
    TableFiles.Written file =
        TableFiles.write(layout, table, List.of(record), WriterOptions.defaults());
    try (ParquetFileReader reader =
            ParquetFileReader.open(
                new MemoryInput(file.bytes(), "t.parquet"), ReadOptions.defaults());
        ConnectRecordReader records =
            new ConnectRecordReader(
                reader,
                ParquetToConnect.of(
                    reader.schema(),
                    ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata())))) {
      records.next();
      assertEquals(Long.valueOf(at), records.timestamp());
      assertEquals(Long.valueOf(4L), records.offset());
    }
  }

  @Test
  void typesWithoutAnIcebergEquivalentAreRefusedNamingTheColumn() {
    assertRefused(
        leaf("ts", PhysicalType.INT64, new LogicalType.TimestampType(true, TimeUnit.MILLIS)),
        "column 'ts'",
        "microseconds");
    assertRefused(leaf("legacy", PhysicalType.INT96, null), "column 'legacy'", "INT96");
    assertRefused(
        leaf("u", PhysicalType.INT64, new LogicalType.IntType((byte) 64, false)),
        "column 'u'",
        "no Iceberg type");
    assertRefused(
        leaf("n", PhysicalType.INT64, new LogicalType.TimestampType(false, TimeUnit.NANOS)),
        "column 'n'",
        "format version 3");
    assertRefused(
        leaf("t", PhysicalType.INT32, new LogicalType.TimeType(true, TimeUnit.MILLIS)),
        "column 't'",
        "time");
    MessageType nested =
        new MessageType(
            "m",
            List.of(
                GroupNode.of(
                    "outer",
                    FieldRepetitionType.OPTIONAL,
                    List.of(
                        PrimitiveNode.of("r", FieldRepetitionType.REPEATED, PhysicalType.INT32)))));
    DataException e = assertThrows(DataException.class, () -> IcebergSchemas.forNewTable(nested));
    assertTrue(e.getMessage().contains("column 'outer.r'"), e.getMessage());
    Schema v3 =
        IcebergSchemas.forNewTable(
            new MessageType(
                "m",
                List.of(
                    leaf(
                        "n",
                        PhysicalType.INT64,
                        new LogicalType.TimestampType(false, TimeUnit.NANOS)))),
            3);
    assertEquals(Types.TimestampNanoType.withoutZone(), v3.findField("n").type());
  }

  @Test
  void aFileColumnTheTableLacksOrCannotReadIsRefused() {
    MessageType written = written();
    Schema table = IcebergSchemas.forNewTable(written);
    Schema narrower = new Schema(table.columns().subList(0, 3));
    DataException missing =
        assertThrows(DataException.class, () -> IcebergSchemas.withFieldIds(written, narrower));
    assertTrue(missing.getMessage().contains("is not in the table's schema"), missing.getMessage());

    DataException requiredMissing =
        assertThrows(
            DataException.class,
            () ->
                IcebergSchemas.withFieldIds(
                    new MessageType("m", List.of(written.fields().get(1))), table));
    assertTrue(
        requiredMissing.getMessage().contains("column 'id' is required in the table and missing"),
        requiredMissing.getMessage());

    MessageType longId =
        new MessageType(
            "m", List.of(PrimitiveNode.of("id", FieldRepetitionType.REQUIRED, PhysicalType.INT64)));
    Schema intTable = new Schema(Types.NestedField.required(1, "id", Types.IntegerType.get()));
    DataException narrowing =
        assertThrows(DataException.class, () -> IcebergSchemas.withFieldIds(longId, intTable));
    assertTrue(narrowing.getMessage().contains("column 'id'"), narrowing.getMessage());

    MessageType intId =
        new MessageType(
            "m", List.of(PrimitiveNode.of("id", FieldRepetitionType.REQUIRED, PhysicalType.INT32)));
    Schema longTable = new Schema(Types.NestedField.required(1, "id", Types.LongType.get()));
    assertEquals(
        1,
        IcebergSchemas.withFieldIds(intId, longTable).root().field(0).fieldId(),
        "an int file column reads as the table's long, as files from before a promotion do");
  }

  private static void assertRefused(SchemaNode node, String... fragments) {
    MessageType schema = new MessageType("m", List.of(node));
    DataException e = assertThrows(DataException.class, () -> IcebergSchemas.forNewTable(schema));
    for (String fragment : fragments) {
      assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }
  }

  private static PrimitiveNode leaf(String name, PhysicalType type, LogicalType logical) {
    PrimitiveNode node = PrimitiveNode.of(name, FieldRepetitionType.OPTIONAL, type);
    return logical == null ? node : node.withLogicalType(logical);
  }

  private static org.apache.iceberg.types.Type withZeroIds(org.apache.iceberg.types.Type type) {
    return Types.StructType.of(
        type.asStructType().fields().stream()
            .map(f -> Types.NestedField.of(0, f.isOptional(), f.name(), f.type()))
            .toList());
  }
}
