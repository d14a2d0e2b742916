package dev.parquetconnect.it;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.ValueRecords;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What the table-mode tests share: Iceberg's REST catalog server ({@link IcebergRestServer}) with a
 * client catalog of the test's own, the sink settings that commit into it, and the order record
 * most of them write. One per test class; closing it closes the client, then the server. Its static
 * helpers serve the in-process tests of any catalog: an in-process sink's settings on a local
 * store, a test's own client of the catalog they name, a topic's partitions and records.
 */
public final class IcebergFixture implements AutoCloseable {
  /** The namespace of the tables the sink settings name ({@code lake.${topic}}). */
  public static final String NAMESPACE = "lake";

  /** The value schema of the orders the table tests write: id, an optional name, an amount. */
  public static final Schema ORDER_VALUE =
      SchemaBuilder.struct()
          .name("Order")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.OPTIONAL_STRING_SCHEMA)
          .field("amount", Schema.FLOAT64_SCHEMA)
          .build();

  private final IcebergRestServer server;
  private final Catalog catalog;

  private IcebergFixture(IcebergRestServer server) {
    this.server = server;
    this.catalog =
        CatalogUtil.buildIcebergCatalog(
            "test", Map.of("type", "rest", "uri", server.uri()), new Configuration());
  }

  /**
   * A REST catalog whose state is in {@code dir/rest} and whose warehouse is {@code
   * dir/rest-warehouse}.
   */
  public static IcebergFixture restOnLocalDisk(Path dir) throws Exception {
    return rest(dir, dir.resolve("rest-warehouse").toString(), Map.of());
  }

  /**
   * A REST catalog whose state is in {@code dir/rest} and whose tables live under {@code
   * warehouse}, written by the server with {@code backendProperties} (an S3 endpoint, say).
   */
  public static IcebergFixture rest(
      Path dir, String warehouse, Map<String, String> backendProperties) throws Exception {
    IcebergRestServer server =
        IcebergRestServer.start(
            Files.createDirectories(dir.resolve("rest")), warehouse, backendProperties);
    try {
      return new IcebergFixture(server);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  /** The catalog's URI ({@code iceberg.catalog.uri}). */
  public String uri() {
    return server.uri();
  }

  /** The server, to stop and restart it. */
  public IcebergRestServer server() {
    return server;
  }

  /** The test's own client of the catalog (not the task's). */
  public Catalog catalog() {
    return catalog;
  }

  /** The table of {@code topic}, as the sink settings name it, loaded now. */
  public Table table(String topic) {
    return catalog.loadTable(TableIdentifier.of(NAMESPACE, topic));
  }

  /**
   * Puts into {@code props} what makes a sink commit into this catalog: table mode, the catalog's
   * URI, and one table per topic in {@link #NAMESPACE}.
   *
   * @return {@code props}
   */
  public Map<String, String> tableMode(Map<String, String> props) {
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.CATALOG_URI_CONFIG, server.uri());
    props.put(IcebergConfig.TABLE_CONFIG, NAMESPACE + ".${topic}");
    return props;
  }

  /**
   * The settings of an in-process table-mode sink ({@code SinkTaskHarness}) named {@code
   * connector}: its store in {@code root/store} (created), files committed by a {@code
   * rotate.schedule.interval.ms} of {@code scheduleMs}, one table per topic in {@link #NAMESPACE};
   * the catalog is the caller's to add.
   */
  public static Map<String, String> localSink(Path root, String connector, long scheduleMs)
      throws IOException {
    Files.createDirectories(root);
    Map<String, String> props = new HashMap<>();
    props.put("name", connector);
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, root.resolve("store").toUri().toString());
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(scheduleMs));
    props.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    props.put(IcebergConfig.TABLE_CONFIG, NAMESPACE + ".${topic}");
    return props;
  }

  /**
   * {@link #localSink} committing into a Hadoop catalog whose warehouse is {@code root/warehouse}.
   */
  public static Map<String, String> localSinkOnHadoop(Path root, String connector, long scheduleMs)
      throws IOException {
    Map<String, String> props = localSink(root, connector, scheduleMs);
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "hadoop");
    props.put(IcebergConfig.CATALOG_WAREHOUSE_CONFIG, root.resolve("warehouse").toString());
    return props;
  }

  /** {@link #localSink} committing into this fixture's REST catalog. */
  public Map<String, String> localSinkOnRest(Path root, String connector, long scheduleMs)
      throws IOException {
    Map<String, String> props = localSink(root, connector, scheduleMs);
    props.put(IcebergConfig.CATALOG_TYPE_CONFIG, "rest");
    props.put(IcebergConfig.CATALOG_URI_CONFIG, server.uri());
    return props;
  }

  /**
   * A client of the catalog that the sink settings {@code props} name (their {@code
   * iceberg.catalog.*} keys), the test's own: the caller closes it.
   */
  public static Catalog catalogOf(Map<String, String> props) {
    Map<String, String> catalogProps = new HashMap<>();
    for (Map.Entry<String, String> e : props.entrySet()) {
      if (e.getKey().startsWith(IcebergConfig.CATALOG_PREFIX)) {
        catalogProps.put(e.getKey().substring(IcebergConfig.CATALOG_PREFIX.length()), e.getValue());
      }
    }
    return CatalogUtil.buildIcebergCatalog("iceberg", catalogProps, new Configuration());
  }

  /** Kafka partitions 0 to {@code count - 1} of {@code topic}. */
  public static List<TopicPartition> partitions(String topic, int count) {
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < count; p++) {
      partitions.add(new TopicPartition(topic, p));
    }
    return partitions;
  }

  /**
   * Offsets {@code [from, to)} of each of {@code topic}'s {@code partitions}, partition by
   * partition: offset o of partition p has id {@code o * partitions + p}, the value {@code
   * valueOf(id)} of {@code schema} and the timestamp {@code 1_700_000_000_000 + id}.
   */
  public static List<SinkRecord> records(
      String topic,
      int partitions,
      long from,
      long to,
      Schema schema,
      LongFunction<Struct> valueOf) {
    List<SinkRecord> records = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      for (long o = from; o < to; o++) {
        long id = o * partitions + p;
        records.add(
            ValueRecords.of(topic, p, schema, valueOf.apply(id), o, 1_700_000_000_000L + id));
      }
    }
    return records;
  }

  /** The {@link #ORDER_VALUE} of id {@code id}: no name for every seventh, an amount of id / 4. */
  public static Struct order(long id) {
    return new Struct(ORDER_VALUE)
        .put("id", id)
        .put("name", id % 7 == 0 ? null : "name-" + id)
        .put("amount", id / 4.0);
  }

  @Override
  public void close() throws Exception {
    try {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    } finally {
      server.close();
    }
  }
}
