package dev.parquetconnect.source;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes archive files the way our sink lays them out (docs: issue 4; the {@code connect}
 * package's FileLayout): the value struct's fields as columns, then {@code __kafka_topic},
 * {@code __kafka_partition}, {@code __kafka_offset}, {@code __kafka_timestamp}, {@code
 * __kafka_key} and {@code __kafka_headers}; names {@code <topic>+<partition>+<20-digit first
 * offset>.parquet} in Hive-style directories. Used until the sink lands in main.
 *
 * <p>The value of record {@code i}: {@code {id INT64, name STRING, address {street STRING, zip
 * INT32}, tags LIST<STRING>, amount DECIMAL(12,2) (optional), scores MAP<STRING, DOUBLE>}}.
 */
final class SinkArchive {
  static final GroupNode ADDRESS = GroupNode.of("address", FieldRepetitionType.OPTIONAL, List.of(
      string("street", FieldRepetitionType.REQUIRED),
      PrimitiveNode.of("zip", FieldRepetitionType.REQUIRED, PhysicalType.INT32)));

  static final MessageType SCHEMA = new MessageType("kafka_record", List.of(
      PrimitiveNode.of("id", FieldRepetitionType.REQUIRED, PhysicalType.INT64),
      string("name", FieldRepetitionType.REQUIRED),
      ADDRESS,
      NestedTypes.list("tags", FieldRepetitionType.REQUIRED, string("element",
          FieldRepetitionType.REQUIRED)),
      PrimitiveNode.of("amount", FieldRepetitionType.OPTIONAL, PhysicalType.INT64)
          .withLogicalType(new LogicalType.DecimalType(2, 12)),
      NestedTypes.map("scores", FieldRepetitionType.OPTIONAL,
          string("key", FieldRepetitionType.REQUIRED),
          PrimitiveNode.of("value", FieldRepetitionType.REQUIRED, PhysicalType.DOUBLE)),
      string("__kafka_topic", FieldRepetitionType.REQUIRED),
      PrimitiveNode.of("__kafka_partition", FieldRepetitionType.REQUIRED, PhysicalType.INT32),
      PrimitiveNode.of("__kafka_offset", FieldRepetitionType.REQUIRED, PhysicalType.INT64),
      PrimitiveNode.of("__kafka_timestamp", FieldRepetitionType.OPTIONAL, PhysicalType.INT64)
          .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MILLIS)),
      string("__kafka_key", FieldRepetitionType.OPTIONAL),
      NestedTypes.list("__kafka_headers", FieldRepetitionType.REQUIRED,
          GroupNode.of("element", FieldRepetitionType.REQUIRED, List.of(
              string("key", FieldRepetitionType.REQUIRED),
              string("schema", FieldRepetitionType.OPTIONAL),
              PrimitiveNode.of("value", FieldRepetitionType.OPTIONAL,
                  PhysicalType.BYTE_ARRAY))))));

  static final String STRING_HEADER_SCHEMA = "{\"type\":\"string\",\"optional\":false}";

  /** One original record. */
  record Original(String topic, int partition, long offset, long timestamp, String key, long id) {
    String name() {
      return "record-" + id;
    }

    String street() {
      return id + " Main Street";
    }

    int zip() {
      return (int) (10_000 + id % 90_000);
    }

    List<String> tags() {
      List<String> tags = new ArrayList<>();
      for (int t = 0; t < id % 3; t++) {
        tags.add("tag" + t);
      }
      return tags;
    }

    /** Null for every fifth record. */
    Long amountCents() {
      return id % 5 == 0 ? null : id * 101;
    }

    /** Null for every seventh record, else a map of one or two entries. */
    Map<String, Double> scores() {
      if (id % 7 == 0) {
        return null;
      }
      Map<String, Double> m = new LinkedHashMap<>();
      m.put("a", id / 2.0);
      if (id % 2 == 0) {
        m.put("b", -id / 4.0);
      }
      return m;
    }

    /** Headers in order: {@code source} always, {@code seq} the id, {@code even} on some. */
    List<Map.Entry<String, String>> headers() {
      List<Map.Entry<String, String>> h = new ArrayList<>();
      h.add(Map.entry("source", "archive"));
      h.add(Map.entry("seq", Long.toString(id)));
      if (id % 2 == 0) {
        h.add(Map.entry("even", "yes"));
      }
      return h;
    }
  }

  private SinkArchive() {}

  private static PrimitiveNode string(String name, FieldRepetitionType repetition) {
    return PrimitiveNode.of(name, repetition, PhysicalType.BYTE_ARRAY)
        .withLogicalType(LogicalType.STRING);
  }

  /** The file name the sink gives a commit starting at {@code firstOffset}. */
  static String fileName(String topic, int partition, long firstOffset, int attempt) {
    return topic + "+" + partition + "+" + String.format(Locale.ROOT, "%020d", firstOffset)
        + (attempt == 0 ? "" : "-" + attempt) + ".parquet";
  }

  /** Writes one file holding {@code records} in order. */
  static Path write(Path file, List<Original> records, long rowGroupRows) throws Exception {
    Files.createDirectories(file.getParent());
    WriterOptions options = WriterOptions.builder()
        .codec(CompressionCodec.ZSTD)
        .rowGroupRowLimit(rowGroupRows)
        .keyValue("parquetconnect.layout", "1")
        .keyValue("connect.value.schema", "{\"type\":\"struct\",\"optional\":false}")
        .build();
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer = new ParquetFileWriter(out, SCHEMA, options)) {
      for (Original r : records) {
        writer.write(row(r));
      }
    }
    return file;
  }

  static Row row(Original r) {
    GroupNode header = (GroupNode) ((GroupNode) SCHEMA.root().field(
        SCHEMA.root().fieldIndex("__kafka_headers"))).field(0);
    GroupNode element = (GroupNode) header.field(0);
    List<Row> headers = new ArrayList<>();
    for (Map.Entry<String, String> h : r.headers()) {
      headers.add(Row.of(element, bytes(h.getKey()), bytes(STRING_HEADER_SCHEMA),
          bytes(h.getValue())));
    }
    Map<Object, Object> scores = null;
    if (r.scores() != null) {
      scores = new LinkedHashMap<>();
      for (Map.Entry<String, Double> e : r.scores().entrySet()) {
        scores.put(bytes(e.getKey()), e.getValue());
      }
    }
    List<Object> tags = new ArrayList<>();
    for (String t : r.tags()) {
      tags.add(bytes(t));
    }
    return Row.of(SCHEMA.root(), r.id(), bytes(r.name()),
        r.id() % 11 == 0 ? null : Row.of(ADDRESS, bytes(r.street()), r.zip()),
        tags, r.amountCents(), scores,
        bytes(r.topic()), r.partition(), r.offset(), r.timestamp(), r.key() == null ? null
            : bytes(r.key()), headers);
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Records {@code from}..{@code from+count-1} of one partition, ids unique across partitions. */
  static List<Original> records(String topic, int partition, long fromOffset, int count) {
    List<Original> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long offset = fromOffset + i;
      long id = partition * 1_000_000L + offset;
      list.add(new Original(topic, partition, offset, 1_700_000_000_000L + id,
          id % 13 == 0 ? null : "key-" + id, id));
    }
    return list;
  }
}
