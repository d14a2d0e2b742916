package dev.parquetconnect.sink;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.parquetconnect.connect.json.JsonInputConfig;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The memory test's task harness, run by {@link SinkMemoryIT} in a JVM of its own with a small
 * heap: it drives the production {@link ParquetSinkTask} (real Parquet files on a local store)
 * directly with generated records of a nested schema, as Connect would, and prints the peak heap it
 * saw. Arguments: store directory (or store URL), record count, distinct partition values, Kafka
 * partitions, buffer.max.bytes, then any settings as {@code key=value}. With {@code
 * memory.harness.values=json-envelope} or {@code json-schemaless} the records are raw JSON bytes,
 * as ByteArrayConverter gives them, for {@code input.format=json} (JsonConverter's schema envelope
 * of a shape the task stages straight into the column writers, or plain documents), each with a
 * 1,500-character text so that the open files fill the budget; the files are then one per Kafka
 * partition (the default partitioner: a field partitioner reads the value, which the staged path
 * does not build).
 *
 * <p>The JVM's baseline is the heap in use after a full collection before the task starts; the peak
 * is the largest heap in use right after any full collection while it runs (the live data, garbage
 * excluded), which the tight heap makes frequent.
 */
public final class MemoryHarness {
  static final String TOPIC = "memory";
  static final Schema ITEM =
      SchemaBuilder.struct()
          .name("Item")
          .field("sku", Schema.STRING_SCHEMA)
          .field("qty", Schema.INT32_SCHEMA)
          .field("price", Schema.FLOAT64_SCHEMA)
          .build();
  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("Event")
          .field("id", Schema.INT64_SCHEMA)
          .field("region", Schema.STRING_SCHEMA)
          .field(
              "customer",
              SchemaBuilder.struct()
                  .name("Customer")
                  .field("name", Schema.STRING_SCHEMA)
                  .field("tier", Schema.OPTIONAL_INT32_SCHEMA)
                  .build())
          .field("items", SchemaBuilder.array(ITEM).build())
          .field("created", Timestamp.SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  static final String VALUES_SETTING = "memory.harness.values";

  /**
   * JsonConverter's schema of the JSON records: leaves the task stages (text, ints, a Timestamp).
   */
  static final String JSON_SCHEMA =
      "{\"type\":\"struct\",\"name\":\"Event\",\"optional\":false,\"fields\":["
          + "{\"field\":\"id\",\"type\":\"int64\",\"optional\":false},"
          + "{\"field\":\"region\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"customer\",\"type\":\"struct\",\"name\":\"Customer\","
          + "\"optional\":false,\"fields\":["
          + "{\"field\":\"name\",\"type\":\"string\",\"optional\":false},"
          + "{\"field\":\"tier\",\"type\":\"int32\",\"optional\":true}]},"
          + "{\"field\":\"created\",\"type\":\"int64\",\"optional\":false,"
          + "\"name\":\"org.apache.kafka.connect.data.Timestamp\",\"version\":1},"
          + "{\"field\":\"price\",\"type\":\"double\",\"optional\":false},"
          + "{\"field\":\"note\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"text\",\"type\":\"string\",\"optional\":false}]}";

  private static final int TEXT_LENGTH = 1500;

  /** Letters and digits the JSON records' texts are cut from (no escapes, one byte each). */
  private static final String TEXT_POOL = textPool(1 << 16);

  private MemoryHarness() {}

  public static void main(String[] args) throws Exception {
    String store = args[0];
    long records = Long.parseLong(args[1]);
    int distinct = Integer.parseInt(args[2]);
    int partitions = Integer.parseInt(args[3]);
    String budget = args[4];
    AtomicLong peakAfterFullGc = watchFullCollections();
    long baselineHeap = liveHeap();

    Map<String, String> props = new HashMap<>();
    String values = "struct";
    props.put("name", "memory");
    props.put(
        ParquetSinkConfig.STORE_URL_CONFIG,
        store.contains("://") ? store : java.nio.file.Path.of(store).toUri().toString());
    for (int i = 5; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (args[i].substring(0, eq).equals(VALUES_SETTING)) {
        values = args[i].substring(eq + 1);
      } else {
        props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
      }
    }
    boolean json = !values.equals("struct");
    if (json) {
      props.put(JsonInputConfig.INPUT_FORMAT_CONFIG, "json");
      props.put(
          JsonInputConfig.INPUT_JSON_SCHEMAS_ENABLE_CONFIG,
          Boolean.toString(values.equals("json-envelope")));
    } else {
      props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "field");
      props.put(ParquetSinkConfig.PARTITION_FIELDS_CONFIG, "region");
    }
    // Ten commits of the single partition; the record count is a multiple of it.
    props.putIfAbsent(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "100000");
    props.put(ParquetSinkConfig.BUFFER_MAX_BYTES_CONFIG, budget);
    TestContext context = new TestContext(false);
    List<TopicPartition> assigned = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      assigned.add(new TopicPartition(TOPIC, p));
    }
    context.assignment.addAll(assigned);
    ParquetSinkTask task = new ParquetSinkTask();
    task.initialize(context);
    task.start(props);
    task.open(assigned);
    long started = System.nanoTime();
    List<SinkRecord> batch = new ArrayList<>(1000);
    long peakBudget = 0;
    for (long i = 0; i < records; i++) {
      batch.add(
          json
              ? jsonRecord(i, partitions, distinct, values.equals("json-envelope"))
              : record(i, partitions, distinct));
      if (batch.size() == 1000) {
        task.put(batch);
        batch = new ArrayList<>(1000);
        peakBudget = Math.max(peakBudget, task.bufferedBytes());
      }
    }
    task.put(batch);
    Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of());
    long total = 0;
    for (OffsetAndMetadata offset : committed.values()) {
      total += offset.offset();
    }
    task.close(assigned);
    task.stop();
    System.out.println("RECORDS_COMMITTED=" + total);
    System.out.println("RECORDS_STAGED=" + task.jsonRecordsStaged());
    System.out.println("SECONDS=" + (System.nanoTime() - started) / 1_000_000_000.0);
    System.out.println("PEAK_BUDGET_BYTES=" + peakBudget);
    System.out.println("PEAK_HEAP_AFTER_FULL_GC_BYTES=" + peakAfterFullGc.get());
    System.out.println("PEAK_HEAP_POOLS_BYTES=" + peakOfHeapPools());
    System.out.println("BASELINE_LIVE_HEAP_BYTES=" + baselineHeap);
  }

  /** The heap in use right after a full collection. */
  private static long liveHeap() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  static SinkRecord record(long i, int partitions, int values) {
    List<Struct> items = new ArrayList<>();
    for (int k = 0; k < 1 + i % 3; k++) {
      items.add(
          new Struct(ITEM)
              .put("sku", "sku-" + (i + k) % 101)
              .put("qty", 1 + k)
              .put("price", (i % 1000) / 10.0 + k));
    }
    Struct value =
        new Struct(VALUE)
            .put("id", i)
            .put("region", "r" + (i * 7919 % values))
            .put(
                "customer",
                new Struct(VALUE.field("customer").schema())
                    .put("name", "customer-" + i % 997)
                    .put("tier", i % 3 == 0 ? null : (int) (i % 5)))
            .put("items", items)
            .put("created", new java.util.Date(1_700_000_000_000L + i))
            .put("note", i % 7 == 0 ? "note " + i : null);
    int partition = (int) (i % partitions);
    return new SinkRecord(
        TOPIC,
        partition,
        Schema.STRING_SCHEMA,
        "k" + i,
        VALUE,
        value,
        i / partitions,
        1_700_000_000_000L + i,
        TimestampType.CREATE_TIME);
  }

  /**
   * Record {@code i} as raw JSON bytes (ByteArrayConverter's value): the values of {@link #record}
   * without the items, with a text cut from a pool of letters, in JsonConverter's schema envelope
   * or as a plain document.
   */
  static SinkRecord jsonRecord(long i, int partitions, int values, boolean envelope) {
    StringBuilder json = new StringBuilder(TEXT_LENGTH + (envelope ? 1200 : 200));
    if (envelope) {
      json.append("{\"schema\":").append(JSON_SCHEMA).append(",\"payload\":");
    }
    json.append("{\"id\":").append(i);
    json.append(",\"region\":\"r").append(i * 7919 % values).append('"');
    json.append(",\"customer\":{\"name\":\"customer-").append(i % 997).append('"');
    json.append(",\"tier\":").append(i % 3 == 0 ? "null" : Long.toString(i % 5)).append('}');
    json.append(",\"created\":").append(1_700_000_000_000L + i);
    json.append(",\"price\":").append((i % 1000) / 10.0 + 0.5);
    json.append(",\"note\":").append(i % 7 == 0 ? "\"note " + i + "\"" : "null");
    int from = (int) (i * 7919 % (TEXT_POOL.length() - TEXT_LENGTH));
    json.append(",\"text\":\"").append(TEXT_POOL, from, from + TEXT_LENGTH).append("\"}");
    if (envelope) {
      json.append('}');
    }
    int partition = (int) (i % partitions);
    return new SinkRecord(
        TOPIC,
        partition,
        null,
        null,
        Schema.OPTIONAL_BYTES_SCHEMA,
        json.toString().getBytes(StandardCharsets.UTF_8),
        i / partitions,
        1_700_000_000_000L + i,
        TimestampType.CREATE_TIME);
  }

  private static String textPool(int length) {
    String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    java.util.Random random = new java.util.Random(20261127L);
    StringBuilder pool = new StringBuilder(length);
    for (int k = 0; k < length; k++) {
      pool.append(letters.charAt(random.nextInt(letters.length())));
    }
    return pool.toString();
  }

  /**
   * The largest heap in use right after a full collection: the live data at its peak (after a young
   * collection the old generation still holds garbage).
   */
  private static AtomicLong watchFullCollections() {
    AtomicLong peak = new AtomicLong();
    java.util.Set<String> heapPools = new java.util.HashSet<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc)
          .addNotificationListener(
              (notification, handback) -> {
                if (!notification
                    .getType()
                    .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                  return;
                }
                GarbageCollectionNotificationInfo info =
                    GarbageCollectionNotificationInfo.from(
                        (CompositeData) notification.getUserData());
                if (!info.getGcAction().contains("major")) {
                  return;
                }
                long used = 0;
                for (Map.Entry<String, MemoryUsage> pool :
                    info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
                  if (heapPools.contains(pool.getKey())) {
                    used += pool.getValue().getUsed();
                  }
                }
                peak.accumulateAndGet(used, Math::max);
              },
              null,
              null);
    }
    return peak;
  }

  /** The sum of the heap pools' peaks (an upper bound: they peak at different times). */
  private static long peakOfHeapPools() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }
}
