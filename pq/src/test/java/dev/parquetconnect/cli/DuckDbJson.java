package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * DuckDB's JSON of a file's rows ({@code to_json} of each row) as the oracle of {@code pq cat}. The
 * two print some values differently on purpose (DuckDB: {@code "2024-01-02 03:04:05"}, floats
 * widened to double, NaN bare, blobs with {@code \x} escapes; pq: ISO text at the unit's precision,
 * NaN as a string, base64), so the comparison walks both JSON trees guided by the file's schema and
 * compares values by what they mean: numbers by value, times and timestamps as instants, bytes as
 * bytes.
 */
final class DuckDbJson {
  /** Strict: what pq prints must be standard JSON. */
  private static final ObjectMapper STRICT =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .build();

  /** DuckDB prints NaN and Infinity bare. */
  private static final ObjectMapper LENIENT =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
          .build();

  private DuckDbJson() {}

  /** DuckDB's JSON line of each row of {@code file}, in file order. */
  static List<String> rows(Connection duckdb, Path file) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = duckdb.createStatement();
        ResultSet rs =
            s.executeQuery(
                "SELECT to_json(pq_row) FROM read_parquet('"
                    + file.toAbsolutePath()
                    + "') pq_row")) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
  }

  static JsonNode parseStrict(String json) {
    try {
      return STRICT.readTree(json);
    } catch (Exception e) {
      throw new AssertionError("not valid JSON: " + json, e);
    }
  }

  /** Asserts that pq's line and DuckDB's line hold the same values of a row of {@code schema}. */
  static void assertSameRow(MessageType schema, String pqLine, String duckLine, String where) {
    JsonNode ours = parseStrict(pqLine);
    JsonNode theirs;
    try {
      theirs = LENIENT.readTree(duckLine);
    } catch (Exception e) {
      throw new AssertionError("DuckDB's JSON does not parse: " + duckLine, e);
    }
    String context = where + "\n  pq:     " + pqLine + "\n  DuckDB: " + duckLine;
    struct(schema.root(), ours, theirs, context, "");
  }

  private static void struct(
      GroupNode group, JsonNode ours, JsonNode theirs, String context, String path) {
    assertTrue(ours.isObject() && theirs.isObject(), path + " is not an object: " + context);
    assertEquals(group.fieldCount(), ours.size(), path + ": field count: " + context);
    for (SchemaNode field : group.fields()) {
      String fieldPath = path + "/" + field.name();
      JsonNode o = ours.get(field.name());
      JsonNode t = theirs.get(field.name());
      if (o == null || t == null) {
        fail(fieldPath + " missing: " + context);
      }
      field(field, o, t, context, fieldPath);
    }
  }

  private static void field(
      SchemaNode node, JsonNode ours, JsonNode theirs, String context, String path) {
    if (node.isRepeated()) {
      // A repeated field without a LIST annotation: DuckDB shows an empty one as [] too.
      array(node, ours, theirs, context, path, true);
    } else {
      nullable(node, ours, theirs, context, path);
    }
  }

  private static void nullable(
      SchemaNode node, JsonNode ours, JsonNode theirs, String context, String path) {
    if (ours.isNull() || theirs.isNull()) {
      assertTrue(ours.isNull() && theirs.isNull(), path + ": null on one side only: " + context);
      return;
    }
    instance(node, ours, theirs, context, path);
  }

  private static void instance(
      SchemaNode node, JsonNode ours, JsonNode theirs, String context, String path) {
    if (node instanceof PrimitiveNode leaf) {
      leaf(leaf, ours, theirs, context, path);
      return;
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      array(list.element(), ours, theirs, context, path, false);
      return;
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      assertTrue(ours.isObject() && theirs.isObject(), path + " is not a map: " + context);
      assertEquals(theirs.size(), ours.size(), path + ": entries: " + context);
      Iterator<Map.Entry<String, JsonNode>> o = ours.properties().iterator();
      Iterator<Map.Entry<String, JsonNode>> t = theirs.properties().iterator();
      while (o.hasNext()) {
        Map.Entry<String, JsonNode> oe = o.next();
        Map.Entry<String, JsonNode> te = t.next();
        assertEquals(te.getKey(), oe.getKey(), path + ": key: " + context);
        if (map.value() == null) {
          assertTrue(oe.getValue().isNull(), path + ": a key-only map has null values");
        } else {
          nullable(map.value(), oe.getValue(), te.getValue(), context, path + "/" + oe.getKey());
        }
      }
      return;
    }
    struct(group, ours, theirs, context, path);
  }

  private static void array(
      SchemaNode element,
      JsonNode ours,
      JsonNode theirs,
      String context,
      String path,
      boolean elementsAreRequired) {
    assertTrue(ours.isArray() && theirs.isArray(), path + " is not an array: " + context);
    assertEquals(theirs.size(), ours.size(), path + ": elements: " + context);
    for (int i = 0; i < ours.size(); i++) {
      if (elementsAreRequired) {
        instance(element, ours.get(i), theirs.get(i), context, path + "[" + i + "]");
      } else {
        nullable(element, ours.get(i), theirs.get(i), context, path + "[" + i + "]");
      }
    }
  }

  private static void leaf(
      PrimitiveNode leaf, JsonNode ours, JsonNode theirs, String context, String path) {
    String where = path + ": " + context;
    LogicalType logical = leaf.logicalType();
    if (logical != null && !LogicalTypes.isApplicable(logical, leaf.type(), leaf.typeLength())) {
      logical = null;
    }
    if (logical instanceof LogicalType.DecimalType) {
      assertEquals(0, theirs.decimalValue().compareTo(ours.decimalValue()), where);
    } else if (logical instanceof LogicalType.TimeType) {
      assertEquals(time(theirs.asText()), time(ours.asText()), where);
    } else if (logical instanceof LogicalType.TimestampType || leaf.type() == PhysicalType.INT96) {
      assertEquals(timestamp(theirs.asText()), timestamp(ours.asText()), where);
    } else if (logical instanceof LogicalType.DateType) {
      assertEquals(LocalDate.parse(theirs.asText()), LocalDate.parse(ours.asText()), where);
    } else if (logical instanceof LogicalType.JsonType) {
      assertEquals(theirs, ours, where);
    } else if (logical instanceof LogicalType.Float16Type || leaf.type() == PhysicalType.FLOAT) {
      // DuckDB widens floats to double before printing them.
      assertEquals(
          Float.floatToIntBits(floatOf(theirs)), Float.floatToIntBits(floatOf(ours)), where);
    } else if (leaf.type() == PhysicalType.DOUBLE) {
      assertEquals(
          Double.doubleToLongBits(doubleOf(theirs)),
          Double.doubleToLongBits(doubleOf(ours)),
          where);
    } else if (leaf.type() == PhysicalType.BOOLEAN) {
      assertEquals(theirs.booleanValue(), ours.booleanValue(), where);
    } else if (leaf.type() == PhysicalType.INT32 || leaf.type() == PhysicalType.INT64) {
      assertTrue(ours.isIntegralNumber(), where);
      assertEquals(theirs.bigIntegerValue(), ours.bigIntegerValue(), where);
    } else if (logical instanceof LogicalType.StringType
        || logical instanceof LogicalType.EnumType
        || logical instanceof LogicalType.UuidType) {
      assertEquals(theirs.asText(), ours.asText(), where);
    } else {
      // Byte strings: pq prints base64, DuckDB the bytes with \xHH escapes.
      assertArrayEquals(blob(theirs.asText()), Base64.getDecoder().decode(ours.asText()), where);
    }
  }

  private static float floatOf(JsonNode node) {
    return node.isTextual() ? Float.parseFloat(node.asText()) : (float) node.doubleValue();
  }

  private static double doubleOf(JsonNode node) {
    if (node.isTextual()) {
      return Double.parseDouble(node.asText());
    }
    // BigDecimal has no -0.0; Jackson keeps the sign in the text only.
    return node.isBigDecimal()
            && node.decimalValue().signum() == 0
            && node.toString().startsWith("-")
        ? -0.0
        : node.doubleValue();
  }

  /** {@code 12:34:56.789Z}, {@code 12:34:56+00} or {@code 12:34:56.789} as a LocalTime. */
  private static LocalTime time(String text) {
    return LocalTime.parse(stripZone(text));
  }

  /**
   * {@code 2024-01-02T03:04:05.123Z} (pq) or {@code 2024-01-02 03:04:05.123+00} (DuckDB) as a
   * LocalDateTime; DuckDB prints years before 1 as {@code 0044-03-15 (BC)}.
   */
  private static LocalDateTime timestamp(String text) {
    String t = text.replace(' ', 'T');
    boolean bc = t.endsWith("T(BC)");
    if (bc) {
      t = t.substring(0, t.length() - "T(BC)".length());
    }
    LocalDateTime parsed = LocalDateTime.parse(stripZone(t));
    // 1 BC is ISO year 0.
    return bc ? parsed.withYear(1 - parsed.getYear()) : parsed;
  }

  private static String stripZone(String text) {
    if (text.endsWith("Z")) {
      return text.substring(0, text.length() - 1);
    }
    if (text.endsWith("+00")) {
      return text.substring(0, text.length() - 3);
    }
    return text;
  }

  /** DuckDB's text of a blob: printable ASCII as is, other bytes as {@code \xHH}. */
  private static byte[] blob(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\' && i + 3 < text.length() && text.charAt(i + 1) == 'x') {
        out.write(Integer.parseInt(text.substring(i + 2, i + 4), 16));
        i += 3;
      } else {
        byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
      }
    }
    return out.toByteArray();
  }
}
