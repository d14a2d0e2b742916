package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.oracle.DuckDbRowOracle;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code replay.filter} and the time range in generic mode, on files DuckDB wrote (small row
 * groups, a nested struct, a list, nulls, a TIMESTAMP column in microseconds as {@code
 * timestamp.field}): the records replayed are DuckDB's {@code WHERE} answer over the same files, in
 * file (key) order and row order, for seeded random predicates, some with a time range; some
 * replays are restarted part-way. {@code -Dgeneric.filter.seed=N} replays one seed.
 */
final class GenericFilterDuckDbTest {
  private static final Logger LOG = LoggerFactory.getLogger(GenericFilterDuckDbTest.class);
  private static final int FILES = 3;
  private static final int ROWS = 900;
  private static final long T0 = 1_704_067_200_000L; // 2024-01-01T00:00:00Z

  @TempDir Path root;

  @Test
  void replayedRecordsAreDuckDbsAnswerInFileOrder() throws Exception {
    long seed = Long.getLong("generic.filter.seed", System.nanoTime());
    LOG.info("seed {} (-Dgeneric.filter.seed={} replays it)", seed, seed);
    SplittableRandom random = new SplittableRandom(seed);
    for (int f = 0; f < FILES; f++) {
      DuckDbRowOracle.copy(
          "SELECT i::BIGINT AS id, 'n' || (i * 7919 % "
              + ROWS
              + ") AS name,"
              + " TIMESTAMP '2024-01-01 00:00:00' + to_microseconds(i * 1000003) AS ts,"
              + " CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 13)::INTEGER END AS grade,"
              + " {'a': i % 17, 'b': 'x' || (i % 3)} AS st,"
              + " CASE WHEN i % 4 = 0 THEN NULL ELSE [i, i + 1] END AS arr"
              + " FROM range("
              + f * ROWS
              + ", "
              + (f + 1) * ROWS
              + ") t(i)",
          root.resolve("part-" + f + ".parquet"),
          "FORMAT parquet, ROW_GROUP_SIZE " + (100 + random.nextInt(300)));
    }
    int checked = 0;
    for (int q = 0; q < 8; q++) {
      String[] predicate = predicate(random, 0);
      boolean timeRange = random.nextInt(3) == 0;
      long from = T0 + random.nextInt(FILES * ROWS) * 1000L;
      long until = from + 1 + random.nextInt(600_000);
      String where =
          timeRange
              ? "("
                  + predicate[1]
                  + ") AND epoch_ms(ts) >= "
                  + from
                  + " AND epoch_ms(ts) < "
                  + until
              : predicate[1];
      List<Long> expected = duckDb(where);
      List<Long> got = replay(predicate[0], timeRange, from, until, random.nextBoolean());
      String what = "seed " + seed + ", " + predicate[0] + " (DuckDB: " + where + ")";
      LOG.info("{}: {} rows", what, expected.size());
      assertEquals(expected, got, what);
      checked++;
    }
    LOG.info("{} predicates checked in generic mode against DuckDB", checked);
  }

  /** {@code [0]} in our grammar, {@code [1]} in DuckDB's SQL. */
  private static String[] predicate(SplittableRandom random, int depth) {
    int shape = depth > 1 ? 0 : random.nextInt(8);
    if (shape >= 6) {
      String[] a = predicate(random, depth + 1);
      String[] b = predicate(random, depth + 1);
      String op = shape == 6 ? " AND " : " OR ";
      return new String[] {"(" + a[0] + op + b[0] + ")", "(" + a[1] + op + b[1] + ")"};
    }
    String[] ops = {"=", "<>", "<", "<=", ">", ">="};
    String op = ops[random.nextInt(ops.length)];
    int i = random.nextInt(FILES * ROWS);
    String same =
        switch (random.nextInt(6)) {
          case 0 -> "id " + op + " " + i;
          case 1 -> "name " + op + " 'n" + i % ROWS + "'";
          case 2 -> random.nextBoolean() ? "grade IS NULL" : "grade " + op + " " + i % 13;
          case 3 -> "st.a " + op + " " + i % 17;
          case 4 -> "st.b IN ('x0', 'x" + i % 3 + "')";
          default -> null;
        };
    if (same != null) {
      return new String[] {same, same};
    }
    // The column holds microseconds (i * 1.000003 ms): both sides compare them exactly, so the
    // SQL side compares with a TIMESTAMP too, not with the milliseconds epoch_ms(ts) truncates to.
    long t = T0 + i * 1000L;
    return new String[] {
      "ts " + op + " TIMESTAMP '" + Instant.ofEpochMilli(t) + "'",
      "ts " + op + " epoch_ms(" + t + ")"
    };
  }

  private List<Long> duckDb(String where) throws Exception {
    List<Long> ids = new ArrayList<>();
    String glob = root.toString().replace("'", "''") + "/*.parquet";
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = db.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT id FROM read_parquet('"
                    + glob
                    + "', filename = true, file_row_number = true) WHERE "
                    + where
                    + " ORDER BY filename, file_row_number")) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  private List<Long> replay(
      String predicate, boolean timeRange, long from, long until, boolean crash) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "mode",
                "generic",
                "topic",
                "t",
                "topics.dir",
                "",
                "timestamp.field",
                "ts",
                "replay.filter",
                predicate,
                "batch.size",
                "37"));
    if (timeRange) {
      args.addAll(
          List.of(
              "replay.from.timestamp",
              Long.toString(from),
              "replay.until.timestamp",
              Long.toString(until)));
    }
    TaskDriver driver =
        new TaskDriver(ReplayModeTest.props(root, args.toArray(String[]::new))).start();
    List<SourceRecord> got = new ArrayList<>();
    if (crash) {
      got.addAll(driver.poll(true));
      driver.poll(false);
      driver = driver.restart();
    }
    got.addAll(driver.drain(3));
    driver.stop();
    List<Long> ids = new ArrayList<>();
    for (SourceRecord r : got) {
      ids.add(((Struct) r.value()).getInt64("id"));
    }
    return ids;
  }
}
