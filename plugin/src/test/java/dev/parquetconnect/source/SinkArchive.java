package dev.parquetconnect.source;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.ParquetRecordWriter;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Writes archive files as our sink does: the records go through the Connect mapping's {@link
 * ParquetRecordWriter} with every metadata column ({@link MappingOptions#fullFidelity()}: topic,
 * partition, offset, timestamp, key, headers, tombstones; the Connect schemas in the footer), under
 * the sink's names {@code <topic>+<partition>+<first offset>+<last offset>.parquet} (or the
 * first-offset-only names of earlier sink versions; offsets of 20 digits) in Hive-style
 * directories: what the sink's committed files hold, without its commit protocol, so that a test
 * decides each file's name and content (the round trips through the real sink are elsewhere: {@code
 * RandomReplayRoundTripTest}, {@code PluginIsolationIT}).
 *
 * <p>The value of record {@code i}: a struct {@code com.example.Order} of {@code id INT64, name
 * STRING, address {street STRING, zip INT32} (optional), tags ARRAY<STRING>, amount Decimal(2)
 * (optional), scores MAP<STRING, FLOAT64> (optional)}; a string key (null for some); headers.
 */
final class SinkArchive {
  static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("com.example.Address")
          .optional()
          .field("street", Schema.STRING_SCHEMA)
          .field("zip", Schema.INT32_SCHEMA)
          .build();

  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("com.example.Order")
          .version(3)
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("address", ADDRESS)
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
          .field(
              "amount",
              Decimal.builder(2).optional().parameter("connect.decimal.precision", "12").build())
          .field(
              "scores",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.FLOAT64_SCHEMA).optional().build())
          .build();

  static final Schema KEY = Schema.OPTIONAL_STRING_SCHEMA;

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

    /** The record's value as the sink received it. */
    Struct value() {
      Struct v =
          new Struct(VALUE)
              .put("id", id)
              .put("name", name())
              .put("tags", tags())
              .put("amount", amountCents() == null ? null : BigDecimal.valueOf(amountCents(), 2))
              .put("scores", scores());
      if (id % 11 != 0) {
        v.put("address", new Struct(ADDRESS).put("street", street()).put("zip", zip()));
      }
      return v;
    }

    ConnectHeaders connectHeaders() {
      ConnectHeaders headers = new ConnectHeaders();
      for (Map.Entry<String, String> h : headers()) {
        headers.addString(h.getKey(), h.getValue());
      }
      return headers;
    }

    SinkRecord asSinkRecord() {
      return new SinkRecord(
          topic,
          partition,
          KEY,
          key,
          VALUE,
          value(),
          offset,
          timestamp,
          TimestampType.CREATE_TIME,
          connectHeaders());
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

  /**
   * The file name earlier versions of the sink gave a commit starting at {@code firstOffset} (first
   * offset only); the source still reads such files.
   */
  static String fileName(String topic, int partition, long firstOffset, int attempt) {
    return topic
        + "+"
        + partition
        + "+"
        + String.format(Locale.ROOT, "%020d", firstOffset)
        + (attempt == 0 ? "" : "-" + attempt)
        + ".parquet";
  }

  /** The file name the sink gives a commit of offsets {@code firstOffset} to {@code lastOffset}. */
  static String fileName(
      String topic, int partition, long firstOffset, long lastOffset, int attempt) {
    return topic
        + "+"
        + partition
        + "+"
        + String.format(Locale.ROOT, "%020d", firstOffset)
        + "+"
        + String.format(Locale.ROOT, "%020d", lastOffset)
        + (attempt == 0 ? "" : "-" + attempt)
        + ".parquet";
  }

  /** Writes one file holding {@code records} in order, {@code rowGroupRows} per row group. */
  static Path write(Path file, List<Original> records, long rowGroupRows) throws Exception {
    return write(
        file,
        records,
        WriterOptions.builder()
            .codec(CompressionCodec.ZSTD)
            .rowGroupRowLimit(rowGroupRows)
            .build());
  }

  /** Writes one file holding {@code records} in order, with the writer's {@code options}. */
  static Path write(Path file, List<Original> records, WriterOptions options) throws Exception {
    Files.createDirectories(file.getParent());
    FileLayout layout = FileLayout.of(KEY, VALUE, MappingOptions.fullFidelity());
    try (OutputStream out = Files.newOutputStream(file);
        ParquetRecordWriter writer = new ParquetRecordWriter(out, layout, options)) {
      for (Original r : records) {
        writer.write(r.asSinkRecord());
      }
    }
    return file;
  }

  /** Records {@code from}..{@code from+count-1} of one partition, ids unique across partitions. */
  static List<Original> records(String topic, int partition, long fromOffset, int count) {
    List<Original> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long offset = fromOffset + i;
      long id = partition * 1_000_000L + offset;
      list.add(
          new Original(
              topic,
              partition,
              offset,
              1_700_000_000_000L + id,
              id % 13 == 0 ? null : "key-" + id,
              id));
    }
    return list;
  }
}
