package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.json.JsonRecordDecoder;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Staging an envelope of the less common types (small integers, floats, base64 bytes, decimals in
 * both of JsonConverter's formats, Date, Time, Timestamp, a default, arrays) and writing its row
 * allocates nothing per value: what is left per record is the file writer's per-page share, where a
 * byte[] per bytes value or a BigDecimal per decimal would cost 40 bytes or more each. Measured
 * with the JVM's per-thread allocation counter.
 */
class StagedRowAllocationTest {
  private static final Logger LOG = LoggerFactory.getLogger(StagedRowAllocationTest.class);

  private static final Schema TYPED =
      SchemaBuilder.struct()
          .name("orders.Typed")
          .field("id", Schema.INT64_SCHEMA)
          .field("qty", Schema.INT16_SCHEMA)
          .field("flag", Schema.INT8_SCHEMA)
          .field("ratio", Schema.FLOAT32_SCHEMA)
          .field("raw", Schema.OPTIONAL_BYTES_SCHEMA)
          .field("amount", Decimal.schema(2))
          .field("price", Decimal.builder(3).parameter("connect.decimal.precision", "9").build())
          .field("day", Date.SCHEMA)
          .field("tod", Time.SCHEMA)
          .field("at", Timestamp.SCHEMA)
          .field("note", SchemaBuilder.string().optional().defaultValue("none").build())
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).build())
          .field("counts", SchemaBuilder.array(Schema.OPTIONAL_INT32_SCHEMA).optional().build())
          .build();

  @Test
  void stagingAndWritingEveryTypeAllocatesNothingPerValue() throws Exception {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    JsonConverter base64 = new JsonConverter();
    base64.configure(Map.of("schemas.enable", "true"), false);
    JsonConverter numeric = new JsonConverter();
    numeric.configure(Map.of("schemas.enable", "true", "decimal.format", "NUMERIC"), false);
    List<byte[]> docs = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      Struct value =
          new Struct(TYPED)
              .put("id", (long) i)
              .put("qty", (short) (i * 7))
              .put("flag", (byte) i)
              .put("ratio", (i % 400) / 4f)
              .put("raw", i % 5 == 0 ? null : new byte[] {(byte) i, 2, 3, (byte) (i >> 3)})
              .put("amount", BigDecimal.valueOf(i * 10_001L - 5_000_000L, 2))
              .put("price", BigDecimal.valueOf(i * 37L, 3))
              .put("day", new java.util.Date((19_000L + i) * 86_400_000L))
              .put("tod", new java.util.Date(i * 60_000L))
              .put("at", new java.util.Date(1_700_000_000_000L + i))
              .put("note", "n" + i % 10)
              .put("tags", List.of("t" + i % 7, "u" + i % 3).subList(0, i % 3 == 0 ? 0 : 2))
              .put("counts", i % 4 == 0 ? null : java.util.Arrays.asList(i, null, i % 5));
      byte[] doc = (i % 2 == 0 ? base64 : numeric).fromConnectData("t", TYPED, value);
      if (i % 3 == 0) { // the default's turn
        doc =
            new String(doc, StandardCharsets.UTF_8)
                .replace("\"note\":\"n" + i % 10 + "\"", "\"note\":null")
                .getBytes(StandardCharsets.UTF_8);
      }
      docs.add(doc);
    }
    JsonRecordDecoder decoder = new JsonRecordDecoder(true, false);
    Schema schema = decoder.decode(docs.get(0), "value").schema();
    SinkRecord record =
        new SinkRecord("t", 0, null, null, null, null, 0, 0L, TimestampType.CREATE_TIME);
    FileLayout layout = FileLayout.of(null, schema, MappingOptions.defaults());
    try (ParquetRecordWriter writer =
        new ParquetRecordWriter(
            OutputStream.nullOutputStream(), layout, WriterOptions.defaults())) {
      // Warm-up: JIT, dictionaries, and page buffers grown to their full size (pages are cut at
      // 1 MiB: the INT32 columns' need 262,144 values).
      for (int round = 0; round < 300; round++) {
        for (byte[] doc : docs) {
          StagedRow row = decoder.stage(doc);
          assertNotNull(row, "staged");
          assertTrue(writer.writeStaged(record, row), "written from the row");
        }
      }
      long thread = Thread.currentThread().getId();
      long before = threads.getThreadAllocatedBytes(thread);
      int written = 0;
      for (int round = 0; round < 200; round++) {
        for (byte[] doc : docs) {
          writer.writeStaged(record, decoder.stage(doc));
          written++;
        }
      }
      long perRecord = (threads.getThreadAllocatedBytes(thread) - before) / written;
      LOG.info("{} bytes allocated per staged record of thirteen fields", perRecord);
      assertTrue(perRecord <= 32, perRecord + " bytes allocated per record");
    }
  }
}
