package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.partition.HivePaths;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The production task, Parquet files and all, on a local store: what DuckDB reads back, and the
 * handling of bad records at the task (to the dead letter queue with their reason, or a failed task
 * naming topic, partition, offset and field; nothing else lost).
 */
final class ParquetSinkTaskTest {
  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("Address")
          .field("city", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  static final Schema PERSON =
      SchemaBuilder.struct()
          .name("Person")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("address", ADDRESS)
          .field("scores", SchemaBuilder.array(Schema.INT32_SCHEMA).build())
          .build();

  @TempDir Path dir;

  Map<String, String> props(String... keyValues) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "people");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "4");
    props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "field");
    props.put(ParquetSinkConfig.PARTITION_FIELDS_CONFIG, "address.city");
    for (int i = 0; i < keyValues.length; i += 2) {
      props.put(keyValues[i], keyValues[i + 1]);
    }
    return props;
  }

  static SinkRecord person(long offset, String city) {
    Struct value =
        new Struct(PERSON)
            .put("id", offset)
            .put("name", "p" + offset)
            .put("address", new Struct(ADDRESS).put("city", city))
            .put("scores", List.of(1, (int) offset));
    SinkRecord record =
        new SinkRecord(
            "people",
            0,
            Schema.STRING_SCHEMA,
            "k" + offset,
            PERSON,
            value,
            offset,
            1_700_000_000_000L + offset,
            TimestampType.CREATE_TIME);
    record.headers().addString("origin", "test");
    return record;
  }

  static SinkRecord raw(long offset, Schema schema, Object value) {
    return new SinkRecord("people", 0, Schema.STRING_SCHEMA, "k" + offset, schema, value, offset);
  }

  /** Puts the records in one batch, then reports what the task committed. */
  static Map<TopicPartition, Long> run(
      ParquetSinkTask task,
      TestContext context,
      Map<String, String> props,
      List<SinkRecord> records) {
    TopicPartition tp = new TopicPartition("people", 0);
    context.assignment.add(tp);
    task.initialize(context);
    task.start(props);
    task.open(List.of(tp));
    try {
      task.put(records);
      Map<TopicPartition, Long> committed = new HashMap<>();
      task.preCommit(Map.of()).forEach((p, o) -> committed.put(p, o.offset()));
      return committed;
    } finally {
      task.close(List.of(tp));
      task.stop();
    }
  }

  long files() throws Exception {
    try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(dir.resolve("topics"))) {
      return walk.filter(f -> f.toString().endsWith(".parquet")).count();
    }
  }

  long count(String where) throws Exception {
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = db.createStatement();
        ResultSet rs =
            sql.executeQuery(
                "SELECT count(*) FROM read_parquet('"
                    + dir
                    + "/topics/people/**/*.parquet', hive_partitioning=true, union_by_name=true) WHERE "
                    + where)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void nestedRecordsAreReadBackByDuckDbWithMetadataKeyAndHeaders() throws Exception {
    List<SinkRecord> records = new ArrayList<>();
    for (long o = 0; o < 8; o++) {
      records.add(person(o, o % 2 == 0 ? "Paris" : "Lyon/Rh\u00f4ne"));
    }
    Map<TopicPartition, Long> committed =
        run(
            new ParquetSinkTask(),
            new TestContext(false),
            props(
                ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG,
                "true",
                ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG,
                "true"),
            records);
    assertEquals(Map.of(new TopicPartition("people", 0), 8L), committed);
    assertEquals(8, count("true"));
    assertEquals(
        8,
        count(
            "name = 'p' || id AND __kafka_offset = id AND __kafka_partition = 0"
                + " AND __kafka_topic = 'people' AND __kafka_key = 'k' || id AND len(scores) = 2"
                + " AND city = address.city"));
    assertEquals(4, count("city = 'Lyon/Rh\u00f4ne'"), "the encoded directory decodes back");
  }

  /**
   * A missing header and an empty one are both the default partition: one directory, so one file of
   * the commit. Before, each had its own open file under the same key, and the second replaced the
   * first, whose records were lost with their offsets committed.
   */
  @Test
  void nullAndEmptyValuesShareTheDefaultPartitionsFile() throws Exception {
    List<SinkRecord> records = new ArrayList<>();
    for (long o = 0; o < 4; o++) {
      SinkRecord r = person(o, "Paris");
      if (o % 2 == 1) {
        r.headers().addString("h", "");
      }
      records.add(r);
    }
    Map<TopicPartition, Long> committed =
        run(
            new ParquetSinkTask(),
            new TestContext(false),
            props(
                ParquetSinkConfig.PARTITIONER_CONFIG,
                "header",
                ParquetSinkConfig.PARTITION_HEADERS_CONFIG,
                "h"),
            records);
    assertEquals(Map.of(new TopicPartition("people", 0), 4L), committed);
    assertEquals(4, count("h = '" + HivePaths.DEFAULT_PARTITION + "'"), "every record is there");
  }

  @Test
  void badRecordsGoToTheDeadLetterQueueAndNothingElseIsLost() throws Exception {
    List<SinkRecord> records =
        new ArrayList<>(
            List.of(
                person(0, "Paris"),
                raw(1, PERSON, "not a struct"),
                person(2, "Paris"),
                raw(3, Schema.STRING_SCHEMA, 42L),
                person(4, "Paris"),
                person(5, "Paris"),
                person(6, "Paris"),
                person(7, "Paris")));
    records.add(person(8, "Paris"));
    Struct noName =
        new Struct(PERSON)
            .put("id", 9L)
            .put("address", new Struct(ADDRESS).put("city", "Paris"))
            .put("scores", List.of());
    records.add(raw(9, PERSON, noName));
    TestContext context = new TestContext(true);
    Map<TopicPartition, Long> committed =
        run(
            new ParquetSinkTask(),
            context,
            props(
                ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG,
                "all",
                ParquetSinkConfig.FLUSH_SIZE_CONFIG,
                "10"),
            records);
    assertEquals(
        List.of(1L, 3L, 9L),
        context.deadLettered.stream().map(SinkRecord::kafkaOffset).toList(),
        context.deadLetterErrors.toString());
    String reason = context.deadLetterErrors.get(2).getMessage();
    assertTrue(reason.contains("offset 9") && reason.contains("name"), reason);
    assertEquals(Map.of(new TopicPartition("people", 0), 10L), committed);
    assertEquals(7, count("true"));
  }

  @Test
  void withoutToleranceTheTaskFailsNamingTopicPartitionOffsetAndField() {
    Struct noName =
        new Struct(PERSON)
            .put("id", 1L)
            .put("address", new Struct(ADDRESS).put("city", "Paris"))
            .put("scores", List.of());
    ConnectException e =
        assertThrows(
            ConnectException.class,
            () ->
                run(
                    new ParquetSinkTask(),
                    new TestContext(false),
                    props(),
                    List.of(person(0, "Paris"), raw(1, PERSON, noName))));
    assertTrue(
        e.getMessage().contains("topic people partition 0 offset 1")
            && e.getMessage().contains("name"),
        e.getMessage());
  }

  @Test
  void tombstonesBecomeRowsOfMetadataWhenWritten() throws Exception {
    SinkRecord tombstone = new SinkRecord("people", 0, Schema.STRING_SCHEMA, "k1", PERSON, null, 1);
    Map<TopicPartition, Long> committed =
        run(
            new ParquetSinkTask(),
            new TestContext(false),
            props(
                ParquetSinkConfig.BEHAVIOR_ON_NULL_VALUES_CONFIG,
                "write",
                ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG,
                "true",
                ParquetSinkConfig.FLUSH_SIZE_CONFIG,
                "2"),
            List.of(person(0, "Paris"), tombstone));
    assertEquals(2L, committed.get(new TopicPartition("people", 0)));
    assertEquals(
        1,
        count(
            "__kafka_offset = 1 AND name IS NULL AND __kafka_key = 'k1'"
                + " AND city = '__HIVE_DEFAULT_PARTITION__'"));
  }

  @Test
  void schemalessJsonIsInferredPerFileAndWidened() throws Exception {
    List<SinkRecord> records =
        List.of(
            raw(0, null, Map.of("address", Map.of("city", "Paris"), "n", 1L)),
            raw(1, null, Map.of("address", Map.of("city", "Paris"), "n", 2.5)),
            raw(2, null, Map.of("address", Map.of("city", "Paris"), "n", 3L, "extra", "x")),
            raw(3, null, Map.of("address", Map.of("city", "Paris"), "n", 4L)),
            raw(4, null, Map.of("address", Map.of("city", "Paris"), "n", 5L)),
            raw(5, null, Map.of("address", Map.of("city", "Paris"), "n", 6L)));
    // A value that widens what the file holds (n: a long, then 2.5) turns the open file's longs
    // into doubles in place, and a new optional key ("extra") is a new column of the open file:
    // only flush.size commits, offsets 0-1, 2-3 and 4-5.
    Map<TopicPartition, Long> committed =
        run(
            new ParquetSinkTask(),
            new TestContext(false),
            props(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "2"),
            records);
    assertEquals(6L, committed.get(new TopicPartition("people", 0)));
    assertEquals(6, count("true"));
    assertEquals(2, count("__kafka_offset < 2 AND n IN (1.0, 2.5)"));
    assertEquals(3, files());
    assertEquals(1, count("extra = 'x'"));
    assertEquals(1, count("n = 2.5"));
  }

  /**
   * file.max.bytes counts the bytes of the file, not the writer's heap: 17 columns make about 127
   * KiB of fixed heap per open file (counted in buffer.max.bytes), which used to count as file
   * bytes too, so with file.max.bytes=128 KiB a file of seven 150-byte records (3 KB) was committed
   * as full. Now small records fill it, and it is committed once its rows reach the limit.
   */
  @Test
  void fileMaxBytesCountsTheFileNotTheWritersHeap() throws Exception {
    SchemaBuilder builder = SchemaBuilder.struct().name("Wide");
    for (int i = 0; i < 12; i++) {
      builder.field("c" + i, Schema.INT64_SCHEMA);
    }
    Schema wide = builder.field("blob", Schema.BYTES_SCHEMA).build();
    java.util.Random random = new java.util.Random(5);
    List<SinkRecord> records = new ArrayList<>();
    for (int o = 0; o < 140; o++) {
      Struct value = new Struct(wide);
      for (int i = 0; i < 12; i++) {
        value.put("c" + i, (long) o * i);
      }
      byte[] blob = new byte[o < 100 ? 0 : 8192];
      random.nextBytes(blob);
      records.add(raw(o, wide, value.put("blob", blob)));
    }
    Map<TopicPartition, Long> committed =
        run(
            new ParquetSinkTask(),
            new TestContext(false),
            props(
                ParquetSinkConfig.FILE_MAX_BYTES_CONFIG,
                "131072",
                ParquetSinkConfig.FLUSH_SIZE_CONFIG,
                "1000000",
                ParquetSinkConfig.PARTITIONER_CONFIG,
                "kafka"),
            records);
    assertTrue(committed.get(new TopicPartition("people", 0)) > 110, "committed " + committed);
    Path first;
    try (java.util.stream.Stream<Path> files =
        java.nio.file.Files.list(dir.resolve("topics/people/partition=0"))) {
      first = files.sorted().findFirst().orElseThrow();
    }
    // The 8 KiB records from offset 100 on fill it: 128 KiB after the 16th.
    java.util.regex.Matcher name =
        java.util.regex.Pattern.compile("people\\+0\\+0{20}\\+(\\d{20})\\.parquet")
            .matcher(first.getFileName().toString());
    assertTrue(name.matches(), first.toString());
    long end = Long.parseLong(name.group(1));
    assertTrue(end >= 110 && end < 120, "the first file ends at " + end);
    long size = java.nio.file.Files.size(first);
    assertTrue(size >= 120_000 && size <= 131_072 + 8_192 + 16_384, "size " + size);
  }
}
