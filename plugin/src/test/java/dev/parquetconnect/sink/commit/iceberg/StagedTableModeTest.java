package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.json.JsonInputConfig;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table mode ({@code table.format=iceberg}) with {@code input.format=json}: records of raw JSON
 * envelopes, routed from their staged rows into partitioned tables (day, bucket, identity of a
 * nested field, truncate), give the table JsonConverter + {@code input.format=connect} gives for
 * the same records: the same data files byte for byte under the same partition paths, and the same
 * rows as Iceberg's generic reader reads them. The keys are raw JSON envelopes too ({@code
 * input.json.key}), strings and small structs; a schema change midway takes the Struct way and
 * widens the table.
 */
final class StagedTableModeTest {
  private static final Logger LOG = LoggerFactory.getLogger(StagedTableModeTest.class);
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 2;
  private static final int RECORDS = 2_000;
  private static final long SCHEDULE_MS = 10_000;
  private static final long SEED = 0x7ab1e_15L;

  private static final String FIELDS =
      "{\"field\":\"id\",\"type\":\"int64\"},"
          + "{\"field\":\"name\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"at\",\"type\":\"int64\",\"name\":\"org.apache.kafka.connect.data"
          + ".Timestamp\",\"optional\":true},"
          + "{\"field\":\"score\",\"type\":\"double\",\"optional\":true},"
          + "{\"field\":\"address\",\"type\":\"struct\",\"optional\":true,\"fields\":["
          + "{\"field\":\"city\",\"type\":\"string\",\"optional\":true},"
          + "{\"field\":\"zip\",\"type\":\"int32\"}]}";

  private static final String V1 =
      "{\"type\":\"struct\",\"name\":\"Order\",\"optional\":false,\"fields\":[" + FIELDS + "]}";

  /** The second half's schema: one more optional field (the table is widened for it). */
  private static final String V2 =
      "{\"type\":\"struct\",\"name\":\"Order\",\"optional\":false,\"fields\":["
          + FIELDS
          + ",{\"field\":\"flag\",\"type\":\"boolean\",\"optional\":true}]}";

  private static final String STRING_KEY = "{\"type\":\"string\",\"optional\":false}";
  private static final String STRUCT_KEY =
      "{\"type\":\"struct\",\"optional\":false,\"fields\":["
          + "{\"field\":\"region\",\"type\":\"string\"},{\"field\":\"shard\",\"type\":\"int32\"}]}";

  @TempDir Path dir;

  @Test
  void stagedRowsGiveTheTableTheStructPathGives() throws Exception {
    LOG.info("seed {}", SEED);
    for (String keySchema : List.of(STRING_KEY, STRUCT_KEY)) {
      String name = keySchema.equals(STRING_KEY) ? "string-keys" : "struct-keys";
      String spec =
          keySchema.equals(STRING_KEY)
              ? "day(at), bucket(2, id)"
              : "bucket(3, address.city), truncate(2, name)";
      List<SinkRecord> raw = new ArrayList<>();
      List<SinkRecord> converted = new ArrayList<>();
      records(new Random(SEED), keySchema, raw, converted);
      Path connectDir = Files.createDirectories(dir.resolve(name + "-connect"));
      Path jsonDir = Files.createDirectories(dir.resolve(name + "-json"));
      run(props(connectDir, "connect", spec), converted);
      long staged = run(props(jsonDir, "json", spec), raw);
      LOG.info("{}: {} of {} records written from staged rows", name, staged, raw.size());
      assertTrue(staged > RECORDS * 3 / 4, name + ": " + staged + " staged");

      TreeMap<String, byte[]> connectFiles = dataFiles(connectDir);
      TreeMap<String, byte[]> jsonFiles = dataFiles(jsonDir);
      assertEquals(
          List.copyOf(connectFiles.keySet()),
          List.copyOf(jsonFiles.keySet()),
          name + ": the same data files");
      assertTrue(connectFiles.size() > 4, name + ": partitioned: " + connectFiles.keySet());
      for (String file : connectFiles.keySet()) {
        assertArrayEquals(connectFiles.get(file), jsonFiles.get(file), name + " " + file);
      }
      Map<String, Integer> connectRows = rows(connectDir);
      assertEquals(RECORDS * PARTITIONS, connectRows.values().stream().mapToInt(i -> i).sum());
      assertEquals(connectRows, rows(jsonDir), name + ": Iceberg's reader reads the same rows");
      LOG.info("{}: {} data files equal byte for byte", name, connectFiles.size());
    }
  }

  /** Runs the task over {@code records}, a commit every 800 offsets; the records staged. */
  private static long run(Map<String, String> props, List<SinkRecord> records) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition(TOPIC, p));
    }
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      Random batches = new Random(7);
      for (int from = 0; from < records.size(); ) {
        int to = Math.min(records.size(), from + 800 * PARTITIONS);
        task.putInRandomBatches(records.subList(from, to), batches, 300);
        task.commitOpenFiles(SCHEDULE_MS);
        from = to;
      }
      for (TopicPartition tp : partitions) {
        assertEquals((long) RECORDS, task.committed().get(tp), "every offset of " + tp);
      }
      return task.jsonRecordsStaged();
    }
  }

  /** The same records twice: raw JSON bytes, and JsonConverter's values of them. */
  private static void records(
      Random random, String keySchema, List<SinkRecord> raw, List<SinkRecord> converted) {
    JsonConverter values = new JsonConverter();
    values.configure(Map.of("schemas.enable", "true"), false);
    JsonConverter keys = new JsonConverter();
    keys.configure(Map.of("schemas.enable", "true"), true);
    for (int offset = 0; offset < RECORDS; offset++) {
      for (int p = 0; p < PARTITIONS; p++) {
        String payload = payload(random, offset, offset >= RECORDS / 2);
        String schema = offset >= RECORDS / 2 ? V2 : V1;
        byte[] value = envelope(schema, payload);
        byte[] key =
            envelope(
                keySchema,
                keySchema.equals(STRING_KEY)
                    ? "\"k" + random.nextInt(3) + "\""
                    : "{\"region\":\"r" + random.nextInt(3) + "\",\"shard\":" + offset % 5 + "}");
        long timestamp = 1_700_000_000_000L + offset * 1_000L;
        raw.add(
            new SinkRecord(
                TOPIC,
                p,
                Schema.OPTIONAL_BYTES_SCHEMA,
                key,
                Schema.OPTIONAL_BYTES_SCHEMA,
                value,
                offset,
                timestamp,
                TimestampType.CREATE_TIME));
        SchemaAndValue k = keys.toConnectData(TOPIC, key);
        SchemaAndValue v = values.toConnectData(TOPIC, value);
        converted.add(
            new SinkRecord(
                TOPIC,
                p,
                k.schema(),
                k.value(),
                v.schema(),
                v.value(),
                offset,
                timestamp,
                TimestampType.CREATE_TIME));
      }
    }
  }

  private static String payload(Random random, int offset, boolean v2) {
    StringBuilder out = new StringBuilder("{\"id\":").append(random.nextLong() % 1_000_000_000L);
    if (random.nextInt(8) > 0) {
      String[] names = {"\"z\u00fcrich\"", "\"\ud83d\ude00x\"", "\"a\\\"b\"", "\"\"", "\"ab\""};
      out.append(",\"name\":").append(names[random.nextInt(names.length)]);
    }
    if (random.nextInt(8) > 0) {
      // Around 1970, before and after: three day partitions.
      out.append(",\"at\":").append(random.nextInt(2 * 86_400_000) - 86_400_000L);
    }
    if (random.nextInt(8) > 0) {
      out.append(",\"score\":").append(random.nextInt(100_000) - 50_000).append(".5");
    }
    if (random.nextInt(6) > 0) {
      out.append(",\"address\":{\"city\":")
          .append(random.nextInt(5) == 0 ? "null" : "\"c" + random.nextInt(3) + "\"")
          .append(",\"zip\":")
          .append(random.nextInt(100_000) - 50_000)
          .append('}');
    } else if (offset % 2 == 0) {
      out.append(",\"address\":null");
    }
    if (v2 && random.nextBoolean()) {
      out.append(",\"flag\":").append(random.nextBoolean());
    }
    return out.append('}').toString();
  }

  private static byte[] envelope(String schema, String payload) {
    return ("{\"schema\":" + schema + ",\"payload\":" + payload + "}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static Map<String, String> props(Path root, String format, String spec) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "staged-table");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, root.resolve("store").toUri().toString());
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(SCHEDULE_MS));
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "100000");
    props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    props.put(ParquetSinkConfig.STORE_KAFKA_METADATA_CONFIG, "true");
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "hadoop");
    props.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, root.resolve("warehouse").toString());
    props.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    props.put(IcebergConfig.PARTITION_SPEC_CONFIG, spec);
    props.put(JsonInputConfig.INPUT_FORMAT_CONFIG, format);
    props.put(JsonInputConfig.INPUT_JSON_SCHEMAS_ENABLE_CONFIG, "true");
    props.put(JsonInputConfig.INPUT_JSON_KEY_CONFIG, "true");
    return props;
  }

  /** Every data file under the store, by its path relative to the store, with its bytes. */
  private static TreeMap<String, byte[]> dataFiles(Path root) throws IOException {
    Path store = root.resolve("store");
    TreeMap<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(store)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        if (p.getFileName().toString().endsWith(".parquet")) {
          // Without the name's last part, which differs between two tasks' writers.
          String file = store.relativize(p).toString();
          files.put(file.substring(0, file.lastIndexOf('-')), Files.readAllBytes(p));
        }
      }
    }
    return files;
  }

  /** Each row of the table as Iceberg's generic reader reads it, with how often it occurs. */
  private static Map<String, Integer> rows(Path root) throws IOException {
    Map<String, Integer> rows = new HashMap<>();
    try (HadoopCatalog catalog =
        new HadoopCatalog(new Configuration(), root.resolve("warehouse").toString())) {
      Table table = catalog.loadTable(TableIdentifier.of("lake", TOPIC));
      try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
        for (Record r : read) {
          rows.merge(r.toString(), 1, Integer::sum);
        }
      }
    }
    return rows;
  }
}
