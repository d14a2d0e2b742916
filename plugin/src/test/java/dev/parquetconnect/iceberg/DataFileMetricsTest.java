package dev.parquetconnect.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.Metrics;
import org.apache.iceberg.MetricsConfig;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.parquet.ParquetUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Our metrics against Iceberg's own footer metrics ({@code ParquetUtil.fileMetrics}, from
 * iceberg-parquet) of the same random files: every type, nulls, NaN, -0.0, empty and long strings,
 * code points that cannot be incremented, one or several row groups, every metrics mode.
 */
class DataFileMetricsTest {
  private static final Logger LOG = LoggerFactory.getLogger(DataFileMetricsTest.class);

  private static final org.apache.kafka.connect.data.Schema INNER =
      SchemaBuilder.struct()
          .field("label", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .field("weight", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT64_SCHEMA)
          .optional()
          .build();

  private static final org.apache.kafka.connect.data.Schema VALUE =
      SchemaBuilder.struct()
          .field("b", org.apache.kafka.connect.data.Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("i8", org.apache.kafka.connect.data.Schema.OPTIONAL_INT8_SCHEMA)
          .field("i16", org.apache.kafka.connect.data.Schema.OPTIONAL_INT16_SCHEMA)
          .field("i32", org.apache.kafka.connect.data.Schema.OPTIONAL_INT32_SCHEMA)
          .field("i64", org.apache.kafka.connect.data.Schema.INT64_SCHEMA)
          .field("f32", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT32_SCHEMA)
          .field("f64", org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("s", org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA)
          .field("bin", org.apache.kafka.connect.data.Schema.OPTIONAL_BYTES_SCHEMA)
          .field("d5", decimal(2, 5))
          .field("d15", decimal(3, 15))
          .field("d30", decimal(4, 30))
          .field("day", org.apache.kafka.connect.data.Date.builder().optional().build())
          .field("ts", Timestamp.builder().optional().build())
          .field("inner", INNER)
          .field(
              "list",
              SchemaBuilder.array(org.apache.kafka.connect.data.Schema.OPTIONAL_INT32_SCHEMA)
                  .optional()
                  .build())
          .field(
              "map",
              SchemaBuilder.map(
                      org.apache.kafka.connect.data.Schema.STRING_SCHEMA,
                      org.apache.kafka.connect.data.Schema.OPTIONAL_FLOAT64_SCHEMA)
                  .optional()
                  .build())
          .build();

  private static final int ROUNDS = 10;
  private static final MappingOptions OPTIONS = MappingOptions.defaults().forIcebergTables();
  private static final List<String> MODES =
      List.of("truncate(16)", "counts", "none", "full", "truncate(3)");

  private static org.apache.kafka.connect.data.Schema decimal(int scale, int precision) {
    return Decimal.builder(scale)
        .parameter("connect.decimal.precision", Integer.toString(precision))
        .optional()
        .build();
  }

  @Test
  void randomFilesGetTheMetricsIcebergComputesFromTheirFooters() {
    long seed = Long.getLong("metrics.seed", System.nanoTime());
    LOG.info("DataFileMetricsTest seed {}", seed);
    Random random = new Random(seed);
    FileLayout layout = FileLayout.of(null, VALUE, OPTIONS);
    Schema table = IcebergSchemas.forNewTable(layout.parquetSchema());
    int lostBounds = 0;
    int comparedBounds = 0;
    for (int round = 0; round < ROUNDS; round++) {
      String at = "seed " + seed + " round " + round;
      int rows = 1 + random.nextInt(300);
      List<SinkRecord> records = new ArrayList<>(rows);
      Map<String, Long> nans = new HashMap<>();
      for (int r = 0; r < rows; r++) {
        records.add(record(random, r, nans));
      }
      WriterOptions options =
          random.nextBoolean()
              ? WriterOptions.defaults()
              : WriterOptions.builder().rowGroupRowLimit(1 + random.nextInt(60)).build();
      TableFiles.Written file = TableFiles.write(layout, table, records, options);
      Map<String, String> properties = new HashMap<>();
      properties.put(
          TableProperties.DEFAULT_WRITE_METRICS_MODE, MODES.get(random.nextInt(MODES.size())));
      properties.put(
          TableProperties.METRICS_MODE_COLUMN_CONF_PREFIX + "s",
          MODES.get(random.nextInt(MODES.size())));
      properties.put(
          TableProperties.METRICS_MODE_COLUMN_CONF_PREFIX + "inner.label",
          MODES.get(random.nextInt(MODES.size())));
      MetricsConfig config = MetricsConfig.from(properties, table, SortOrder.unsorted());

      Metrics ours = DataFileMetrics.of(file.footer(), table, config);
      Metrics iceberg = ParquetUtil.fileMetrics(new InMemoryInputFile(file.bytes()), config);

      assertEquals(iceberg.recordCount(), ours.recordCount(), at);
      assertEquals(iceberg.columnSizes(), ours.columnSizes(), at);
      assertEquals(iceberg.valueCounts(), ours.valueCounts(), at);
      assertEquals(iceberg.nullValueCounts(), ours.nullValueCounts(), at);
      Set<Integer> nanColumns = new HashSet<>();
      for (Map.Entry<String, Long> e : nans.entrySet()) {
        int id = table.findField(e.getKey()).fieldId();
        if (ours.valueCounts().containsKey(id)) {
          assertEquals(e.getValue(), ours.nanValueCounts().get(id), at + " NaNs of " + e.getKey());
          if (e.getValue() > 0) {
            nanColumns.add(id);
          }
        }
      }
      for (int id : Set.of(table.findField("f32").fieldId(), table.findField("f64").fieldId())) {
        if (ours.valueCounts().containsKey(id) && !nans.containsKey(table.findColumnName(id))) {
          assertEquals(0L, ours.nanValueCounts().get(id), at);
        }
      }
      for (Types.NestedField column : table.columns()) {
        int id = column.fieldId();
        for (int nested : idsUnder(table, id)) {
          ByteBuffer expectedLower = iceberg.lowerBounds().get(nested);
          ByteBuffer expectedUpper = iceberg.upperBounds().get(nested);
          if (nanColumns.contains(nested)
              && ours.lowerBounds().get(nested) == null
              && expectedLower != null) {
            // a row group held NaN: we keep no bounds, Iceberg those of the other row groups
            lostBounds++;
            assertNull(ours.upperBounds().get(nested), at);
            continue;
          }
          if (expectedLower != null) {
            comparedBounds++;
          }
          assertEquals(
              expectedLower,
              ours.lowerBounds().get(nested),
              at + " lower " + table.findColumnName(nested));
          assertEquals(
              expectedUpper,
              ours.upperBounds().get(nested),
              at + " upper " + table.findColumnName(nested));
        }
      }
      assertEquals(iceberg.lowerBounds().keySet().size() >= ours.lowerBounds().size(), true, at);
    }
    LOG.info(
        "DataFileMetricsTest: {} files, {} bounds compared, {} columns kept no bounds for a NaN row"
            + " group",
        ROUNDS,
        comparedBounds,
        lostBounds);
    assertTrue(comparedBounds > 0, "some mode kept bounds");
  }

  /** Types the Connect mapping does not write but a table's files may hold: the codec's rows. */
  @Test
  void uuidFixedTimeAndLocalTimestampColumnsGetIcebergsMetricsToo() throws Exception {
    long seed = Long.getLong("metrics.seed", System.nanoTime());
    LOG.info("DataFileMetricsTest codec-level seed {}", seed);
    Random random = new Random(seed);
    MessageType written =
        new MessageType(
            "m",
            List.of(
                PrimitiveNode.fixed("uuid", FieldRepetitionType.OPTIONAL, 16)
                    .withLogicalType(LogicalType.UUID),
                PrimitiveNode.fixed("fixed", FieldRepetitionType.OPTIONAL, 5),
                PrimitiveNode.of("time", FieldRepetitionType.OPTIONAL, PhysicalType.INT64)
                    .withLogicalType(new LogicalType.TimeType(false, TimeUnit.MICROS)),
                PrimitiveNode.of("local", FieldRepetitionType.OPTIONAL, PhysicalType.INT64)
                    .withLogicalType(new LogicalType.TimestampType(false, TimeUnit.MICROS)),
                PrimitiveNode.of("json", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.JSON),
                PrimitiveNode.of("dec", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(new LogicalType.DecimalType(3, 20))));
    Schema table = IcebergSchemas.forNewTable(written);
    MessageType withIds = IcebergSchemas.withFieldIds(written, table);
    for (String mode : MODES) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ParquetFileWriter writer =
          new ParquetFileWriter(
              out,
              withIds,
              WriterOptions.builder().rowGroupRowLimit(1 + random.nextInt(80)).build());
      try (writer) {
        for (int r = 0; r < 200; r++) {
          boolean some = random.nextInt(6) > 0;
          byte[] uuid = new byte[16];
          random.nextBytes(uuid);
          byte[] fixed = new byte[5];
          random.nextBytes(fixed);
          writer.write(
              Row.of(
                  withIds.root(),
                  some ? uuid : null,
                  some ? fixed : null,
                  some ? (long) random.nextInt(86_400) * 1_000_000L : null,
                  some ? random.nextLong() % 4_000_000_000_000_000L : null,
                  some
                      ? ("{\"k\":" + random.nextInt() + "}").getBytes(StandardCharsets.UTF_8)
                      : null,
                  some
                      ? BigInteger.valueOf(random.nextLong())
                          .multiply(BigInteger.valueOf(977))
                          .toByteArray()
                      : null));
        }
      }
      MetricsConfig config =
          MetricsConfig.from(
              Map.of(TableProperties.DEFAULT_WRITE_METRICS_MODE, mode),
              table,
              SortOrder.unsorted());
      Metrics ours = DataFileMetrics.of(writer.footer(), table, config);
      Metrics iceberg = ParquetUtil.fileMetrics(new InMemoryInputFile(out.toByteArray()), config);
      String at = "seed " + seed + " mode " + mode;
      assertEquals(iceberg.recordCount(), ours.recordCount(), at);
      assertEquals(iceberg.columnSizes(), ours.columnSizes(), at);
      assertEquals(iceberg.valueCounts(), ours.valueCounts(), at);
      assertEquals(iceberg.nullValueCounts(), ours.nullValueCounts(), at);
      assertEquals(iceberg.lowerBounds(), ours.lowerBounds(), at);
      assertEquals(iceberg.upperBounds(), ours.upperBounds(), at);
      if (mode.equals("full")) {
        assertEquals(table.columns().size(), ours.lowerBounds().size(), at + ": every column");
      }
    }
  }

  @Test
  void boundsAreIcebergsSingleValueSerializationAndCountsIncludeNaN() {
    FileLayout layout = FileLayout.of(null, VALUE, OPTIONS);
    Schema table = IcebergSchemas.forNewTable(layout.parquetSchema());
    Random random = new Random(7);
    Map<String, Long> nans = new HashMap<>();
    List<SinkRecord> records = new ArrayList<>();
    for (int r = 0; r < 50; r++) {
      records.add(record(random, r, nans));
    }
    TableFiles.Written file = TableFiles.write(layout, table, records, WriterOptions.defaults());
    Metrics ours = DataFileMetrics.of(file.footer(), table, MetricsConfig.getDefault());
    int i64 = table.findField("i64").fieldId();
    assertEquals(8, ours.lowerBounds().get(i64).remaining());
    assertEquals(50L, ours.valueCounts().get(i64));
    assertEquals(0L, ours.nullValueCounts().get(i64));
    int listElement = table.findField("list.element").fieldId();
    assertTrue(ours.columnSizes().containsKey(listElement), "lists have sizes");
    assertTrue(!ours.valueCounts().containsKey(listElement), "but no counts, as in Iceberg");
  }

  private static SinkRecord record(Random random, long offset, Map<String, Long> nans) {
    Struct value = new Struct(VALUE);
    value.put("i64", random.nextLong());
    if (random.nextInt(5) > 0) {
      value.put("b", random.nextBoolean());
      value.put("i8", (byte) random.nextInt());
      value.put("i16", (short) random.nextInt());
      value.put("i32", random.nextInt(1000) - 500);
      value.put("f32", (float) floating(random, nans, "f32"));
      value.put("f64", floating(random, nans, "f64"));
      value.put("s", text(random));
      value.put("bin", bytes(random));
      value.put("d5", new BigDecimal(BigInteger.valueOf(random.nextInt(99_999) - 49_999), 2));
      value.put(
          "d15", new BigDecimal(BigInteger.valueOf(random.nextLong() % 999_999_999_999_999L), 3));
      value.put(
          "d30",
          new BigDecimal(new BigInteger(95, random).subtract(BigInteger.ONE.shiftLeft(94)), 4));
      value.put("day", new Date((random.nextInt(40_000) - 20_000) * 86_400_000L));
      value.put("ts", new Date(random.nextLong() % 4_000_000_000_000L));
      if (random.nextBoolean()) {
        value.put(
            "inner",
            new Struct(INNER)
                .put("label", random.nextBoolean() ? text(random) : null)
                .put(
                    "weight",
                    random.nextBoolean() ? floating(random, nans, "inner.weight") : null));
      }
      value.put("list", random.nextBoolean() ? List.of(random.nextInt(), 3) : List.of());
      value.put("map", Map.of(text(random) + "k", random.nextDouble()));
    }
    return new SinkRecord(
        "t", 0, null, null, VALUE, value, offset, offset, TimestampType.CREATE_TIME);
  }

  private static double floating(Random random, Map<String, Long> nans, String column) {
    switch (random.nextInt(12)) {
      case 0:
        nans.merge(column, 1L, Long::sum);
        return Double.NaN;
      case 1:
        return -0.0;
      case 2:
        return 0.0;
      default:
        return (random.nextDouble() - 0.5) * 1e6;
    }
  }

  private static String text(Random random) {
    switch (random.nextInt(6)) {
      case 0:
        return "";
      case 1:
        return "\uDBFF\uDFFF\uDBFF\uDFFF".repeat(1 + random.nextInt(12)); // U+10FFFF: no successor
      case 2:
        return "long-" + "é".repeat(20 + random.nextInt(60)) + random.nextInt();
      default:
        return Integer.toString(random.nextInt(100_000), 36);
    }
  }

  private static byte[] bytes(Random random) {
    byte[] b = new byte[random.nextInt(40)];
    if (random.nextBoolean()) {
      random.nextBytes(b);
    } else {
      java.util.Arrays.fill(b, (byte) 0xFF);
    }
    return b;
  }

  private static List<Integer> idsUnder(Schema table, int id) {
    List<Integer> ids = new ArrayList<>();
    ids.add(id);
    Types.NestedField field = table.findField(id);
    if (field.type().isNestedType()) {
      for (Types.NestedField child : field.type().asNestedType().fields()) {
        ids.addAll(idsUnder(table, child.fieldId()));
      }
    }
    return ids;
  }
}
