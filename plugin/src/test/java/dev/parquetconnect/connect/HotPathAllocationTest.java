package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * The shredding hot path allocates nothing per value: writing a record of twelve values (numbers,
 * text, a timestamp, a nested struct, a list) costs a few bytes per record (what the file writer
 * allocates per page and row group, spread over its records; about 8 here), where a single object
 * per value would cost 16 bytes or more each, 190 per record. Measured with the JVM's per-thread
 * allocation counter.
 */
class HotPathAllocationTest {
  private static final Schema ADDRESS =
      SchemaBuilder.struct()
          .name("Address")
          .optional()
          .field("city", Schema.STRING_SCHEMA)
          .field("zip", Schema.OPTIONAL_INT32_SCHEMA)
          .build();
  private static final Schema ORDER =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", Schema.INT64_SCHEMA)
          .field("customer", Schema.STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .field("paid", Schema.BOOLEAN_SCHEMA)
          .field("at", Timestamp.SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("address", ADDRESS)
          .field("items", SchemaBuilder.array(Schema.INT32_SCHEMA).build())
          .build();

  @Test
  void shreddingAllocatesNothingPerValue() throws Exception {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      Struct value =
          new Struct(ORDER)
              .put("id", (long) i)
              .put("customer", "customer-\u00e9-" + (i % 97))
              .put("amount", i * 1.25)
              .put("paid", i % 2 == 0)
              .put("at", new java.util.Date(1_700_000_000_000L + i))
              .put("note", i % 3 == 0 ? null : "n" + i)
              .put("address", new Struct(ADDRESS).put("city", "Oslo").put("zip", i))
              .put("items", Arrays.asList(i, i + 1, i + 2));
      records.add(
          new SinkRecord(
              "orders",
              0,
              null,
              null,
              ORDER,
              value,
              i,
              (long) i,
              org.apache.kafka.common.record.TimestampType.CREATE_TIME));
    }
    FileLayout layout = FileLayout.of(null, ORDER, MappingOptions.defaults());
    try (ParquetRecordWriter writer =
        new ParquetRecordWriter(
            OutputStream.nullOutputStream(), layout, WriterOptions.defaults())) {
      // Warm-up: JIT, dictionaries, and page buffers grown to their full size. Pages are cut by
      // bytes (1 MiB) with no row cap, so the page that fills last, the required boolean's (a
      // byte of heap per value: 1,048,576 values), needs 1,049 rounds of 1,000 records.
      for (int round = 0; round < 1_100; round++) {
        for (SinkRecord r : records) {
          writer.write(r);
        }
      }
      long thread = Thread.currentThread().getId();
      long before = threads.getThreadAllocatedBytes(thread);
      int written = 0;
      for (int round = 0; round < 200; round++) {
        for (SinkRecord r : records) {
          writer.write(r);
          written++;
        }
      }
      long perRecord = (threads.getThreadAllocatedBytes(thread) - before) / written;
      assertTrue(perRecord <= 32, perRecord + " bytes allocated per record");
    }
  }
}
