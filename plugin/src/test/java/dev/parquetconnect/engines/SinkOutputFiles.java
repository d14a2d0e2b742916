package dev.parquetconnect.engines;

import dev.parquetconnect.cli.PqInProcess;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The files the engine oracles are asked to read: the sink's default output and {@code pq
 * rewrite}'s compatible settings. The same seed gives the same files to every engine.
 *
 * <p>The lake: every Connect type (EngineTestRecords), once without and once with Connect {@code
 * Time} fields, so a type an engine refuses fails its own files only; and a topic of many distinct
 * floating-point values, whose FLOAT64 dictionary overflows the default 1 MiB so the writer's
 * fallback encoding is what the engine reads.
 */
final class SinkOutputFiles {
  /** pq rewrite's codecs that docs/pq.md marks for other readers: the compatible policy. */
  private static final List<String> CODECS =
      List.of("uncompressed", "snappy", "gzip", "zstd", "lz4_raw");

  private static final Map<Long, Path> SHARED_LAKES = new HashMap<>();

  private SinkOutputFiles() {}

  /**
   * The lake of {@link #writeLake} for {@code seed}, written once per JVM: the engine ITs run in
   * one failsafe JVM and read the same files, which take the sink about half a minute to write. In
   * a temporary directory removed when the JVM exits; nobody writes to it after.
   */
  static synchronized Path sharedLake(long seed) throws IOException {
    Path lake = SHARED_LAKES.get(seed);
    if (lake == null) {
      Path root = Files.createTempDirectory("engine-lake-");
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> deleteTree(root), "delete-" + root.getFileName()));
      lake = root.resolve("lake");
      writeLake(lake, seed);
      SHARED_LAKES.put(seed, lake);
    }
    return lake;
  }

  /** A file's name in test names: {@code lake/...} in the shared lake, else from {@code dir}. */
  static String displayName(Path dir, Path lake, Path file) {
    return file.startsWith(lake)
        ? "lake/" + lake.relativize(file)
        : dir.relativize(file).toString();
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // A temporary directory: what is left is the system's to clean.
    }
  }

  /** Runs the sink with its defaults into {@code lake} (a local store) over the three topics. */
  static void writeLake(Path lake, long seed) {
    runSink(lake, seed, EngineTestRecords.everyType("every_type", 2, 3000, false, seed));
    runSink(
        lake, seed, EngineTestRecords.everyType("every_type_with_time", 1, 300, true, seed + 1));
    runSink(lake, seed, EngineTestRecords.manyDistinctFloats("distinct_floats", 140_000, seed + 2));
  }

  /**
   * The every-type topic with Connect {@code Time} as {@code TIME(MILLIS, true)} ({@code
   * parquet.time.type=time-millis}): a setting docs/compatibility.md marks not compatible (Spark
   * refuses it), for the engines that read it.
   */
  static void writeTimeMillisLake(Path lake, long seed) {
    runSink(
        lake,
        seed,
        EngineTestRecords.everyType("time_millis", 1, 300, true, seed + 3),
        Map.of(ParquetSinkConfig.PARQUET_TIME_TYPE_CONFIG, "time-millis"));
  }

  /**
   * {@code pq rewrite}'s settings beyond the compatible ones, each into {@code out}: the extended
   * policy without the dictionary (BYTE_STREAM_SPLIT for floating point) over {@code floats}, the
   * Hadoop-framed LZ4 and Brotli codecs over {@code source}.
   */
  static List<Path> incompatibleRewrites(Path source, Path floats, Path out) throws IOException {
    Files.createDirectories(out);
    List<Path> rewrites = new ArrayList<>();
    Path extended = out.resolve("extended-zstd-dictionary-off.parquet");
    PqInProcess.runOrFail(
        "rewrite",
        floats.toString(),
        extended.toString(),
        "--policy",
        "extended",
        "--codec",
        "zstd",
        "--dictionary",
        "off");
    rewrites.add(extended);
    for (String codec : List.of("lz4", "brotli")) {
      Path file = out.resolve(codec + "-v1-dictionary-on.parquet");
      PqInProcess.runOrFail(
          "rewrite",
          source.toString(),
          file.toString(),
          "--codec",
          codec,
          "--page-size",
          "4096",
          "--row-group-rows",
          "700");
      rewrites.add(file);
    }
    return rewrites;
  }

  /**
   * A topic partitioned by a string field whose values Spark and DuckDB decode alike only when the
   * directories are written right: the C1 controls (Spark and Hive decode {@code %XX} as one
   * character, DuckDB as a UTF-8 byte), other non-ASCII text and the characters Hive escapes.
   */
  static void writeOddPartitionsLake(Path lake, long seed) {
    List<String> values =
        List.of(
            "a\u0080b",
            "\u0085",
            "\u009f\u00e9",
            "plain",
            "x y",
            "100%",
            "a/b",
            "k=v",
            "\u00e9t\u00e9",
            "tab\tnew\nline",
            "\u007f");
    Schema schema =
        SchemaBuilder.struct()
            .name("odd")
            .field("k", Schema.STRING_SCHEMA)
            .field("n", Schema.INT32_SCHEMA)
            .build();
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < 330; i++) {
      Struct value = new Struct(schema).put("k", values.get(i % values.size())).put("n", i);
      records.add(new SinkRecord("odd_partitions", 0, null, null, schema, value, i));
    }
    runSink(
        lake,
        seed,
        records,
        Map.of(
            ParquetSinkConfig.PARTITIONER_CONFIG,
            "field",
            ParquetSinkConfig.PARTITION_FIELDS_CONFIG,
            "k"));
  }

  private static void runSink(Path lake, long seed, List<SinkRecord> records) {
    runSink(lake, seed, records, Map.of());
  }

  private static void runSink(
      Path lake, long seed, List<SinkRecord> records, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("name", "engine-sink");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, lake.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "1000000");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    List<TopicPartition> tps =
        records.stream()
            .map(r -> new TopicPartition(r.topic(), r.kafkaPartition()))
            .distinct()
            .toList();
    try (SinkTaskHarness sink = new SinkTaskHarness(props, tps)) {
      sink.putInRandomBatches(records, new Random(seed), 500);
      sink.commitOpenFiles(120_000);
    }
  }

  /**
   * {@code source} rewritten by {@code pq rewrite --policy compatible} into {@code out}: each codec
   * with v1 pages and the dictionary, and with v2 pages without it; the other two page/dictionary
   * pairs once (readers decode pages the same whatever the codec).
   */
  static List<Path> compatibleRewrites(Path source, Path out) throws IOException {
    Files.createDirectories(out);
    List<String[]> settings = new ArrayList<>();
    for (String codec : CODECS) {
      settings.add(new String[] {codec, "1", "on"});
      settings.add(new String[] {codec, "2", "off"});
    }
    settings.add(new String[] {"zstd", "1", "off"});
    settings.add(new String[] {"zstd", "2", "on"});
    List<Path> rewrites = new ArrayList<>();
    for (String[] s : settings) {
      Path file = out.resolve(s[0] + "-v" + s[1] + "-dictionary-" + s[2] + ".parquet");
      PqInProcess.runOrFail(
          "rewrite",
          source.toString(),
          file.toString(),
          "--policy",
          "compatible",
          "--codec",
          s[0],
          "--page-version",
          s[1],
          "--dictionary",
          s[2],
          "--page-size",
          "4096",
          "--row-group-rows",
          "700");
      rewrites.add(file);
    }
    return rewrites;
  }
}
