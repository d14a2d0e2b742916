package dev.parquetconnect.format.filter;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * Rows and predicates for the differential tests of filtering: columns of every type a predicate
 * compares, whose values change "regime" every few dozen rows (clustered, extreme, all null,
 * anything) so that row group and page bounds differ and pruning has work to do; predicates drawn
 * from the values really present, with their neighbours and extremes, as text both our grammar and
 * DuckDB's SQL read the same way.
 */
final class FilterTestData {
  static final String[] FILTER_COLUMNS = {
    "id", "i32", "u32", "i64", "f32", "f64", "s", "d32", "dfix", "b", "ts", "st.x", "st.t"
  };

  private static final double[] DOUBLES = {
    Double.NaN,
    -0.0,
    0.0,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    1.5,
    -2.5,
    1e300
  };
  private static final float[] FLOATS = {
    Float.NaN,
    -0.0f,
    0.0f,
    Float.POSITIVE_INFINITY,
    Float.NEGATIVE_INFINITY,
    Float.MAX_VALUE,
    1.5f,
    -2.5f
  };
  private static final long[] LONGS = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1};
  private static final String[] WORDS = {"", "a", "ab", "kafka", "é", "日本語", "😀", "zz", "it's"};
  private static final long TS_BASE = 1_700_000_000_000L;
  private static final DateTimeFormatter TS_TEXT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

  private FilterTestData() {}

  static MessageType schema() {
    return new MessageType(
        "filtered",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("i32", OPTIONAL, PhysicalType.INT32),
            PrimitiveNode.of("u32", OPTIONAL, PhysicalType.INT32)
                .withLogicalType(new LogicalType.IntType((byte) 32, false)),
            PrimitiveNode.of("i64", OPTIONAL, PhysicalType.INT64),
            PrimitiveNode.of("f32", OPTIONAL, PhysicalType.FLOAT),
            PrimitiveNode.of("f64", OPTIONAL, PhysicalType.DOUBLE),
            PrimitiveNode.of("s", OPTIONAL, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.of("d32", OPTIONAL, PhysicalType.INT32)
                .withLogicalType(new LogicalType.DecimalType(2, 9)),
            PrimitiveNode.fixed("dfix", OPTIONAL, 9)
                .withLogicalType(new LogicalType.DecimalType(2, 20)),
            PrimitiveNode.of("b", OPTIONAL, PhysicalType.BOOLEAN),
            PrimitiveNode.of("ts", OPTIONAL, PhysicalType.INT64)
                .withLogicalType(new LogicalType.TimestampType(false, TimeUnit.MILLIS)),
            new GroupNode(
                "st",
                OPTIONAL,
                List.of(
                    PrimitiveNode.of("x", OPTIONAL, PhysicalType.INT32),
                    PrimitiveNode.of("t", OPTIONAL, PhysicalType.BYTE_ARRAY)
                        .withLogicalType(LogicalType.STRING)),
                null,
                null,
                null),
            NestedTypes.list("l", OPTIONAL, PrimitiveNode.of("e", OPTIONAL, PhysicalType.INT64))));
  }

  /** How a column's values are drawn for a stretch of rows. */
  private record Regime(int kind, long base) {}

  static List<Row> rows(MessageType schema, Random random, int count) {
    GroupNode root = schema.root();
    GroupNode st = (GroupNode) root.field(root.fieldIndex("st"));
    Regime[] regimes = new Regime[root.fieldCount()];
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      for (int c = 0; c < regimes.length; c++) {
        if (regimes[c] == null || random.nextInt(40) == 0) {
          regimes[c] = new Regime(random.nextInt(5), random.nextLong() & Long.MAX_VALUE);
        }
      }
      Regime[] g = regimes;
      Row nested =
          g[11].kind == 2
              ? null
              : Row.of(
                  st,
                  pick(
                      random,
                      g[11],
                      r -> (int) (g[11].base % 1000) + r.nextInt(10),
                      r -> r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE),
                  pick(
                      random,
                      g[11],
                      r -> bytes(WORDS[(int) (g[11].base % WORDS.length)] + r.nextInt(3)),
                      r -> bytes("")));
      List<Object> list = null;
      if (random.nextInt(6) != 0) {
        list = new ArrayList<>();
        for (int k = random.nextInt(4); k > 0; k--) {
          list.add(random.nextInt(5) == 0 ? null : random.nextLong());
        }
      }
      rows.add(
          Row.of(
              root,
              (long) i,
              pick(
                  random,
                  g[1],
                  r -> (int) (g[1].base % 1000) + r.nextInt(10),
                  r -> r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE),
              pick(
                  random,
                  g[2],
                  r -> (int) (g[2].base % 100_000) + r.nextInt(10),
                  r -> new int[] {-1, 0, Integer.MIN_VALUE, Integer.MAX_VALUE}[r.nextInt(4)]),
              pick(
                  random,
                  g[3],
                  r -> (g[3].base >> 8) + r.nextInt(100),
                  r -> LONGS[r.nextInt(LONGS.length)]),
              pick(
                  random,
                  g[4],
                  r -> (float) (g[4].base % 100) + r.nextInt(8) * 0.25f,
                  r -> FLOATS[r.nextInt(FLOATS.length)]),
              pick(
                  random,
                  g[5],
                  r -> (double) (g[5].base % 1000) + r.nextInt(16) / 8.0,
                  r -> DOUBLES[r.nextInt(DOUBLES.length)]),
              pick(
                  random,
                  g[6],
                  r -> bytes(WORDS[(int) (g[6].base % WORDS.length)] + (char) ('a' + r.nextInt(3))),
                  r -> bytes(WORDS[r.nextInt(WORDS.length)])),
              pick(
                  random,
                  g[7],
                  r -> (int) (g[7].base % 100_000) + r.nextInt(50),
                  r -> r.nextBoolean() ? 999_999_999 : -999_999_999),
              pick(
                  random,
                  g[8],
                  r ->
                      decimal(
                          BigInteger.valueOf(g[8].base % 1_000_000)
                              .add(BigInteger.valueOf(r.nextInt(1000)))),
                  r ->
                      decimal(
                          BigInteger.TEN
                              .pow(20)
                              .subtract(BigInteger.ONE)
                              .multiply(BigInteger.valueOf(r.nextBoolean() ? 1 : -1)))),
              pick(random, g[9], r -> (g[9].base & 1) == 0, Random::nextBoolean),
              pick(
                  random,
                  g[10],
                  r -> TS_BASE + g[10].base % 1_000_000_000L + r.nextInt(1000),
                  r -> r.nextBoolean() ? 0L : TS_BASE * 2),
              nested,
              list));
    }
    return rows;
  }

  /** 0: clustered, 1: one extreme, 2: all null, 3: anything (incl. null), 4: clustered+null. */
  private static Object pick(
      Random random,
      Regime regime,
      Function<Random, Object> clustered,
      Function<Random, Object> extreme) {
    return switch (regime.kind) {
      case 0 -> clustered.apply(random);
      case 1 -> extreme.apply(random);
      case 2 -> null;
      case 3 ->
          random.nextInt(5) == 0
              ? null
              : random.nextBoolean() ? extreme.apply(random) : clustered.apply(random);
      default -> random.nextInt(3) == 0 ? null : clustered.apply(random);
    };
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A 9-byte big-endian two's complement. */
  private static byte[] decimal(BigInteger value) {
    byte[] raw = value.toByteArray();
    byte[] out = new byte[9];
    Arrays.fill(out, value.signum() < 0 ? (byte) 0xFF : 0);
    System.arraycopy(raw, 0, out, 9 - raw.length, raw.length);
    return out;
  }

  // ---- predicates

  /** Random predicates over {@link #FILTER_COLUMNS}, literals drawn from {@code rows}. */
  static final class Predicates {
    private final List<Row> rows;
    private final Random random;

    Predicates(List<Row> rows, Random random) {
      this.rows = rows;
      this.random = random;
    }

    String next(int depth) {
      if (depth > 0 && random.nextInt(3) == 0) {
        String left = next(depth - 1);
        String right = next(depth - 1);
        String joined = "(" + left + (random.nextBoolean() ? " AND " : " OR ") + right + ")";
        return random.nextInt(5) == 0 ? "NOT " + joined : joined;
      }
      return condition(FILTER_COLUMNS[random.nextInt(FILTER_COLUMNS.length)]);
    }

    private String condition(String column) {
      int kind = random.nextInt(12);
      if (kind == 0) {
        return column + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
      }
      if (column.equals("b")) {
        return column
            + (random.nextBoolean() ? " = " : " <> ")
            + (random.nextBoolean() ? "TRUE" : "FALSE");
      }
      if (kind <= 2) {
        StringBuilder in =
            new StringBuilder(column).append(random.nextBoolean() ? " IN (" : " NOT IN (");
        for (int i = random.nextInt(4); i >= 0; i--) {
          in.append(literal(column)).append(i == 0 ? ")" : ", ");
        }
        return in.toString();
      }
      if (kind == 3) {
        String a = literal(column);
        String b = literal(column);
        return column + (random.nextInt(4) == 0 ? " NOT BETWEEN " : " BETWEEN ") + a + " AND " + b;
      }
      String[] ops = {"=", "<>", "<", "<=", ">", ">=", "!="};
      return column + " " + ops[random.nextInt(ops.length)] + " " + literal(column);
    }

    /** A literal for {@code column}: mostly a value of some row, else a neighbour or an extreme. */
    private String literal(String column) {
      Object value = null;
      for (int tries = 0; tries < 20 && value == null; tries++) {
        value = valueOf(rows.get(random.nextInt(rows.size())), column);
      }
      int twist = random.nextInt(6);
      switch (column) {
        case "id", "i64" -> {
          long v = value == null ? 0 : (Long) value;
          return switch (twist) {
            case 0 -> "9223372036854775808";
            case 1 -> Long.toString(v) + ".5";
            case 2 -> Long.toString(v + 1);
            default -> Long.toString(v);
          };
        }
        case "i32", "st.x" -> {
          int v = value == null ? 0 : (Integer) value;
          return switch (twist) {
            case 0 -> random.nextBoolean() ? "1000000000000" : "-1000000000000";
            case 1 -> v + ".5";
            case 2 -> Integer.toString(v - 1);
            default -> Integer.toString(v);
          };
        }
        case "u32" -> {
          int v = value == null ? 0 : (Integer) value;
          return switch (twist) {
            case 0 -> random.nextBoolean() ? "-1" : "4294967296";
            case 1 -> Integer.toUnsignedString(v) + ".5";
            default -> Integer.toUnsignedString(v);
          };
        }
        case "f32" -> {
          float v = value == null ? 0 : (Float) value;
          return doubleText(twist == 0 ? FLOATS[random.nextInt(FLOATS.length)] : v);
        }
        case "f64" -> {
          double v = value == null ? 0 : (Double) value;
          return doubleText(twist == 0 ? DOUBLES[random.nextInt(DOUBLES.length)] : v);
        }
        case "s", "st.t" -> {
          String v = value == null ? "" : new String((byte[]) value, StandardCharsets.UTF_8);
          if (twist == 0 && !v.isEmpty()) {
            v = v.substring(0, v.offsetByCodePoints(0, 1));
          } else if (twist == 1) {
            v = v + "a";
          }
          return "'" + v.replace("'", "''") + "'";
        }
        case "d32" -> {
          int v = value == null ? 0 : (Integer) value;
          BigDecimal d = BigDecimal.valueOf(v, 2);
          return twist == 0 ? d.toPlainString() + "5" : d.toPlainString();
        }
        case "dfix" -> {
          BigDecimal d =
              value == null ? BigDecimal.ZERO : new BigDecimal(new BigInteger((byte[]) value), 2);
          return twist == 0 ? d.toPlainString() + "1" : d.toPlainString();
        }
        case "ts" -> {
          long v = value == null ? TS_BASE : (Long) value;
          if (twist == 0) {
            v += 1;
          }
          return "TIMESTAMP '"
              + LocalDateTime.ofInstant(Instant.ofEpochMilli(v), ZoneOffset.UTC).format(TS_TEXT)
              + "'";
        }
        default -> throw new IllegalArgumentException(column);
      }
    }

    private static String doubleText(double v) {
      if (Double.isNaN(v)) {
        return "'NaN'";
      }
      if (Double.isInfinite(v)) {
        return v > 0 ? "'Infinity'" : "'-Infinity'";
      }
      return Double.toString(v);
    }

    private static Object valueOf(Row row, String column) {
      if (column.startsWith("st.")) {
        Row st = (Row) row.get("st");
        return st == null ? null : st.get(column.substring(3));
      }
      return row.get(column);
    }
  }
}
