package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Seeded random rows of any schema, in {@link Row}'s model: extremes of every type, NaN and -0.0,
 * empty strings, nulls at every level, empty and null lists and maps. Values stay inside the ranges
 * every engine represents (dates and timestamps DuckDB can hold, decimals within their precision),
 * since the point is to test files, not engines' range limits.
 */
final class RandomRows {
  private static final String[] WORDS = {
    "", "a", "kafka", "parquet", "é", "naïve café", "日本語", "😀"
  };
  private static final String[] JSON = {
    "{}", "[]", "{\"a\":1}", "[1,2,3]", "\"text\"", "42", "null"
  };

  private final Random random;

  /** Probability of an extreme value, of a null, and of reusing a value already drawn. */
  private final double extremes;

  private final double nulls;
  private final double repeats;
  private final Map<PrimitiveNode, List<Object>> drawn = new LinkedHashMap<>();

  RandomRows(long seed, double extremes, double nulls, double repeats) {
    this.random = new Random(seed);
    this.extremes = extremes;
    this.nulls = nulls;
    this.repeats = repeats;
  }

  RandomRows(long seed) {
    this(seed, 0.15, 0.2, 0.5);
  }

  List<Row> rows(MessageType schema, int count) {
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(row(schema.root()));
    }
    return rows;
  }

  Row row(GroupNode group) {
    Row row = new Row(group);
    for (int i = 0; i < group.fieldCount(); i++) {
      row.set(i, field(group.field(i)));
    }
    return row;
  }

  /** A value of {@code node}: a list of occurrences when repeated, maybe null when optional. */
  Object field(SchemaNode node) {
    if (node instanceof PrimitiveNode p && p.logicalType() instanceof LogicalType.NullType) {
      return node.isRepeated() ? List.of() : null;
    }
    if (node.isRepeated()) {
      int n = size();
      List<Object> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(occurrence(node));
      }
      return list;
    }
    if (node.isOptional() && random.nextDouble() < nulls) {
      return null;
    }
    return occurrence(node);
  }

  private int size() {
    int roll = random.nextInt(10);
    return roll < 2 ? 0 : roll < 5 ? 1 : roll < 8 ? 2 : 3;
  }

  private Object occurrence(SchemaNode node) {
    if (node instanceof PrimitiveNode leaf) {
      return value(leaf);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      int n = size();
      List<Object> elements = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        elements.add(list.twoLevel() ? occurrence(list.element()) : field(list.element()));
      }
      return elements;
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      int n = size();
      Map<Object, Object> entries = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        entries.put(
            ("k" + i + "_" + random.nextInt(100)).getBytes(StandardCharsets.UTF_8),
            map.value() == null ? null : field(map.value()));
      }
      return entries;
    }
    return row(group);
  }

  /** A random physical value for {@code leaf}, often one drawn before (for dictionaries). */
  Object value(PrimitiveNode leaf) {
    List<Object> seen = drawn.computeIfAbsent(leaf, k -> new ArrayList<>());
    if (!seen.isEmpty() && random.nextDouble() < repeats) {
      return seen.get(random.nextInt(seen.size()));
    }
    Object v = fresh(leaf, random.nextDouble() < extremes);
    if (seen.size() < 8) {
      seen.add(v);
    }
    return v;
  }

  private Object fresh(PrimitiveNode leaf, boolean extreme) {
    LogicalType t = leaf.logicalType();
    if (t instanceof LogicalType.StringType) {
      return text(extreme);
    }
    if (t instanceof LogicalType.EnumType) {
      return new String[] {"RED", "GREEN", "BLUE", ""}
          [random.nextInt(4)].getBytes(StandardCharsets.UTF_8);
    }
    if (t instanceof LogicalType.JsonType) {
      return JSON[random.nextInt(JSON.length)].getBytes(StandardCharsets.UTF_8);
    }
    if (t instanceof LogicalType.DecimalType d) {
      return decimal(leaf, d, extreme);
    }
    if (t instanceof LogicalType.DateType) {
      return extreme ? pick(-1_000_000, 1_000_000, 0) : random.nextInt(40_000) - 10_000;
    }
    if (t instanceof LogicalType.TimeType time) {
      long perDay =
          switch (time.unit()) {
            case MILLIS -> 86_400_000L;
            case MICROS -> 86_400_000_000L;
            case NANOS -> 86_400_000_000_000L;
          };
      long v =
          extreme ? (random.nextBoolean() ? 0 : perDay - 1) : (long) (random.nextDouble() * perDay);
      return time.unit() == TimeUnit.MILLIS ? (Object) (int) v : (Object) v;
    }
    if (t instanceof LogicalType.TimestampType ts) {
      return timestamp(ts.unit(), extreme);
    }
    if (t instanceof LogicalType.IntType i) {
      return integer(i, extreme);
    }
    if (t instanceof LogicalType.Float16Type) {
      int bits =
          extreme
              ? new int[] {0x7E00, 0x8000, 0x0000, 0x7C00, 0xFC00, 0x7BFF, 0xFBFF, 0x0001, 0x8001}
                  [random.nextInt(9)]
              : random.nextInt(0x7C00) | (random.nextBoolean() ? 0x8000 : 0);
      return new byte[] {(byte) bits, (byte) (bits >>> 8)};
    }
    if (t instanceof LogicalType.UuidType) {
      return bytes(16);
    }
    return switch (leaf.type()) {
      case BOOLEAN -> random.nextBoolean();
      case INT32 ->
          extreme ? pick(Integer.MIN_VALUE, Integer.MAX_VALUE, 0) : random.nextInt(2000) - 1000;
      case INT64 ->
          extreme
              ? new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0}[random.nextInt(3)]
              : random.nextLong() >> random.nextInt(64);
      case FLOAT ->
          extreme
              ? new float[] {
                    Float.NaN,
                    -0.0f,
                    0.0f,
                    Float.POSITIVE_INFINITY,
                    Float.NEGATIVE_INFINITY,
                    Float.MAX_VALUE,
                    -Float.MAX_VALUE,
                    Float.MIN_VALUE
                  }
                  [random.nextInt(8)]
              : (float) random.nextGaussian() * 100;
      case DOUBLE ->
          extreme
              ? new double[] {
                    Double.NaN,
                    -0.0,
                    0.0,
                    Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY,
                    Double.MAX_VALUE,
                    -Double.MAX_VALUE,
                    Double.MIN_VALUE
                  }
                  [random.nextInt(8)]
              : random.nextGaussian() * 1e6;
      case BYTE_ARRAY ->
          extreme ? (random.nextBoolean() ? new byte[0] : bytes(200)) : bytes(random.nextInt(12));
      case FIXED_LEN_BYTE_ARRAY -> bytes(leaf.typeLength());
      case INT96 -> int96(extreme);
    };
  }

  private int pick(int a, int b, int c) {
    return new int[] {a, b, c}[random.nextInt(3)];
  }

  private byte[] text(boolean extreme) {
    if (extreme) {
      // Long text, to exercise statistics truncation, or the empty string.
      if (random.nextBoolean()) {
        return new byte[0];
      }
      StringBuilder s = new StringBuilder();
      while (s.length() < 90) {
        s.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
      }
      return s.toString().getBytes(StandardCharsets.UTF_8);
    }
    return (WORDS[random.nextInt(WORDS.length)] + random.nextInt(50))
        .getBytes(StandardCharsets.UTF_8);
  }

  private byte[] bytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  private Object decimal(PrimitiveNode leaf, LogicalType.DecimalType d, boolean extreme) {
    BigInteger limit = BigInteger.TEN.pow(d.precision()).subtract(BigInteger.ONE);
    BigInteger unscaled;
    if (extreme) {
      unscaled = new BigInteger[] {limit, limit.negate(), BigInteger.ZERO}[random.nextInt(3)];
    } else {
      unscaled = new BigInteger(Math.min(limit.bitLength() - 1, 40), random);
      unscaled = random.nextBoolean() ? unscaled : unscaled.negate();
    }
    return switch (leaf.type()) {
      case INT32 -> unscaled.intValueExact();
      case INT64 -> unscaled.longValueExact();
      case BYTE_ARRAY -> unscaled.toByteArray();
      default -> signExtend(unscaled.toByteArray(), leaf.typeLength());
    };
  }

  private static byte[] signExtend(byte[] minimal, int length) {
    byte[] out = new byte[length];
    byte fill = minimal[0] < 0 ? (byte) -1 : 0;
    int pad = length - minimal.length;
    for (int i = 0; i < length; i++) {
      out[i] = i < pad ? fill : minimal[i - pad];
    }
    return out;
  }

  /**
   * Local timestamps stay after 1600, where the hybrid calendar of java.sql.Timestamp (through
   * which DuckDB's JDBC driver hands them over) agrees with the proleptic one.
   */
  private long timestamp(TimeUnit unit, boolean extreme) {
    long minMicros = -11_676_096_000_000_000L; // 1600-01-01
    long maxMicros = 253_402_300_799_999_999L; // 9999-12-31T23:59:59.999999
    long v;
    switch (unit) {
      case MILLIS ->
          v =
              extreme
                  ? new long[] {minMicros / 1000, maxMicros / 1000, 0}[random.nextInt(3)]
                  : 1_600_000_000_000L + random.nextInt(1_000_000_000);
      case MICROS ->
          v =
              extreme
                  ? new long[] {minMicros, maxMicros, 0}[random.nextInt(3)]
                  : 1_600_000_000_000_000L + random.nextLong() % 1_000_000_000_000L;
      default ->
          v =
              extreme
                  ? new long[] {-9_000_000_000_000_000_000L, 9_000_000_000_000_000_000L, 0}
                      [random.nextInt(3)]
                  : 1_600_000_000_000_000_000L + random.nextLong() % 1_000_000_000_000_000L;
    }
    return v;
  }

  private Object integer(LogicalType.IntType i, boolean extreme) {
    int width = i.bitWidth();
    if (width == 64) {
      return extreme
          ? new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1}[random.nextInt(4)]
          : random.nextLong() >> random.nextInt(64);
    }
    long min = i.signed() ? -(1L << (width - 1)) : 0;
    long max = i.signed() ? (1L << (width - 1)) - 1 : (1L << width) - 1;
    long v =
        extreme
            ? new long[] {min, max, 0}[random.nextInt(3)]
            : min + (long) (random.nextDouble() * (max - min + 1));
    // UINT_32 values past 2^31 are stored as the negative int with the same bits.
    return (int) v;
  }

  private byte[] int96(boolean extreme) {
    long nanos =
        extreme
            ? (random.nextBoolean() ? 0 : 86_399_999_999_999L)
            : (long) (random.nextDouble() * 86_400_000_000_000L);
    int julianDay =
        2_440_588 + (extreme ? pick(-25_000, 25_000, 0) : random.nextInt(20_000) - 10_000);
    byte[] b = new byte[12];
    LittleEndian.putLong(b, 0, nanos);
    LittleEndian.putInt(b, 8, julianDay);
    return b;
  }
}
