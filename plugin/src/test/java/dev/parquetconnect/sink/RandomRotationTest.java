package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.ConnectFiles;
import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.MappingOptions;
import dev.parquetconnect.connect.RandomRoundTripTest;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.metrics.TaskMetrics;
import dev.parquetconnect.sink.commit.CrashPoints;
import dev.parquetconnect.storage.StoreOutput;
import dev.parquetconnect.storage.Stores;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeded random runs of the real {@link ParquetSinkTask} (Parquet files through {@link
 * ParquetFiles}, a local store, a {@link ManualClock}) with every rotation trigger at once: several
 * topics and Kafka partitions interleaved in random batches, a field or header partitioner with
 * many values (many open files), records of random sizes up to a few hundred KB, a small random
 * {@code buffer.max.bytes} (early row groups, budget commits), random {@code file.max.bytes},
 * {@code flush.size}, {@code rotate.interval.ms} on record times that go forward and sometimes back
 * (record, field or wall-clock extractor), {@code rotate.schedule.interval.ms} with clock advances,
 * schema changes, random row-group and page targets, codec and page version.
 *
 * <p>At the end (after a final scheduled commit): every offset in exactly one committed file; each
 * file named after its commit's first and last offset, the commits tiling each partition and all
 * files of a commit sharing the name; every record read back equal by parquet-java, our reader and
 * DuckDB, in its own partition directory; footers consistent (row groups summing up, a row group
 * ending at every early flush); {@code file.max.bytes} kept to within the record that crossed it;
 * record times of a commit within {@code rotate.interval.ms} of its first record's; every record of
 * a commit read before the next schedule boundary after the commit began. After every put: the
 * buffered bytes (metric and budget) under {@code buffer.max.bytes}, and {@code preCommit} never
 * ahead of the committed files. Everything follows from the seed (the clock's phase too).
 */
final class RandomRotationTest {
  private static final Logger LOG = LoggerFactory.getLogger(RandomRotationTest.class);
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();
  private static final int SEEDS = Integer.getInteger("rotation.seeds", 4);
  private static final long FIRST_SEED = Long.getLong("rotation.seed", 1);
  private static final Pattern NAME =
      Pattern.compile("(.+)\\+(\\d+)\\+(\\d{20})\\+(\\d{20})(?:-(\\d+))?\\.parquet");
  private static final Pattern PROVISIONAL =
      Pattern.compile("(.+)\\+(\\d+)\\+(\\d{20})(?:-(\\d+))?\\.parquet");

  /** Not brotli: parquet-java, an oracle here, has no Brotli codec on the test classpath. */
  private static final String[] CODECS = {
    "uncompressed", "snappy", "gzip", "zstd", "lz4_raw", "lz4"
  };

  @TempDir Path dir;

  /** Totals over all seeds, so that the test proves it exercised every trigger. */
  private final Map<String, Long> totals = new TreeMap<>();

  @Test
  void everyRotationTriggerKeepsRecordsOnceEqualAndWithinLimits() throws Exception {
    for (long seed = FIRST_SEED; seed < FIRST_SEED + SEEDS; seed++) {
      new Run(seed).run();
    }
    LOG.info("random rotation totals over {} seeds: {}", SEEDS, totals);
    if (SEEDS >= 4) {
      for (String t :
          List.of(
              "rotations-flush-size",
              "rotations-file-max-bytes",
              "rotations-rotate-interval",
              "rotations-rotate-schedule-interval",
              "rotations-schema-change",
              "rotations-buffer-max-bytes",
              "early-flushes",
              "files-with-early-flushed-row-groups",
              "large-values")) {
        assertTrue(totals.getOrDefault(t, 0L) > 0, "no seed exercised " + t + ": " + totals);
      }
    }
  }

  private void count(String what, long n) {
    totals.merge(what, n, Long::sum);
  }

  /** One record as produced, and what the test knows of how the task got it. */
  private record Produced(
      SinkRecord record, String directory, long time, long putWall, int put, long bytes) {}

  /** One seed's configuration, records, task and checks. */
  private final class Run {
    final long seed;
    final Random random;
    final Path root;
    final String name;
    final ManualClock clock = new ManualClock();
    final TestContext context = new TestContext(false);
    final Map<String, String> props = new HashMap<>();
    final Map<TopicPartition, TreeMap<Long, Produced>> produced = new LinkedHashMap<>();

    /** Early flushes per provisional file: the record counts at which a row group was cut. */
    final Map<String, List<Long>> flushesByProvisionalKey = new HashMap<>();

    /** Puts in which memory pressure committed something. */
    final List<Boolean> budgetCommitInPut = new ArrayList<>();

    final List<Long> putWall = new ArrayList<>();
    long bufferMax;
    long fileMax;
    long flushSize;
    long intervalMs;
    long scheduleMs;
    String extractor;
    boolean headerPartitioner;
    boolean storeKey;
    boolean storeHeaders;
    boolean micros;

    Run(long seed) {
      this.seed = seed;
      this.random = new Random(seed * 7919 + 13);
      this.root = dir.resolve("seed-" + seed);
      this.name = "rotation-" + seed;
    }

    void run() throws Exception {
      configure();
      List<TopicPartition> partitions = produce();
      ParquetSinkTask task =
          new ParquetSinkTask(
              c -> new FlushRecorder(ParquetFiles.writerFactory(c)),
              c -> Stores.open(c.storeUrl(), c.storeSettings()),
              clock,
              CrashPoints.NONE);
      context.assignment.addAll(partitions);
      task.initialize(context);
      task.start(props);
      ObjectName bean = TaskMetrics.fallbackObjectName(SinkMetrics.FALLBACK_TYPE, name, "0");
      try {
        task.open(partitions);
        feed(task, partitions, bean);
        // The final scheduled commit: everything read is committed.
        clock.advance(scheduleMs + 1);
        afterPut(task, bean, List.of(), attribute(bean, "rotations-buffer-max-bytes"));
        assertEquals(0, task.bufferedBytes(), at() + ": nothing buffered after the last commit");
        Map<TopicPartition, Long> reported = reported(task);
        for (TopicPartition tp : partitions) {
          assertEquals(produced.get(tp).lastKey() + 1, reported.get(tp), at() + " " + tp);
        }
        for (String metric :
            List.of(
                "rotations-flush-size",
                "rotations-file-max-bytes",
                "rotations-rotate-interval",
                "rotations-rotate-schedule-interval",
                "rotations-schema-change",
                "rotations-buffer-max-bytes",
                "commits",
                "files-committed")) {
          count(metric, attribute(bean, metric));
        }
        assertEquals(0, attribute(bean, "commit-failures"), at());
        assertEquals(0, attribute(bean, "rotations-other"), at());
        checkStore(bean);
      } finally {
        task.close(partitions);
        task.stop();
      }
    }

    String at() {
      return "seed " + seed + " " + props;
    }

    void configure() {
      // Mostly a small budget (early row groups, budget commits); sometimes a roomy one, under
      // which every commit has a trigger the test can tell (
      // file.max.bytes among them). Each even seed is roomy, with files of at most 192 KiB.
      boolean roomy = seed % 2 == 0;
      bufferMax = roomy ? 64L << 20 : (1L << 20) + random.nextInt(3 << 20);
      fileMax =
          65_536
              + (roomy || random.nextBoolean()
                  ? random.nextInt(128 << 10)
                  : random.nextInt(4 << 20));
      flushSize = 10 + random.nextInt(random.nextBoolean() ? 100 : 1000);
      intervalMs = random.nextInt(4) == 0 ? -1 : 2_000 + random.nextInt(60_000);
      scheduleMs = 10_000 + random.nextInt(120_000);
      extractor = new String[] {"record", "field", "wallclock"}[random.nextInt(3)];
      headerPartitioner = random.nextBoolean();
      storeKey = random.nextBoolean();
      storeHeaders = random.nextBoolean();
      micros = random.nextBoolean();
      props.put("name", name);
      props.put(ParquetSinkConfig.STORE_URL_CONFIG, root.toUri().toString());
      props.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, "600000");
      props.put(ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG, "0");
      props.put(ParquetSinkConfig.BUFFER_MAX_BYTES_CONFIG, Long.toString(bufferMax));
      props.put(ParquetSinkConfig.FILE_MAX_BYTES_CONFIG, Long.toString(fileMax));
      props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, Long.toString(flushSize));
      props.put(ParquetSinkConfig.ROTATE_INTERVAL_MS_CONFIG, Long.toString(intervalMs));
      props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, Long.toString(scheduleMs));
      props.put(ParquetSinkConfig.TIMESTAMP_EXTRACTOR_CONFIG, extractor);
      if (extractor.equals("field")) {
        props.put(ParquetSinkConfig.TIMESTAMP_FIELD_CONFIG, "ts");
      }
      if (headerPartitioner) {
        props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "header");
        props.put(ParquetSinkConfig.PARTITION_HEADERS_CONFIG, "h");
      } else {
        props.put(ParquetSinkConfig.PARTITIONER_CONFIG, "field");
        props.put(ParquetSinkConfig.PARTITION_FIELDS_CONFIG, "part");
      }
      props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, Boolean.toString(storeKey));
      props.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, Boolean.toString(storeHeaders));
      props.put(ParquetSinkConfig.PARQUET_TIMESTAMP_UNIT_CONFIG, micros ? "micros" : "millis");
      props.put(ParquetSinkConfig.PARQUET_CODEC_CONFIG, CODECS[random.nextInt(CODECS.length)]);
      props.put(ParquetSinkConfig.PARQUET_PAGE_VERSION_CONFIG, random.nextBoolean() ? "v1" : "v2");
      props.put(
          ParquetSinkConfig.PARQUET_ENCODING_POLICY_CONFIG,
          random.nextBoolean() ? "adaptive" : "compatible");
      props.put(
          ParquetSinkConfig.PARQUET_ROW_GROUP_BYTES_CONFIG,
          Long.toString(65_536 + random.nextInt(random.nextBoolean() ? 256 << 10 : 8 << 20)));
      props.put(
          ParquetSinkConfig.PARQUET_PAGE_BYTES_CONFIG,
          Integer.toString(1024 + random.nextInt(random.nextBoolean() ? 16 << 10 : 1 << 20)));
      props.put(
          ParquetSinkConfig.PARQUET_PAGE_ROWS_CONFIG,
          Integer.toString(random.nextBoolean() ? 0 : 1 + random.nextInt(500)));
      props.put(
          ParquetSinkConfig.PARQUET_DICTIONARY_BYTES_CONFIG,
          Integer.toString(1024 + random.nextInt(1 << 20)));
      // Where the clock starts within the schedule's period follows from the seed.
      clock.advance(
          Math.floorMod(random.nextInt((int) scheduleMs) - clock.wallMillis(), scheduleMs));
    }

    /** The records of every partition, in offset order, with times, sizes and directories. */
    List<TopicPartition> produce() {
      RandomRoundTripTest.Generator g = new RandomRoundTripTest.Generator(random);
      int topics = 2 + random.nextInt(2);
      int values = 3 + random.nextInt(12);
      List<TopicPartition> partitions = new ArrayList<>();
      for (int t = 0; t < topics; t++) {
        String topic = "rot" + t;
        Schema[] schemas = {valueSchema(g, topic, 1), valueSchema(g, topic, 2)};
        Schema keySchema = random.nextBoolean() ? Schema.OPTIONAL_STRING_SCHEMA : g.schema(2, true);
        int count = 1 + random.nextInt(3);
        for (int p = 0; p < count; p++) {
          TopicPartition tp = new TopicPartition(topic, p);
          partitions.add(tp);
          TreeMap<Long, Produced> records = new TreeMap<>();
          produced.put(tp, records);
          int n = 80 + random.nextInt(220);
          long offset = random.nextInt(3) == 0 ? random.nextInt(100_000) : 0;
          long time = 1_700_000_000_000L + random.nextInt(1_000_000_000);
          int version = 0;
          for (int i = 0; i < n; i++) {
            offset += random.nextInt(15) == 0 ? 2 + random.nextInt(4) : 1;
            if (random.nextInt(200) == 0) {
              version = 1 - version;
            }
            long span = intervalMs > 0 ? intervalMs : 30_000;
            time +=
                random.nextInt(20) == 0
                    ? -random.nextInt((int) (3 * span))
                    : random.nextInt((int) (span / 4));
            String directoryValue = "v" + random.nextInt(values);
            Schema schema = schemas[version];
            Struct value = new Struct(schema);
            long bytes = 200;
            value.put("part", headerPartitioner ? "x" + random.nextInt(3) : directoryValue);
            value.put("ts", time);
            String big = text(random.nextInt(3) == 0 ? size() : 0);
            value.put("big", big);
            bytes += big == null ? 0 : big.getBytes(StandardCharsets.UTF_8).length;
            byte[] raw = random.nextInt(3) == 0 ? bytes(size()) : null;
            value.put("raw", raw);
            bytes += raw == null ? 0 : raw.length;
            Object rest = g.value(schema.field("rest").schema());
            value.put("rest", rest);
            bytes += 4096; // a generous bound of the generator's small nested values
            if (version == 1) {
              value.put("extra", (long) i);
            }
            Object key = storeKey || random.nextBoolean() ? g.value(keySchema) : null;
            ConnectHeaders headers = new ConnectHeaders();
            if (headerPartitioner) {
              headers.addString("h", directoryValue);
            }
            if (random.nextInt(4) == 0) {
              headers.addInt("n", i);
            }
            long recordTimestamp = extractor.equals("record") ? time : time + random.nextInt(99);
            SinkRecord record =
                new SinkRecord(
                    topic,
                    p,
                    keySchema,
                    key,
                    schema,
                    value,
                    offset,
                    recordTimestamp,
                    TimestampType.CREATE_TIME,
                    headers);
            String directory = (headerPartitioner ? "h=" : "part=") + directoryValue;
            records.put(offset, new Produced(record, directory, time, -1, -1, bytes));
            if (bytes > 100_000) {
              count("large-values", 1);
            }
          }
        }
      }
      return partitions;
    }

    /** Mostly small, sometimes a few KB, sometimes 100 KB and more. */
    int size() {
      int kind = random.nextInt(100);
      return kind < 80
          ? random.nextInt(200)
          : kind < 96 ? random.nextInt(20_000) : 100_000 + random.nextInt(200_000);
    }

    String text(int n) {
      if (n == 0) {
        return random.nextInt(4) == 0 ? null : "";
      }
      StringBuilder b = new StringBuilder(n);
      for (int i = 0; i < n; i++) {
        b.append(
            (char)
                (random.nextInt(10) == 0 ? 0x4e00 + random.nextInt(50) : 'a' + random.nextInt(26)));
      }
      return b.toString();
    }

    byte[] bytes(int n) {
      byte[] b = new byte[n];
      random.nextBytes(b);
      return b;
    }

    Schema valueSchema(RandomRoundTripTest.Generator g, String topic, int version) {
      SchemaBuilder b =
          SchemaBuilder.struct()
              .name("com.example." + topic + ".V" + version)
              .version(version)
              .field("part", Schema.STRING_SCHEMA)
              .field("ts", Schema.INT64_SCHEMA)
              .field("big", Schema.OPTIONAL_STRING_SCHEMA)
              .field("raw", Schema.OPTIONAL_BYTES_SCHEMA)
              .field("rest", g.struct(1, true, topic + "Rest" + version));
      if (version == 2) {
        b.field("extra", Schema.OPTIONAL_INT64_SCHEMA);
      }
      return b.build();
    }

    /** Puts the records in random interleaved batches, moving the clock between them. */
    void feed(ParquetSinkTask task, List<TopicPartition> partitions, ObjectName bean)
        throws Exception {
      Map<TopicPartition, Long> next = new HashMap<>();
      for (TopicPartition tp : partitions) {
        next.put(tp, produced.get(tp).firstKey());
      }
      while (!next.isEmpty()) {
        List<SinkRecord> batch = new ArrayList<>();
        int runs = 1 + random.nextInt(6);
        for (int r = 0; r < runs && !next.isEmpty(); r++) {
          List<TopicPartition> open = new ArrayList<>(next.keySet());
          TopicPartition tp = open.get(random.nextInt(open.size()));
          TreeMap<Long, Produced> records = produced.get(tp);
          Long offset = next.get(tp);
          for (int k = 1 + random.nextInt(40); k > 0 && offset != null; k--) {
            Produced p = records.get(offset);
            long time = extractor.equals("wallclock") ? clock.wallMillis() : p.time();
            records.put(
                offset,
                new Produced(
                    p.record(),
                    p.directory(),
                    time,
                    clock.wallMillis(),
                    putWall.size(),
                    p.bytes()));
            batch.add(p.record());
            offset = records.higherKey(offset);
          }
          if (offset == null) {
            next.remove(tp);
          } else {
            next.put(tp, offset);
          }
        }
        long budgetCommits = attribute(bean, "rotations-buffer-max-bytes");
        task.put(batch);
        afterPut(task, bean, batch, budgetCommits);
        clock.advance(
            random.nextInt(8) == 0
                ? random.nextInt((int) (2 * scheduleMs))
                : random.nextInt(3_000));
      }
    }

    /**
     * After each put: the memory accounted and reported stays under {@code buffer.max.bytes}
     * (reaching it flushes and commits within the put), and what preCommit reports is covered by
     * committed files (their names; {@link #checkStore} then checks they hold those records).
     */
    void afterPut(
        ParquetSinkTask task, ObjectName bean, List<SinkRecord> batch, long budgetCommitsBefore)
        throws Exception {
      if (batch.isEmpty()) {
        task.put(batch);
      }
      putWall.add(clock.wallMillis());
      budgetCommitInPut.add(attribute(bean, "rotations-buffer-max-bytes") > budgetCommitsBefore);
      long metric = attribute(bean, "buffered-bytes");
      assertEquals(task.bufferedBytes(), metric, at() + ": the metric is the budget's total");
      assertTrue(metric < bufferMax, at() + ": buffered " + metric + " of " + bufferMax);
      Map<TopicPartition, Long> committedEnds = committedEnds();
      for (Map.Entry<TopicPartition, Long> e : reported(task).entrySet()) {
        Long end = committedEnds.get(e.getKey());
        assertNotNull(end, at() + ": " + e + " reported with no committed file");
        // Offsets up to the newest commit's E are reported once committed, no further.
        assertEquals(end + 1, e.getValue(), at() + ": " + e.getKey() + " reported");
      }
      assertTrue(
          context.seeks.isEmpty()
              || context.seeks.keySet().stream()
                  .allMatch(tp -> context.seeks.get(tp) == produced.get(tp).firstKey()),
          at() + ": no rewind: " + context.seeks);
      assertTrue(context.paused.isEmpty(), at() + ": paused " + context.paused);
    }

    Map<TopicPartition, Long> reported(ParquetSinkTask task) {
      Map<TopicPartition, Long> out = new HashMap<>();
      task.preCommit(Map.of()).forEach((tp, o) -> out.put(tp, o.offset()));
      return out;
    }

    /** The newest E per partition among the committed files' names. */
    Map<TopicPartition, Long> committedEnds() throws IOException {
      Map<TopicPartition, Long> ends = new HashMap<>();
      for (Path file : dataFiles()) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        assertTrue(m.matches(), at() + ": " + file);
        ends.merge(
            new TopicPartition(m.group(1), Integer.parseInt(m.group(2))),
            Long.parseLong(m.group(4)),
            Math::max);
      }
      return ends;
    }

    List<Path> dataFiles() throws IOException {
      Path topics = root.resolve("topics");
      if (!Files.isDirectory(topics)) {
        return List.of();
      }
      try (Stream<Path> walk = Files.walk(topics)) {
        return walk.filter(Files::isRegularFile)
            .filter(f -> !topics.relativize(f).getName(0).toString().equals("_markers"))
            .filter(f -> !f.getFileName().toString().startsWith(".tmp-pqc-"))
            .sorted()
            .toList();
      }
    }

    /** A commit: its name and files, and the records they hold. */
    final class Commit {
      final TopicPartition tp;
      final long start;
      final long end;
      final List<Path> files = new ArrayList<>();
      final TreeMap<Long, Produced> records = new TreeMap<>();
      final Map<Path, List<Produced>> byFile = new LinkedHashMap<>();

      Commit(TopicPartition tp, long start, long end) {
        this.tp = tp;
        this.start = start;
        this.end = end;
      }
    }

    void checkStore(ObjectName bean) throws Exception {
      try (Stream<Path> walk = Files.walk(root)) {
        assertEquals(
            List.of(),
            walk.filter(f -> f.getFileName().toString().startsWith(".tmp-pqc-")).toList(),
            at() + ": no temporary file left");
      }
      Map<String, Commit> commits = new TreeMap<>();
      Map<TopicPartition, Map<Long, Path>> seen = new HashMap<>();
      long bytes = 0;
      long rows = 0;
      List<Path> files = dataFiles();
      try (DuckDbOracle duck = new DuckDbOracle()) {
        for (Path file : files) {
          String fileName = file.getFileName().toString();
          Matcher m = NAME.matcher(fileName);
          assertTrue(m.matches(), at() + ": " + file);
          assertNull(m.group(5), at() + ": no attempt was rolled back: " + file);
          TopicPartition tp = new TopicPartition(m.group(1), Integer.parseInt(m.group(2)));
          long start = Long.parseLong(m.group(3));
          long end = Long.parseLong(m.group(4));
          Path topicDir = root.resolve("topics").resolve(tp.topic());
          assertEquals(topicDir, file.getParent().getParent(), at() + ": " + file);
          Commit commit =
              commits.computeIfAbsent(tp + "@" + start, k -> new Commit(tp, start, end));
          assertEquals(
              end,
              commit.end,
              at()
                  + ": the files of the commit at "
                  + start
                  + " share its name: "
                  + file
                  + " and "
                  + commit.files);
          commit.files.add(file);

          List<Produced> inFile = checkFile(file, tp, duck);
          commit.byFile.put(file, inFile);
          for (Produced p : inFile) {
            long offset = p.record().kafkaOffset();
            Path before = seen.computeIfAbsent(tp, k -> new HashMap<>()).put(offset, file);
            assertNull(before, at() + ": " + tp + "@" + offset + " in " + before + " and " + file);
            commit.records.put(offset, p);
            assertEquals(
                p.directory(),
                file.getParent().getFileName().toString(),
                at() + ": " + tp + "@" + offset + " in its partition directory");
          }
          bytes += Files.size(file);
          rows += inFile.size();
        }
      }
      long total = produced.values().stream().mapToLong(Map::size).sum();
      assertEquals(total, rows, at() + ": every record in a file");
      for (Map.Entry<TopicPartition, TreeMap<Long, Produced>> e : produced.entrySet()) {
        assertEquals(
            e.getValue().keySet(),
            new TreeSet<>(seen.getOrDefault(e.getKey(), Map.of()).keySet()),
            at() + ": every offset of " + e.getKey() + " committed once");
      }
      assertEquals(files.size(), attribute(bean, "files-committed"), at());
      assertEquals(bytes, attribute(bean, "bytes-written"), at());
      assertEquals(total, attribute(bean, "records-written"), at());
      assertEquals(commits.size(), attribute(bean, "commits"), at());
      for (Commit c : commits.values()) {
        checkCommit(c);
      }
    }

    /**
     * A commit covers exactly its records from S to E (offsets with gaps in between): S and E are
     * its first and last (nothing is skipped here); its record times stay within rotate.interval.ms
     * of its first record's; its records were all read before the schedule boundary that followed
     * its first; and a file that went past file.max.bytes did so by its last record only.
     */
    void checkCommit(Commit c) {
      String at = at() + ": commit " + c.tp + " " + c.start + "-" + c.end + " " + c.files;
      TreeMap<Long, Produced> all = produced.get(c.tp);
      assertEquals(all.subMap(c.start, true, c.end, true).keySet(), c.records.keySet(), at);
      Produced first = c.records.firstEntry().getValue();
      if (intervalMs > 0) {
        for (Produced p : c.records.values()) {
          assertTrue(
              p.time() - first.time() < intervalMs,
              at
                  + ": offset "
                  + p.record().kafkaOffset()
                  + " at "
                  + p.time()
                  + " is "
                  + (p.time() - first.time())
                  + " ms after the first record's time, rotate.interval.ms "
                  + intervalMs);
        }
      }
      long deadline = Math.floorDiv(first.putWall(), scheduleMs) * scheduleMs + scheduleMs;
      for (Produced p : c.records.values()) {
        assertTrue(
            p.putWall() < deadline,
            at
                + ": offset "
                + p.record().kafkaOffset()
                + " was put at "
                + p.putWall()
                + ", after the schedule boundary "
                + deadline
                + " that follows the commit's first record (put at "
                + first.putWall()
                + ")");
      }
      for (Map.Entry<Path, List<Produced>> e : c.byFile.entrySet()) {
        List<Produced> records = e.getValue();
        long last = records.get(records.size() - 1).bytes();
        long dataBytes = dataBytes(e.getKey());
        assertTrue(
            dataBytes <= fileMax + last + 16_384,
            at
                + ": "
                + e.getKey()
                + " holds "
                + dataBytes
                + " bytes of row groups, file.max.bytes "
                + fileMax
                + " plus its last record (at most "
                + last
                + " bytes)");
      }
      // A commit none of the other triggers explains was made by file.max.bytes: one of its
      // files must then have come near it. What is buffered counts about uncompressed (the open
      // pages in their plain size), hence the comparison with the row groups' uncompressed
      // size, and a factor of 4 for encodings smaller than plain.
      Map.Entry<Long, Produced> next = all.higherEntry(c.end);
      if (next != null && !explainedWithoutFileSize(c, next.getValue())) {
        long largest = 0;
        for (Path f : c.files) {
          largest = Math.max(largest, uncompressedBytes(f));
        }
        assertTrue(
            largest * 4 >= fileMax,
            at
                + ": committed before "
                + next.getKey()
                + " with no trigger but file.max.bytes "
                + fileMax
                + ", its largest file holding "
                + largest
                + " uncompressed bytes of row groups");
      }
    }

    boolean explainedWithoutFileSize(Commit c, Produced next) {
      Produced first = c.records.firstEntry().getValue();
      Produced last = c.records.lastEntry().getValue();
      if (c.records.size() >= flushSize) {
        return true;
      }
      if (intervalMs > 0 && next.time() - first.time() >= intervalMs) {
        return true;
      }
      long deadline = Math.floorDiv(first.putWall(), scheduleMs) * scheduleMs + scheduleMs;
      for (int put = last.put(); put <= next.put(); put++) {
        if (putWall.get(put) >= deadline) {
          return true;
        }
        if (budgetCommitInPut.get(put)) {
          return true;
        }
      }
      for (Map.Entry<Path, List<Produced>> e : c.byFile.entrySet()) {
        if (e.getKey().getParent().getFileName().toString().equals(next.directory())
            && !e.getValue().get(0).record().valueSchema().equals(next.record().valueSchema())) {
          return true; // schema change
        }
      }
      return false;
    }

    /** The bytes of a file up to the end of its last row group (parquet-java's footer). */
    long dataBytes(Path file) {
      return dataBytes.computeIfAbsent(file, this::readDataBytes);
    }

    final Map<Path, Long> dataBytes = new HashMap<>();

    /** The uncompressed bytes of a file's row groups (parquet-java's footer). */
    long uncompressedBytes(Path file) {
      try (org.apache.parquet.hadoop.ParquetFileReader reader =
          org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
        long sum = 0;
        for (BlockMetaData block : reader.getFooter().getBlocks()) {
          sum += block.getTotalByteSize();
        }
        return sum;
      } catch (IOException e) {
        throw new AssertionError(file + ": " + e, e);
      }
    }

    long readDataBytes(Path file) {
      try (org.apache.parquet.hadoop.ParquetFileReader reader =
          org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
        long end = 4;
        for (BlockMetaData block : reader.getFooter().getBlocks()) {
          for (ColumnChunkMetaData column : block.getColumns()) {
            end = Math.max(end, column.getStartingPos() + column.getTotalSize());
          }
        }
        return end;
      } catch (IOException e) {
        throw new AssertionError(file + ": " + e, e);
      }
    }

    /**
     * One file: its rows read back equal to the records (parquet-java, our reader, DuckDB), its
     * offsets rising, its row groups consistent in both footers and cut at every early flush.
     */
    List<Produced> checkFile(Path file, TopicPartition tp, DuckDbOracle duck) throws Exception {
      String at = at() + ": " + file;
      MessageType schema;
      FileMetaData footer;
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
        schema = reader.schema();
        footer = reader.metadata();
      }
      int offsetColumn = -1;
      for (int i = 0; i < schema.fields().size(); i++) {
        if (schema.fields().get(i).name().equals(FileLayout.OFFSET_COLUMN)) {
          offsetColumn = i;
        }
      }
      assertTrue(offsetColumn >= 0, at);
      List<Produced> records = new ArrayList<>();
      long previous = Long.MIN_VALUE;
      for (Row row : ConnectFiles.readWithOurReader(file)) {
        long offset = (Long) row.get(offsetColumn);
        assertTrue(offset > previous, at + ": offsets rise");
        previous = offset;
        Produced p = produced.get(tp).get(offset);
        assertNotNull(p, at + ": offset " + offset + " was never produced");
        records.add(p);
      }
      assertFalse(records.isEmpty(), at + ": no empty file");
      SinkRecord firstRecord = records.get(0).record();
      MappingOptions options =
          MappingOptions.defaults()
              .withKafkaMetadata(true)
              .withKafkaKey(storeKey)
              .withKafkaHeaders(storeHeaders)
              .withTimestampUnit(
                  micros
                      ? dev.parquetconnect.format.meta.TimeUnit.MICROS
                      : dev.parquetconnect.format.meta.TimeUnit.MILLIS);
      FileLayout layout =
          FileLayout.of(firstRecord.keySchema(), firstRecord.valueSchema(), options);
      assertEquals(layout.parquetSchema(), schema, at + ": the layout of its first record");
      List<SinkRecord> expected = new ArrayList<>();
      for (Produced p : records) {
        assertEquals(firstRecord.valueSchema(), p.record().valueSchema(), at + ": one schema");
        expected.add(p.record());
      }
      // DuckDB does not read the deprecated LZ4 codec (Hadoop framing; docs/compatibility.md).
      ConnectFiles.assertReadBackEqual(
          file,
          layout,
          expected,
          props.get(ParquetSinkConfig.PARQUET_CODEC_CONFIG).equals("lz4") ? null : duck);

      // Footers: ours and parquet-java's agree, row counts sum up, chunks are whole.
      List<Long> ends = new ArrayList<>();
      long sum = 0;
      for (RowGroup group : footer.rowGroups()) {
        assertTrue(group.numRows() > 0, at + ": no empty row group");
        sum += group.numRows();
        ends.add(sum);
      }
      assertEquals(records.size(), footer.numRows(), at);
      assertEquals(records.size(), sum, at + ": row groups sum up");
      try (org.apache.parquet.hadoop.ParquetFileReader reader =
          org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
        List<BlockMetaData> blocks = reader.getFooter().getBlocks();
        assertEquals(footer.rowGroups().size(), blocks.size(), at);
        long end = 4;
        for (int i = 0; i < blocks.size(); i++) {
          BlockMetaData block = blocks.get(i);
          assertEquals(footer.rowGroups().get(i).numRows(), block.getRowCount(), at);
          for (ColumnChunkMetaData column : block.getColumns()) {
            assertTrue(column.getStartingPos() >= end, at + ": chunks follow each other");
            end = column.getStartingPos() + column.getTotalSize();
            assertTrue(column.getValueCount() >= block.getRowCount(), at + ": " + column.getPath());
          }
        }
        assertTrue(end <= Files.size(file) - 8, at);
      }
      // Early flushes (memory pressure) each ended a row group.
      Matcher m = NAME.matcher(file.getFileName().toString());
      assertTrue(m.matches());
      String provisional =
          file.getParent().getFileName() + "/" + m.group(1) + "+" + m.group(2) + "+" + m.group(3);
      List<Long> flushes = flushesByProvisionalKey.getOrDefault(provisional, List.of());
      for (long cut : flushes) {
        assertTrue(
            ends.contains(cut),
            at
                + ": the early flush after "
                + cut
                + " records ended a row group; row groups end at "
                + ends);
      }
      if (!flushes.isEmpty()) {
        assertTrue(
            ends.size()
                >= flushes.size() + (flushes.get(flushes.size() - 1) < records.size() ? 1 : 0),
            at + ": " + flushes + " vs " + ends);
        count("early-flushes", flushes.size());
        if (ends.size() > 1) {
          count("files-with-early-flushed-row-groups", 1);
        }
      }
      return records;
    }

    /**
     * The sink's Parquet files, recording for each (by its directory and provisional name) the
     * record counts at which memory pressure made it write a non-empty row group early.
     */
    final class FlushRecorder implements RecordWriterFactory {
      private final RecordWriterFactory delegate;

      FlushRecorder(RecordWriterFactory delegate) {
        this.delegate = delegate;
      }

      @Override
      public RecordFileWriter create(
          OutputStream out, SinkRecord first, RecordFileWriter predecessor) throws IOException {
        String key = ((StoreOutput) out).key();
        int slash = key.lastIndexOf('/');
        String fileName = key.substring(slash + 1);
        Matcher m = PROVISIONAL.matcher(fileName);
        assertTrue(m.matches(), key);
        String directory = key.substring(key.lastIndexOf('/', slash - 1) + 1, slash);
        List<Long> flushes = new ArrayList<>();
        flushesByProvisionalKey.put(
            directory + "/" + m.group(1) + "+" + m.group(2) + "+" + m.group(3), flushes);
        RecordFileWriter inner =
            delegate.create(out, first, predecessor instanceof Recorded r ? r.inner : predecessor);
        return new Recorded(inner, flushes);
      }
    }
  }

  /** A file writer that notes where its early row groups ended. */
  private static final class Recorded implements RecordFileWriter {
    final RecordFileWriter inner;
    private final List<Long> flushes;

    Recorded(RecordFileWriter inner, List<Long> flushes) {
      this.inner = inner;
      this.flushes = flushes;
    }

    @Override
    public boolean accepts(SinkRecord record) {
      return inner.accepts(record);
    }

    @Override
    public void write(SinkRecord record) throws IOException {
      inner.write(record);
    }

    @Override
    public long recordCount() {
      return inner.recordCount();
    }

    @Override
    public long bufferedBytes() {
      return inner.bufferedBytes();
    }

    @Override
    public long unwrittenFileBytes() {
      return inner.unwrittenFileBytes();
    }

    @Override
    public long bytesWritten() {
      return inner.bytesWritten();
    }

    @Override
    public void flushRowGroup() throws IOException {
      long before = inner.bytesWritten();
      inner.flushRowGroup();
      long records = inner.recordCount();
      if (inner.bytesWritten() > before
          && (flushes.isEmpty() || flushes.get(flushes.size() - 1) < records)) {
        flushes.add(records);
      }
    }

    @Override
    public void finish() throws IOException {
      inner.finish();
    }
  }

  private static long attribute(ObjectName bean, String name) throws Exception {
    return ((Number) JMX.getAttribute(bean, name)).longValue();
  }
}
