package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.cli.PqInProcess;
import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.ParquetRecordWriter;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.storage.ByteCountingS3;
import dev.parquetconnect.storage.Secret;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreOutput;
import dev.parquetconnect.storage.Stores;
import java.io.ByteArrayOutputStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Selective replay fetches little of an archive on S3: an archive of 100 sink files (2 partitions
 * of 50 files, 1,500 records of about 850 bytes each, 4 row groups per file, pages of at most 100
 * rows, a bloom filter on the unique {@code name}; about 94 MB) on S3Proxy, read through the
 * byte-counting proxy in front of it. A time slice of 1% of the archive's time span fetches at most
 * 3% of its bytes: every file's footer (one 8 KiB tail read, a second for the rest of a larger
 * footer), the page indexes of the files whose row group statistics overlap the slice (one read
 * each), and in their row groups only the pages (of every column) whose {@code __kafka_timestamp}
 * column index overlaps the slice. An equality filter on {@code name} fetches at most 5%: the
 * footers, the bloom filter of each row group and the page indexes of each file (one read), and the
 * row groups whose bloom filter may hold the name. The records replayed are exactly those selected;
 * {@code pq audit} reads the archive on S3 and finds it complete.
 *
 * <p>At the scale, 1 GB in 100 files as the sink writes them by default (one row group per
 * file, pages cut at 1,000 rows by {@code parquet.page.rows}), with {@code -Dselective.scale=1g}
 * and timeouts off (docs/source.md, Measured):
 *
 * <pre>
 * mvn -B -o verify -pl plugin -am -Dtest=none -DfailIfNoTests=false \
 *   -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=S3SelectiveReplayIT \
 *   -Dselective.scale=1g -Djunit.jupiter.execution.timeout.mode=disabled
 * </pre>
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
final class S3SelectiveReplayIT {
  private static final Logger LOG = LoggerFactory.getLogger(S3SelectiveReplayIT.class);

  private static final boolean ONE_GB =
      "1g".equalsIgnoreCase(System.getProperty("selective.scale"));

  static final int PARTITIONS = 2;
  static final int FILES_PER_PARTITION = 50;
  static final int ROWS_PER_FILE = ONE_GB ? 16_000 : 1_500;
  static final int ROW_GROUPS = ONE_GB ? 1 : 4;
  static final int PAGE_ROWS = ONE_GB ? 1_000 : 100;
  static final long T0 = 1_764_000_000_000L;

  /** Milliseconds between consecutive offsets of a partition. */
  static final long TICK = 10;

  static final Schema VALUE =
      SchemaBuilder.struct()
          .name("order")
          .field("id", Schema.INT64_SCHEMA)
          .field("name", Schema.STRING_SCHEMA)
          .field("payload", Schema.STRING_SCHEMA)
          .build();

  private static ByteCountingS3 s3;
  private static long archiveBytes;

  @BeforeAll
  static void writeArchive() throws Exception {
    s3 = new ByteCountingS3();
    long started = System.nanoTime();
    try (Store store = Stores.open(s3.url("archive"), s3.directSettings())) {
      for (int p = 0; p < PARTITIONS; p++) {
        for (int f = 0; f < FILES_PER_PARTITION; f++) {
          long first = (long) f * ROWS_PER_FILE;
          long last = first + ROWS_PER_FILE - 1;
          byte[] bytes = file(p, first, ROWS_PER_FILE);
          archiveBytes += bytes.length;
          if (p == 0 && f == 0) {
            LOG.info(
                "each file {} bytes, footer {} bytes",
                bytes.length,
                dev.parquetconnect.format.io.LittleEndian.getInt(bytes, bytes.length - 8));
          }
          try (StoreOutput out =
              store.create(
                  "topics/orders/partition="
                      + p
                      + "/"
                      + SinkArchive.fileName("orders", p, first, last, 0))) {
            out.write(bytes);
            out.commit();
          }
        }
      }
    }
    LOG.info(
        "archive of {} files, {} bytes, written in {} ms",
        PARTITIONS * FILES_PER_PARTITION,
        archiveBytes,
        (System.nanoTime() - started) / 1_000_000);
  }

  @AfterAll
  static void stop() throws Exception {
    if (s3 != null) {
      s3.close();
    }
  }

  /** The unique, high-cardinality name of a record. */
  static String name(int partition, long offset) {
    return "customer-" + partition + "-" + Long.toHexString(offset * 0x9E3779B97F4A7C15L);
  }

  static long timestamp(long offset) {
    return T0 + offset * TICK;
  }

  /** One sink file of {@code count} records from {@code first}, as the sink writes them. */
  static byte[] file(int partition, long first, int count) throws Exception {
    WriterOptions options =
        WriterOptions.builder()
            .codec(CompressionCodec.ZSTD)
            .rowGroupRowLimit(count / ROW_GROUPS)
            .pageRowLimit(PAGE_ROWS)
            .bloomFilter("name", count / ROW_GROUPS, 0.01)
            .build();
    FileLayout layout =
        FileLayout.of(Schema.OPTIONAL_STRING_SCHEMA, VALUE, MappingOptions.fullFidelity());
    SplittableRandom random = new SplittableRandom(partition * 1_000_003L + first);
    char[] payload = new char[800];
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ParquetRecordWriter writer = new ParquetRecordWriter(bytes, layout, options)) {
      for (long offset = first; offset < first + count; offset++) {
        for (int i = 0; i < payload.length; i++) {
          payload[i] = (char) ('0' + random.nextInt(64)); // does not compress away
        }
        Struct value =
            new Struct(VALUE)
                .put("id", offset)
                .put("name", name(partition, offset))
                .put("payload", new String(payload));
        writer.write(
            new SinkRecord(
                "orders",
                partition,
                Schema.OPTIONAL_STRING_SCHEMA,
                "key-" + offset,
                VALUE,
                value,
                offset,
                timestamp(offset),
                TimestampType.CREATE_TIME,
                new ConnectHeaders()));
      }
    }
    return bytes.toByteArray();
  }

  /** Source properties reading the archive through the counting proxy. */
  static Map<String, String> props(String... keyValues) {
    Map<String, String> p = new HashMap<>();
    p.put("name", "selective-replay");
    p.put("store.url", s3 == null ? "s3://lake/archive" : s3.url("archive"));
    if (s3 != null) {
      s3.countedSettings()
          .forEach((k, v) -> p.put(k, String.valueOf(v instanceof Secret s ? s.value() : v)));
    }
    p.put("discovery.interval.ms", "100");
    p.put("batch.size", "5000");
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      p.put(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  @Test
  void anEqualityFilterOnAUniqueStringFetchesAtMostFivePercentOfTheArchive() throws Exception {
    long offset = (long) FILES_PER_PARTITION * ROWS_PER_FILE * 61 / 100 + 7;
    String wanted = name(1, offset);
    long started = System.nanoTime();
    List<SourceRecord> got = replay(props("replay.filter", "name = '" + wanted + "'"));
    long fetched = s3.bytesToClient();
    double share = 100.0 * fetched / archiveBytes;
    LOG.info(
        "name = '{}': {} records, {} of {} bytes fetched ({}%) in {} requests, {} ms",
        wanted,
        got.size(),
        fetched,
        archiveBytes,
        String.format(java.util.Locale.ROOT, "%.2f", share),
        s3.requests(),
        (System.nanoTime() - started) / 1_000_000);
    assertEquals(1, got.size());
    assertEquals(wanted, ((Struct) got.get(0).value()).getString("name"));
    assertEquals(1, got.get(0).kafkaPartition());
    assertEquals(timestamp(offset), got.get(0).timestamp());
    assertTrue(share <= 5.0, "fetched " + share + "% of the archive for one name");
  }

  /** Replays with {@code props} and returns the records and the bytes fetched. */
  private static List<SourceRecord> replay(Map<String, String> props) throws Exception {
    s3.resetCounters();
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> got = driver.drain(3);
    driver.stop();
    return got;
  }

  /** pq audit reads the archive on S3 itself (the plugin's stores on its class path). */
  @Test
  void pqAuditFindsTheArchiveOnS3CompleteAndExact(@TempDir Path local) throws Exception {
    Path storeConfig = local.resolve("s3.properties");
    Properties settings = new Properties();
    s3.directSettings()
        .forEach((k, v) -> settings.put(k, String.valueOf(v instanceof Secret s ? s.value() : v)));
    try (Writer out = Files.newBufferedWriter(storeConfig)) {
      settings.store(out, null);
    }
    long started = System.nanoTime();
    PqInProcess.runOrFail(
        "audit",
        s3.url("archive"),
        "--store-config",
        storeConfig.toString(),
        "--from",
        "orders:0:0,orders:1:0");
    LOG.info("pq audit of the S3 archive: {} ms", (System.nanoTime() - started) / 1_000_000);
  }

  @Test
  void aOnePercentTimeSliceFetchesAtMostThreePercentOfTheArchive() throws Exception {
    long span = (long) FILES_PER_PARTITION * ROWS_PER_FILE;
    long fromOffset = span * 37 / 100 + 123; // inside a file, across a row group boundary
    long untilOffset = fromOffset + span / 100;
    assertEquals(span / 100, untilOffset - fromOffset);
    long started = System.nanoTime();
    List<SourceRecord> got =
        replay(
            props(
                "replay.from.timestamp",
                Long.toString(timestamp(fromOffset)),
                "replay.until.timestamp",
                java.time.Instant.ofEpochMilli(timestamp(untilOffset)).toString()));
    long fetched = s3.bytesToClient();
    long millis = (System.nanoTime() - started) / 1_000_000;
    double share = 100.0 * fetched / archiveBytes;
    LOG.info(
        "1% time slice: {} records, {} of {} bytes fetched ({}%) in {} requests, {} ms",
        got.size(),
        fetched,
        archiveBytes,
        String.format(java.util.Locale.ROOT, "%.2f", share),
        s3.requests(),
        millis);
    assertEquals(PARTITIONS * (untilOffset - fromOffset), got.size());
    long[] expected = new long[PARTITIONS];
    java.util.Arrays.fill(expected, fromOffset);
    for (SourceRecord r : got) {
      int p = r.kafkaPartition();
      assertEquals(timestamp(expected[p]), r.timestamp(), "partition " + p + " in offset order");
      assertEquals(name(p, expected[p]), ((Struct) r.value()).getString("name"));
      expected[p]++;
    }
    assertTrue(share <= 3.0, "fetched " + share + "% of the archive for a 1% time slice");
  }
}
