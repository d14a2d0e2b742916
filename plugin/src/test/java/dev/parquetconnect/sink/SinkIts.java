package dev.parquetconnect.sink;

import dev.parquetconnect.engines.SparkLakeCheck;
import dev.parquetconnect.it.Await;
import dev.parquetconnect.it.Json;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.sink.commit.CommitMarkers.Outcome;
import dev.parquetconnect.sink.commit.MarkerKeys;
import dev.parquetconnect.sink.commit.MarkerLog;
import dev.parquetconnect.sink.commit.MarkerLog.Attempt;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/** What the sink's integration tests share: test data, connector configs and the checks. */
final class SinkIts {
  static final String TOPICS_DIR = "topics";
  static final String REGIONS_FIELD = "region";
  private static final String[] REGIONS = {"eu", "us", "apac", "latam", "mea"};

  private SinkIts() {}

  /**
   * The nested schema of the test records, as JsonConverter's envelope writes it: a struct with a
   * nested struct, an array of structs, a map, a logical timestamp and an optional string.
   */
  static Map<String, Object> orderSchema() {
    Map<String, Object> customer =
        struct("Customer", List.of(field("name", "string", false), field("tier", "int32", true)));
    Map<String, Object> item =
        struct(
            "Item",
            List.of(
                field("sku", "string", false),
                field("qty", "int32", false),
                field("price", "double", false)));
    Map<String, Object> items = new LinkedHashMap<>();
    items.put("type", "array");
    items.put("items", item);
    items.put("optional", false);
    items.put("field", "items");
    Map<String, Object> tags = new LinkedHashMap<>();
    tags.put("type", "map");
    tags.put("keys", Map.of("type", "string", "optional", false));
    tags.put("values", Map.of("type", "string", "optional", false));
    tags.put("optional", false);
    tags.put("field", "tags");
    Map<String, Object> created = field("created", "int64", false);
    created.put("name", "org.apache.kafka.connect.data.Timestamp");
    created.put("version", 1);
    Map<String, Object> customerField = new LinkedHashMap<>(customer);
    customerField.put("field", "customer");
    return struct(
        "Order",
        List.of(
            field("id", "int64", false),
            field(REGIONS_FIELD, "string", false),
            customerField,
            items,
            tags,
            created,
            field("note", "string", true)));
  }

  private static Map<String, Object> struct(String name, List<Map<String, Object>> fields) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "struct");
    schema.put("name", name);
    schema.put("optional", false);
    schema.put("fields", fields);
    return schema;
  }

  private static Map<String, Object> field(String name, String type, boolean optional) {
    Map<String, Object> field = new LinkedHashMap<>();
    field.put("field", name);
    field.put("type", type);
    field.put("optional", optional);
    return field;
  }

  /** Record {@code i}: its region is one of {@code regions} values, its partition given. */
  static JsonRecord order(long i, int partition, int regions) {
    Map<String, Object> customer = new LinkedHashMap<>();
    customer.put("name", "customer-" + (i % 997));
    customer.put("tier", i % 3 == 0 ? null : (int) (i % 5));
    List<Map<String, Object>> items = new ArrayList<>();
    for (int k = 0; k < 1 + i % 3; k++) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("sku", "sku-" + (i + k) % 101);
      item.put("qty", 1 + k);
      item.put("price", (i % 1000) / 10.0 + k);
      items.add(item);
    }
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("id", i);
    payload.put(REGIONS_FIELD, region(i, regions));
    payload.put("customer", customer);
    payload.put("items", items);
    payload.put("tags", Map.of("source", "it", "parity", i % 2 == 0 ? "even" : "odd"));
    payload.put("created", 1_700_000_000_000L + i);
    payload.put("note", i % 7 == 0 ? "note " + i : null);
    Map<String, Object> envelope = new LinkedHashMap<>();
    envelope.put("schema", orderSchema());
    envelope.put("payload", payload);
    return JsonRecord.of(
            Json.write(Map.of("schema", Map.of("type", "int64", "optional", false), "payload", i)),
            Json.write(envelope))
        .withPartition(partition)
        .withTimestamp(1_700_000_000_000L + i);
  }

  static String region(long i, int regions) {
    return regions <= REGIONS.length ? REGIONS[(int) (i % regions)] : "r" + (i % regions);
  }

  /** A sink connector's config: the store's settings plus the test's own keys. */
  static Map<String, String> connectorConfig(
      ItStores.Running store, String prefix, String topic, Map<String, String> extra) {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", ParquetSinkConnector.class.getName());
    config.put("tasks.max", "1");
    config.put("topics", topic);
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put(ParquetSinkConfig.STORE_URL_CONFIG, store.url(prefix));
    config.put(ParquetSinkConfig.TOPICS_DIR_CONFIG, TOPICS_DIR);
    config.putAll(store.settings());
    config.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "20000");
    // The tail of each partition becomes visible within seconds.
    config.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "3000");
    // Long enough for a commit of 20 files on the loaded test machine's MiniDFSCluster; short
    // enough that a crash between intent and outcome costs little waiting.
    config.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "20000");
    config.put("consumer.override.max.poll.records", "2000");
    config.putAll(extra);
    return config;
  }

  /** The offset after the newest done commit of a partition, by its markers; 0 for none. */
  static long committedOffset(Store store, String connector, TopicPartition partition)
      throws IOException {
    MarkerLog markers = new MarkerLog(store, new MarkerKeys(TOPICS_DIR, connector), partition);
    List<Attempt> attempts = markers.list();
    for (int i = attempts.size() - 1; i >= 0; i--) {
      Attempt a = attempts.get(i);
      if (a.hasOutcome()) {
        Outcome outcome = markers.readOutcome(a.start(), a.attempt());
        if (outcome != null && outcome.done()) {
          return outcome.end() + 1;
        }
      }
    }
    return 0;
  }

  /** Waits until every partition's markers say it is committed up to {@code endOffsets}. */
  static void awaitCommitted(
      Store store,
      String connector,
      Map<TopicPartition, Long> endOffsets,
      Duration timeout,
      Runnable whileWaiting) {
    Await.until(
        "the sink to commit up to " + endOffsets,
        timeout,
        () -> {
          whileWaiting.run();
          for (Map.Entry<TopicPartition, Long> e : endOffsets.entrySet()) {
            if (committedOffset(store, connector, e.getKey()) < e.getValue()) {
              return false;
            }
          }
          return true;
        });
  }

  /**
   * Copies every committed Parquet file of {@code topic} into {@code localDir} (same relative
   * paths), so that DuckDB reads files of any store.
   */
  static Path localCopy(Store store, String topic, Path localDir) throws IOException {
    String prefix = TOPICS_DIR + "/" + topic;
    for (StoreFile file : store.list(prefix, true)) {
      Path target = localDir.resolve(file.key());
      Files.createDirectories(target.getParent());
      try (StoreInput in = store.open(file.key());
          OutputStream out = Files.newOutputStream(target)) {
        byte[] buffer = new byte[1 << 20];
        long position = 0;
        while (position < in.length()) {
          int n = (int) Math.min(buffer.length, in.length() - position);
          in.readFully(position, buffer, 0, n);
          out.write(buffer, 0, n);
          position += n;
        }
      }
    }
    return localDir.resolve(prefix);
  }

  /**
   * What DuckDB finds in a directory of Parquet files: rows, distinct (partition, offset) pairs,
   * rows beyond those (duplicates), the lowest and highest offset.
   */
  record Found(long rows, long distinctOffsets, long duplicated, long minOffset, long maxOffset) {}

  /**
   * Reads {@code dir/**\/*.parquet} with DuckDB (Hive partitioning on) and counts rows, distinct
   * (partition, offset) pairs and rows beyond them (duplicates). {@code extraCheck} is a query
   * counting bad rows, over {@code $FILES} (Hive partitioning on: a directory's value replaces a
   * file column of the same name) or {@code $RAW} (the files' own columns and {@code filename}).
   */
  static Found duckDb(Path dir, String extraCheck) throws SQLException {
    String files = "'" + dir.toString().replace("'", "''") + "/**/*.parquet'";
    String glob = "read_parquet(" + files + ", hive_partitioning=true)";
    String raw = "read_parquet(" + files + ", hive_partitioning=false, filename=true)";
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = db.createStatement()) {
      // One pass over the files: they may be thousands.
      long rows;
      long distinct;
      long min;
      long max;
      try (ResultSet rs =
          sql.executeQuery(
              "SELECT count(*), count(DISTINCT (__kafka_partition, "
                  + "__kafka_offset)), coalesce(min(__kafka_offset), -1), "
                  + "coalesce(max(__kafka_offset), -1) FROM "
                  + glob)) {
        rs.next();
        rows = rs.getLong(1);
        distinct = rs.getLong(2);
        min = rs.getLong(3);
        max = rs.getLong(4);
      }
      long duplicated = rows - distinct;
      if (extraCheck != null) {
        long bad = single(sql, extraCheck.replace("$FILES", glob).replace("$RAW", raw));
        if (bad != 0) {
          throw new AssertionError(bad + " rows fail: " + extraCheck);
        }
      }
      return new Found(rows, distinct, duplicated, min, max);
    }
  }

  /** The one number {@code query} returns, in a fresh DuckDB. */
  static long duckDbCount(String query) throws SQLException {
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = db.createStatement()) {
      return single(sql, query);
    }
  }

  /**
   * The same lake through Spark's default reader (docs/compatibility.md): called after a test's own
   * checks, so that what it tests is judged first.
   */
  static void sparkReadsAsDuckDb(Path dir) {
    SparkLakeCheck.assertSparkReadsAsDuckDb(dir);
  }

  private static long single(Statement sql, String query) throws SQLException {
    try (ResultSet rs = sql.executeQuery(query)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
