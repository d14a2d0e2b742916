package dev.parquetconnect.engines;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * parquet-java's reading of a file rendered in the canonical text the engine oracles print
 * (SparkOracleMain in src/it/spark-runtime), so the two compare line by line. One line per row:
 * {@code {name:value,...}}; lists {@code [a,b]}; maps {@code map{k=>v,...}} with entries sorted by
 * their text (engines do not keep a map's order); null {@code null}. Values as the engines type
 * them: integers in decimal (unsigned ones unsigned), FLOAT and DOUBLE as Java prints them ({@code
 * NaN}, {@code -0.0}, {@code Infinity}), decimals as plain text at their scale, strings
 * JSON-quoted, byte strings {@code 0x}hex, dates ISO, UTC-adjusted timestamps (and INT96) as an
 * {@link Instant}, local timestamps as a {@link LocalDateTime}.
 */
public final class EngineCanonical {
  private static final long JULIAN_EPOCH_DAY = 2_440_588;

  private EngineCanonical() {}

  /** The schema of {@code file}, from its footer (our reader). */
  public static MessageType schemaOf(Path file) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.schema();
    } catch (ParquetException e) {
      throw new IOException(file + ": " + e.getMessage(), e);
    }
  }

  /** parquet-java's rows of {@code file}, rendered. */
  public static List<String> parquetJavaRows(Path file) throws IOException {
    MessageType schema = schemaOf(file);
    List<String> out = new ArrayList<>();
    for (Row row : ParquetJavaOracle.read(file, schema)) {
      out.add(row(row, schema.root()));
    }
    return out;
  }

  /**
   * parquet-java's rows of {@code file}, only the top-level {@code columns} (in the file's order).
   */
  public static List<String> parquetJavaRows(Path file, Set<String> columns) throws IOException {
    MessageType schema = schemaOf(file);
    List<String> out = new ArrayList<>();
    for (Row row : ParquetJavaOracle.read(file, schema)) {
      StringBuilder line = new StringBuilder("{");
      GroupNode root = schema.root();
      for (int i = 0; i < root.fieldCount(); i++) {
        SchemaNode field = root.field(i);
        if (columns.contains(field.name())) {
          line.append(line.length() > 1 ? "," : "").append(field.name()).append(':');
          occurrence(line, row.get(i), field);
        }
      }
      out.add(line.append('}').toString());
    }
    return out;
  }

  /** One row (a top-level record or a struct). */
  public static String row(Row row, GroupNode type) {
    StringBuilder out = new StringBuilder();
    struct(out, row, type);
    return out.toString();
  }

  private static void struct(StringBuilder out, Row row, GroupNode type) {
    out.append('{');
    for (int i = 0; i < type.fieldCount(); i++) {
      if (i > 0) {
        out.append(',');
      }
      SchemaNode field = type.field(i);
      out.append(field.name()).append(':');
      Object v = row.get(i);
      if (field.isRepeated()) {
        // A bare repeated field is a list to every engine; none of its elements is null.
        out.append('[');
        List<?> list = v == null ? List.of() : (List<?>) v;
        for (int k = 0; k < list.size(); k++) {
          if (k > 0) {
            out.append(',');
          }
          occurrence(out, list.get(k), field);
        }
        out.append(']');
      } else {
        occurrence(out, v, field);
      }
    }
    out.append('}');
  }

  private static void occurrence(StringBuilder out, Object v, SchemaNode node) {
    if (v == null) {
      out.append("null");
      return;
    }
    if (node instanceof PrimitiveNode leaf) {
      leaf(out, v, leaf);
      return;
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      out.append('[');
      List<?> values = (List<?>) v;
      for (int k = 0; k < values.size(); k++) {
        if (k > 0) {
          out.append(',');
        }
        occurrence(out, values.get(k), list.element());
      }
      out.append(']');
      return;
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      List<String> entries = new ArrayList<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        StringBuilder entry = new StringBuilder();
        occurrence(entry, e.getKey(), map.key());
        entry.append("=>");
        if (map.value() == null) {
          entry.append("null");
        } else {
          occurrence(entry, e.getValue(), map.value());
        }
        entries.add(entry.toString());
      }
      entries.sort(null);
      out.append("map{").append(String.join(",", entries)).append('}');
      return;
    }
    struct(out, (Row) v, group);
  }

  private static void leaf(StringBuilder out, Object v, PrimitiveNode node) {
    LogicalType type = node.logicalType();
    if (type != null && !LogicalTypes.isApplicable(type, node.type(), node.typeLength())) {
      type = null;
    }
    if (type instanceof LogicalType.StringType
        || type instanceof LogicalType.EnumType
        || type instanceof LogicalType.JsonType) {
      string(out, new String((byte[]) v, StandardCharsets.UTF_8));
    } else if (type instanceof LogicalType.DecimalType d) {
      BigInteger unscaled =
          v instanceof Integer i
              ? BigInteger.valueOf(i)
              : v instanceof Long l ? BigInteger.valueOf(l) : new BigInteger((byte[]) v);
      out.append(new BigDecimal(unscaled, d.scale()).toPlainString());
    } else if (type instanceof LogicalType.DateType) {
      out.append(LocalDate.ofEpochDay(((Number) v).longValue()));
    } else if (type instanceof LogicalType.TimestampType t) {
      Instant instant = instant(((Number) v).longValue(), t.unit());
      out.append(t.adjustedToUtc() ? instant : LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    } else if (type instanceof LogicalType.IntType i && !i.signed()) {
      long raw = ((Number) v).longValue();
      out.append(
          i.bitWidth() == 64 ? Long.toUnsignedString(raw) : Long.toString(raw & 0xFFFFFFFFL));
    } else {
      switch (node.type()) {
        case BOOLEAN, INT32, INT64 -> out.append(v);
        case FLOAT -> out.append((Float) v);
        case DOUBLE -> out.append((Double) v);
        case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> hex(out, (byte[]) v);
        case INT96 -> {
          byte[] b = (byte[]) v;
          long nanosOfDay = LittleEndian.getLong(b, 0);
          long day = LittleEndian.getInt(b, 8) - JULIAN_EPOCH_DAY;
          out.append(Instant.ofEpochSecond(day * 86_400L).plusNanos(nanosOfDay));
        }
        default -> throw new IllegalStateException("unknown type " + node.type());
      }
    }
  }

  /** Without overflow: MILLIS and MICROS reach far beyond the 292 years of a nanosecond count. */
  private static Instant instant(long raw, TimeUnit unit) {
    long perSecond =
        switch (unit) {
          case MILLIS -> 1_000L;
          case MICROS -> 1_000_000L;
          case NANOS -> 1_000_000_000L;
        };
    return Instant.ofEpochSecond(
        Math.floorDiv(raw, perSecond),
        Math.floorMod(raw, perSecond) * (1_000_000_000L / perSecond));
  }

  /** A string as SparkOracleMain.scalar writes it: JSON-style quotes and escapes. */
  static void string(StringBuilder out, String s) {
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
  }

  static void hex(StringBuilder out, byte[] bytes) {
    out.append("0x");
    for (byte b : bytes) {
      out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
  }
}
