package dev.parquetconnect.engines;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Apache Spark (local mode) in a child JVM, started once and asked many questions: the reader
 * program {@code src/it/spark-runtime} (SparkOracleMain) on the jars the build resolved into {@code
 * target/engine-runtime/spark-<version>}. Spark binds only to 127.0.0.1 and runs without its UI.
 * Its log goes to {@code target/it/fork-N/engines/spark-<version>.log}.
 */
public final class SparkOracle implements AutoCloseable {
  /** The options Spark's own launcher gives a Java 17 JVM (its JavaModuleOptions). */
  private static final List<String> JAVA_17_OPENS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "-Djdk.reflect.useDirectMethodHandle=false",
          "-Dio.netty.tryReflectionSetAccessible=true");

  private static final long ANSWER_TIMEOUT_SECONDS = 300;

  /**
   * Spark's defaults: the vectorized reader, filter pushdown (statistics, dictionaries, page
   * index).
   */
  public static final Map<String, String> DEFAULTS =
      settings(
          "spark.sql.parquet.enableVectorizedReader", "true",
          "spark.sql.parquet.filterPushdown", "true",
          "spark.sql.parquet.aggregatePushdown", "false",
          "spark.sql.sources.useV1SourceList", "avro,csv,json,kafka,orc,parquet,text");

  /** The row-by-row parquet-mr reader, pushdown still on. */
  public static final Map<String, String> NOT_VECTORIZED =
      with(DEFAULTS, "spark.sql.parquet.enableVectorizedReader", "false");

  /** Vectorized, no filter pushdown: a full scan, the reference for pushdown. */
  public static final Map<String, String> NO_PUSHDOWN =
      with(DEFAULTS, "spark.sql.parquet.filterPushdown", "false");

  /** Row-by-row, no pushdown. */
  public static final Map<String, String> NOT_VECTORIZED_NO_PUSHDOWN =
      with(NOT_VECTORIZED, "spark.sql.parquet.filterPushdown", "false");

  /**
   * MIN/MAX/COUNT answered from the footers' statistics: only the DataSource V2 reader does that,
   * so parquet leaves the V1 list.
   */
  public static final Map<String, String> AGGREGATE_PUSHDOWN =
      with(
          DEFAULTS,
          "spark.sql.parquet.aggregatePushdown",
          "true",
          "spark.sql.sources.useV1SourceList",
          "avro,csv,json,kafka,orc,text");

  private final String version;
  private final OracleProcess process;

  private SparkOracle(String version, OracleProcess process) {
    this.version = version;
    this.process = process;
  }

  /** The Spark versions the build resolved ({@code spark.it.versions}, newest first). */
  public static List<String> versions() {
    return Arrays.stream(System.getProperty("spark.it.versions", "4.0.1,3.5.8").split(","))
        .map(String::trim)
        .filter(v -> !v.isEmpty())
        .toList();
  }

  /** Starts Spark {@code version} and waits until its session is up. */
  public static SparkOracle start(String version) throws IOException {
    Path runtime =
        Path.of(System.getProperty("engine.runtime.dir", "target/engine-runtime"))
            .resolve("spark-" + version);
    if (!Files.isRegularFile(runtime.resolve("dependencies.txt"))) {
      throw new IllegalStateException(
          "Spark "
              + version
              + " is not resolved in "
              + runtime
              + ": run `mvn -f src/it/spark-runtime/pom.xml -Dspark.version="
              + version
              + " clean package` (the pre-integration-test phase does it)");
    }
    Path work = Path.of(System.getProperty("it.work.dir", "target/it")).resolve("engines");
    Path scratch = Files.createDirectories(work.resolve("spark-" + version + "-answers"));
    Path logFile = work.resolve("spark-" + version + ".log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx768m");
    command.add("-XX:+UseSerialGC");
    command.add("-Djava.io.tmpdir=" + Files.createDirectories(work.resolve("spark-tmp")));
    command.addAll(JAVA_17_OPENS);
    command.add("-cp");
    command.add(runtime.resolve("lib") + "/*");
    command.add("dev.parquetconnect.engines.SparkOracleMain");
    return new SparkOracle(
        version,
        OracleProcess.start(
            "Spark " + version, command, work, logFile, scratch, ANSWER_TIMEOUT_SECONDS));
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public String version() {
    return version;
  }

  /** Every row of the file or directory {@code path} as Spark reads it with {@code settings}. */
  public Answer read(Path path, Map<String, String> settings) throws IOException {
    return ask(path, settings, "");
  }

  /** The rows of {@code sql} over the view {@code t} of {@code path}. */
  public Answer query(Path path, Map<String, String> settings, String sql) throws IOException {
    return ask(path, settings, sql);
  }

  /**
   * The rows of {@code sql} over the view {@code t} of the files or directories {@code paths} read
   * together (with a {@code basePath} setting, partition discovery still on).
   */
  public Answer query(List<Path> paths, Map<String, String> settings, String sql)
      throws IOException {
    return ask(
        paths.stream()
            .map(p -> p.toAbsolutePath().toString())
            .collect(Collectors.joining("\u001f")),
        settings,
        sql);
  }

  private Answer ask(Path path, Map<String, String> settings, String sql) throws IOException {
    return ask(path.toAbsolutePath().toString(), settings, sql);
  }

  private Answer ask(String path, Map<String, String> settings, String sql) throws IOException {
    if (sql.indexOf('\t') >= 0 || sql.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("a query is one line without tabs: " + sql);
    }
    String conf =
        settings.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(";"));
    OracleProcess.Reply reply = process.ask(conf + "\t" + path + "\t" + sql);
    return new Answer(reply.schema(), reply.rows(), reply.error());
  }

  @Override
  public void close() {
    process.close();
  }

  /**
   * Spark's answer: the schema it saw and one canonical line per row (see {@link EngineCanonical}),
   * or the error it threw.
   */
  public record Answer(String schema, List<String> rows, String error) {
    public boolean failed() {
      return error != null;
    }

    /** The rows sorted, for comparing row sets whose order the engine does not promise. */
    public List<String> sortedRows() {
      if (error != null) {
        throw new AssertionError("Spark failed: " + error);
      }
      List<String> sorted = new ArrayList<>(rows);
      sorted.sort(null);
      return sorted;
    }
  }

  static Map<String, String> settings(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return Map.copyOf(map);
  }

  static Map<String, String> with(Map<String, String> base, String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>(base);
    map.putAll(settings(keyValues));
    return Map.copyOf(map);
  }

  /** The named settings, for test names and messages. */
  public static String describe(Map<String, String> settings) {
    if (settings.equals(DEFAULTS)) {
      return "defaults (vectorized, pushdown)";
    }
    if (settings.equals(NOT_VECTORIZED)) {
      return "row reader, pushdown";
    }
    if (settings.equals(NO_PUSHDOWN)) {
      return "vectorized, no pushdown";
    }
    if (settings.equals(NOT_VECTORIZED_NO_PUSHDOWN)) {
      return "row reader, no pushdown";
    }
    if (settings.equals(AGGREGATE_PUSHDOWN)) {
      return "aggregate pushdown (V2)";
    }
    return settings.toString();
  }
}
