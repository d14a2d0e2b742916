package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.source.SinkArchive.Original;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code replay.filter} against DuckDB: for seeded random archives (1-3 partitions of 1-4 files,
 * random row group and page sizes, a bloom filter on {@code name} in some) and random predicates
 * over value columns, nested ones and the {@code __kafka_*} columns, the records replayed are
 * exactly the rows DuckDB's {@code SELECT ... WHERE} returns over the same files, in offset order
 * per partition. Some cases add a time range and crash the task part-way. Each case logs its seed;
 * {@code -Dreplay.filter.seed=N} runs one.
 */
final class ReplayFilterDifferentialTest {
  private static final Logger LOG = LoggerFactory.getLogger(ReplayFilterDifferentialTest.class);
  private static final int CASES = 10;
  private static final int PREDICATES_PER_ARCHIVE = 3;

  @TempDir Path dir;

  @Test
  void replayedRecordsAreDuckDbsAnswerInOffsetOrder() throws Exception {
    String only = System.getProperty("replay.filter.seed");
    long base = only != null ? Long.parseLong(only) : 20261126L;
    int cases = only != null ? 1 : CASES;
    int checked = 0;
    long matched = 0;
    for (int c = 0; c < cases; c++) {
      long seed = base + c;
      SplittableRandom random = new SplittableRandom(seed);
      Path root = dir.resolve("case-" + seed);
      List<Original> all = archive(root, random);
      for (int q = 0; q < PREDICATES_PER_ARCHIVE; q++) {
        String[] predicate = predicate(random, all, 0);
        boolean timeRange = random.nextInt(3) == 0;
        long from = all.get(random.nextInt(all.size())).timestamp();
        long until = from + 1 + random.nextInt(400);
        String where =
            timeRange
                ? "("
                    + predicate[1]
                    + ") AND epoch_ms(__kafka_timestamp) >= "
                    + from
                    + " AND epoch_ms(__kafka_timestamp) < "
                    + until
                : predicate[1];
        List<String> expected = duckDb(root, where);
        List<String> got = replay(root, predicate[0], timeRange, from, until, random.nextBoolean());
        String what = "seed " + seed + ", predicate " + predicate[0] + " (DuckDB: " + where + ")";
        LOG.info("{}: {} of {} rows", what, expected.size(), all.size());
        assertEquals(expected, got, what);
        checked++;
        matched += expected.size();
      }
    }
    LOG.info("{} predicates checked against DuckDB, {} matching rows in all", checked, matched);
  }

  /** 1-3 partitions of topic {@code t}, each 1-4 consecutive files of 20-300 records. */
  private static List<Original> archive(Path root, SplittableRandom random) throws Exception {
    List<Original> all = new ArrayList<>();
    int partitions = 1 + random.nextInt(3);
    for (int p = 0; p < partitions; p++) {
      long first = random.nextInt(50);
      int files = 1 + random.nextInt(4);
      for (int f = 0; f < files; f++) {
        int count = 20 + random.nextInt(281);
        List<Original> records = SinkArchive.records("t", p, first, count);
        WriterOptions.Builder options =
            WriterOptions.builder()
                .codec(random.nextBoolean() ? CompressionCodec.ZSTD : CompressionCodec.UNCOMPRESSED)
                .rowGroupRowLimit(5 + random.nextInt(120))
                .pageRowLimit(1 + random.nextInt(40));
        if (random.nextBoolean()) {
          options.bloomFilter("name", 200, 0.01);
        }
        SinkArchive.write(
            root.resolve(
                "topics/t/partition="
                    + p
                    + "/"
                    + SinkArchive.fileName("t", p, first, first + count - 1, 0)),
            records,
            options.build());
        all.addAll(records);
        first += count;
      }
    }
    return all;
  }

  /**
   * A random predicate: {@code [0]} in our grammar, {@code [1]} the same condition in DuckDB's SQL
   * (they differ only for timestamps: DuckDB compares its TIMESTAMP WITH TIME ZONE in epoch
   * milliseconds here, so that no session time zone is involved).
   */
  private static String[] predicate(SplittableRandom random, List<Original> all, int depth) {
    int shape = depth > 2 ? 0 : random.nextInt(10);
    if (shape >= 7) {
      String[] a = predicate(random, all, depth + 1);
      if (shape == 9) {
        return new String[] {"NOT (" + a[0] + ")", "NOT (" + a[1] + ")"};
      }
      String[] b = predicate(random, all, depth + 1);
      String op = shape == 7 ? " AND " : " OR ";
      return new String[] {"(" + a[0] + op + b[0] + ")", "(" + a[1] + op + b[1] + ")"};
    }
    Original o = all.get(random.nextInt(all.size()));
    String[] ops = {"=", "<>", "<", "<=", ">", ">="};
    String op = ops[random.nextInt(ops.length)];
    String same =
        switch (random.nextInt(9)) {
          case 0 -> "id " + op + " " + o.id();
          case 1 -> "name " + op + " '" + o.name() + "'";
          case 2 -> "name IN ('" + o.name() + "', 'record-" + random.nextInt(1000) + "', 'nobody')";
          case 3 -> "address.zip " + op + " " + o.zip();
          case 4 -> random.nextBoolean() ? "address.zip IS NULL" : "address.street IS NOT NULL";
          case 5 ->
              random.nextBoolean()
                  ? "amount IS NULL"
                  : "amount " + op + " " + (o.id() % 997) + ".25";
          case 6 -> "__kafka_offset " + op + " " + o.offset();
          case 7 -> "__kafka_partition IN (" + o.partition() + ", " + random.nextInt(3) + ")";
          default -> null;
        };
    if (same != null) {
      return new String[] {same, same};
    }
    return new String[] {
      "__kafka_timestamp " + op + " TIMESTAMP '" + Instant.ofEpochMilli(o.timestamp()) + "'",
      "epoch_ms(__kafka_timestamp) " + op + " " + o.timestamp()
    };
  }

  /** DuckDB's matching rows as {@code partition@offset}, by partition, then offset. */
  private static List<String> duckDb(Path root, String where) throws Exception {
    List<String> rows = new ArrayList<>();
    String glob = root.resolve("topics").toString().replace("'", "''") + "/**/*.parquet";
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = db.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT __kafka_partition, __kafka_offset FROM read_parquet('"
                    + glob
                    + "') WHERE "
                    + where
                    + " ORDER BY __kafka_partition, __kafka_offset")) {
      while (rs.next()) {
        rows.add(rs.getInt(1) + "@" + rs.getLong(2));
      }
    }
    return rows;
  }

  /**
   * The records the source replays with {@code replay.filter} (and the time range), as {@code
   * partition@offset}: partitions one after the other, each in the order replayed. With {@code
   * crash}, the task is stopped twice part-way, dropping what was not committed.
   */
  private static List<String> replay(
      Path root, String predicate, boolean timeRange, long from, long until, boolean crash)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("replay.filter", predicate, "batch.size", "7"));
    if (timeRange) {
      args.addAll(
          List.of(
              "replay.from.timestamp",
              Long.toString(from),
              "replay.until.timestamp",
              Long.toString(until)));
    }
    Map<String, String> props = ReplayModeTest.props(root, args.toArray(String[]::new));
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> got = new ArrayList<>();
    if (crash) {
      for (int i = 0; i < 2; i++) {
        got.addAll(driver.poll(true));
        got.addAll(driver.poll(true));
        driver.poll(false);
        driver = driver.restart();
      }
    }
    got.addAll(driver.drain(3));
    driver.stop();
    return Stream.iterate(0, i -> i + 1)
        .limit(got.size())
        .sorted(
            Comparator.comparingInt((Integer i) -> got.get(i).kafkaPartition())
                .thenComparingInt(i -> i))
        .map(
            i ->
                got.get(i).kafkaPartition()
                    + "@"
                    + SourcePositions.longOf(
                        (Map<String, Object>) got.get(i).sourceOffset(),
                        SourcePositions.OFFSET,
                        -1))
        .toList();
  }
}
