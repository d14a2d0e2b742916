package dev.parquetconnect.format.oracle;

import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * DuckDB (in-memory, over JDBC) as a test oracle for physical values: writes Parquet files with
 * {@code COPY ... TO} and reads any file into our generic {@link Row} model, guided by the file's
 * schema. DuckDB hands out logical values; this maps the ones whose physical bytes are unambiguous
 * (integers of every width and sign, floats, strings, blobs, UUIDs, lists, maps, structs) back to
 * physical values, and refuses the others (decimals, dates and times) rather than guess. To compare
 * logical values of every type, use {@link DuckDbOracle}'s canonical rendering instead.
 */
public final class DuckDbRowOracle {
  private DuckDbRowOracle() {}

  /** Runs {@code COPY (select) TO 'file' (options)}. */
  public static void copy(String select, Path file, String options) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement()) {
      s.execute("COPY (" + select + ") TO '" + file.toAbsolutePath() + "' (" + options + ")");
    }
  }

  /** Every row of {@code file} as DuckDB reads it, in our model of {@code schema}. */
  public static List<Row> read(Path file, MessageType schema) throws SQLException {
    List<Row> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
        Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT * FROM read_parquet('" + file.toAbsolutePath() + "')")) {
      GroupNode root = schema.root();
      while (rs.next()) {
        Row row = new Row(root);
        for (int i = 0; i < root.fieldCount(); i++) {
          row.set(i, field(rs.getObject(i + 1), root.field(i)));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  private static Object field(Object v, SchemaNode node) throws SQLException {
    if (node.isRepeated()) {
      List<Object> list = new ArrayList<>();
      if (v != null) {
        for (Object e : (Object[]) ((Array) v).getArray()) {
          list.add(instance(e, node));
        }
      }
      return list;
    }
    return v == null ? null : instance(v, node);
  }

  private static Object instance(Object v, SchemaNode node) throws SQLException {
    if (node instanceof PrimitiveNode leaf) {
      return primitive(v, leaf);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      List<Object> out = new ArrayList<>();
      for (Object e : (Object[]) ((Array) v).getArray()) {
        out.add(e == null ? null : instance(e, list.element()));
      }
      return out;
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      Map<Object, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        out.put(
            instance(e.getKey(), map.key()),
            e.getValue() == null ? null : instance(e.getValue(), map.value()));
      }
      return out;
    }
    Object[] attributes = ((Struct) v).getAttributes();
    Row row = new Row(group);
    for (int i = 0; i < group.fieldCount(); i++) {
      row.set(i, field(attributes[i], group.field(i)));
    }
    return row;
  }

  private static Object primitive(Object v, PrimitiveNode leaf) throws SQLException {
    return switch (leaf.type()) {
      case BOOLEAN -> (Boolean) v;
      // Unsigned values come wider than their column; the low bits are the stored ones.
      case INT32 -> ((Number) v).intValue();
      case INT64 -> ((Number) v).longValue();
      case FLOAT -> ((Number) v).floatValue();
      case DOUBLE -> ((Number) v).doubleValue();
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 -> bytes(v, leaf);
    };
  }

  private static byte[] bytes(Object v, PrimitiveNode leaf) throws SQLException {
    if (v instanceof String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }
    if (v instanceof Blob blob) {
      return blob.getBytes(1, (int) blob.length());
    }
    if (v instanceof UUID uuid) {
      return ByteBuffer.allocate(16)
          .putLong(uuid.getMostSignificantBits())
          .putLong(uuid.getLeastSignificantBits())
          .array();
    }
    throw new IllegalArgumentException(
        "DuckDbRowOracle cannot map a "
            + v.getClass().getName()
            + " back to the bytes of column "
            + leaf.name());
  }
}
