package dev.parquetconnect.engines;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Spark in local mode as a test oracle, in its own JVM (the tests' EngineOracle starts it). One
 * request per line on stdin, tab-separated:
 *
 * <pre>  OUT_FILE  SETTINGS  PATH  SQL</pre>
 *
 * SETTINGS are {@code key=value} pairs joined by {@code ;}: keys starting with {@code spark.} are
 * session settings (vectorized reader, pushdown, ...), {@code schema} a schema to read with (DDL,
 * as {@code DataFrameReader.schema}), any other key a reader option ({@code mergeSchema}, {@code
 * basePath}, ...). PATH is a Parquet file or directory (partition discovery on), or several joined
 * by U+001F (which no path of our lakes holds: the sink escapes the controls). SQL is empty to read
 * every row, or a query over the view {@code t} of PATH. The answer goes to OUT_FILE: the schema
 * Spark sees on the first line, then one canonical line per row (the form the tests'
 * EngineCanonical writes: see there). Then one line on stdout: {@code ok} or {@code error
 * <message>} (the stack trace goes to stderr). Everything else Spark or its libraries print goes to
 * stderr, so stdout carries only the answers.
 */
public final class SparkOracleMain {
  private SparkOracleMain() {}

  public static void main(String[] args) throws Exception {
    PrintStream answers = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    System.setOut(System.err);
    SparkSession spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("parquet-oracle")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.datetime.java8API.enabled", "true")
            .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    answers.println("ready " + spark.version());
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] parts = line.split("\t", -1);
      try {
        if (parts.length != 4) {
          throw new IllegalArgumentException(
              "expected 4 tab-separated fields, got " + parts.length);
        }
        answer(spark, Path.of(parts[0]), parts[1], parts[2], parts[3]);
        answers.println("ok");
      } catch (Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        System.err.println("request failed: " + line + "\n" + trace);
        answers.println("error " + describe(e));
      }
    }
    spark.stop();
  }

  /**
   * The exception and its root cause on one line: Spark wraps the reader's error in job failures.
   */
  private static String describe(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = e.getClass().getName() + ": " + e.getMessage();
    if (message.length() > 600) {
      message = message.substring(0, 600) + "...";
    }
    if (root != e) {
      message = root.getClass().getName() + ": " + root.getMessage() + " (in " + message + ")";
    }
    return message.replace('\n', ' ').replace('\r', ' ');
  }

  private static void answer(SparkSession spark, Path out, String settings, String path, String sql)
      throws Exception {
    DataFrameReader reader = spark.read();
    for (String setting : settings.split(";")) {
      if (setting.isEmpty()) {
        continue;
      }
      int eq = setting.indexOf('=');
      String key = setting.substring(0, eq);
      String value = setting.substring(eq + 1);
      if (key.startsWith("spark.")) {
        spark.conf().set(key, value);
      } else if (key.equals("schema")) {
        // A schema the user gives (DDL), as a lake user does when the files' schemas differ.
        reader = reader.schema(value);
      } else {
        reader = reader.option(key, value);
      }
    }
    Dataset<Row> data = reader.parquet(path.split("\u001f"));
    if (!sql.isEmpty()) {
      data.createOrReplaceTempView("t");
      data = spark.sql(sql);
    }
    StructType schema = data.schema();
    List<Row> rows = data.collectAsList();
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      w.write(schema.simpleString());
      w.write('\n');
      StringBuilder line = new StringBuilder();
      for (Row row : rows) {
        line.setLength(0);
        struct(line, row, schema);
        w.write(line.toString());
        w.write('\n');
      }
    }
  }

  private static void struct(StringBuilder out, Row row, StructType type) {
    out.append('{');
    StructField[] fields = type.fields();
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        out.append(',');
      }
      out.append(fields[i].name()).append(':');
      value(out, row.isNullAt(i) ? null : row.get(i), fields[i].dataType());
    }
    out.append('}');
  }

  private static void value(StringBuilder out, Object v, DataType type) {
    if (v == null) {
      out.append("null");
    } else if (type instanceof StructType struct) {
      struct(out, (Row) v, struct);
    } else if (type instanceof ArrayType array) {
      out.append('[');
      List<?> list = scalaSeq(v);
      for (int i = 0; i < list.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        value(out, list.get(i), array.elementType());
      }
      out.append(']');
    } else if (type instanceof MapType map) {
      // Spark's Row maps do not keep the file's order: entries sorted by their text.
      List<String> entries = new ArrayList<>();
      for (Map.Entry<?, ?> e : scalaMap(v).entrySet()) {
        StringBuilder entry = new StringBuilder();
        value(entry, e.getKey(), map.keyType());
        entry.append("=>");
        value(entry, e.getValue(), map.valueType());
        entries.add(entry.toString());
      }
      entries.sort(null);
      out.append("map{").append(String.join(",", entries)).append('}');
    } else {
      scalar(out, v);
    }
  }

  /** The canonical text of one scalar: the tests' EngineCanonical.scalar is its twin. */
  static void scalar(StringBuilder out, Object v) {
    if (v instanceof String s) {
      out.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '"' || c == '\\') {
          out.append('\\').append(c);
        } else if (c < 0x20 || c == 0x7f) {
          out.append(String.format("\\u%04x", (int) c));
        } else {
          out.append(c);
        }
      }
      out.append('"');
    } else if (v instanceof byte[] bytes) {
      out.append("0x");
      for (byte b : bytes) {
        out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
    } else if (v instanceof BigDecimal d) {
      out.append(d.toPlainString());
    } else if (v instanceof Float
        || v instanceof Double
        || v instanceof Number
        || v instanceof Boolean
        || v instanceof LocalDate
        || v instanceof Instant
        || v instanceof LocalDateTime) {
      out.append(v);
    } else {
      out.append(v.getClass().getSimpleName()).append(':').append(v);
    }
  }

  private static List<?> scalaSeq(Object v) {
    if (v instanceof List<?> list) {
      return list;
    }
    return scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Seq<?>) v);
  }

  private static Map<?, ?> scalaMap(Object v) {
    if (v instanceof Map<?, ?> map) {
      return map;
    }
    return scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Map<?, ?>) v);
  }
}
