package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.Await;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.it.IcebergWorkerHarness;
import dev.parquetconnect.it.Json;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table mode's bad records on a real Connect worker (Iceberg's REST catalog in-process, one
 * broker, one worker, JsonConverter with schemas): a topic whose records change schema, compatibly
 * (a new optional column, int to long, a long column given ints, a new required column without a
 * default) and incompatibly (a string column given ints, a long column given strings, a string
 * column given a struct), with malformed records between them. With {@code errors.tolerance=all}
 * each bad record is in the dead letter queue once, its message naming the topic, partition,
 * offset, column and reason, and every other record is in the table once, as Iceberg's generic
 * reader reads it, under the schema docs/iceberg.md describes; with {@code
 * iceberg.schema.evolve=false} any schema change is a bad record; with {@code
 * errors.tolerance=none} the task fails with the same message, commits nothing past the bad record,
 * and once tolerance is configured the rest arrives.
 */
final class IcebergDeadLetterIT {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergDeadLetterIT.class);
  private static final Duration WAIT = Duration.ofSeconds(90);

  private static IcebergWorkerHarness harness;

  @BeforeAll
  static void start() throws Exception {
    harness = IcebergWorkerHarness.start("IcebergDeadLetterIT");
  }

  @AfterAll
  static void stop() throws Exception {
    if (harness != null) {
      harness.close();
    }
  }

  /** Three connectors at once, on topics of one partition each, so that offsets are the order. */
  @Test
  @Timeout(value = 4, unit = TimeUnit.MINUTES)
  void badRecordsGoToTheDeadLetterQueueOnceAndTheRestIntoTheTableOnce() throws Exception {
    long started = System.nanoTime();
    for (String topic : List.of("events", "frozen", "strict")) {
      harness.broker().createTopic(topic, 1);
    }
    // Offset by offset: what each record is (see the record builders below).
    List<JsonRecord> events = new ArrayList<>();
    for (long o = 0; o < 5; o++) {
      events.add(v1(o));
    }
    events.add(JsonRecord.of(null, "{\"schema\": {\"type\": \"struct\"")); // 5 malformed
    for (long o = 6; o < 9; o++) {
      events.add(withNote(o)); // a new optional column
    }
    events.add(nameAsInt(9)); // string column given an int
    for (long o = 10; o < 13; o++) {
      events.add(qtyAsLong(o)); // int column widened to long
    }
    events.add(idAsString(13)); // long column given a string
    events.add(v1(14)); // an int for the long column: read as long, no change
    events.add(v1(15));
    events.add(withRequiredCode(16)); // a required column without default: added as optional
    events.add(nameAsStruct(17)); // string column given a struct
    events.add(payloadNotMatchingSchema(18)); // malformed: payload against its own schema
    for (long o = 19; o < 24; o++) {
      events.add(v1(o));
    }
    KafkaRecords.produce(harness.broker().bootstrapServers(), "events", events, WAIT);

    List<JsonRecord> frozen = new ArrayList<>();
    for (long o = 0; o < 3; o++) {
      frozen.add(v1(o));
    }
    frozen.add(withNote(3));
    frozen.add(qtyAsLong(4));
    frozen.add(v1(5));
    frozen.add(v1(6));
    KafkaRecords.produce(harness.broker().bootstrapServers(), "frozen", frozen, WAIT);

    List<JsonRecord> strict = new ArrayList<>();
    for (long o = 0; o < 4; o++) {
      strict.add(v1(o));
    }
    strict.add(nameAsInt(4));
    for (long o = 5; o < 8; o++) {
      strict.add(v1(o));
    }
    KafkaRecords.produce(harness.broker().bootstrapServers(), "strict", strict, WAIT);

    harness.worker().putConnectorConfig("dlq-events", config("events", true, "events-dlq"));
    harness.worker().putConnectorConfig("dlq-frozen", config("frozen", false, "frozen-dlq"));
    harness.worker().putConnectorConfig("dlq-strict", config("strict", true, null));

    // errors.tolerance=none: the task fails naming the record, column and reason.
    ConnectWorker.ConnectorStatus failed =
        harness
            .worker()
            .awaitConnectorStatus(
                "dlq-strict",
                "the strict task to fail",
                WAIT,
                s -> s.tasks().stream().anyMatch(t -> "FAILED".equals(t.state())));
    String trace = failed.tasks().get(0).trace();
    assertTrue(
        trace.contains("topic strict partition 0 offset 4")
            && trace.contains("column 'name' is string in the table and int in the records"),
        trace);
    TableIdentifier strictTable = TableIdentifier.of(IcebergFixture.NAMESPACE, "strict");
    if (harness.iceberg().catalog().tableExists(strictTable)) {
      Map<Long, Record> before = rowsByOffset(harness.iceberg().table("strict"));
      assertTrue(before.keySet().stream().allMatch(o -> o < 4), "committed " + before.keySet());
    }

    // Bad records tolerated: the dead letter queue has each once, the table every other once.
    awaitCommitted("dlq-events", "events", 23);
    assertDeadLettered(
        "events-dlq",
        Map.of(
            5L, "VALUE_CONVERTER",
            9L, "column 'name' is string in the table and int in the records",
            13L, "column 'id' is long in the table and string in the records",
            17L, "column 'name' is string in the table and struct<",
            18L, "VALUE_CONVERTER"));
    Table events1 = harness.iceberg().table("events");
    Map<Long, Record> rows = rowsByOffset(events1);
    assertEquals(
        List.of(
            0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 10L, 11L, 12L, 14L, 15L, 16L, 19L, 20L, 21L, 22L, 23L),
        List.copyOf(rows.keySet()),
        "the table's offsets");
    rows.forEach(IcebergDeadLetterIT::assertRowOf);
    Schema schema = events1.schema();
    assertColumn(schema, "id", Types.LongType.get(), true);
    assertColumn(schema, "name", Types.StringType.get(), false);
    assertColumn(schema, "qty", Types.LongType.get(), true);
    assertColumn(schema, "note", Types.StringType.get(), false);
    assertColumn(schema, "code", Types.IntegerType.get(), false);

    // iceberg.schema.evolve=false: any schema change is a bad record.
    awaitCommitted("dlq-frozen", "frozen", 6);
    assertDeadLettered(
        "frozen-dlq",
        Map.of(
            3L, "new column 'note' (string)",
            4L, "column 'qty' from int to long"));
    Table frozenTable = harness.iceberg().table("frozen");
    assertEquals(List.of(0L, 1L, 2L, 5L, 6L), List.copyOf(rowsByOffset(frozenTable).keySet()));
    assertEquals(null, frozenTable.schema().findField("note"), "no column added");
    assertColumn(frozenTable.schema(), "qty", Types.IntegerType.get(), true);

    // The strict connector, told to tolerate: the rest arrives, the bad record in the queue.
    // The task configs do not change with errors.*, so the failed task is restarted by hand.
    harness.worker().putConnectorConfig("dlq-strict", config("strict", true, "strict-dlq"));
    harness
        .worker()
        .awaitConnectorStatus(
            "dlq-strict", "the connector running", WAIT, s -> "RUNNING".equals(s.connectorState()));
    harness.worker().restartTask("dlq-strict", 0);
    harness.worker().awaitConnectorRunning("dlq-strict", 1, WAIT);
    awaitCommitted("dlq-strict", "strict", 7);
    assertDeadLettered(
        "strict-dlq", Map.of(4L, "column 'name' is string in the table and int in the records"));
    assertEquals(
        List.of(0L, 1L, 2L, 3L, 5L, 6L, 7L),
        List.copyOf(rowsByOffset(harness.iceberg().table("strict")).keySet()));
    LOG.info(
        "dead letter queue and table mode checked in {} s",
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
  }

  private static Map<String, String> config(String topic, boolean evolve, String deadLetters) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", ParquetSinkConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("key.converter", "org.apache.kafka.connect.storage.StringConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put(
        ParquetSinkConfig.STORE_URL_CONFIG, harness.workDir().resolve("lake").toUri().toString());
    config.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "20000");
    harness.iceberg().tableMode(config);
    config.put(IcebergConfig.COMMIT_INTERVAL_MS_CONFIG, "1000");
    config.put(IcebergConfig.SCHEMA_EVOLVE_CONFIG, Boolean.toString(evolve));
    if (deadLetters == null) {
      config.put("errors.tolerance", "none");
    } else {
      config.put("errors.tolerance", "all");
      config.put("errors.deadletterqueue.topic.name", deadLetters);
      config.put("errors.deadletterqueue.topic.replication.factor", "1");
      config.put("errors.deadletterqueue.context.headers.enable", "true");
    }
    return config;
  }

  /** Waits until the table's newest snapshot has committed partition 0 through {@code last}. */
  private static void awaitCommitted(String connector, String topic, long last) {
    TableIdentifier id = TableIdentifier.of(IcebergFixture.NAMESPACE, topic);
    String key = "parquet-connect.offset." + connector + "/" + topic + "/0";
    Await.until(
        topic + " committed through offset " + last,
        WAIT,
        () -> {
          var status = harness.worker().connectorStatus(connector);
          if (status.tasks().stream().anyMatch(t -> "FAILED".equals(t.state()))) {
            throw new AssertionError(connector + " failed: " + status.json());
          }
          if (!harness.iceberg().catalog().tableExists(id)) {
            return false;
          }
          Table table = harness.iceberg().catalog().loadTable(id);
          String committed =
              table.currentSnapshot() == null ? null : table.currentSnapshot().summary().get(key);
          return committed != null && Long.parseLong(committed) >= last;
        });
  }

  /**
   * The dead letter queue holds exactly the records of {@code expected} (offset to a part of the
   * message, or the failed stage for a converter's error), each once, from partition 0, with a
   * message naming where when the sink refused it.
   */
  private static void assertDeadLettered(String queue, Map<Long, String> expected) {
    List<ConsumerRecord<String, String>> dead =
        KafkaRecords.consumeAll(harness.broker().bootstrapServers(), queue, WAIT);
    Map<Long, String> messages = new TreeMap<>();
    for (ConsumerRecord<String, String> record : dead) {
      long offset = Long.parseLong(header(record, "__connect.errors.offset"));
      assertEquals("0", header(record, "__connect.errors.partition"));
      String topic = header(record, "__connect.errors.topic");
      String stage = header(record, "__connect.errors.stage");
      String message = header(record, "__connect.errors.exception.message");
      LOG.info("{}: {} offset {} at {}: {}", queue, topic, offset, stage, message);
      String previous = messages.put(offset, stage + ": " + message);
      assertEquals(null, previous, "offset " + offset + " twice in " + queue);
      if ("TASK_PUT".equals(stage)) {
        assertTrue(message.contains("topic " + topic + " partition 0 offset " + offset), message);
      }
    }
    assertEquals(new TreeMap<>(expected).keySet(), messages.keySet(), messages.toString());
    expected.forEach(
        (offset, part) ->
            assertTrue(messages.get(offset).contains(part), offset + ": " + messages.get(offset)));
  }

  private static void assertColumn(Schema schema, String name, Object type, boolean required) {
    Types.NestedField field = schema.findField(name);
    assertNotNull(field, name + " in " + schema);
    assertEquals(type, field.type(), name);
    assertEquals(required, field.isRequired(), name + " required");
  }

  /** Each row as the record of its offset was produced (see the builders). */
  private static void assertRowOf(long offset, Record row) {
    assertEquals(offset, row.getField("id"));
    assertEquals("n" + offset, row.getField("name"));
    assertEquals(offset, ((Number) row.getField("qty")).longValue());
    assertEquals(offset >= 6 && offset < 9 ? "note " + offset : null, row.getField("note"));
    assertEquals(offset == 16 ? (int) offset : null, row.getField("code"));
  }

  private static Map<Long, Record> rowsByOffset(Table table) throws Exception {
    Map<Long, Record> rows = new TreeMap<>();
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        long offset = (Long) r.getField("__kafka_offset");
        assertEquals(null, rows.put(offset, r.copy()), "offset " + offset + " twice");
      }
    }
    return rows;
  }

  private static String header(ConsumerRecord<String, String> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  // Records: JsonConverter envelopes of one struct, "Event" {id, name, qty} and its variants.

  private static JsonRecord v1(long o) {
    return event(o, List.of(idField(), nameField(), field("qty", "int32", false)), qtyPayload(o));
  }

  private static JsonRecord withNote(long o) {
    Map<String, Object> payload = qtyPayload(o);
    payload.put("note", "note " + o);
    return event(
        o,
        List.of(
            idField(), nameField(), field("qty", "int32", false), field("note", "string", true)),
        payload);
  }

  private static JsonRecord qtyAsLong(long o) {
    return event(o, List.of(idField(), nameField(), field("qty", "int64", false)), qtyPayload(o));
  }

  private static JsonRecord withRequiredCode(long o) {
    Map<String, Object> payload = qtyPayload(o);
    payload.put("code", (int) o);
    return event(
        o,
        List.of(
            idField(), nameField(), field("qty", "int32", false), field("code", "int32", false)),
        payload);
  }

  private static JsonRecord nameAsInt(long o) {
    Map<String, Object> payload = qtyPayload(o);
    payload.put("name", 7);
    return event(
        o, List.of(idField(), field("name", "int32", true), field("qty", "int32", false)), payload);
  }

  private static JsonRecord idAsString(long o) {
    Map<String, Object> payload = qtyPayload(o);
    payload.put("id", "id-" + o);
    return event(
        o,
        List.of(field("id", "string", false), nameField(), field("qty", "int32", false)),
        payload);
  }

  private static JsonRecord nameAsStruct(long o) {
    Map<String, Object> payload = qtyPayload(o);
    payload.put("name", Map.of("first", "n" + o));
    Map<String, Object> name = new LinkedHashMap<>();
    name.put("field", "name");
    name.put("type", "struct");
    name.put("optional", true);
    name.put("fields", List.of(field("first", "string", true)));
    return event(o, List.of(idField(), name, field("qty", "int32", false)), payload);
  }

  /** Without its required qty: JsonConverter refuses it (a string for qty it would read as 0). */
  private static JsonRecord payloadNotMatchingSchema(long o) {
    Map<String, Object> payload = qtyPayload(o);
    payload.remove("qty");
    return event(o, List.of(idField(), nameField(), field("qty", "int32", false)), payload);
  }

  private static Map<String, Object> qtyPayload(long o) {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("id", o);
    payload.put("name", "n" + o);
    payload.put("qty", (int) o);
    return payload;
  }

  private static JsonRecord event(
      long o, List<Map<String, Object>> fields, Map<String, Object> payload) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "struct");
    schema.put("name", "Event");
    schema.put("optional", false);
    schema.put("fields", fields);
    return JsonRecord.of("k" + o, Json.write(Map.of("schema", schema, "payload", payload)));
  }

  private static Map<String, Object> idField() {
    return field("id", "int64", false);
  }

  private static Map<String, Object> nameField() {
    return field("name", "string", true);
  }

  private static Map<String, Object> field(String name, String type, boolean optional) {
    Map<String, Object> field = new LinkedHashMap<>();
    field.put("field", name);
    field.put("type", type);
    field.put("optional", optional);
    return field;
  }
}
