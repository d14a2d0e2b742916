package dev.parquetconnect.engines;

import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The check the integration tests run on the lakes they write (SinkIts.duckDb: the crash,
 * end-to-end and memory ITs; the replay IT's archive): Spark (the newest of {@code
 * spark.it.versions}, its default reader: vectorized, pushdown) reads the topic directory with
 * partition discovery and finds what DuckDB finds there (Kafka coordinates and partition values of
 * every row), and reads what parquet-java reads in the files (every other column, row for row, in
 * up to six files spread over the lake). One Spark JVM serves every IT of a failsafe JVM: started
 * on first use, stopped when the JVM exits. {@code -Dengines.lake.check=false} skips it.
 */
public final class SparkLakeCheck {
  private static final int SAMPLED_FILES = 6;
  private static SparkOracle shared;

  private SparkLakeCheck() {}

  static synchronized SparkOracle spark() throws IOException {
    if (shared == null || !shared.isAlive()) {
      SparkOracle started = SparkOracle.start(SparkOracle.versions().get(0));
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "stop-spark-lake-check"));
      shared = started;
    }
    return shared;
  }

  /** Fails when Spark reads {@code topicDir} differently from DuckDB and parquet-java. */
  public static void assertSparkReadsAsDuckDb(Path topicDir) {
    if (!Boolean.parseBoolean(System.getProperty("engines.lake.check", "true"))) {
      return;
    }
    try {
      String failure = check(topicDir, SparkOracle.DEFAULTS);
      if (failure != null) {
        // Whether the row reader agrees tells a decoding gap from wrong values.
        String rowReader = check(topicDir, SparkOracle.NOT_VECTORIZED);
        throw new AssertionError(
            failure
                + "\n  with Spark's row reader instead: "
                + (rowReader == null ? "equal" : rowReader));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB on " + topicDir, e);
    }
  }

  /**
   * Fails unless {@code spark} (its default reader, {@code mergeSchema} on, as a lake user reads a
   * schemaless topic whose files add columns as keys turn up) reads the directory {@code topicDir}
   * as DuckDB's {@code union_by_name} does: every column of every file and every partition column,
   * row for row ({@link SchemalessLakeCheck}). For lakes in which no column changed its type
   * between files: the check fails on one that has such a column.
   */
  static void assertSparkMergesSchemalessLakeAsDuckDb(SparkOracle spark, Path topicDir)
      throws IOException {
    Map<Map<List<String>, String>, List<Path>> groups =
        SchemalessLakeCheck.filesByChangedTypes(topicDir);
    if (groups.size() > 1) {
      throw new AssertionError(
          topicDir
              + " has columns whose type differs between files "
              + groups.keySet()
              + ": Spark cannot merge them (see assertSparkReadsChangedTypesAsDuckDb)");
    }
    List<List<String>> columns = SchemalessLakeCheck.columns(topicDir);
    Map<String, String> settings = new HashMap<>(SparkOracle.DEFAULTS);
    settings.put("mergeSchema", "true");
    SparkOracle.Answer answer =
        spark.query(topicDir, Map.copyOf(settings), SchemalessLakeCheck.sparkSql(columns));
    String what =
        "Spark "
            + spark.version()
            + " (defaults, mergeSchema) reading the "
            + "schemaless lake "
            + topicDir;
    if (answer.failed()) {
      throw new AssertionError(what + " failed: " + answer.error());
    }
    EngineAssertions.assertSameRows(
        duckDbRows(topicDir, columns),
        answer.rows(),
        what
            + ", columns "
            + columns
            + " against DuckDB's union_by_name reading [schema "
            + answer.schema()
            + "]");
  }

  /**
   * For a schemaless topic whose files disagree on a column's type (INT64 files, then DOUBLE ones
   * after a widening; or a column turned into text): fails unless Spark's default reader with
   * {@code mergeSchema} refuses the directory with {@code mergeError} in its error, and the
   * workaround docs/compatibility.md gives (the files read by groups of one type, the changed
   * columns cast to the wider type, the groups' rows together: {@link
   * SchemalessLakeCheck#sparkRowsByTypeGroups}) reads every row DuckDB's {@code union_by_name}
   * reads.
   */
  public static void assertSparkReadsChangedTypesAsDuckDb(Path topicDir, String mergeError) {
    if (!Boolean.parseBoolean(System.getProperty("engines.lake.check", "true"))) {
      return;
    }
    try {
      assertSparkReadsChangedTypesAsDuckDb(spark(), topicDir, mergeError);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void assertSparkReadsChangedTypesAsDuckDb(
      SparkOracle spark, Path topicDir, String mergeError) throws IOException {
    Map<Map<List<String>, String>, List<Path>> groups =
        SchemalessLakeCheck.filesByChangedTypes(topicDir);
    if (groups.size() < 2) {
      throw new AssertionError("no column of " + topicDir + " changed its type between files");
    }
    List<List<String>> columns = SchemalessLakeCheck.columns(topicDir);
    Map<String, String> settings = new HashMap<>(SparkOracle.DEFAULTS);
    settings.put("mergeSchema", "true");
    SparkOracle.Answer merged =
        spark.query(topicDir, Map.copyOf(settings), SchemalessLakeCheck.sparkSql(columns));
    String what =
        "Spark "
            + spark.version()
            + " (defaults, mergeSchema) reading the "
            + "schemaless lake "
            + topicDir
            + " whose files' types differ "
            + groups.keySet();
    if (!merged.failed() || !merged.error().contains(mergeError)) {
      throw new AssertionError(
          what
              + " was expected to fail with "
              + mergeError
              + ", but "
              + (merged.failed()
                  ? "failed otherwise: " + merged.error()
                  : "read it: compare its rows with DuckDB's and update docs/compatibility.md"));
    }
    EngineAssertions.assertSameRows(
        duckDbRows(topicDir, columns),
        SchemalessLakeCheck.sparkRowsByTypeGroups(spark, topicDir, columns, SparkOracle.DEFAULTS),
        "Spark "
            + spark.version()
            + " reading "
            + topicDir
            + " by groups of files of one type "
            + groups.keySet()
            + ", columns "
            + columns
            + ", against DuckDB's union_by_name");
  }

  private static List<String> duckDbRows(Path topicDir, List<List<String>> columns) {
    try {
      return SchemalessLakeCheck.duckDbRows(topicDir, columns);
    } catch (SQLException e) {
      throw new IllegalStateException("DuckDB on " + topicDir, e);
    }
  }

  /** Null when Spark with {@code reader} reads the lake right, else what differs. */
  private static String check(Path topicDir, Map<String, String> reader)
      throws IOException, SQLException {
    try {
      compare(topicDir, reader);
      return null;
    } catch (AssertionError e) {
      return e.getMessage();
    }
  }

  /** Up to {@link #SAMPLED_FILES} files, the first and the last among them. */
  private static List<Path> sample(List<Path> files) {
    if (files.size() <= SAMPLED_FILES) {
      return files;
    }
    List<Path> out = new ArrayList<>();
    for (int i = 0; i < SAMPLED_FILES; i++) {
      out.add(files.get((int) ((long) i * (files.size() - 1) / (SAMPLED_FILES - 1))));
    }
    return out;
  }

  private static void compare(Path topicDir, Map<String, String> reader)
      throws IOException, SQLException {
    List<Path> files = EngineAssertions.parquetFiles(topicDir);
    if (files.isEmpty()) {
      return;
    }
    Set<String> partitionColumns = new LinkedHashSet<>();
    for (Path file : files) {
      for (Path segment : topicDir.relativize(file.getParent())) {
        String s = segment.toString();
        if (s.contains("=")) {
          partitionColumns.add(s.substring(0, s.indexOf('=')));
        }
      }
    }
    SparkOracle spark = spark();
    String what =
        "Spark "
            + spark.version()
            + " ("
            + SparkOracle.describe(reader)
            + ") reading the lake "
            + topicDir;

    // Every column of the files but those a directory level overrides, row for row.
    MessageType schema = EngineCanonical.schemaOf(files.get(0));
    Set<String> dataColumns = new LinkedHashSet<>();
    GroupNode root = schema.root();
    for (int i = 0; i < root.fieldCount(); i++) {
      if (!partitionColumns.contains(root.field(i).name())) {
        dataColumns.add(root.field(i).name());
      }
    }
    // File by file for a sample spread over the lake: a lake of the memory IT holds a million
    // rows, more than is worth rendering twice.
    for (Path file : sample(files)) {
      if (!EngineCanonical.schemaOf(file).equals(schema)) {
        continue;
      }
      SparkOracle.Answer rows =
          spark.query(
              file,
              reader,
              "SELECT "
                  + dataColumns.stream()
                      .map(c -> "`" + c.replace("`", "``") + "`")
                      .collect(Collectors.joining(", "))
                  + " FROM t");
      if (rows.failed()) {
        throw new AssertionError(what + " failed on " + file + ": " + rows.error());
      }
      EngineAssertions.assertSameRows(
          EngineCanonical.parquetJavaRows(file, dataColumns),
          rows.rows(),
          what
              + ", file "
              + topicDir.relativize(file)
              + " (file columns, against "
              + "parquet-java) [schema "
              + rows.schema()
              + "]");
    }

    // Kafka coordinates and partition values, against DuckDB's reading with Hive partitioning.
    List<String> keys = new ArrayList<>();
    for (String c : List.of("__kafka_partition", "__kafka_offset")) {
      if (dataColumns.contains(c)) {
        keys.add(c);
      }
    }
    keys.addAll(partitionColumns);
    if (keys.isEmpty()) {
      return;
    }
    StringBuilder sparkSql = new StringBuilder("SELECT ");
    StringBuilder duckSql = new StringBuilder("SELECT ");
    for (int i = 0; i < keys.size(); i++) {
      String c = keys.get(i);
      String sep = i == 0 ? "" : ", ";
      sparkSql.append(sep).append("CAST(`").append(c).append("` AS STRING) AS c").append(i);
      // Spark reads __HIVE_DEFAULT_PARTITION__ as null, DuckDB as that string.
      duckSql
          .append(sep)
          .append("NULLIF(CAST(\"")
          .append(c.replace("\"", "\"\""))
          .append("\" AS VARCHAR), '__HIVE_DEFAULT_PARTITION__')");
    }
    SparkOracle.Answer sparkKeys =
        spark.query(topicDir, reader, sparkSql.append(" FROM t").toString());
    if (sparkKeys.failed()) {
      throw new AssertionError(what + " failed: " + sparkKeys.error());
    }
    List<String> duckKeys = new ArrayList<>();
    String glob = "'" + topicDir.toString().replace("'", "''") + "/**/*.parquet'";
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = db.createStatement();
        ResultSet rs =
            sql.executeQuery(
                duckSql + " FROM read_parquet(" + glob + ", hive_partitioning=true)")) {
      while (rs.next()) {
        StringBuilder line = new StringBuilder("{");
        for (int i = 0; i < keys.size(); i++) {
          line.append(i == 0 ? "" : ",").append('c').append(i).append(':');
          String v = rs.getString(i + 1);
          if (v == null) {
            line.append("null");
          } else {
            EngineCanonical.string(line, v);
          }
        }
        duckKeys.add(line.append('}').toString());
      }
    }
    EngineAssertions.assertSameRows(
        duckKeys, sparkKeys.rows(), what + " (" + keys + ", against DuckDB's reading)");
  }
}
