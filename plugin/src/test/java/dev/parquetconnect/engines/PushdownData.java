package dev.parquetconnect.engines;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The data of the pushdown differential: columns of the types engines push filters down on, mostly
 * clustered by row (so pages and row groups hold different ranges and pruning matters), with nulls
 * in runs and scattered, NaN in runs and scattered, both zeros, the infinities, extremes, empty
 * strings; a struct (nested predicates) and a list (repeated levels in the pages beside the
 * filtered columns). {@link #predicate} draws SQL predicates over them.
 */
final class PushdownData {
  static final GroupNode NESTED =
      GroupNode.of(
          "s",
          OPTIONAL,
          List.of(
              PrimitiveNode.of("a", OPTIONAL, PhysicalType.INT32),
              PrimitiveNode.of("b", OPTIONAL, PhysicalType.BYTE_ARRAY)
                  .withLogicalType(LogicalType.STRING)));
  static final MessageType SCHEMA =
      new MessageType(
          "pushdown",
          List.of(
              PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
              PrimitiveNode.of("i32", OPTIONAL, PhysicalType.INT32),
              PrimitiveNode.of("i64", OPTIONAL, PhysicalType.INT64),
              PrimitiveNode.of("f32", OPTIONAL, PhysicalType.FLOAT),
              PrimitiveNode.of("f64", OPTIONAL, PhysicalType.DOUBLE),
              PrimitiveNode.of("str", OPTIONAL, PhysicalType.BYTE_ARRAY)
                  .withLogicalType(LogicalType.STRING),
              PrimitiveNode.of("dec", OPTIONAL, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.DecimalType(4, 18)),
              PrimitiveNode.fixed("dec30", OPTIONAL, 13)
                  .withLogicalType(new LogicalType.DecimalType(6, 30)),
              PrimitiveNode.of("day", OPTIONAL, PhysicalType.INT32)
                  .withLogicalType(LogicalType.DATE),
              PrimitiveNode.of("b", OPTIONAL, PhysicalType.BOOLEAN),
              NESTED,
              NestedTypes.list(
                  "l", OPTIONAL, PrimitiveNode.of("element", OPTIONAL, PhysicalType.INT32))));

  /** The columns predicates use, with their SQL type for literals. */
  enum Column {
    I32("i32", "INT"),
    I64("i64", "BIGINT"),
    F32("f32", "FLOAT"),
    F64("f64", "DOUBLE"),
    STR("str", "STRING"),
    DEC("dec", "DECIMAL(18,4)"),
    DEC30("dec30", "DECIMAL(30,6)"),
    DAY("day", "DATE"),
    B("b", "BOOLEAN"),
    NESTED_A("s.a", "INT"),
    NESTED_B("s.b", "STRING");

    final String sql;
    final String type;

    Column(String sql, String type) {
      this.sql = sql;
      this.type = type;
    }
  }

  private static final float[] SPECIAL_FLOATS = {
    Float.NaN,
    -0.0f,
    0.0f,
    Float.POSITIVE_INFINITY,
    Float.NEGATIVE_INFINITY,
    Float.MAX_VALUE,
    -Float.MAX_VALUE,
    Float.MIN_VALUE
  };
  private static final double[] SPECIAL_DOUBLES = {
    Double.NaN,
    -0.0,
    0.0,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY,
    Double.MAX_VALUE,
    -Double.MAX_VALUE,
    Double.MIN_VALUE
  };
  private static final String[] WORDS = {"", "a", "apple", "Äpfel", "zebra", "😀", "m", "\u0000x"};

  private final List<Row> rows;
  private final Random random;

  PushdownData(int count, Random random) {
    this.random = random;
    this.rows = new ArrayList<>(count);
    int nanRun = random.nextInt(count);
    int nullRun = random.nextInt(count);
    for (int i = 0; i < count; i++) {
      boolean inNanRun = i >= nanRun && i < nanRun + 60;
      boolean inNullRun = i >= nullRun && i < nullRun + 80;
      Row nested = Row.of(NESTED, nullable(i / 20 + random.nextInt(3)), nullable(utf8(word(i))));
      List<Object> list = new ArrayList<>();
      for (int k = random.nextInt(4); k > 0; k--) {
        list.add(random.nextInt(8) == 0 ? null : random.nextInt(100));
      }
      rows.add(
          Row.of(
              SCHEMA.root(),
              (long) i,
              inNullRun ? null : nullable(rare() ? extremeInt() : i / 10 + random.nextInt(5)),
              nullable(
                  rare()
                      ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
                      : (long) random.nextInt(50) * 1_000_000_007L),
              nullable(
                  inNanRun || rare()
                      ? SPECIAL_FLOATS[random.nextInt(SPECIAL_FLOATS.length)]
                      : i / 100f + (float) random.nextGaussian()),
              inNanRun
                  ? Double.NaN
                  : inNullRun
                      ? null
                      : nullable(
                          rare()
                              ? SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)]
                              : i + random.nextGaussian()),
              nullable(utf8(word(i))),
              inNullRun || random.nextInt(12) == 0
                  ? null
                  : (long) (i - 1500) * 10_000 + random.nextInt(10_000),
              nullable(
                  fixed13(
                      BigInteger.valueOf(i - 1000)
                          .shiftLeft(40)
                          .add(BigInteger.valueOf(random.nextInt(1000))))),
              nullable(18_000 + i / 30),
              nullable(random.nextInt(5) == 0),
              random.nextInt(15) == 0 ? null : nested,
              random.nextInt(10) == 0 ? null : list));
    }
  }

  List<Row> rows() {
    return rows;
  }

  private boolean rare() {
    return random.nextInt(25) == 0;
  }

  private int extremeInt() {
    return random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
  }

  private String word(int i) {
    return random.nextInt(4) == 0
        ? WORDS[random.nextInt(WORDS.length)]
        : String.format("k%05d", i / 25);
  }

  private <T> T nullable(T value) {
    return random.nextInt(10) == 0 ? null : value;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Big-endian two's complement in 13 bytes, as DECIMAL(30,6) on FIXED_LEN_BYTE_ARRAY(13). */
  static byte[] fixed13(BigInteger unscaled) {
    byte[] raw = unscaled.toByteArray();
    byte[] out = new byte[13];
    Arrays.fill(out, unscaled.signum() < 0 ? (byte) 0xFF : 0);
    System.arraycopy(raw, 0, out, 13 - raw.length, raw.length);
    return out;
  }

  // ---- predicates

  /** A random predicate: comparisons, IN, IS [NOT] NULL, ranges, conjunctions and disjunctions. */
  String predicate() {
    return switch (random.nextInt(10)) {
      case 0, 1, 2, 3 -> simple(pick());
      case 4 -> range(pick());
      case 5, 6 -> simple(pick()) + " AND " + simple(pick());
      case 7 -> simple(pick()) + " AND " + range(pick()) + " AND " + simple(pick());
      case 8 -> "(" + simple(pick()) + " OR " + simple(pick()) + ")";
      default -> "NOT (" + simple(pick()) + ")";
    };
  }

  private Column pick() {
    Column[] all = Column.values();
    return all[random.nextInt(all.length)];
  }

  private String simple(Column c) {
    return switch (random.nextInt(9)) {
      case 0, 1 -> c.sql + " = " + literal(c);
      case 2 -> c.sql + " < " + literal(c);
      case 3 -> c.sql + " > " + literal(c);
      case 4 -> c.sql + " <= " + literal(c);
      case 5 -> c.sql + " >= " + literal(c);
      case 6 -> c.sql + " IN (" + literal(c) + ", " + literal(c) + ", " + literal(c) + ")";
      case 7 -> c.sql + " IS NULL";
      default -> c.sql + " IS NOT NULL";
    };
  }

  private String range(Column c) {
    return c.sql + " >= " + literal(c) + " AND " + c.sql + " < " + literal(c);
  }

  /** A literal of the column's type: a value the data holds, most of the time, or an edge. */
  String literal(Column c) {
    Row row = rows.get(random.nextInt(rows.size()));
    boolean edge = random.nextInt(4) == 0;
    return switch (c) {
      case I32 ->
          edge ? Integer.toString(extremeInt()) : "CAST(" + orZero(row.get("i32")) + " AS INT)";
      case I64 ->
          edge
              ? "CAST(" + Long.MIN_VALUE + " AS BIGINT)"
              : "CAST(" + orZero(row.get("i64")) + " AS BIGINT)";
      case F32 ->
          "CAST('"
              + (edge
                  ? SPECIAL_FLOATS[random.nextInt(SPECIAL_FLOATS.length)]
                  : orZero(row.get("f32")))
              + "' AS FLOAT)";
      case F64 ->
          "CAST('"
              + (edge
                  ? SPECIAL_DOUBLES[random.nextInt(SPECIAL_DOUBLES.length)]
                  : orZero(row.get("f64")))
              + "' AS DOUBLE)";
      case STR -> string(edge ? WORDS[random.nextInt(WORDS.length)] : text(row.get("str")));
      case DEC ->
          "CAST('"
              + (row.get("dec") == null
                  ? "0"
                  : BigDecimal.valueOf((Long) row.get("dec"), 4).toPlainString())
              + "' AS DECIMAL(18,4))";
      case DEC30 ->
          "CAST('"
              + (row.get("dec30") == null
                  ? "0"
                  : new BigDecimal(new BigInteger((byte[]) row.get("dec30")), 6).toPlainString())
              + "' AS DECIMAL(30,6))";
      case DAY ->
          "DATE'"
              + LocalDate.ofEpochDay(row.get("day") == null ? 18_000 : (Integer) row.get("day"))
              + "'";
      case B -> Boolean.toString(random.nextBoolean());
      case NESTED_A ->
          "CAST(" + (row.get("s") == null ? 0 : orZero(((Row) row.get("s")).get("a"))) + " AS INT)";
      case NESTED_B -> string(row.get("s") == null ? "" : text(((Row) row.get("s")).get("b")));
    };
  }

  private static Object orZero(Object v) {
    return v == null ? 0 : v;
  }

  private static String text(Object v) {
    return v == null ? "" : new String((byte[]) v, StandardCharsets.UTF_8);
  }

  private static String string(String s) {
    StringBuilder out = new StringBuilder("'");
    for (char ch : s.toCharArray()) {
      if (ch == '\'' || ch == '\\') {
        out.append('\\');
      }
      if (ch == 0) {
        out.append("\\u0000");
      } else {
        out.append(ch);
      }
    }
    return out.append('\'').toString();
  }
}
