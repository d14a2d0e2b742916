package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.connect.json.JsonInputConfig;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.it.KafkaRuntime;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code input.format=json} on a real worker (KRaft broker and distributed Connect worker as child
 * JVMs on 127.0.0.1, the plugin from its archive): value.converter ByteArrayConverter, keys through
 * StringConverter, 100,000 schemaless JSON documents of a ten-field nested record over 2
 * partitions. DuckDB finds each (partition, offset) the producer was told exactly once, holding the
 * document produced there (every field compared).
 */
final class JsonInputIT {
  private static final Logger LOG = LoggerFactory.getLogger(JsonInputIT.class);
  private static final int PARTITIONS = 2;
  private static final int RECORDS = 100_000;

  /** Envelopes on a second topic: each repeats the previous record's schema bytes. */
  private static final int ENVELOPES = 20_000;

  /** JsonConverter's schema of {@link #document}, as the envelopes carry it. */
  static final String SCHEMA =
      "{\"type\":\"struct\",\"fields\":["
          + "{\"type\":\"int64\",\"optional\":false,\"field\":\"id\"},"
          + "{\"type\":\"string\",\"optional\":false,\"field\":\"name\"},"
          + "{\"type\":\"double\",\"optional\":false,\"field\":\"amount\"},"
          + "{\"type\":\"int64\",\"optional\":false,\"field\":\"big\"},"
          + "{\"type\":\"boolean\",\"optional\":false,\"field\":\"active\"},"
          + "{\"type\":\"string\",\"optional\":true,\"field\":\"note\"},"
          + "{\"type\":\"struct\",\"fields\":["
          + "{\"type\":\"string\",\"optional\":false,\"field\":\"city\"},"
          + "{\"type\":\"int32\",\"optional\":false,\"field\":\"zip\"}],"
          + "\"optional\":false,\"field\":\"address\"},"
          + "{\"type\":\"array\",\"items\":{\"type\":\"string\",\"optional\":false},"
          + "\"optional\":false,\"field\":\"tags\"},"
          + "{\"type\":\"int64\",\"optional\":false,\"field\":\"score\"},"
          + "{\"type\":\"string\",\"optional\":false,\"field\":\"kind\"}],"
          + "\"optional\":false,\"name\":\"orders.Order\"}";

  /**
   * {@link #SCHEMA} without its list: a struct of text, numbers, a boolean and a nested struct,
   * whose envelopes the task writes from staged rows straight into the columns
   * (docs/json-input.md).
   */
  static final String STAGED_SCHEMA =
      SCHEMA.replace(
          "{\"type\":\"array\",\"items\":{\"type\":\"string\",\"optional\":false},"
              + "\"optional\":false,\"field\":\"tags\"},",
          "");

  @Test
  @Timeout(value = 5, unit = TimeUnit.MINUTES)
  void rawJsonThroughByteArrayConverterLandsOnceWithItsValues() throws Exception {
    long started = System.nanoTime();
    Path work = ItPaths.freshWorkDir("JsonInputIT");
    KafkaRuntime runtime = KafkaRuntime.defaultVersion();
    try (KafkaBroker broker = KafkaBroker.start(runtime, work.resolve("broker"));
        ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(work.resolve("worker"))
                .start();
        ItStores.Running store = ItStores.local(work.resolve("store"))) {
      broker.createTopic("raw", PARTITIONS);
      broker.createTopic("env", PARTITIONS);
      broker.createTopic("staged", PARTITIONS);
      worker.putConnectorConfig("raw", SinkIts.connectorConfig(store, "lake", "raw", raw(false)));
      worker.putConnectorConfig("env", SinkIts.connectorConfig(store, "envlake", "env", raw(true)));
      worker.putConnectorConfig(
          "staged", SinkIts.connectorConfig(store, "stagedlake", "staged", raw(true)));
      worker.awaitConnectorRunning("raw", 1, Duration.ofMinutes(2));
      worker.awaitConnectorRunning("env", 1, Duration.ofMinutes(2));
      worker.awaitConnectorRunning("staged", 1, Duration.ofMinutes(2));
      long committedMs = landsOnce(broker, store, work, "raw", "lake", RECORDS, null);
      long envelopesMs = landsOnce(broker, store, work, "env", "envlake", ENVELOPES, SCHEMA);
      long stagedMs =
          landsOnce(broker, store, work, "staged", "stagedlake", ENVELOPES, STAGED_SCHEMA);
      LOG.info(
          "{} records committed {} ms after producing, {} envelopes {} ms after theirs, {} "
              + "envelopes of a stageable schema {} ms after theirs; test took {} ms",
          RECORDS,
          committedMs,
          ENVELOPES,
          envelopesMs,
          ENVELOPES,
          stagedMs,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }
  }

  /** The connector's keys for raw JSON values (in envelopes when asked), keys as text. */
  private static Map<String, String> raw(boolean envelopes) {
    return Map.of(
        "key.converter",
        "org.apache.kafka.connect.storage.StringConverter",
        "value.converter",
        "org.apache.kafka.connect.converters.ByteArrayConverter",
        JsonInputConfig.INPUT_FORMAT_CONFIG,
        "json",
        JsonInputConfig.INPUT_JSON_SCHEMAS_ENABLE_CONFIG,
        Boolean.toString(envelopes),
        ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG,
        "true",
        ParquetSinkConfig.FLUSH_SIZE_CONFIG,
        "50000");
  }

  /**
   * Produces {@code count} documents to {@code topic} (in envelopes of {@code schema} unless null;
   * without the list when that is {@link #STAGED_SCHEMA}), waits for their commit and checks with
   * DuckDB that each (partition, offset) landed once with the document produced there; returns the
   * milliseconds from producing to the commit.
   */
  private static long landsOnce(
      KafkaBroker broker,
      ItStores.Running store,
      Path work,
      String topic,
      String lakeName,
      int count,
      String schema)
      throws Exception {
    boolean tags = schema != STAGED_SCHEMA;
    List<JsonRecord> records = new ArrayList<>(count);
    for (int id = 0; id < count; id++) {
      String payload =
          tags ? document(id) : document(id).replaceFirst(",\"tags\":\\[[^\\]]*\\]", "");
      String doc =
          schema != null ? "{\"schema\":" + schema + ",\"payload\":" + payload + "}" : payload;
      records.add(JsonRecord.of("k" + id, doc).withPartition(id % PARTITIONS));
    }
    List<RecordMetadata> placed =
        KafkaRecords.produce(broker.bootstrapServers(), topic, records, Duration.ofMinutes(2));
    Path expected = work.resolve(topic + "-expected.csv");
    StringBuilder csv = new StringBuilder("id,part,off\n");
    Map<TopicPartition, Long> ends = new HashMap<>();
    for (int id = 0; id < count; id++) {
      RecordMetadata m = placed.get(id);
      csv.append(id).append(',').append(m.partition()).append(',').append(m.offset()).append('\n');
      ends.merge(new TopicPartition(topic, m.partition()), m.offset() + 1, Math::max);
    }
    Files.writeString(expected, csv);
    long produced = System.nanoTime();
    try (Store check = store.open(lakeName)) {
      SinkIts.awaitCommitted(check, topic, ends, Duration.ofMinutes(2), () -> {});
    }
    long committedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - produced);
    Path lake = work.resolve("store/" + lakeName + "/" + SinkIts.TOPICS_DIR + "/" + topic);
    SinkIts.Found found = SinkIts.duckDb(lake, null);
    assertEquals(count, found.rows(), topic + ": rows");
    assertEquals(count, found.distinctOffsets(), topic + ": each (partition, offset) once");
    String files = "read_parquet('" + lake + "/**/*.parquet', hive_partitioning=true)";
    // Each produced document at the (partition, offset) the producer was given, every field
    // as produced.
    long wrong =
        SinkIts.duckDbCount(
            "SELECT count(*) FROM read_csv('"
                + expected
                + "', header=true) e FULL OUTER JOIN "
                + files
                + " f ON f.__kafka_partition = e.part AND f.__kafka_offset = e.off "
                + "WHERE f.id IS NULL OR e.id IS NULL OR f.id <> e.id "
                + "OR f.__kafka_key <> 'k' || e.id "
                + "OR f.name <> 'n\u00e9' || e.id "
                + "OR f.amount <> e.id * 0.25 "
                + "OR f.big <> e.id * 1000000000 "
                + "OR f.active <> (e.id % 3 = 0) "
                + "OR (e.id % 5 = 0) <> (f.note IS NULL) "
                + "OR (e.id % 5 <> 0 AND f.note <> 'line\nbreak \"' || e.id || '\"') "
                + "OR f.address.city <> 'c' || (e.id % 7) "
                + "OR f.address.zip <> e.id % 1000 "
                + (tags
                    ? "OR len(f.tags) <> e.id % 4 OR (e.id % 4 > 0 AND f.tags[1] <> 't0') "
                    : "")
                + "OR f.score <> -e.id");
    assertEquals(0, wrong, topic + ": rows that differ from what was produced");
    return committedMs;
  }

  /** Record {@code id} as a producer writes it: ten fields, a nested object, a list, a null. */
  static String document(int id) {
    StringBuilder tags = new StringBuilder("[");
    for (int t = 0; t < id % 4; t++) {
      tags.append(t == 0 ? "" : ",").append("\"t").append(t).append('"');
    }
    tags.append(']');
    String note = id % 5 == 0 ? "null" : "\"line\\nbreak \\\"" + id + "\\\"\"";
    return "{\"id\":"
        + id
        + ",\"name\":\"n\\u00e9"
        + id
        + "\",\"amount\":"
        + (id * 0.25)
        + ",\"big\":"
        + (id * 1_000_000_000L)
        + ",\"active\":"
        + (id % 3 == 0)
        + ",\"note\":"
        + note
        + ",\"address\":{\"city\":\"c"
        + (id % 7)
        + "\",\"zip\":"
        + (id % 1000)
        + "},\"tags\":"
        + tags
        + ",\"score\":"
        + (-id)
        + ",\"kind\":\"order\"}";
  }
}
