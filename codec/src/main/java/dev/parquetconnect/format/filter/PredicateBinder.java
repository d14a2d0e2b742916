package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.filter.BoundPredicate.Node;
import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.LogicalTypes;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Fits a {@link Predicate} to a schema: resolves the columns, pushes NOT down to the leaves and
 * converts each literal to the column's stored values.
 *
 * <p>An integer column (decimals, dates, times and timestamps included) is compared exactly: the
 * literal becomes the stored unit (a timestamp literal in the column's unit, a decimal literal at
 * the column's scale) and a literal between two stored values moves the bound instead of being
 * rounded ({@code x < 1.5} on an integer is {@code x < 2}, {@code x = 1.5} is false), and a literal
 * past the type's range decides the condition alone.
 */
final class PredicateBinder {
  private static final BigInteger TWO_32 = BigInteger.ONE.shiftLeft(32);
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
  private static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private final MessageType schema;
  private final TreeMap<Integer, ColumnDescriptor> used = new TreeMap<>();

  private PredicateBinder(MessageType schema) {
    this.schema = schema;
  }

  static BoundPredicate bind(Predicate predicate, MessageType schema)
      throws PredicateBindException {
    PredicateBinder binder = new PredicateBinder(schema);
    Node root = binder.node(predicate, false);
    return new BoundPredicate(predicate, schema, root, new ArrayList<>(binder.used.values()));
  }

  /** {@code p}, or NOT {@code p} when {@code negate}, without NOT inside. */
  private Node node(Predicate p, boolean negate) throws PredicateBindException {
    if (p instanceof Predicate.Not not) {
      return node(not.operand(), !negate);
    }
    if (p instanceof Predicate.And and) {
      Node left = node(and.left(), negate);
      Node right = node(and.right(), negate);
      return negate ? Node.or(left, right) : Node.and(left, right);
    }
    if (p instanceof Predicate.Or or) {
      Node left = node(or.left(), negate);
      Node right = node(or.right(), negate);
      return negate ? Node.and(left, right) : Node.or(left, right);
    }
    if (p instanceof Predicate.IsNull isNull) {
      ColumnDescriptor column = column(isNull.column());
      boolean wantsNull = isNull.negated() == negate;
      return Node.leaf(
          new Leaf(
              column,
              kind(column),
              wantsNull ? Leaf.Test.IS_NULL : Leaf.Test.IS_NOT_NULL,
              new long[0],
              new double[0],
              new byte[0][]));
    }
    if (p instanceof Predicate.Compare compare) {
      ColumnDescriptor column = column(compare.column());
      Predicate.Op op = negate ? compare.op().negate() : compare.op();
      return compare(column, op, compare.value());
    }
    Predicate.In in = (Predicate.In) p;
    ColumnDescriptor column = column(in.column());
    return in(column, in.values(), negate);
  }

  private ColumnDescriptor column(String dottedPath) throws PredicateBindException {
    ColumnDescriptor found = null;
    for (ColumnDescriptor c : schema.columns()) {
      if (c.dottedPath().equals(dottedPath)) {
        found = c;
        break;
      }
    }
    if (found == null) {
      for (ColumnDescriptor c : schema.columns()) {
        if (c.dottedPath().startsWith(dottedPath + ".")) {
          throw new PredicateBindException(
              "'"
                  + dottedPath
                  + "' is a group, not a column: name one of its columns, like '"
                  + c.dottedPath()
                  + "'",
              dottedPath);
        }
      }
      throw new PredicateBindException("no column '" + dottedPath + "' in the schema", dottedPath);
    }
    if (found.maxRepetitionLevel() > 0) {
      throw new PredicateBindException(
          "column '"
              + dottedPath
              + "' is inside a list or map (repeated): a predicate compares columns with at most"
              + " one value per row",
          dottedPath);
    }
    Leaf.Kind kind = kind(found);
    if (kind == null) {
      throw new PredicateBindException(
          "column '" + dottedPath + "' is " + typeName(found) + ", which predicates cannot compare",
          dottedPath);
    }
    used.put(found.index(), found);
    return found;
  }

  /** How the column compares, or null when predicates do not support its type. */
  private static Leaf.Kind kind(ColumnDescriptor column) {
    PrimitiveNode leaf = column.primitive();
    LogicalType logical = leaf.logicalType();
    return switch (leaf.type()) {
      case BOOLEAN -> Leaf.Kind.SIGNED;
      case INT32 ->
          logical instanceof LogicalType.IntType i && !i.signed()
                  || leaf.convertedType() == ConvertedType.UINT_8
                  || leaf.convertedType() == ConvertedType.UINT_16
                  || leaf.convertedType() == ConvertedType.UINT_32
              ? Leaf.Kind.UNSIGNED_INT32
              : Leaf.Kind.SIGNED;
      case INT64 ->
          logical instanceof LogicalType.IntType i && !i.signed()
                  || leaf.convertedType() == ConvertedType.UINT_64
              ? Leaf.Kind.UNSIGNED_INT64
              : Leaf.Kind.SIGNED;
      case FLOAT, DOUBLE -> Leaf.Kind.FLOATING;
      case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> {
        if (logical instanceof LogicalType.DecimalType) {
          yield Leaf.Kind.BINARY_DECIMAL;
        }
        if (logical instanceof LogicalType.Float16Type
            || logical instanceof LogicalType.Unrecognized
            || leaf.convertedType() == ConvertedType.INTERVAL
            || leaf.convertedType() == ConvertedType.DECIMAL) {
          yield null;
        }
        yield Leaf.Kind.BINARY;
      }
      case INT96 -> null;
    };
  }

  private Node compare(ColumnDescriptor column, Predicate.Op op, Literal literal)
      throws PredicateBindException {
    Leaf.Kind kind = kind(column);
    return switch (kind) {
      case FLOATING ->
          leaf(column, kind, test(op), new long[0], new double[] {toDouble(column, literal)}, null);
      case BINARY ->
          leaf(
              column,
              kind,
              test(op),
              new long[0],
              new double[0],
              new byte[][] {toBytes(column, literal)});
      case BINARY_DECIMAL -> {
        BigDecimal exact = exactValue(column, literal);
        yield integral(column, op, exact, null);
      }
      default -> integral(column, op, exactValue(column, literal), domain(column));
    };
  }

  private Node in(ColumnDescriptor column, List<Literal> values, boolean negate)
      throws PredicateBindException {
    Leaf.Kind kind = kind(column);
    Leaf.Test test = negate ? Leaf.Test.NOT_IN : Leaf.Test.IN;
    switch (kind) {
      case FLOATING -> {
        double[] d = new double[values.size()];
        for (int i = 0; i < d.length; i++) {
          d[i] = toDouble(column, values.get(i));
        }
        return leaf(column, kind, test, new long[0], d, null);
      }
      case BINARY -> {
        byte[][] b = new byte[values.size()][];
        for (int i = 0; i < b.length; i++) {
          b[i] = toBytes(column, values.get(i));
        }
        return leaf(column, kind, test, new long[0], new double[0], b);
      }
      default -> {
        // Each literal as an equality: those no stored value can equal drop out.
        Node any = Node.FALSE;
        Node all = Node.TRUE;
        for (Literal value : values) {
          BigDecimal exact = exactValue(column, value);
          BigInteger[] domain = kind == Leaf.Kind.BINARY_DECIMAL ? null : domain(column);
          if (negate) {
            all = Node.and(all, integral(column, Predicate.Op.NE, exact, domain));
          } else {
            any = Node.or(any, integral(column, Predicate.Op.EQ, exact, domain));
          }
        }
        return negate ? all : any;
      }
    }
  }

  private static Leaf.Test test(Predicate.Op op) {
    return switch (op) {
      case EQ -> Leaf.Test.EQ;
      case NE -> Leaf.Test.NE;
      case LT -> Leaf.Test.LT;
      case LE -> Leaf.Test.LE;
      case GT -> Leaf.Test.GT;
      case GE -> Leaf.Test.GE;
    };
  }

  private static Node leaf(
      ColumnDescriptor column,
      Leaf.Kind kind,
      Leaf.Test test,
      long[] longs,
      double[] doubles,
      byte[][] binaries) {
    return Node.leaf(
        new Leaf(
            column,
            kind,
            test,
            longs,
            doubles == null ? new double[0] : doubles,
            binaries == null ? new byte[0][] : binaries));
  }

  private static Node notNull(ColumnDescriptor column) {
    return leaf(column, kind(column), Leaf.Test.IS_NOT_NULL, new long[0], null, null);
  }

  /**
   * {@code column op value} for a column of integers (unscaled for a decimal) within {@code domain}
   * ({@code [min, max]}, null for unbounded byte decimals), {@code value} exact in the column's
   * unit.
   */
  private static Node integral(
      ColumnDescriptor column, Predicate.Op op, BigDecimal value, BigInteger[] domain) {
    boolean whole = value.signum() == 0 || value.stripTrailingZeros().scale() <= 0;
    BigInteger floor = value.setScale(0, RoundingMode.FLOOR).toBigIntegerExact();
    BigInteger ceil = value.setScale(0, RoundingMode.CEILING).toBigIntegerExact();
    BigInteger min = domain == null ? null : domain[0];
    BigInteger max = domain == null ? null : domain[1];
    Leaf.Test test;
    BigInteger bound;
    switch (op) {
      case EQ -> {
        if (!whole || outside(floor, min, max)) {
          return Node.FALSE;
        }
        test = Leaf.Test.EQ;
        bound = floor;
      }
      case NE -> {
        if (!whole || outside(floor, min, max)) {
          return notNull(column);
        }
        test = Leaf.Test.NE;
        bound = floor;
      }
      case LT -> { // x < v  <=>  x < ceil(v)
        if (max != null && ceil.compareTo(max) > 0) {
          return notNull(column);
        }
        if (min != null && ceil.compareTo(min) <= 0) {
          return Node.FALSE;
        }
        test = Leaf.Test.LT;
        bound = ceil;
      }
      case LE -> { // x <= v  <=>  x <= floor(v)
        if (max != null && floor.compareTo(max) >= 0) {
          return notNull(column);
        }
        if (min != null && floor.compareTo(min) < 0) {
          return Node.FALSE;
        }
        test = Leaf.Test.LE;
        bound = floor;
      }
      case GT -> { // x > v  <=>  x > floor(v)
        if (max != null && floor.compareTo(max) >= 0) {
          return Node.FALSE;
        }
        if (min != null && floor.compareTo(min) < 0) {
          return notNull(column);
        }
        test = Leaf.Test.GT;
        bound = floor;
      }
      default -> { // GE: x >= v  <=>  x >= ceil(v)
        if (max != null && ceil.compareTo(max) > 0) {
          return Node.FALSE;
        }
        if (min != null && ceil.compareTo(min) <= 0) {
          return notNull(column);
        }
        test = Leaf.Test.GE;
        bound = ceil;
      }
    }
    Leaf.Kind kind = kind(column);
    if (kind == Leaf.Kind.BINARY_DECIMAL) {
      return leaf(column, kind, test, new long[0], null, new byte[][] {bound.toByteArray()});
    }
    return leaf(column, kind, test, new long[] {bound.longValue()}, null, null);
  }

  private static boolean outside(BigInteger v, BigInteger min, BigInteger max) {
    return (min != null && v.compareTo(min) < 0) || (max != null && v.compareTo(max) > 0);
  }

  /** The values the column can store, as {@code [min, max]}. */
  private static BigInteger[] domain(ColumnDescriptor column) {
    PrimitiveNode leaf = column.primitive();
    if (leaf.type() == PhysicalType.BOOLEAN) {
      return new BigInteger[] {BigInteger.ZERO, BigInteger.ONE};
    }
    Leaf.Kind kind = kind(column);
    if (leaf.type() == PhysicalType.INT32) {
      return kind == Leaf.Kind.UNSIGNED_INT32
          ? new BigInteger[] {BigInteger.ZERO, TWO_32.subtract(BigInteger.ONE)}
          : new BigInteger[] {INT_MIN, INT_MAX};
    }
    return kind == Leaf.Kind.UNSIGNED_INT64
        ? new BigInteger[] {BigInteger.ZERO, TWO_64.subtract(BigInteger.ONE)}
        : new BigInteger[] {LONG_MIN, LONG_MAX};
  }

  /** The literal as an exact number in the column's stored unit. */
  private static BigDecimal exactValue(ColumnDescriptor column, Literal literal)
      throws PredicateBindException {
    PrimitiveNode leaf = column.primitive();
    LogicalType logical = leaf.logicalType();
    if (leaf.type() == PhysicalType.BOOLEAN) {
      if (literal instanceof Literal.BooleanValue b) {
        return b.value() ? BigDecimal.ONE : BigDecimal.ZERO;
      }
      throw mismatch(column, literal, "TRUE or FALSE");
    }
    if (logical instanceof LogicalType.DecimalType decimal) {
      return number(column, literal, "a number").movePointRight(decimal.scale());
    }
    if (logical instanceof LogicalType.TimestampType timestamp) {
      if (literal instanceof Literal.TimestampValue t) {
        return instant(t.value(), timestamp.unit());
      }
      if (literal instanceof Literal.DateValue d) {
        return instant(d.value().atStartOfDay(ZoneOffset.UTC).toInstant(), timestamp.unit());
      }
      if (literal instanceof Literal.TextValue s) {
        Instant instant = PredicateParser.instant(s.value());
        if (instant == null) {
          throw mismatch(column, literal, "an ISO-8601 timestamp");
        }
        return instant(instant, timestamp.unit());
      }
      if (literal instanceof Literal.IntegerValue i) {
        return new BigDecimal(i.value());
      }
      throw mismatch(column, literal, "TIMESTAMP '...', an ISO-8601 string or an integer");
    }
    if (logical instanceof LogicalType.DateType) {
      if (literal instanceof Literal.DateValue d) {
        return BigDecimal.valueOf(d.value().toEpochDay());
      }
      if (literal instanceof Literal.TimestampValue t) {
        // Days since the epoch, with the fraction of a day; never a whole day short of exact.
        return BigDecimal.valueOf(t.value().getEpochSecond())
            .add(BigDecimal.valueOf(t.value().getNano(), 9))
            .divide(BigDecimal.valueOf(86_400), 30, RoundingMode.FLOOR);
      }
      if (literal instanceof Literal.TextValue s) {
        try {
          return BigDecimal.valueOf(LocalDate.parse(s.value()).toEpochDay());
        } catch (DateTimeParseException e) {
          throw mismatch(column, literal, "DATE 'yyyy-mm-dd'");
        }
      }
      if (literal instanceof Literal.IntegerValue i) {
        return new BigDecimal(i.value());
      }
      throw mismatch(column, literal, "DATE 'yyyy-mm-dd' or an integer");
    }
    if (logical instanceof LogicalType.TimeType time) {
      if (literal instanceof Literal.TextValue s) {
        try {
          long nanos = LocalTime.parse(s.value()).toNanoOfDay();
          return BigDecimal.valueOf(nanos).divide(BigDecimal.valueOf(nanosPer(time.unit())));
        } catch (DateTimeParseException e) {
          throw mismatch(column, literal, "'hh:mm:ss[.fraction]'");
        }
      }
      if (literal instanceof Literal.IntegerValue i) {
        return new BigDecimal(i.value());
      }
      throw mismatch(column, literal, "'hh:mm:ss[.fraction]' or an integer");
    }
    return number(column, literal, "a number");
  }

  private static long nanosPer(TimeUnit unit) {
    return switch (unit) {
      case MILLIS -> 1_000_000L;
      case MICROS -> 1_000L;
      case NANOS -> 1L;
    };
  }

  private static BigDecimal instant(Instant instant, TimeUnit unit) {
    BigDecimal nanos =
        BigDecimal.valueOf(instant.getEpochSecond())
            .multiply(BigDecimal.valueOf(1_000_000_000L))
            .add(BigDecimal.valueOf(instant.getNano()));
    return nanos.divide(BigDecimal.valueOf(nanosPer(unit)));
  }

  private static BigDecimal number(ColumnDescriptor column, Literal literal, String expected)
      throws PredicateBindException {
    if (literal instanceof Literal.IntegerValue i) {
      return new BigDecimal(i.value());
    }
    if (literal instanceof Literal.DecimalValue d) {
      return d.value();
    }
    throw mismatch(column, literal, expected);
  }

  private static double toDouble(ColumnDescriptor column, Literal literal)
      throws PredicateBindException {
    if (literal instanceof Literal.IntegerValue i) {
      return new BigDecimal(i.value()).doubleValue();
    }
    if (literal instanceof Literal.DecimalValue d) {
      return d.value().doubleValue();
    }
    if (literal instanceof Literal.TextValue s) {
      switch (s.value().toLowerCase(Locale.ROOT)) {
        case "nan":
          return Double.NaN;
        case "infinity":
        case "inf":
          return Double.POSITIVE_INFINITY;
        case "-infinity":
        case "-inf":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    throw mismatch(column, literal, "a number (or 'NaN', 'Infinity', '-Infinity')");
  }

  private static byte[] toBytes(ColumnDescriptor column, Literal literal)
      throws PredicateBindException {
    if (!(literal instanceof Literal.TextValue s)) {
      throw mismatch(column, literal, "a quoted string");
    }
    if (column.primitive().logicalType() instanceof LogicalType.UuidType) {
      try {
        UUID uuid = UUID.fromString(s.value());
        return ByteBuffer.allocate(16)
            .putLong(uuid.getMostSignificantBits())
            .putLong(uuid.getLeastSignificantBits())
            .array();
      } catch (IllegalArgumentException e) {
        throw mismatch(column, literal, "a UUID string");
      }
    }
    return s.value().getBytes(StandardCharsets.UTF_8);
  }

  private static PredicateBindException mismatch(
      ColumnDescriptor column, Literal literal, String expected) {
    return new PredicateBindException(
        "column '"
            + column.dottedPath()
            + "' is "
            + typeName(column)
            + ": it compares with "
            + expected
            + ", not "
            + literal,
        column.dottedPath());
  }

  private static String typeName(ColumnDescriptor column) {
    PrimitiveNode leaf = column.primitive();
    String physical = leaf.type().name();
    if (leaf.logicalType() != null) {
      return LogicalTypes.logicalTypeName(leaf.logicalType()) + " (" + physical + ")";
    }
    if (leaf.convertedType() != null) {
      return leaf.convertedType().name() + " (" + physical + ")";
    }
    return physical;
  }
}
