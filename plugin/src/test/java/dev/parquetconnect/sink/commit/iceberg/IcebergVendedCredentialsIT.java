package dev.parquetconnect.sink.commit.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.IcebergFixture;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import dev.parquetconnect.sink.ValueRecords;
import dev.parquetconnect.storage.S3ProxyServer;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.Stores;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Credentials a REST catalog vends with a table: Iceberg's own REST catalog server (its {@code
 * RESTServerCatalogAdapter}, with {@code include-credentials=true}) vends S3Proxy's keys with every
 * table it loads or creates, and the connector's own keys are ones S3Proxy refuses. The sink's data
 * files (through our S3 store) and the table metadata it writes (through {@link StoreFileIO}) go to
 * the bucket with the vended keys; Iceberg's generic reader, through a catalog client that gets the
 * same keys vended, reads every row once.
 */
final class IcebergVendedCredentialsIT {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergVendedCredentialsIT.class);
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 2;
  private static final int OFFSETS = 40;

  @TempDir static Path dir;
  private static S3ProxyServer s3;
  private static IcebergFixture rest;

  @BeforeAll
  static void start() throws Exception {
    s3 = new S3ProxyServer();
    Map<String, String> server = new HashMap<>();
    server.put("io-impl", StoreFileIO.class.getName());
    connection().forEach((k, v) -> server.put(StoreFileIO.STORE_PROPERTY_PREFIX + k, v));
    // What the server vends, and signs its own metadata writes with (its FileIO takes them too).
    server.put("include-credentials", "true");
    server.put(VendedCredentials.ACCESS_KEY_ID, S3ProxyServer.accessKeyId());
    server.put(VendedCredentials.SECRET_ACCESS_KEY, S3ProxyServer.secretAccessKey());
    rest = IcebergFixture.rest(dir, "s3://" + S3ProxyServer.BUCKET + "/vended-warehouse", server);
  }

  @AfterAll
  static void stop() throws Exception {
    if (rest != null) {
      rest.close();
    }
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  void dataFilesAndMetadataGoToTheBucketWithTheVendedCredentials() throws Exception {
    Map<String, String> props = new HashMap<>(connection());
    props.put("name", "vended");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, "s3://" + S3ProxyServer.BUCKET + "/data");
    props.put("aws.access.key.id", "AKIAPQCNOTTHEVENDED01");
    props.put("aws.secret.access.key", "not-the-vended-secret");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "10000");
    props.put("iceberg.catalog.header.X-Iceberg-Access-Delegation", "vended-credentials");
    rest.tableMode(props);
    // The control: S3Proxy refuses the connector's own keys.
    try (Store own = Stores.open("s3://" + S3ProxyServer.BUCKET + "/", ownSettings(props))) {
      assertThrows(IOException.class, () -> own.list("data", true), "the own keys are refused");
    }
    // A table the catalog has before the task starts: recovery cleans its store directory, which
    // takes the vended keys (docs/iceberg.md: a table the task creates is cleaned before any is
    // vended).
    ((SupportsNamespaces) rest.catalog()).createNamespace(Namespace.of(IcebergFixture.NAMESPACE));
    rest.catalog()
        .createTable(
            TableIdentifier.of(IcebergFixture.NAMESPACE, TOPIC),
            new org.apache.iceberg.Schema(
                Types.NestedField.optional(1, "id", Types.LongType.get())));

    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition(TOPIC, p));
    }
    try (SinkTaskHarness task = new SinkTaskHarness(props, partitions)) {
      task.put(records(0, OFFSETS / 2));
      task.commitOpenFiles(10_000);
      task.put(records(OFFSETS / 2, OFFSETS));
      task.commitOpenFiles(10_000);
    }

    // Read as the sink's own catalog client does: StoreFileIO with the refused keys, plus what
    // the catalog vends with the table.
    Catalog reader = IcebergCatalogs.open(new ParquetSinkConfig(props).iceberg());
    try {
      readEveryRowOnce(reader.loadTable(TableIdentifier.of(IcebergFixture.NAMESPACE, TOPIC)));
    } finally {
      if (reader instanceof Closeable closeable) {
        closeable.close();
      }
    }
  }

  private static void readEveryRowOnce(Table table) throws IOException {
    assertNotNull(VendedCredentials.of(table.io().properties()), "the catalog vends credentials");
    String data = "s3://" + S3ProxyServer.BUCKET + "/data/";
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask t : tasks) {
        DataFile file = t.file();
        assertTrue(file.location().startsWith(data), file.location());
        files++;
      }
    }
    assertTrue(
        table.currentSnapshot().manifestListLocation().startsWith("s3://" + S3ProxyServer.BUCKET),
        table.currentSnapshot().manifestListLocation());
    Map<List<Long>, Integer> seen = new TreeMap<>(java.util.Comparator.comparing(Object::toString));
    try (CloseableIterable<Record> read = IcebergGenerics.read(table).build()) {
      for (Record r : read) {
        long partition = ((Number) r.getField("__kafka_partition")).longValue();
        long offset = (Long) r.getField("__kafka_offset");
        assertEquals(offset * PARTITIONS + partition, r.getField("id"));
        seen.merge(List.of(partition, offset), 1, Integer::sum);
      }
    }
    assertEquals(PARTITIONS * OFFSETS, seen.size(), "every offset");
    assertTrue(seen.values().stream().allMatch(n -> n == 1), "once: " + seen);
    LOG.info(
        "{} rows once in {} data files written with the vended credentials", seen.size(), files);
  }

  /** S3Proxy's endpoint and client settings, without keys. */
  private static Map<String, String> connection() {
    Map<String, String> settings = new HashMap<>();
    S3ProxyServer.settings(s3.endpoint())
        .forEach(
            (k, v) -> {
              if (!k.startsWith("aws.")) {
                settings.put(k, v instanceof Secret s ? s.value() : v.toString());
              }
            });
    return settings;
  }

  private static dev.parquetconnect.storage.StoreSettings ownSettings(Map<String, String> props) {
    Map<String, Object> own = new HashMap<>(props);
    own.put("aws.secret.access.key", Secret.of(props.get("aws.secret.access.key")));
    own.put("s3.retry.max.attempts", "1");
    return new dev.parquetconnect.storage.StoreSettings(own);
  }

  private static List<SinkRecord> records(long from, long to) {
    List<SinkRecord> records = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (long o = from; o < to; o++) {
        long id = o * PARTITIONS + p;
        Struct value =
            new Struct(IcebergFixture.ORDER_VALUE)
                .put("id", id)
                .put("name", "name-" + id)
                .put("amount", id / 4.0);
        records.add(
            ValueRecords.of(
                TOPIC, p, IcebergFixture.ORDER_VALUE, value, o, 1_700_000_000_000L + id));
      }
    }
    return records;
  }
}
