package dev.parquetconnect.format.oracle;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * DuckDB (JDBC, in memory) as a test oracle: reads a Parquet file with {@code read_parquet} and
 * renders each row's top-level fields in {@link CanonicalValues}' form, interpreting DuckDB's JDBC
 * values (STRUCT, LIST, MAP included) by our schema's logical types. Rows come in file order.
 */
public final class DuckDbOracle implements AutoCloseable {
  private final Connection connection;

  public DuckDbOracle() throws SQLException {
    connection = DriverManager.getConnection("jdbc:duckdb:");
  }

  /** Every row of {@code file}, each a list of its top-level fields rendered. */
  public List<List<String>> read(Path file, MessageType schema) throws SQLException {
    String path = file.toAbsolutePath().toString().replace("'", "''");
    List<List<String>> rows = new ArrayList<>();
    try (Statement s = connection.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT * FROM read_parquet('"
                    + path
                    + "', file_row_number = true)"
                    + " ORDER BY file_row_number")) {
      List<SchemaNode> fields = schema.fields();
      while (r.next()) {
        List<String> row = new ArrayList<>(fields.size());
        for (int i = 0; i < fields.size(); i++) {
          row.add(field(r.getObject(i + 1), fields.get(i)));
        }
        rows.add(row);
      }
    }
    return rows;
  }

  /** Runs a statement (COPY, SET) on the oracle's connection. */
  public void execute(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  static String field(Object value, SchemaNode node) throws SQLException {
    if (value == null) {
      return node.isRepeated() ? "[]" : "null";
    }
    if (node.isRepeated()) {
      StringBuilder out = new StringBuilder("[");
      String sep = "";
      for (Object e : elements(value)) {
        out.append(sep).append(occurrence(e, node));
        sep = ", ";
      }
      return out.append(']').toString();
    }
    return occurrence(value, node);
  }

  private static Object[] elements(Object array) throws SQLException {
    return (Object[]) ((Array) array).getArray();
  }

  static String occurrence(Object value, SchemaNode node) throws SQLException {
    if (value == null) {
      return "null";
    }
    if (node instanceof PrimitiveNode leaf) {
      return leaf(value, leaf);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      StringBuilder out = new StringBuilder("[");
      String sep = "";
      for (Object e : elements(value)) {
        out.append(sep).append(occurrence(e, list.element()));
        sep = ", ";
      }
      return out.append(']').toString();
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      StringBuilder out = new StringBuilder("{");
      String sep = "";
      for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        out.append(sep).append(occurrence(e.getKey(), map.key())).append(": ");
        out.append(map.value() == null ? "null" : occurrence(e.getValue(), map.value()));
        sep = ", ";
      }
      return out.append('}').toString();
    }
    Object[] attributes = ((Struct) value).getAttributes();
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < group.fieldCount(); i++) {
      out.append(i == 0 ? "" : ", ").append(group.field(i).name()).append('=');
      out.append(field(attributes[i], group.field(i)));
    }
    return out.append('}').toString();
  }

  static String leaf(Object v, PrimitiveNode node) throws SQLException {
    LogicalType type = node.logicalType();
    if (type != null && !LogicalTypes.isApplicable(type, node.type(), node.typeLength())) {
      type = null;
    }
    if (type instanceof LogicalType.StringType
        || type instanceof LogicalType.EnumType
        || type instanceof LogicalType.JsonType) {
      return "s:" + v;
    }
    if (type instanceof LogicalType.UuidType) {
      return v.toString();
    }
    if (type instanceof LogicalType.DecimalType) {
      return "d:" + ((BigDecimal) v).toPlainString();
    }
    if (type instanceof LogicalType.DateType) {
      return "date:" + ((LocalDate) v).toEpochDay();
    }
    if (type instanceof LogicalType.TimeType) {
      LocalTime time = v instanceof OffsetTime t ? t.toLocalTime() : (LocalTime) v;
      return "time:" + time.toNanoOfDay() / 1000 + "us";
    }
    if (type instanceof LogicalType.TimestampType t) {
      return "ts:" + timestamp(v, CanonicalValues.timestampUnit(t));
    }
    if (type instanceof LogicalType.IntType) {
      return "i:" + integer(v);
    }
    if (type instanceof LogicalType.Float16Type) {
      return "f:" + ((Number) v).floatValue();
    }
    return switch (node.type()) {
      case BOOLEAN -> "b:" + v;
      case INT32, INT64 -> "i:" + integer(v);
      case FLOAT -> "f:" + ((Number) v).floatValue();
      case DOUBLE -> "f:" + ((Number) v).doubleValue();
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> "x:" + HexFormat.of().formatHex(bytes(v));
      case INT96 -> "ts:" + timestamp(v, "us");
    };
  }

  private static String integer(Object v) {
    return v instanceof BigInteger b ? b.toString() : Long.toString(((Number) v).longValue());
  }

  private static byte[] bytes(Object v) throws SQLException {
    if (v instanceof byte[] b) {
      return b;
    }
    Blob blob = (Blob) v;
    return blob.getBytes(1, (int) blob.length());
  }

  /** Epoch count in {@code unit} ("us" or "ns") of a DuckDB timestamp value. */
  private static String timestamp(Object v, String unit) {
    Instant instant;
    if (v instanceof OffsetDateTime t) {
      instant = t.toInstant();
    } else if (v instanceof Timestamp t) {
      // DuckDB builds local timestamps from their fields: read the fields back, not the epoch.
      instant = t.toLocalDateTime().toInstant(ZoneOffset.UTC);
    } else {
      instant = ((LocalDateTime) v).toInstant(ZoneOffset.UTC);
    }
    long seconds = instant.getEpochSecond();
    long nanos = instant.getNano();
    return unit.equals("ns")
        ? (seconds * 1_000_000_000L + nanos) + "ns"
        : (seconds * 1_000_000L + nanos / 1000) + "us";
  }

  @Override
  public void close() throws SQLException {
    connection.close();
  }
}
