package dev.parquetconnect.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.sink.partition.PartitionColumn;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.transforms.Transforms;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class TablePartitionerTest {
  private static final Logger LOG = LoggerFactory.getLogger(TablePartitionerTest.class);
  private static final Schema SCHEMA = IcebergSchemas.forNewTable(IcebergSchemasTest.written());
  private static final FileLayout LAYOUT =
      FileLayout.of(
          org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA,
          IcebergSchemasTest.VALUE,
          IcebergSchemasTest.TABLE_OPTIONS);

  private static long millis(int year, int month, int day, int hour) {
    return OffsetDateTime.of(year, month, day, hour, 7, 0, 0, ZoneOffset.UTC)
        .toInstant()
        .toEpochMilli();
  }

  private static SinkRecord record(
      long id, String name, long at, String city, BigDecimal price, LocalDate day, long offset) {
    Struct value =
        new Struct(IcebergSchemasTest.VALUE)
            .put("id", id)
            .put("name", name)
            .put("at", new Date(at))
            .put("price", price)
            .put("day", day == null ? null : new Date(day.toEpochDay() * 86_400_000L));
    if (city != null) {
      value.put("address", new Struct(IcebergSchemasTest.ADDRESS).put("city", city));
    }
    return new SinkRecord(
        "orders",
        1,
        org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA,
        "k",
        IcebergSchemasTest.VALUE,
        value,
        offset,
        at - 3_600_000L,
        TimestampType.CREATE_TIME);
  }

  @Test
  void recordsGoToThePartitionIcebergsTransformsGiveTheirValues() {
    PartitionSpec spec =
        PartitionSpecs.parse(
            "day(at), identity(name), bucket(16, id), truncate(4, name), hour(__kafka_timestamp),"
                + " month(day), identity(address.city), truncate(100, price)",
            SCHEMA);
    TablePartitioner partitioner = new TablePartitioner(spec);
    long at = millis(2024, 3, 5, 10);
    SinkRecord record =
        record(
            7L, "zürich/ost", at, "Bern", new BigDecimal("12.34"), LocalDate.of(2023, 12, 31), 5);
    List<PartitionColumn> columns = partitioner.partition(record);
    assertEquals(
        List.of(
            new PartitionColumn("at_day", "2024-03-05"),
            new PartitionColumn("name", "zürich/ost"),
            new PartitionColumn(
                "id_bucket",
                Integer.toString(Transforms.bucket(16).bind(Types.LongType.get()).apply(7L))),
            new PartitionColumn("name_trunc", "züri"),
            new PartitionColumn("__kafka_timestamp_hour", "2024-03-05-09"),
            new PartitionColumn("day_month", "2023-12"),
            new PartitionColumn("address.city", "Bern"),
            new PartitionColumn("price_trunc", "12.00")),
        columns);
    PartitionKey key = partitioner.key(record);
    assertEquals(spec.partitionToPath(key), partitioner.encodedPartition(columns));
    assertEquals(
        partitioner.partitionData(columns), partitioner.partitionData(spec.partitionToPath(key)));

    SinkRecord nulls = record(8L, null, at, null, null, null, 6);
    List<PartitionColumn> nullColumns = partitioner.partition(nulls);
    assertEquals(null, nullColumns.get(1).value());
    assertEquals(
        null, nullColumns.get(6).value(), "a null struct's field is a null partition value");
    assertEquals(
        spec.partitionToPath(partitioner.key(nulls)), partitioner.encodedPartition(nullColumns));
  }

  @Test
  void theColumnsOfRandomRecordsGiveBackTheirPartitionTuple() {
    long seed = System.nanoTime();
    LOG.info("TablePartitionerTest seed {}", seed);
    Random random = new Random(seed);
    for (String text :
        List.of(
            "year(at), bucket(7, name)",
            "month(__kafka_timestamp), truncate(3, id)",
            "hour(at), identity(day)",
            "identity(at), identity(price), identity(__kafka_partition)")) {
      PartitionSpec spec = PartitionSpecs.parse(text, SCHEMA);
      TablePartitioner partitioner = new TablePartitioner(spec);
      for (int i = 0; i < 200; i++) {
        long at = (random.nextLong() % 4_000_000_000_000L);
        SinkRecord record =
            record(
                random.nextLong(),
                random.nextInt(4) == 0 ? null : Long.toString(random.nextLong(), 36),
                at,
                "x",
                new BigDecimal(java.math.BigInteger.valueOf(random.nextInt()), 2),
                LocalDate.ofEpochDay(random.nextInt(80_000) - 40_000),
                i);
        List<PartitionColumn> columns = partitioner.partition(record);
        PartitionKey key = partitioner.key(record);
        PartitionData data = partitioner.partitionData(columns);
        for (int f = 0; f < spec.fields().size(); f++) {
          assertEquals(
              key.get(f, Object.class),
              data.get(f, Object.class),
              "seed " + seed + " spec " + text + " field " + spec.fields().get(f).name());
        }
        assertEquals(spec.partitionToPath(key), partitioner.encodedPartition(columns));
      }
    }
  }

  @Test
  void icebergsScanPrunesOurPartitionedFilesByPartitionAndMetrics() {
    PartitionSpec spec = PartitionSpecs.parse("day(at)", SCHEMA);
    Table table = TableFiles.create(TableFiles.catalog(), SCHEMA, spec);
    TablePartitioner partitioner = new TablePartitioner(table.spec());
    Map<List<PartitionColumn>, List<SinkRecord>> byPartition = new HashMap<>();
    for (int i = 0; i < 6; i++) {
      SinkRecord record =
          record(i, "n" + i, millis(2024, 3, 3 + i % 3, i), "c", BigDecimal.ONE, null, i);
      byPartition
          .computeIfAbsent(partitioner.partition(record), k -> new ArrayList<>())
          .add(record);
    }
    assertEquals(3, byPartition.size());
    for (Map.Entry<List<PartitionColumn>, List<SinkRecord>> e : byPartition.entrySet()) {
      TableFiles.append(
          table,
          TableFiles.write(LAYOUT, table.schema(), e.getValue(), WriterOptions.defaults()),
          partitioner.partitionData(e.getKey()));
    }
    List<Record> day4 =
        TableFiles.read(
            table, table.newScan().filter(Expressions.equal(Expressions.day("at"), "2024-03-04")));
    assertEquals(2, day4.size());
    assertEquals(1, countFiles(table, Expressions.equal(Expressions.day("at"), "2024-03-04")));
    assertEquals(1, countFiles(table, Expressions.equal("id", 5L)), "pruned by the id bounds");
    assertEquals(3, countFiles(table, Expressions.alwaysTrue()));
  }

  @Test
  void aValueThatDoesNotFitItsColumnIsABadRecord() {
    TablePartitioner partitioner = new TablePartitioner(PartitionSpecs.parse("day(at)", SCHEMA));
    Map<String, Object> schemaless = new HashMap<>();
    schemaless.put("at", "yesterday");
    SinkRecord record =
        new SinkRecord("orders", 0, null, null, null, schemaless, 3, 0L, TimestampType.CREATE_TIME);
    DataException e = assertThrows(DataException.class, () -> partitioner.partition(record));
    assertTrue(e.getMessage().contains("'at'"), e.getMessage());
  }

  private static int countFiles(Table table, org.apache.iceberg.expressions.Expression filter) {
    int n = 0;
    try (var tasks = table.newScan().filter(filter).planFiles()) {
      for (var ignored : tasks) {
        n++;
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return n;
  }
}
