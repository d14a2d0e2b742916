package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad records (wrong type, null in a required field, unconvertible value) are refused with a {@link
 * DataException} naming topic, partition, offset and field, and leave the file writable: the good
 * records around them read back whole.
 */
class BadRecordTest {
  @TempDir Path dir;

  /** A bad record and the text its error must contain (besides topic, partition, offset). */
  private record Bad(SinkRecord record, String expected) {}

  /**
   * Writes good and bad records alternately; checks every bad one is refused with its context and
   * every good one reads back equal.
   */
  private void writeAlternating(
      FileLayout layout, Function<Long, SinkRecord> good, List<Function<Long, Bad>> bad)
      throws Exception {
    writeAlternating(layout, good, bad, WriterOptions.defaults(), 1);
  }

  /**
   * As above, {@code rounds} times over the bad cases; then writes the good records alone into a
   * second file with the same options, which must be byte for byte the first: a refused record
   * leaves nothing behind, not even in columns it had reached before its bad value.
   */
  private void writeAlternating(
      FileLayout layout,
      Function<Long, SinkRecord> good,
      List<Function<Long, Bad>> bad,
      WriterOptions options,
      int rounds)
      throws Exception {
    Path file = dir.resolve("mixed-" + System.nanoTime() + ".parquet");
    List<SinkRecord> written = new ArrayList<>();
    long offset = 0;
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, options)) {
      for (int round = 0; round < rounds; round++) {
        for (Function<Long, Bad> badCase : bad) {
          SinkRecord ok = good.apply(offset++);
          writer.write(ok);
          written.add(ok);
          Bad b = badCase.apply(offset++);
          DataException e =
              assertThrows(DataException.class, () -> writer.write(b.record()), b.expected());
          String message = e.getMessage();
          assertTrue(
              message.startsWith("topic orders partition 3 offset " + (offset - 1) + ": "),
              message);
          assertTrue(message.contains(b.expected()), message + " should name: " + b.expected());
          assertEquals(written.size(), writer.recordCount(), "the bad record left no row");
        }
      }
      SinkRecord last = good.apply(offset);
      writer.write(last);
      written.add(last);
    }
    ConnectFiles.assertReadBackEqual(file, layout, written);
    Path goodOnly = dir.resolve("good-" + System.nanoTime() + ".parquet");
    try (OutputStream out = Files.newOutputStream(goodOnly);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, options)) {
      for (SinkRecord record : written) {
        writer.write(record);
      }
    }
    assertArrayEquals(
        Files.readAllBytes(goodOnly),
        Files.readAllBytes(file),
        "the file with refused records is not the file of the good ones alone");
  }

  private static SinkRecord everyType(long offset, Struct value) {
    return ConnectTestData.record(ConnectTestData.EVERY_TYPE, value, offset);
  }

  @Test
  void structRecordsWithBadFieldsAreRefusedWithTheirPath() throws Exception {
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA,
            ConnectTestData.EVERY_TYPE,
            MappingOptions.fullFidelity());
    writeAlternating(
        layout, o -> everyType(o, ConnectTestData.full((int) (long) o)), badEveryTypeRecords());
  }

  /**
   * Small pages, so that pages close at the start of refused records too (in the columns the record
   * reached before its bad value): the file is still that of the good records alone.
   */
  @Test
  void refusedRecordsLeaveNothingBehindWhilePagesClose() throws Exception {
    FileLayout layout =
        FileLayout.of(
            Schema.OPTIONAL_STRING_SCHEMA,
            ConnectTestData.EVERY_TYPE,
            MappingOptions.fullFidelity());
    WriterOptions smallPages = WriterOptions.builder().pageByteLimit(64).build();
    writeAlternating(
        layout,
        o -> everyType(o, ConnectTestData.full((int) (long) o)),
        badEveryTypeRecords(),
        smallPages,
        7);
  }

  private static List<Function<Long, Bad>> badEveryTypeRecords() {
    List<Function<Long, Bad>> bad = new ArrayList<>();
    bad.add(
        o -> {
          // Struct.put refuses a null for a required field, but a field never set stays null.
          Struct full = ConnectTestData.full(1);
          Struct v = new Struct(ConnectTestData.EVERY_TYPE);
          for (org.apache.kafka.connect.data.Field f : ConnectTestData.EVERY_TYPE.fields()) {
            if (!f.name().equals("i32")) {
              v.put(f, full.get(f));
            }
          }
          return new Bad(everyType(o, v), "field i32: null in a required field");
        });
    bad.add(
        o -> {
          Struct v = ConnectTestData.full(1);
          List<Object> ints = new ArrayList<>(List.of(1, 2));
          v.put("ints", ints);
          ints.add("three"); // after Struct.put validated the list
          return new Bad(everyType(o, v), "field ints[2]: expected int32, got a java.lang.String");
        });
    bad.add(
        o ->
            new Bad(
                everyType(o, ConnectTestData.full(1).put("dec9", new BigDecimal("12345678.90"))),
                "field dec9: decimal 12345678.90 has 10 digits"));
    bad.add(
        o ->
            new Bad(
                everyType(o, ConnectTestData.full(1).put("dec9", new BigDecimal("1.234"))),
                "field dec9: decimal 1.234 has scale 3, the column 2"));
    bad.add(
        o ->
            new Bad(
                everyType(o, ConnectTestData.full(1).put("date", new java.util.Date(1))),
                "field date: a Date must be midnight UTC"));
    bad.add(
        o ->
            new Bad(
                everyType(o, ConnectTestData.full(1).put("time", new java.util.Date(-1))),
                "field time: a Time must be within one day"));
    bad.add(
        o -> {
          Struct v = ConnectTestData.full(1);
          Map<Integer, String> map = new HashMap<>();
          v.put("int_map", map);
          map.put(null, "x");
          return new Bad(everyType(o, v), "field int_map{key null}: null in a required field");
        });
    bad.add(
        o -> {
          Struct v = ConnectTestData.full(1);
          Struct level3 = (Struct) ((Struct) v.getStruct("nested").get("level2")).get("level3");
          List<Struct> points = new ArrayList<>(List.of(ConnectTestData.point(1, "a")));
          level3.put("points", points);
          points.add(new Struct(ConnectTestData.POINT)); // x, required, never set
          return new Bad(
              everyType(o, v), "field nested.level2.level3.points[1].x: null in a required field");
        });
    bad.add(
        o ->
            new Bad(
                everyType(o, new Struct(ConnectTestData.POINT).put("x", 1)),
                "the value: a Struct of schema struct com.example.Point"));
    bad.add(
        o -> {
          Schema other =
              SchemaBuilder.struct()
                  .name("com.example.EveryType")
                  .version(8)
                  .field("i8", Schema.INT8_SCHEMA)
                  .build();
          return new Bad(
              ConnectTestData.record(other, new Struct(other).put("i8", (byte) 1), o),
              "the value schema struct com.example.EveryType is not the file's");
        });
    bad.add(
        o ->
            new Bad(
                new SinkRecord(
                    ConnectTestData.TOPIC,
                    ConnectTestData.PARTITION,
                    Schema.OPTIONAL_STRING_SCHEMA,
                    "k",
                    ConnectTestData.EVERY_TYPE,
                    ConnectTestData.full(2),
                    o,
                    5L,
                    TimestampType.CREATE_TIME,
                    List.of(new BadHeader())),
                "field __kafka_headers[0]: header h: a java.lang.String is no value of int32"));
    bad.add(
        o ->
            new Bad(
                ConnectTestData.record(
                    Schema.INT32_SCHEMA,
                    "not an int",
                    ConnectTestData.EVERY_TYPE,
                    ConnectTestData.full(3),
                    o),
                "the key schema int32 is not the file's optional string"));
    bad.add(
        o ->
            new Bad(
                ConnectTestData.record(
                    null, 42L, ConnectTestData.EVERY_TYPE, ConnectTestData.full(3), o),
                "field __kafka_key: expected optional string, got a" + " java.lang.Long"));
    return bad;
  }

  @Test
  void valuesThatAreNoStructsNamesTheValueColumn() throws Exception {
    FileLayout layout = FileLayout.of(null, Schema.INT64_SCHEMA, MappingOptions.defaults());
    writeAlternating(
        layout,
        o -> ConnectTestData.record(Schema.INT64_SCHEMA, o * 10, o),
        List.of(
            o ->
                new Bad(
                    ConnectTestData.record(Schema.INT64_SCHEMA, "abc", o),
                    "field value: expected int64, got a java.lang.String"),
            o ->
                new Bad(
                    ConnectTestData.record(null, null, o),
                    "the value is null (a tombstone) and the file does not store tombstones")));
  }

  @Test
  void timestampsThatOverflowMicrosecondsAreRefused() throws Exception {
    Schema schema =
        SchemaBuilder.struct()
            .field("ts", Schema.OPTIONAL_INT64_SCHEMA)
            .field("at", org.apache.kafka.connect.data.Timestamp.SCHEMA)
            .build();
    FileLayout layout =
        FileLayout.of(null, schema, MappingOptions.defaults().withTimestampUnit(TimeUnit.MICROS));
    writeAlternating(
        layout,
        o -> ConnectTestData.record(schema, new Struct(schema).put("at", new java.util.Date(o)), o),
        List.of(
            o ->
                new Bad(
                    ConnectTestData.record(
                        schema,
                        new Struct(schema).put("at", new java.util.Date(Long.MAX_VALUE / 100)),
                        o),
                    "field at: the Timestamp")));
  }

  @Test
  void schemalessValuesThatDoNotFitAreRefused() throws Exception {
    SchemaInference inference = new SchemaInference(SchemaInference.ConflictPolicy.FAIL);
    Schema inferred = inference.infer(SchemaInferenceTest.obj("id", 1L, "name", "a"));
    FileLayout layout = FileLayout.of(null, false, inferred, true, MappingOptions.defaults());
    Path file = dir.resolve("schemaless-bad.parquet");
    List<SinkRecord> good = new ArrayList<>();
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer =
            new ParquetRecordWriter(out, layout, WriterOptions.defaults(), inference)) {
      SinkRecord ok = ConnectTestData.record(null, SchemaInferenceTest.obj("id", 1L), 0);
      writer.write(ok);
      good.add(ok);
      DataException newKey =
          assertThrows(
              DataException.class,
              () ->
                  writer.write(
                      ConnectTestData.record(
                          null, SchemaInferenceTest.obj("id", 2L, "extra", true), 1)));
      assertTrue(
          newKey.getMessage().contains("offset 1")
              && newKey.getMessage().contains("field extra is new"),
          newKey.getMessage());
      DataException conflict =
          assertThrows(
              DataException.class,
              () ->
                  writer.write(
                      ConnectTestData.record(null, SchemaInferenceTest.obj("id", "two"), 2)));
      assertTrue(conflict.getMessage().contains("field id does not fit"), conflict.getMessage());
      SinkRecord ok2 = ConnectTestData.record(null, SchemaInferenceTest.obj("name", "b"), 3);
      writer.write(ok2);
      good.add(ok2);
    }
    var rows =
        dev.parquetconnect.format.oracle.ParquetJavaOracle.read(file, layout.parquetSchema());
    assertEquals(2, rows.size());
  }

  /** A header whose value does not match its schema (ConnectHeaders would refuse to add it). */
  static final class BadHeader implements Header {
    @Override
    public String key() {
      return "h";
    }

    @Override
    public Schema schema() {
      return Schema.INT32_SCHEMA;
    }

    @Override
    public Object value() {
      return "not an int";
    }

    @Override
    public Header with(Schema schema, Object value) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Header rename(String key) {
      throw new UnsupportedOperationException();
    }
  }
}
