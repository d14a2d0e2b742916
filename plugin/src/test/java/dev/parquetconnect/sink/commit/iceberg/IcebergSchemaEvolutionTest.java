package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schema evolution of a table through the production task: two Connect schema versions and
 * schemaless (JSON map) records interleaved in one topic widen the table as docs/iceberg.md says
 * (new optional columns at the top, in a struct in a struct, in a list's element struct and a map's
 * value struct; int to long, float to double, decimal(5, 2) to decimal(9, 2); required to
 * optional), and Iceberg's generic reader reads every row, the older ones with nulls in the columns
 * added after them. An incompatible change is a bad record: the dead letter queue with {@code
 * errors.tolerance=all}, a failed task without; {@code iceberg.schema.evolve=false} refuses any
 * change.
 */
final class IcebergSchemaEvolutionTest {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergSchemaEvolutionTest.class);
  private static final String TOPIC = "events";
  private static final long SCHEDULE_MS = 10_000;
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);

  private static final Schema V1 = version(1);
  private static final Schema V2 = version(2);

  @TempDir Path dir;

  /** Version 1, or version 2 with every widening and a new column at each depth. */
  private static Schema version(int v) {
    boolean two = v == 2;
    SchemaBuilder addr = SchemaBuilder.struct().name("Addr").field("city", Schema.STRING_SCHEMA);
    if (two) {
      addr.field(
          "geo",
          SchemaBuilder.struct()
              .name("Geo")
              .field("lat", Schema.FLOAT64_SCHEMA)
              .optional()
              .build());
    }
    SchemaBuilder tag = SchemaBuilder.struct().name("Tag").field("k", Schema.STRING_SCHEMA);
    if (two) {
      tag.field("v", Schema.OPTIONAL_INT32_SCHEMA);
    }
    SchemaBuilder attr = SchemaBuilder.struct().name("Attr").field("x", Schema.INT32_SCHEMA);
    if (two) {
      attr.field("y", Schema.OPTIONAL_STRING_SCHEMA);
    }
    SchemaBuilder value =
        SchemaBuilder.struct()
            .name("Event")
            .field("id", two ? Schema.INT64_SCHEMA : Schema.INT32_SCHEMA)
            .field("price", two ? Schema.FLOAT64_SCHEMA : Schema.FLOAT32_SCHEMA)
            .field(
                "amount",
                Decimal.builder(2).parameter("connect.decimal.precision", two ? "9" : "5").build())
            .field("addr", addr.build())
            .field("tags", SchemaBuilder.array(tag.build()).build())
            .field("attrs", SchemaBuilder.map(Schema.STRING_SCHEMA, attr.build()).build())
            .field("note", two ? Schema.OPTIONAL_STRING_SCHEMA : Schema.STRING_SCHEMA);
    if (two) {
      value.field("extra", Schema.OPTIONAL_STRING_SCHEMA);
    }
    return value.build();
  }

  private static SinkRecord record(long offset) {
    Object value;
    Schema schema;
    switch (shape(offset)) {
      case 1 -> {
        schema = V1;
        Schema tag = V1.field("tags").schema().valueSchema();
        Schema attr = V1.field("attrs").schema().valueSchema();
        value =
            new Struct(V1)
                .put("id", (int) offset)
                .put("price", offset + 0.5f)
                .put("amount", amount(offset))
                .put("addr", new Struct(V1.field("addr").schema()).put("city", "c" + offset))
                .put("tags", List.of(new Struct(tag).put("k", "k" + offset)))
                .put("attrs", Map.of("a", new Struct(attr).put("x", (int) offset)))
                .put("note", "n" + offset);
      }
      case 2 -> {
        schema = V2;
        Schema addr = V2.field("addr").schema();
        Schema tag = V2.field("tags").schema().valueSchema();
        Schema attr = V2.field("attrs").schema().valueSchema();
        value =
            new Struct(V2)
                .put("id", offset)
                .put("price", offset + 0.25)
                .put("amount", amount(offset))
                .put(
                    "addr",
                    new Struct(addr)
                        .put("city", "c" + offset)
                        .put(
                            "geo", new Struct(addr.field("geo").schema()).put("lat", 1.0 * offset)))
                .put("tags", List.of(new Struct(tag).put("k", "k" + offset).put("v", (int) offset)))
                .put(
                    "attrs",
                    Map.of("a", new Struct(attr).put("x", (int) offset).put("y", "y" + offset)))
                .put("note", null)
                .put("extra", "x" + offset);
      }
      default -> {
        schema = null;
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("id", offset);
        map.put("price", offset + 0.75);
        map.put("addr", Map.of("city", "c" + offset, "zip", "z" + offset));
        map.put("source", "json");
        value = map;
      }
    }
    return new SinkRecord(
        TOPIC, 0, null, null, schema, value, offset, 1_700_000_000_000L, TimestampType.CREATE_TIME);
  }

  /** Offsets 0-9 are version 1 only; then version 2, version 1 and schemaless in turn. */
  private static int shape(long offset) {
    return offset < 10 ? 1 : (int) (offset % 3) + 1;
  }

  private static BigDecimal amount(long offset) {
    return BigDecimal.valueOf(offset * 100 + 5, 2);
  }

  @Test
  void interleavedVersionsAndSchemalessRecordsWidenTheTable() throws Exception {
    Map<String, String> props = props("widen");
    try (SinkTaskHarness task = new SinkTaskHarness(props, List.of(P0))) {
      task.put(records(0, 10));
      task.commitOpenFiles(SCHEDULE_MS);
      task.put(records(10, 25));
      task.commitOpenFiles(SCHEDULE_MS);
      task.put(records(25, 40));
      task.commitOpenFiles(SCHEDULE_MS);
    }
    Table table = table(props);
    org.apache.iceberg.Schema schema = table.schema();
    LOG.info("widened schema: {}", schema);
    assertEquals(Types.LongType.get(), schema.findType("id"));
    assertEquals(Types.DoubleType.get(), schema.findType("price"));
    assertEquals(Types.DecimalType.of(9, 2), schema.findType("amount"));
    // A new column is optional; within a new struct its fields keep their own optionality.
    assertTrue(schema.findField("addr.geo.lat").isRequired(), "addr.geo.lat");
    for (String added :
        List.of("addr.geo", "addr.zip", "tags.element.v", "attrs.value.y", "extra", "source")) {
      assertTrue(schema.findField(added) != null && schema.findField(added).isOptional(), added);
    }
    for (String loosened : List.of("note", "addr.city", "amount", "tags", "attrs")) {
      assertTrue(schema.findField(loosened).isOptional(), loosened + " became optional");
    }

    Map<Long, Record> rows = new TreeMap<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        assertNull(rows.put((Long) r.getField("__kafka_offset"), r.copy()), "once");
      }
    }
    assertEquals(40, rows.size());
    for (Map.Entry<Long, Record> e : rows.entrySet()) {
      long o = e.getKey();
      Record r = e.getValue();
      String at = "offset " + o + " (shape " + shape(o) + ")";
      assertEquals(o, r.getField("id"), at);
      Record addr = (Record) r.getField("addr");
      assertEquals("c" + o, addr.getField("city"), at);
      switch (shape(o)) {
        case 1 -> {
          assertEquals(o + 0.5, r.getField("price"), at);
          assertEquals(0, amount(o).compareTo((BigDecimal) r.getField("amount")), at);
          assertEquals("n" + o, r.getField("note"), at);
          assertNull(addr.getField("geo"), at);
          assertNull(addr.getField("zip"), at);
          Record tag = (Record) ((List<?>) r.getField("tags")).get(0);
          assertEquals("k" + o, tag.getField("k"), at);
          assertNull(tag.getField("v"), at);
          Record attr = (Record) ((Map<?, ?>) r.getField("attrs")).get("a");
          assertEquals((int) o, attr.getField("x"), at);
          assertNull(attr.getField("y"), at);
          assertNull(r.getField("extra"), at);
          assertNull(r.getField("source"), at);
        }
        case 2 -> {
          assertEquals(o + 0.25, r.getField("price"), at);
          assertEquals(0, amount(o).compareTo((BigDecimal) r.getField("amount")), at);
          assertNull(r.getField("note"), at);
          assertEquals(1.0 * o, ((Record) addr.getField("geo")).getField("lat"), at);
          Record tag = (Record) ((List<?>) r.getField("tags")).get(0);
          assertEquals((int) o, tag.getField("v"), at);
          Record attr = (Record) ((Map<?, ?>) r.getField("attrs")).get("a");
          assertEquals("y" + o, attr.getField("y"), at);
          assertEquals("x" + o, r.getField("extra"), at);
          assertNull(r.getField("source"), at);
        }
        default -> {
          assertEquals(o + 0.75, r.getField("price"), at);
          assertNull(r.getField("amount"), at);
          assertNull(r.getField("tags"), at);
          assertNull(r.getField("attrs"), at);
          assertNull(r.getField("note"), at);
          assertEquals("z" + o, addr.getField("zip"), at);
          assertEquals("json", r.getField("source"), at);
        }
      }
    }
  }

  /** A column whose type cannot change: the record goes to the dead letter queue, or fails. */
  @Test
  void anIncompatibleChangeIsABadRecord() throws Exception {
    Schema stringId =
        SchemaBuilder.struct().name("Event").field("id", Schema.STRING_SCHEMA).build();
    SinkRecord bad =
        new SinkRecord(
            TOPIC,
            0,
            null,
            null,
            stringId,
            new Struct(stringId).put("id", "ten"),
            10,
            0L,
            TimestampType.CREATE_TIME);
    Map<String, String> props = props("incompatible");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    try (SinkTaskHarness task = new SinkTaskHarness(props, List.of(P0), true)) {
      task.put(records(0, 10));
      task.commitOpenFiles(SCHEDULE_MS);
      List<SinkRecord> batch = new ArrayList<>(List.of(bad));
      batch.addAll(records(11, 13));
      task.put(batch);
      task.commitOpenFiles(SCHEDULE_MS);
      assertEquals(List.of(bad), task.deadLettered());
      String error = task.deadLetterErrors().get(0).getMessage();
      assertTrue(
          error.contains("column 'id' is long") || error.contains("column 'id' is int"), error);
      assertEquals(Map.of(P0, 13L), task.committed());
    }
    assertEquals(12, count(table(props)), "offsets 0-9, 11 and 12");

    Map<String, String> failing = props("incompatible-fails");
    try (SinkTaskHarness task = new SinkTaskHarness(failing, List.of(P0))) {
      task.put(records(0, 10));
      task.commitOpenFiles(SCHEDULE_MS);
      RuntimeException e = assertThrows(RuntimeException.class, () -> task.put(List.of(bad)));
      LOG.info("without a dead letter queue: {}", e.toString());
    }
    assertEquals(10, count(table(failing)), "the bad record is not in the table");
  }

  /** With iceberg.schema.evolve=false a record the table cannot hold as it is is refused. */
  @Test
  void evolveFalseRefusesAnyChange() throws Exception {
    Map<String, String> props = props("frozen");
    props.put(IcebergConfig.SCHEMA_EVOLVE_CONFIG, "false");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    try (SinkTaskHarness task = new SinkTaskHarness(props, List.of(P0), true)) {
      task.put(records(0, 13));
      task.commitOpenFiles(SCHEDULE_MS);
      // Offset 10 is version 2 (wider types, new columns), 11 schemaless (a new column), 12
      // version 1 again: the table takes it, the refused layouts did not stick to the topic.
      assertEquals(
          List.of(10L, 11L),
          task.deadLettered().stream().map(r -> r.kafkaOffset()).toList(),
          task.deadLetterErrors().toString());
      String error = task.deadLetterErrors().get(0).getMessage();
      assertTrue(error.contains(IcebergConfig.SCHEMA_EVOLVE_CONFIG + "=false"), error);
      assertTrue(error.contains("partition 0 offset 10"), "where: " + error);
      assertTrue(error.contains("column 'id' from int to long"), "which column and why: " + error);
    }
    Table table = table(props);
    assertEquals(11, count(table), "offsets 0-9 and 12");
    assertEquals(Types.IntegerType.get(), table.schema().findType("id"), "unchanged");
    assertNull(table.schema().findField("extra"), "unchanged");
  }

  /**
   * A schemaless record whose new key the table refuses does not widen the layout the topic's next
   * files start from: the records after it, of the keys the table has, still go in.
   */
  @Test
  void aRefusedSchemalessLayoutIsNotLearned() throws Exception {
    Map<String, String> props = props("frozen-json");
    props.put(IcebergConfig.SCHEMA_EVOLVE_CONFIG, "false");
    props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    try (SinkTaskHarness task = new SinkTaskHarness(props, List.of(P0), true)) {
      List<SinkRecord> first = new ArrayList<>();
      for (long o = 0; o < 5; o++) {
        first.add(json(o, false));
      }
      task.put(first);
      task.commitOpenFiles(SCHEDULE_MS);
      task.put(List.of(json(5, true), json(6, false), json(7, false)));
      task.commitOpenFiles(SCHEDULE_MS);
      assertEquals(
          List.of(5L),
          task.deadLettered().stream().map(r -> r.kafkaOffset()).toList(),
          task.deadLetterErrors().toString());
    }
    assertEquals(7, count(table(props)), "offsets 0-4, 6 and 7");
  }

  private static SinkRecord json(long offset, boolean newKey) {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("id", offset);
    map.put("a", "a" + offset);
    if (newKey) {
      map.put("b", "b" + offset);
    }
    return new SinkRecord(TOPIC, 0, null, null, null, map, offset, 0L, TimestampType.CREATE_TIME);
  }

  private static List<SinkRecord> records(long from, long to) {
    List<SinkRecord> records = new ArrayList<>();
    for (long o = from; o < to; o++) {
      records.add(record(o));
    }
    return records;
  }

  private static long count(Table table) throws IOException {
    long n = 0;
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        n++;
      }
    }
    return n;
  }

  private Map<String, String> props(String connector) throws IOException {
    return IcebergFixture.localSinkOnHadoop(dir.resolve(connector), connector, SCHEDULE_MS);
  }

  /** The test's catalogs: open while their tables are read (a catalog closes its FileIO). */
  private final List<Catalog> catalogs = new ArrayList<>();

  @AfterEach
  void closeCatalogs() throws IOException {
    for (Catalog catalog : catalogs) {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
  }

  private Table table(Map<String, String> props) throws IOException {
    Catalog catalog = IcebergCatalogs.open(new ParquetSinkConfig(props).iceberg());
    catalogs.add(catalog);
    return catalog.loadTable(TableIdentifier.of("lake", TOPIC));
  }
}
