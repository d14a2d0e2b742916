package dev.parquetconnect.engines;

import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A whole topic directory whose files' schemas differ (schemaless JSON: columns added as keys turn
 * up, a column widened), read as a lake user reads it: Spark with partition discovery over the
 * directory (with the reader settings given: {@code mergeSchema}, a schema of the user's), against
 * DuckDB's {@code read_parquet(..., hive_partitioning = true, union_by_name = true)}.
 *
 * <p>Both sides select the same columns, the union of every file's leaf paths (struct fields one by
 * one, so that two engines ordering a merged struct's fields differently still agree; lists and
 * maps whole) and the partition columns, and render each row in {@link EngineCanonical}'s text:
 * Spark in its reader program, DuckDB here from its JDBC values.
 */
final class SchemalessLakeCheck {
  private SchemalessLakeCheck() {}

  /** Columns of the lake: each file's leaf paths, in first-seen order, then partition columns. */
  static List<List<String>> columns(Path topicDir) throws IOException {
    Set<List<String>> paths = new LinkedHashSet<>();
    Set<String> partitions = new LinkedHashSet<>();
    for (Path file : EngineAssertions.parquetFiles(topicDir)) {
      for (Path segment : topicDir.relativize(file.getParent())) {
        String s = segment.toString();
        if (s.contains("=")) {
          partitions.add(s.substring(0, s.indexOf('=')));
        }
      }
      leaves(EngineCanonical.schemaOf(file).root(), new ArrayList<>(), paths);
    }
    List<List<String>> out = new ArrayList<>();
    for (List<String> path : paths) {
      if (!partitions.contains(path.get(0))) {
        out.add(path);
      }
    }
    for (String p : partitions) {
      out.add(List.of(p));
    }
    return out;
  }

  private static void leaves(GroupNode group, List<String> prefix, Set<List<String>> out) {
    for (int i = 0; i < group.fieldCount(); i++) {
      SchemaNode field = group.field(i);
      List<String> path = new ArrayList<>(prefix);
      path.add(field.name());
      if (field instanceof GroupNode g && !g.isList() && !g.isMap() && !field.isRepeated()) {
        leaves(g, path, out);
      } else {
        out.add(List.copyOf(path));
      }
    }
  }

  /** Spark's SQL over the view {@code t}: each column as {@code c<i>}. */
  static String sparkSql(List<List<String>> columns) {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(sparkColumn(columns.get(i))).append(" AS c").append(i);
    }
    return sql.append(" FROM t").toString();
  }

  private static String sparkColumn(List<String> path) {
    StringBuilder column = new StringBuilder();
    for (int k = 0; k < path.size(); k++) {
      column
          .append(k == 0 ? "" : ".")
          .append('`')
          .append(path.get(k).replace("`", "``"))
          .append('`');
    }
    return column.toString();
  }

  /**
   * The leaf columns of {@code file} and their Parquet types: the physical type of a leaf, LIST or
   * MAP for a list or map taken whole.
   */
  static Map<List<String>, String> leafTypes(Path file) throws IOException {
    Map<List<String>, String> out = new LinkedHashMap<>();
    leafTypes(EngineCanonical.schemaOf(file).root(), new ArrayList<>(), out);
    return out;
  }

  private static void leafTypes(
      GroupNode group, List<String> prefix, Map<List<String>, String> out) {
    for (int i = 0; i < group.fieldCount(); i++) {
      SchemaNode field = group.field(i);
      List<String> path = new ArrayList<>(prefix);
      path.add(field.name());
      if (field instanceof GroupNode g && !g.isList() && !g.isMap() && !field.isRepeated()) {
        leafTypes(g, path, out);
      } else if (field instanceof GroupNode g) {
        out.put(List.copyOf(path), g.isMap() ? "MAP" : "LIST");
      } else {
        out.put(List.copyOf(path), ((PrimitiveNode) field).type().name());
      }
    }
  }

  /**
   * The lake's files grouped by the types of the columns whose type differs between files (a
   * widening, or a column turned into text): within a group Spark's {@code mergeSchema} merges the
   * files (added columns), across groups it refuses. Empty keys: one group, no such column.
   */
  static Map<Map<List<String>, String>, List<Path>> filesByChangedTypes(Path topicDir)
      throws IOException {
    Map<Path, Map<List<String>, String>> types = new LinkedHashMap<>();
    Map<List<String>, Set<String>> seen = new LinkedHashMap<>();
    for (Path file : EngineAssertions.parquetFiles(topicDir)) {
      Map<List<String>, String> leaves = leafTypes(file);
      types.put(file, leaves);
      leaves.forEach((path, type) -> seen.computeIfAbsent(path, p -> new TreeSet<>()).add(type));
    }
    Map<Map<List<String>, String>, List<Path>> groups = new LinkedHashMap<>();
    types.forEach(
        (file, leaves) -> {
          Map<List<String>, String> key = new TreeMap<>(Comparator.comparing(Object::toString));
          leaves.forEach(
              (path, type) -> {
                if (seen.get(path).size() > 1) {
                  key.put(path, type);
                }
              });
          groups.computeIfAbsent(key, k -> new ArrayList<>()).add(file);
        });
    return groups;
  }

  /**
   * The workaround docs/compatibility.md gives a Spark user for a topic whose files disagree on a
   * column's type: each group of {@link #filesByChangedTypes} read on its own (partition discovery
   * from {@code basePath}, {@code mergeSchema}), the changed columns cast to the wider type (DOUBLE
   * for numbers, else STRING), the groups' rows together (Spark's {@code unionByName(other,
   * allowMissingColumns = true)}; a column a group lacks is null).
   */
  static List<String> sparkRowsByTypeGroups(
      SparkOracle spark, Path topicDir, List<List<String>> columns, Map<String, String> reader)
      throws IOException {
    Map<Map<List<String>, String>, List<Path>> groups = filesByChangedTypes(topicDir);
    Map<List<String>, Set<String>> changed = new LinkedHashMap<>();
    groups
        .keySet()
        .forEach(
            key ->
                key.forEach(
                    (path, type) -> changed.computeIfAbsent(path, p -> new TreeSet<>()).add(type)));
    Map<String, String> settings = new HashMap<>(reader);
    settings.put("mergeSchema", "true");
    settings.put("basePath", topicDir.toAbsolutePath().toString());
    List<String> rows = new ArrayList<>();
    for (List<Path> files : groups.values()) {
      Set<List<String>> present = new LinkedHashSet<>();
      for (Path file : files) {
        present.addAll(leafTypes(file).keySet());
        for (Path segment : topicDir.relativize(file.getParent())) {
          String s = segment.toString();
          if (s.contains("=")) {
            present.add(List.of(s.substring(0, s.indexOf('='))));
          }
        }
      }
      StringBuilder sql = new StringBuilder("SELECT ");
      for (int i = 0; i < columns.size(); i++) {
        List<String> path = columns.get(i);
        sql.append(i == 0 ? "" : ", ");
        if (!present.contains(path)) {
          sql.append("NULL");
        } else if (changed.containsKey(path)) {
          boolean numbers =
              changed.get(path).stream()
                  .allMatch(
                      t ->
                          t.equals("INT32")
                              || t.equals("INT64")
                              || t.equals("FLOAT")
                              || t.equals("DOUBLE"));
          sql.append("CAST(")
              .append(sparkColumn(path))
              .append(" AS ")
              .append(numbers ? "DOUBLE" : "STRING")
              .append(')');
        } else {
          sql.append(sparkColumn(path));
        }
        sql.append(" AS c").append(i);
      }
      SparkOracle.Answer answer =
          spark.query(files, Map.copyOf(settings), sql.append(" FROM t").toString());
      if (answer.failed()) {
        throw new AssertionError(
            "Spark "
                + spark.version()
                + " reading the files of "
                + topicDir
                + " whose changed columns are "
                + files.size()
                + " files' "
                + leafTypes(files.get(0))
                + " failed: "
                + answer.error());
      }
      rows.addAll(answer.rows());
    }
    return rows;
  }

  /** DuckDB's rows of the lake, union by name, Hive partitions on, in the canonical text. */
  static List<String> duckDbRows(Path topicDir, List<List<String>> columns) throws SQLException {
    return duckDbRows(topicDir, columns, Map.of());
  }

  /** The same, the columns of {@code casts} cast to the (DuckDB) type given. */
  static List<String> duckDbRows(
      Path topicDir, List<List<String>> columns, Map<List<String>, String> casts)
      throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? "" : ", ");
      List<String> path = columns.get(i);
      StringBuilder column = new StringBuilder();
      for (int k = 0; k < path.size(); k++) {
        column
            .append(k == 0 ? "" : ".")
            .append('"')
            .append(path.get(k).replace("\"", "\"\""))
            .append('"');
      }
      sql.append(
          casts.containsKey(path) ? "CAST(" + column + " AS " + casts.get(path) + ")" : column);
    }
    sql.append(" FROM read_parquet('")
        .append(topicDir.toString().replace("'", "''"))
        .append("/**/*.parquet', hive_partitioning = true, union_by_name = true)");
    List<String> rows = new ArrayList<>();
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = db.createStatement();
        ResultSet rs = statement.executeQuery(sql.toString())) {
      while (rs.next()) {
        StringBuilder line = new StringBuilder("{");
        for (int i = 0; i < columns.size(); i++) {
          line.append(i == 0 ? "" : ",").append('c').append(i).append(':');
          value(line, rs.getObject(i + 1));
        }
        rows.add(line.append('}').toString());
      }
    }
    return rows;
  }

  /** One JDBC value in the canonical text (the types schemaless JSON makes). */
  private static void value(StringBuilder out, Object v) throws SQLException {
    if (v == null) {
      out.append("null");
    } else if (v instanceof String s) {
      EngineCanonical.string(out, s);
    } else if (v instanceof byte[] b) {
      EngineCanonical.hex(out, b);
    } else if (v instanceof Array array) {
      Object[] elements = (Object[]) array.getArray();
      out.append('[');
      for (int k = 0; k < elements.length; k++) {
        if (k > 0) {
          out.append(',');
        }
        value(out, elements[k]);
      }
      out.append(']');
    } else if (v instanceof Map<?, ?> map) {
      List<String> entries = new ArrayList<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        StringBuilder entry = new StringBuilder();
        value(entry, e.getKey());
        entry.append("=>");
        value(entry, e.getValue());
        entries.add(entry.toString());
      }
      entries.sort(null);
      out.append("map{").append(String.join(",", entries)).append('}');
    } else if (v instanceof Struct struct) {
      Map<String, Object> fields = structFields(struct);
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : fields.entrySet()) {
        out.append(first ? "" : ",").append(e.getKey()).append(':');
        value(out, e.getValue());
        first = false;
      }
      out.append('}');
    } else if (v instanceof java.nio.ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      EngineCanonical.hex(out, bytes);
    } else {
      // Integers, floating point (Java's text: NaN, -0.0, Infinity), booleans.
      out.append(v);
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> structFields(Struct struct) throws SQLException {
    try {
      return (Map<String, Object>) struct.getClass().getMethod("getMap").invoke(struct);
    } catch (ReflectiveOperationException e) {
      throw new SQLException("DuckDB's struct has no getMap: " + struct.getClass(), e);
    }
  }
}
