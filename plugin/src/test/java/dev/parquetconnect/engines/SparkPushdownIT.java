package dev.parquetconnect.engines;

import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.EncodingPolicy;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's filter and aggregate pushdown over our files and parquet-java's files of the same rows: a
 * few hundred random predicates and MIN/MAX/COUNT of each column, answered with pushdown on and off
 * and with the vectorized and the row-by-row reader, on random layouts (row groups of a few hundred
 * rows, pages down to 64 bytes, page v1 and v2, dictionary on and off). Every answer must equal
 * Spark's full scan (row reader, no pushdown) of parquet-java's file. Seeded: {@code
 * -Dengines.seed=N} replays a run; the seed is printed.
 *
 * <p>Files are written with the compatible encoding policy: whether Spark's vectorized reader can
 * decode an encoding at all is SparkSinkOutputIT's question; this one is about statistics and page
 * indexes. It runs on the newest Spark of {@code spark.it.versions} only (the statistics it reads
 * are parquet-java's in both lines), and on all with {@code -Dengines.pushdown.allVersions=true}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SparkPushdownIT {
  private static final Logger LOG = LoggerFactory.getLogger(SparkPushdownIT.class);
  private static final long SEED = Long.getLong("engines.seed", 7_357_211L);
  private static final int LAYOUTS = 4;
  private static final int ROWS = 2000;
  private static final int PREDICATES_PER_LAYOUT =
      Integer.getInteger("engines.pushdown.predicates", 50);

  /** Predicates per query: one scan each, joined by UNION ALL, so Spark answers many at once. */
  private static final int BATCH = 25;

  /**
   * Pushdown on, both readers, on both files; the vectorized full scan of our file besides. The
   * full scans of parquet-java's file are the reference (the row reader) or add nothing new.
   */
  private static final List<Map<String, String>> READERS =
      List.of(SparkOracle.DEFAULTS, SparkOracle.NOT_VECTORIZED, SparkOracle.NO_PUSHDOWN);

  private static final String[] AGGREGATED = {
    "id", "i32", "i64", "f32", "f64", "dec", "dec30", "day", "b"
  };

  @TempDir static Path dir;
  private final List<SparkOracle> sparks = new ArrayList<>();
  private final List<Layout> layouts = new ArrayList<>();

  record Layout(String name, Path ours, Path parquetJava, List<String> predicates) {}

  @BeforeAll
  void writeFilesAndStartSpark() throws Exception {
    LOG.info("seed {} (-Dengines.seed={} replays it)", SEED, SEED);
    List<String> versions = SparkOracle.versions();
    if (!Boolean.getBoolean("engines.pushdown.allVersions")) {
      versions = versions.subList(0, 1);
    }
    Random random = new Random(SEED);
    for (int i = 0; i < LAYOUTS; i++) {
      layouts.add(layout(i, random));
    }
    // The newest Spark is the lake check's, warm already when another IT used it: one Spark JVM
    // less to start and warm up (settings go with each query, so sharing it changes no answer).
    sparks.add(SparkLakeCheck.spark());
    for (String version : versions.subList(1, versions.size())) {
      sparks.add(SparkOracle.start(version));
    }
  }

  @AfterAll
  void stopSpark() {
    sparks.subList(1, sparks.size()).forEach(SparkOracle::close);
  }

  private Layout layout(int index, Random random) throws Exception {
    PushdownData data = new PushdownData(ROWS, random);
    int rowGroupRows = 200 + random.nextInt(1200);
    // Every pairing of page version and dictionary once; tiny pages in the first two.
    int pageBytes = index < 2 ? 64 + random.nextInt(200) : 256 + random.nextInt(1800);
    PageVersion version = index % 2 == 0 ? PageVersion.V1 : PageVersion.V2;
    boolean dictionary = (index / 2) % 2 == 0;
    String name =
        "layout"
            + index
            + "-groups"
            + rowGroupRows
            + "-pages"
            + pageBytes
            + "B-"
            + version
            + (dictionary ? "-dictionary" : "-plain");
    WriterOptions options =
        WriterOptions.builder()
            .rowGroupRowLimit(rowGroupRows)
            .pageByteLimit(pageBytes)
            .pageVersion(version)
            .dictionary(dictionary)
            .encodingPolicy(EncodingPolicy.COMPATIBLE)
            .build();
    Path ours = dir.resolve(name + "-ours.parquet");
    try (OutputStream out = Files.newOutputStream(ours);
        ParquetFileWriter writer = new ParquetFileWriter(out, PushdownData.SCHEMA, options)) {
      for (Row row : data.rows()) {
        writer.write(row);
      }
    }
    Path theirs = dir.resolve(name + "-parquet-java.parquet");
    // parquet-java cuts row groups by bytes: about the same number of rows per group.
    long groupBytes = Math.max(4096, Files.size(ours) * rowGroupRows / ROWS);
    ParquetJavaOracle.write(
        theirs,
        PushdownData.SCHEMA,
        data.rows(),
        new ParquetJavaOracle.WriteOptions(
            CompressionCodecName.UNCOMPRESSED,
            dictionary,
            version == PageVersion.V1
                ? ParquetProperties.WriterVersion.PARQUET_1_0
                : ParquetProperties.WriterVersion.PARQUET_2_0,
            pageBytes,
            groupBytes));
    List<String> predicates = new ArrayList<>();
    for (int p = 0; p < PREDICATES_PER_LAYOUT; p++) {
      predicates.add(data.predicate());
    }
    return new Layout(name, ours, theirs, predicates);
  }

  @TestFactory
  Stream<DynamicTest> filtersGiveTheFullScansRowsWithPushdownOnAndOff() {
    List<DynamicTest> tests = new ArrayList<>();
    for (SparkOracle spark : sparks) {
      for (Layout layout : layouts) {
        for (int from = 0; from < layout.predicates().size(); from += BATCH) {
          List<String> batch =
              layout.predicates().subList(from, Math.min(from + BATCH, layout.predicates().size()));
          int first = from;
          tests.add(
              DynamicTest.dynamicTest(
                  "Spark "
                      + spark.version()
                      + ", "
                      + layout.name()
                      + ", predicates "
                      + first
                      + ".."
                      + (first + batch.size() - 1),
                  () -> checkFilters(spark, layout, batch, first)));
        }
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> minMaxCountGiveTheFullScansValuesWithAggregatePushdown() {
    List<DynamicTest> tests = new ArrayList<>();
    for (SparkOracle spark : sparks) {
      for (Layout layout : layouts) {
        tests.add(
            DynamicTest.dynamicTest(
                "Spark " + spark.version() + ", " + layout.name(),
                () -> checkAggregates(spark, layout)));
      }
    }
    return tests.stream();
  }

  private static void checkFilters(
      SparkOracle spark, Layout layout, List<String> predicates, int first) throws IOException {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < predicates.size(); i++) {
      if (i > 0) {
        sql.append(" UNION ALL ");
      }
      sql.append("SELECT ")
          .append(first + i)
          .append(" AS q, * FROM t WHERE ")
          .append(predicates.get(i));
    }
    Map<Integer, List<String>> expected =
        byPredicate(
            ask(
                spark,
                layout.parquetJava(),
                SparkOracle.NOT_VECTORIZED_NO_PUSHDOWN,
                sql.toString(),
                "parquet-java's file"));
    List<String> failures = new ArrayList<>();
    for (Map<String, String> reader : READERS) {
      for (Path file : List.of(layout.ours(), layout.parquetJava())) {
        if (reader == SparkOracle.NO_PUSHDOWN && file.equals(layout.parquetJava())) {
          continue;
        }
        String what =
            (file.equals(layout.ours()) ? "our file" : "parquet-java's file")
                + ", "
                + SparkOracle.describe(reader);
        SparkOracle.Answer answer = spark.query(file, reader, sql.toString());
        if (answer.failed()) {
          failures.add(what + ": Spark failed: " + answer.error());
          continue;
        }
        Map<Integer, List<String>> actual = byPredicate(answer.rows());
        for (int i = 0; i < predicates.size(); i++) {
          int q = first + i;
          List<String> e = expected.getOrDefault(q, List.of());
          List<String> a = actual.getOrDefault(q, List.of());
          if (!e.equals(a)) {
            failures.add(
                what
                    + ": WHERE "
                    + predicates.get(i)
                    + ": "
                    + a.size()
                    + " rows where the full scan of parquet-java's file gives "
                    + e.size()
                    + firstDifference(e, a));
          }
        }
      }
    }
    if (!failures.isEmpty()) {
      throw new AssertionError(
          layout.name()
              + ": "
              + failures.size()
              + " wrong answers:\n  "
              + String.join("\n  ", failures));
    }
  }

  private static void checkAggregates(SparkOracle spark, Layout layout) throws IOException {
    List<String> failures = new ArrayList<>();
    // The floating-point columns on their own: Spark refuses a whole query when one column of
    // it has no min/max in a footer (what parquet-java writes for a chunk holding NaN).
    checkAggregates(spark, layout, List.of(AGGREGATED).subList(0, 3), failures);
    checkAggregates(spark, layout, List.of("f32"), failures);
    checkAggregates(spark, layout, List.of("f64"), failures);
    checkAggregates(spark, layout, List.of(AGGREGATED).subList(5, AGGREGATED.length), failures);
    if (!failures.isEmpty()) {
      throw new AssertionError(
          layout.name() + ": MIN/MAX/COUNT differ:\n  " + String.join("\n  ", failures));
    }
  }

  /**
   * MIN, MAX and COUNT of {@code columns} with aggregate pushdown (and with Spark's defaults) equal
   * to the full scan. Spark refusing to push down (no min/max in a footer) is not a wrong answer:
   * it is printed, not failed.
   */
  private static void checkAggregates(
      SparkOracle spark, Layout layout, List<String> columns, List<String> failures)
      throws IOException {
    StringBuilder sql = new StringBuilder();
    for (int i = 0; i < columns.size(); i++) {
      String c = columns.get(i);
      if (i > 0) {
        sql.append(" UNION ALL ");
      }
      sql.append("SELECT '")
          .append(c)
          .append("' AS col, CAST(MIN(")
          .append(c)
          .append(") AS STRING) AS lo, CAST(MAX(")
          .append(c)
          .append(") AS STRING) AS hi, COUNT(")
          .append(c)
          .append(") AS n, COUNT(*) AS total FROM t");
    }
    List<String> expected =
        ask(
            spark,
            layout.parquetJava(),
            SparkOracle.NOT_VECTORIZED_NO_PUSHDOWN,
            sql.toString(),
            "parquet-java's file");
    for (Map<String, String> reader :
        List.of(SparkOracle.AGGREGATE_PUSHDOWN, SparkOracle.DEFAULTS)) {
      for (Path file : List.of(layout.ours(), layout.parquetJava())) {
        String what =
            (file.equals(layout.ours()) ? "our file" : "parquet-java's file")
                + ", "
                + SparkOracle.describe(reader);
        SparkOracle.Answer answer = spark.query(file, reader, sql.toString());
        if (answer.failed() && answer.error().contains("No min/max found")) {
          LOG.info(
              "{}, {}, {}: Spark refuses aggregate pushdown: {}",
              layout.name(),
              what,
              columns,
              answer.error());
        } else if (answer.failed()) {
          failures.add(what + ": Spark failed: " + answer.error());
        } else if (!answer.sortedRows().equals(sorted(expected))) {
          List<String> wrong = new ArrayList<>(answer.sortedRows());
          wrong.removeAll(expected);
          failures.add(
              what
                  + ": "
                  + wrong
                  + " where the full scan gives "
                  + expected.stream()
                      .filter(
                          e ->
                              wrong.stream()
                                  .anyMatch(
                                      w ->
                                          w.substring(0, w.indexOf(','))
                                              .equals(e.substring(0, e.indexOf(',')))))
                      .toList());
        }
      }
    }
  }

  private static List<String> ask(
      SparkOracle spark, Path file, Map<String, String> reader, String sql, String what)
      throws IOException {
    SparkOracle.Answer answer = spark.query(file, reader, sql);
    if (answer.failed()) {
      throw new AssertionError(
          "the reference, Spark's full scan of " + what + ", failed: " + answer.error());
    }
    return answer.sortedRows();
  }

  private static List<String> sorted(List<String> rows) {
    List<String> out = new ArrayList<>(rows);
    out.sort(null);
    return out;
  }

  /** Rows {@code {q:N,...}} grouped by N, each group sorted. */
  private static Map<Integer, List<String>> byPredicate(List<String> rows) {
    Map<Integer, List<String>> out = new TreeMap<>();
    for (String row : rows) {
      int q = Integer.parseInt(row.substring(3, row.indexOf(',')));
      out.computeIfAbsent(q, k -> new ArrayList<>()).add(row);
    }
    out.values().forEach(l -> l.sort(null));
    return out;
  }

  private static String firstDifference(List<String> expected, List<String> actual) {
    List<String> missing = new ArrayList<>(expected);
    missing.removeAll(actual);
    List<String> extra = new ArrayList<>(actual);
    extra.removeAll(expected);
    return "; missing "
        + missing.size()
        + " (first "
        + ids(missing)
        + "), extra "
        + extra.size()
        + " (first "
        + ids(extra)
        + ")";
  }

  /** The ids of up to 8 rows, for messages. */
  private static List<String> ids(List<String> rows) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String row : rows.subList(0, Math.min(8, rows.size()))) {
      int at = row.indexOf(",id:") + 4;
      out.put(row.substring(at, row.indexOf(',', at)), "");
    }
    return new ArrayList<>(out.keySet());
  }
}
