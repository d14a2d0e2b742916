package dev.parquetconnect.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.write.WriterOptions;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class SchemaUpdatesTest {
  private static final MappingOptions OPTIONS =
      MappingOptions.defaults().withKafkaMetadata(false).forIcebergTables();

  private static final org.apache.kafka.connect.data.Schema ADDRESS_V1 =
      SchemaBuilder.struct()
          .field("city", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .optional()
          .build();
  private static final org.apache.kafka.connect.data.Schema ADDRESS_V2 =
      SchemaBuilder.struct()
          .field("city", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .field("zip", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .optional()
          .build();
  private static final org.apache.kafka.connect.data.Schema ITEM =
      SchemaBuilder.struct()
          .field("sku", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .build();

  static final org.apache.kafka.connect.data.Schema V1 =
      SchemaBuilder.struct()
          .field("id", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
          .field("score", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT32_SCHEMA)
          .field("price", decimal(5))
          .field("name", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
          .field("address", ADDRESS_V1)
          .build();

  static final org.apache.kafka.connect.data.Schema V2 =
      SchemaBuilder.struct()
          .field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
          .field("score", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("price", decimal(9))
          .field("name", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .field("address", ADDRESS_V2)
          .field("email", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .field("items", SchemaBuilder.array(ITEM).optional().build())
          .build();

  private static org.apache.kafka.connect.data.Schema decimal(int precision) {
    return Decimal.builder(2)
        .parameter("connect.decimal.precision", Integer.toString(precision))
        .optional()
        .build();
  }

  private static MessageType written(org.apache.kafka.connect.data.Schema value) {
    return FileLayout.of(null, value, OPTIONS).parquetSchema();
  }

  private static SinkRecord record(
      org.apache.kafka.connect.data.Schema schema, Struct value, long offset) {
    return new SinkRecord("t", 0, null, null, schema, value, offset, 0L, TimestampType.CREATE_TIME);
  }

  @Test
  void widensTheTableAndOldRowsReadBackWithNullsForNewColumns() {
    InMemoryCatalog catalog = TableFiles.catalog();
    Table table =
        TableFiles.create(
            catalog, IcebergSchemas.forNewTable(written(V1)), PartitionSpec.unpartitioned());
    Struct v1 =
        new Struct(V1)
            .put("id", 1)
            .put("score", 0.5f)
            .put("price", new BigDecimal("123.45"))
            .put("name", "first")
            .put("address", new Struct(ADDRESS_V1).put("city", "Bern"));
    TableFiles.append(
        table,
        TableFiles.write(
            FileLayout.of(null, V1, OPTIONS),
            table.schema(),
            List.of(record(V1, v1, 0)),
            WriterOptions.defaults()),
        null);

    UpdateSchema update = table.updateSchema();
    assertEquals(Optional.empty(), SchemaUpdates.apply(update, table.schema(), written(V2)));
    update.commit();
    table.refresh();
    Schema evolved = table.schema();
    assertEquals(Types.LongType.get(), evolved.findType("id"));
    assertEquals(Types.DoubleType.get(), evolved.findType("score"));
    assertEquals(Types.DecimalType.of(9, 2), evolved.findType("price"));
    assertTrue(evolved.findField("name").isOptional(), "required -> optional");
    assertTrue(evolved.findField("address.zip").isOptional());
    assertTrue(evolved.findField("email").isOptional());
    assertEquals(Types.StringType.get(), evolved.findType("items.element.sku"));
    assertTrue(SchemaUpdates.fits(evolved, written(V2)));
    assertTrue(SchemaUpdates.fits(evolved, written(V1)), "older records fit the wider table");

    Struct v2 =
        new Struct(V2)
            .put("id", 1L << 40)
            .put("score", 0.25)
            .put("price", new BigDecimal("1234567.89"))
            .put("address", new Struct(ADDRESS_V2).put("city", "Genf").put("zip", "1201"))
            .put("email", "a@b.c")
            .put("items", List.of(new Struct(ITEM).put("sku", "x-1")));
    TableFiles.append(
        table,
        TableFiles.write(
            FileLayout.of(null, V2, OPTIONS),
            evolved,
            List.of(record(V2, v2, 1)),
            WriterOptions.defaults()),
        null);
    // an old-schema record after the evolution: its int and float columns read as long and double
    TableFiles.append(
        table,
        TableFiles.write(
            FileLayout.of(null, V1, OPTIONS),
            evolved,
            List.of(record(V1, v1, 2)),
            WriterOptions.defaults()),
        null);

    List<Record> rows = TableFiles.read(table);
    rows.sort(Comparator.comparing(r -> (Long) r.getField("id")));
    assertEquals(3, rows.size());
    for (Record old : rows.subList(0, 2)) {
      assertEquals(1L, old.getField("id"));
      assertEquals(0.5, old.getField("score"));
      assertEquals(new BigDecimal("123.45"), old.getField("price"));
      assertEquals("first", old.getField("name"));
      assertEquals("Bern", ((Record) old.getField("address")).getField("city"));
      assertNull(((Record) old.getField("address")).getField("zip"));
      assertNull(old.getField("email"));
      assertNull(old.getField("items"));
    }
    Record last = rows.get(2);
    assertEquals(1L << 40, last.getField("id"));
    assertEquals(0.25, last.getField("score"));
    assertEquals(new BigDecimal("1234567.89"), last.getField("price"));
    assertNull(last.getField("name"));
    assertEquals("1201", ((Record) last.getField("address")).getField("zip"));
    assertEquals("a@b.c", last.getField("email"));
    assertEquals("x-1", ((Record) ((List<?>) last.getField("items")).get(0)).getField("sku"));
  }

  @Test
  void incompatibleChangesStageNothingAndSayWhy() {
    Table table =
        TableFiles.create(
            TableFiles.catalog(),
            IcebergSchemas.forNewTable(written(V2)),
            PartitionSpec.unpartitioned());
    assertIncompatible(
        table,
        SchemaBuilder.struct()
            .field("email", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
            .field("brand_new", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
            .field("id", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
            .build(),
        "column 'id'");
    assertIncompatible(
        table,
        SchemaBuilder.struct()
            .field("address", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
            .build(),
        "column 'address'");
    assertIncompatible(
        table,
        SchemaBuilder.struct()
            .field(
                "price",
                Decimal.builder(3).parameter("connect.decimal.precision", "12").optional().build())
            .build(),
        "column 'price'");
    assertIncompatible(
        table,
        SchemaBuilder.struct()
            .field(
                "items",
                SchemaBuilder.map(
                        org.apache.kafka.connect.data.Schema.STRING_SCHEMA,
                        org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
                    .optional()
                    .build())
            .build(),
        "column 'items'");

    Table longs =
        TableFiles.create(
            TableFiles.catalog(),
            new Schema(Types.NestedField.required(1, "n", Types.IntegerType.get())),
            PartitionSpec.unpartitioned());
    longs.updateSchema().updateColumn("n", Types.LongType.get()).commit();
    assertIncompatible(
        longs,
        SchemaBuilder.struct()
            .field("n", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
            .build(),
        "column 'n'");
  }

  @Test
  void aRequiredColumnTheRecordsLackBecomesOptionalAndNarrowerRecordsNeedNoChange() {
    Table table =
        TableFiles.create(
            TableFiles.catalog(),
            IcebergSchemas.forNewTable(written(V1)),
            PartitionSpec.unpartitioned());
    org.apache.kafka.connect.data.Schema lacking =
        SchemaBuilder.struct()
            .field("id", org.apache.kafka.connect.data.Schema.INT32_SCHEMA)
            .field("score", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT32_SCHEMA)
            .build();
    UpdateSchema update = table.updateSchema();
    assertEquals(Optional.empty(), SchemaUpdates.apply(update, table.schema(), written(lacking)));
    Schema after = update.apply();
    assertTrue(after.findField("name").isOptional(), "a required column the records lack");
    assertTrue(after.findField("id").isRequired());
    assertTrue(after.findField("address.city").isRequired(), "the struct is absent, not its field");
    assertTrue(table.schema().findField("name").isRequired(), "apply itself commits nothing");

    Schema wide = IcebergSchemas.forNewTable(written(V2));
    assertTrue(
        SchemaUpdates.fits(wide, written(V1)),
        "int, float and a smaller decimal read as the table's long, double and wider decimal");
  }

  @Test
  void newFieldsInsideListElementsAndMapValuesAreAddedWhereTheyBelong() {
    org.apache.kafka.connect.data.Schema item2 =
        SchemaBuilder.struct()
            .field("sku", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
            .field("qty", org.apache.kafka.connect.data.Schema.OPTIONAL_INT32_SCHEMA)
            .build();
    org.apache.kafka.connect.data.Schema before =
        SchemaBuilder.struct()
            .field("items", SchemaBuilder.array(ITEM).optional().build())
            .field(
                "byName",
                SchemaBuilder.map(org.apache.kafka.connect.data.Schema.STRING_SCHEMA, ITEM)
                    .optional()
                    .build())
            .build();
    org.apache.kafka.connect.data.Schema after =
        SchemaBuilder.struct()
            .field("items", SchemaBuilder.array(item2).optional().build())
            .field(
                "byName",
                SchemaBuilder.map(org.apache.kafka.connect.data.Schema.STRING_SCHEMA, item2)
                    .optional()
                    .build())
            .build();
    Table table =
        TableFiles.create(
            TableFiles.catalog(),
            IcebergSchemas.forNewTable(written(before)),
            PartitionSpec.unpartitioned());
    UpdateSchema update = table.updateSchema();
    assertEquals(Optional.empty(), SchemaUpdates.apply(update, table.schema(), written(after)));
    Schema evolved = update.apply();
    assertEquals(Types.IntegerType.get(), evolved.findType("items.element.qty"));
    assertEquals(Types.IntegerType.get(), evolved.findType("byName.value.qty"));
    assertTrue(evolved.findField("items.element.qty").isOptional());
    assertTrue(SchemaUpdates.fits(evolved, written(after)));
  }

  private static void assertIncompatible(
      Table table, org.apache.kafka.connect.data.Schema value, String fragment) {
    UpdateSchema update = table.updateSchema();
    Optional<String> reason = SchemaUpdates.apply(update, table.schema(), written(value));
    assertTrue(reason.isPresent(), "incompatible: " + value.fields());
    assertTrue(reason.get().contains(fragment), reason.get());
    assertTrue(
        update.apply().sameSchema(table.schema()), "nothing staged on an incompatible change");
  }
}
