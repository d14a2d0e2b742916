package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code pq cat --where}: the rows printed are DuckDB's {@code SELECT ... WHERE} of the same
 * predicate over the same file, in the same order (alltypes_tiny_pages: many tiny pages, so pages
 * are skipped), with {@code --columns} choosing what is printed; bad predicates are usage errors
 * that say where.
 */
class CatWhereTest {
  private static final Path FILE = Corpus.file("data/alltypes_tiny_pages.parquet");

  /** One in-memory DuckDB for the class. */
  private static Connection duck;

  @BeforeAll
  static void openDuckDb() throws Exception {
    duck = DriverManager.getConnection("jdbc:duckdb:");
    try (Statement s = duck.createStatement()) {
      s.execute("SET threads = 1");
    }
  }

  @AfterAll
  static void closeDuckDb() throws Exception {
    duck.close();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "id BETWEEN 3000 AND 3049",
        "id < 10 OR id >= 7290",
        "int_col = 4 AND bigint_col > 30",
        "id IN (1, 17, 4242, 7299, 99999) AND NOT bool_col",
        "double_col >= 50.5 AND id < 3000",
        "float_col <> 1.100000023841858 AND tinyint_col NOT IN (0, 1, 2) AND id < 500",
        "(smallint_col <= 3 OR NOT (id > 100)) AND year = 2009 AND month = 3",
        "id > 7000.5 AND int_col IS NOT NULL",
        "bool_col = TRUE AND id BETWEEN 5 AND 60",
        "id IS NULL",
      })
  void printsTheRowsDuckDbSelects(String where) throws Exception {
    PqRun run = PqRun.run("cat", FILE, "--where", where, "--columns", "id");
    assertEquals(Pq.OK, run.exit(), run.describe());
    List<String> expected = new ArrayList<>();
    try (Statement s = duck.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT id FROM read_parquet('" + FILE.toAbsolutePath() + "') WHERE " + where)) {
      while (rs.next()) {
        expected.add("{\"id\":" + rs.getInt(1) + "}");
      }
    }
    assertEquals(expected, run.outLines(), where);
  }

  @Test
  void columnsAndLimitApplyToTheMatchingRows() {
    PqRun run =
        PqRun.run(
            "cat",
            FILE,
            "--where",
            "id >= 3000 AND id <= 3002",
            "--columns",
            "id,int_col",
            "--limit",
            "2");
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(
        List.of("{\"id\":3000,\"int_col\":0}", "{\"id\":3001,\"int_col\":1}"), run.outLines());
  }

  @Test
  void badPredicatesAreUsageErrorsThatSayWhere() {
    PqRun syntax = PqRun.run("cat", FILE, "--where", "id = ");
    assertEquals(Pq.USAGE, syntax.exit());
    assertTrue(syntax.err().contains("at position 5"), syntax.err());
    PqRun missing = PqRun.run("cat", FILE, "--where", "nope = 1");
    assertEquals(Pq.USAGE, missing.exit());
    assertTrue(
        missing.err().contains("no column 'nope' in the schema in " + FILE)
            && missing.err().contains("its columns are: id, bool_col"),
        missing.err());
    PqRun type = PqRun.run("cat", FILE, "--where", "id = 'x'");
    assertEquals(Pq.USAGE, type.exit());
    assertTrue(type.err().contains("column 'id' is INT32"), type.err());
  }
}
