package dev.parquetconnect.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.StagedRow;
import dev.parquetconnect.connect.json.JsonRecordDecoder;
import dev.parquetconnect.sink.partition.PartitionColumn;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A record staged from its raw JSON goes to the partition the Struct JsonConverter makes of the
 * same JSON goes to: for every transform (identity, bucket, truncate, year, month, day, hour, void)
 * over every staged leaf kind, nested fields and the Kafka columns, at the edges (nulls, a null
 * struct, negative and extreme numbers, truncation inside surrogate pairs, escapes, timestamps
 * before 1970, a timestamp beyond the microsecond range), the same columns or the same bad record;
 * and no partition at all (the Struct way decides) where the row cannot tell.
 */
final class StagedTablePartitionTest {
  private static final Logger LOG = LoggerFactory.getLogger(StagedTablePartitionTest.class);

  private static final String SCHEMA =
      "{\"type\":\"struct\",\"name\":\"Order\",\"optional\":false,\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\"},"
          + "{\"field\":\"n\",\"type\":\"int32\",\"optional\":true},"
          + "{\"field\":\"name\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"at\",\"type\":\"int64\",\"name\":\"org.apache.kafka.connect.data"
          + ".Timestamp\",\"optional\":true},"
          + "{\"field\":\"score\",\"type\":\"double\",\"optional\":true},"
          + "{\"field\":\"flag\",\"type\":\"boolean\",\"optional\":true},"
          + "{\"field\":\"address\",\"type\":\"struct\",\"optional\":true,\"fields\":["
          + "{\"field\":\"city\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"zip\",\"type\":\"int32\",\"optional\":true}]}]}";

  private static final String PREFIX = "{\"schema\":" + SCHEMA + ",\"payload\":";

  /** Every transform over every leaf kind it takes, the nested ones and the Kafka columns too. */
  private static final List<String> SPECS =
      List.of(
          "identity(id), identity(n), identity(name), identity(at), identity(score),"
              + " identity(flag), identity(address.city), identity(address.zip)",
          "bucket(16, id), bucket(7, n), bucket(5, name), bucket(3, at), bucket(4, address.city),"
              + " bucket(9, address.zip)",
          "truncate(10, id), truncate(3, n), truncate(2, name), truncate(1, address.city)",
          "year(at)",
          "month(at)",
          "day(at)",
          "hour(at), identity(flag)",
          "identity(__kafka_partition), hour(__kafka_timestamp), identity(__kafka_key),"
              + " truncate(3, __kafka_topic), bucket(2, __kafka_offset)");

  private static final Schema TABLE =
      IcebergSchemas.forNewTable(
          FileLayout.of(
                  org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA,
                  new JsonRecordDecoder(true, false)
                      .decode(bytes(PREFIX + "{\"id\":1}}"), "value")
                      .schema(),
                  IcebergSchemasTest.TABLE_OPTIONS)
              .parquetSchema());

  @Test
  void stagedAndStructRecordsGoToTheSamePartitionUnderEveryTransform() {
    long seed = System.nanoTime();
    LOG.info("StagedTablePartitionTest seed {}", seed);
    Random random = new Random(seed);
    List<String> payloads = new ArrayList<>(edges());
    for (int i = 0; i < 1_000; i++) {
      payloads.add(randomPayload(random));
    }
    List<PartitionSpec> specs = new ArrayList<>();
    for (String text : SPECS) {
      specs.add(PartitionSpecs.parse(text, TABLE));
    }
    specs.add(PartitionSpec.builderFor(TABLE).alwaysNull("name").identity("id").build());
    for (PartitionSpec spec : specs) {
      String text = spec.toString().replace('\n', ' ');
      TablePartitioner staged = new TablePartitioner(spec);
      TablePartitioner struct = new TablePartitioner(spec);
      JsonRecordDecoder decoder = new JsonRecordDecoder(true, false);
      decoder.decode(bytes(PREFIX + "{\"id\":0}}"), "value"); // the prefix is known from here
      int routed = 0;
      int badRecords = 0;
      int unstaged = 0;
      for (int i = 0; i < payloads.size(); i++) {
        String what = "seed " + seed + " spec " + text + " payload " + payloads.get(i);
        byte[] doc = bytes(PREFIX + payloads.get(i) + "}");
        String key = i % 4 == 0 ? null : "k\u00e9" + (i % 5);
        StagedRow row = decoder.stage(doc);
        if (row == null) {
          unstaged++; // a number of 19 digits: the Struct way for the writer too
          decoder.decode(doc, "value");
          continue;
        }
        List<PartitionColumn> fromRow;
        DataException rowError = null;
        try {
          fromRow = staged.partition(record(key, null, doc, i), row);
          assertNotNull(fromRow, what);
        } catch (DataException e) {
          fromRow = null;
          rowError = e;
        }
        SchemaAndValue value = decoder.decode(doc, "value");
        List<PartitionColumn> fromStruct;
        try {
          fromStruct = struct.partition(record(key, value.schema(), value.value(), i));
        } catch (DataException e) {
          assertNotNull(rowError, what + ": only the Struct's is a bad record: " + e);
          assertEquals(e.getMessage(), rowError.getMessage(), what);
          badRecords++;
          continue;
        }
        if (rowError != null) {
          fail(what + ": only the row's is a bad record: " + rowError);
        }
        assertEquals(fromStruct, fromRow, what);
        assertEquals(struct.encodedPartition(fromStruct), staged.encodedPartition(fromRow), what);
        routed++;
      }
      LOG.info(
          "{}: {} records routed alike, {} bad records alike, {} not staged",
          text,
          routed,
          badRecords,
          unstaged);
      assertTrue(routed > payloads.size() * 3 / 4, text + ": " + routed);
    }
  }

  @Test
  void anUnpartitionedTableNeedsNoValue() {
    TablePartitioner partitioner = new TablePartitioner(PartitionSpec.unpartitioned());
    JsonRecordDecoder decoder = new JsonRecordDecoder(true, false);
    decoder.decode(bytes(PREFIX + "{\"id\":0}}"), "value");
    byte[] doc = bytes(PREFIX + "{\"id\":1}}");
    StagedRow row = decoder.stage(doc);
    List<PartitionColumn> columns = partitioner.partition(record("k", null, doc, 1), row);
    assertEquals(List.of(), columns);
    assertSame(columns, partitioner.partition(record("k", null, doc, 2), row), "one list");
  }

  @Test
  void aSourceColumnTheRowDoesNotHaveLeavesTheRecordToTheStructWay() {
    // The table has a column the row's (older) schema lacks; or a struct where a leaf is read.
    String narrow =
        "{\"schema\":{\"type\":\"struct\",\"optional\":false,\"fields\":["
            + "{\"field\":\"id\",\"type\":\"int64\"},"
            + "{\"field\":\"address\",\"type\":\"string\",\"optional\":true}]},\"payload\":";
    JsonRecordDecoder decoder = new JsonRecordDecoder(true, false);
    decoder.decode(bytes(narrow + "{\"id\":0}}"), "value");
    byte[] doc = bytes(narrow + "{\"id\":1,\"address\":\"x\"}}");
    StagedRow row = decoder.stage(doc);
    assertNotNull(row);
    SinkRecord record = record("k", null, doc, 1);
    assertNull(new TablePartitioner(PartitionSpecs.parse("day(at)", TABLE)).partition(record, row));
    assertNull(
        new TablePartitioner(PartitionSpecs.parse("identity(address.city)", TABLE))
            .partition(record, row));
    assertEquals(
        List.of(new PartitionColumn("id_bucket", "0")),
        new TablePartitioner(PartitionSpecs.parse("bucket(1, id)", TABLE)).partition(record, row),
        "a source column the row has");
  }

  /** The edges: nulls, a null struct, extreme and negative numbers, unicode, early times. */
  private static List<String> edges() {
    return List.of(
        "{\"id\":0}",
        "{\"id\":-1,\"n\":null,\"name\":null,\"at\":null,\"score\":null,\"flag\":null,"
            + "\"address\":null}",
        "{\"id\":999999999999999999,\"n\":2147483647,\"address\":{\"city\":null,\"zip\":null}}",
        "{\"id\":-999999999999999999,\"n\":-2147483648,\"at\":-1}",
        "{\"id\":9223372036854775807,\"n\":2147483648}", // 19 digits, n wraps: not staged
        "{\"id\":-17,\"n\":-3,\"name\":\"-\",\"at\":-86400001,\"score\":-0.5}",
        "{\"id\":5,\"at\":-62135596800000}", // 0001-01-01
        "{\"id\":6,\"at\":-3600000,\"address\":{\"city\":\"\",\"zip\":-1}}",
        "{\"id\":7,\"at\":253402300799999}", // 9999-12-31T23:59:59.999Z
        "{\"id\":8,\"at\":9223372036854776}", // beyond: a bad record either way
        "{\"id\":9,\"name\":\"\ud83d\ude00\ud83d\ude01x\",\"address\":{\"city\":\"a\ud83d\ude00\"}}",
        "{\"id\":10,\"name\":\"e\u0301\u00e9\u4e2d\",\"score\":1.5e20}",
        "{\"id\":11,\"name\":\"tab\\tquote\\\"\\u00e9\\ud83d\\ude00\"}",
        "{\"id\":12,\"flag\":true,\"score\":0.1,\"address\":{\"zip\":100000}}",
        "{\"id\":13,\"flag\":false,\"score\":12345.678,\"n\":0}",
        "{\"id\":14,\"n\":4294967297}", // JsonConverter's (int) wrap: 1
        "{\"id\":15,\"n\":-2147483649}"); // and 2147483647
  }

  private static String randomPayload(Random random) {
    StringBuilder out = new StringBuilder("{\"id\":").append(edgy(random));
    if (random.nextInt(3) > 0) {
      out.append(",\"n\":").append(random.nextInt(6) == 0 ? "null" : (int) edgy(random));
    }
    if (random.nextInt(3) > 0) {
      out.append(",\"name\":").append(random.nextInt(6) == 0 ? "null" : text(random));
    }
    if (random.nextInt(3) > 0) {
      long at = random.nextLong() % 4_000_000_000_000L; // 1843 to 2096
      out.append(",\"at\":").append(random.nextInt(6) == 0 ? "null" : Long.toString(at));
    }
    if (random.nextInt(3) > 0) {
      out.append(",\"score\":").append(random.nextInt(1_000_000) - 500_000).append(".25");
    }
    if (random.nextInt(3) > 0) {
      out.append(",\"flag\":").append(random.nextBoolean());
    }
    if (random.nextInt(3) > 0) {
      out.append(",\"address\":");
      if (random.nextInt(5) == 0) {
        out.append("null");
      } else {
        out.append("{\"city\":").append(random.nextInt(5) == 0 ? "null" : text(random));
        out.append(",\"zip\":").append(random.nextInt(200_000) - 100_000).append('}');
      }
    }
    return out.append('}').toString();
  }

  private static long edgy(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> random.nextInt(21) - 10;
      case 1 -> random.nextInt();
      case 2 -> random.nextLong() % 1_000_000_000_000_000_000L; // 18 digits: staged
      default -> -random.nextInt(1000);
    };
  }

  /** A JSON string of mixed scripts, some of its characters outside the BMP or escaped. */
  private static String text(Random random) {
    String[] pieces = {"a", "Z", "\u00e9", "\u4e2d", "\ud83d\ude00", "\\n", "\\u00fc", "-", " "};
    StringBuilder out = new StringBuilder("\"");
    int n = random.nextInt(8);
    for (int i = 0; i < n; i++) {
      out.append(pieces[random.nextInt(pieces.length)]);
    }
    return out.append('"').toString();
  }

  private static SinkRecord record(
      String key, org.apache.kafka.connect.data.Schema schema, Object value, long offset) {
    return new SinkRecord(
        "orders",
        (int) (offset % 3),
        key == null ? null : org.apache.kafka.connect.data.Schema.OPTIONAL_STRING_SCHEMA,
        key,
        schema,
        value,
        offset,
        -86_400_000L * 400 + offset * 3_600_000L,
        TimestampType.CREATE_TIME);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
