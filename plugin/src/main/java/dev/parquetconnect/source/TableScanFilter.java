package dev.parquetconnect.source;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.format.filter.Literal;
import dev.parquetconnect.format.filter.Predicate;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.common.TopicPartition;

/**
 * What of a replay selection Iceberg's scan planning can prune on: the parts of {@code
 * replay.filter}, the time range and the offset ranges that translate exactly into an Iceberg
 * {@link Expression} over the table's schema. Iceberg then leaves out the data files whose
 * partition values or column bounds rule them out; the source's reader applies the whole selection
 * to the rows of the files left.
 *
 * <p>The expression may keep more than the selection, never less: a condition that does not
 * translate exactly (a column the table lacks, a float or decimal column, whose NaN and scale rules
 * differ, a literal of another type) is dropped from an AND and makes an OR, or a NOT over it,
 * untranslatable as a whole.
 */
final class TableScanFilter {
  private TableScanFilter() {}

  /** The expression for a selection over a table's schema; {@code alwaysTrue} prunes nothing. */
  static Expression of(
      Predicate filter,
      Long fromTimestamp,
      Long untilTimestamp,
      Map<TopicPartition, Long> fromOffsets,
      Map<TopicPartition, Long> untilOffsets,
      Schema schema) {
    Expression e = Expressions.alwaysTrue();
    if (filter != null) {
      Translated t = translate(filter, schema);
      if (t != null) {
        e = Expressions.and(e, t.expression());
      }
    }
    if (isTimestamp(schema, FileLayout.TIMESTAMP_COLUMN)) {
      // Table mode writes __kafka_timestamp in microseconds, Iceberg's unit.
      if (fromTimestamp != null) {
        e =
            Expressions.and(
                e,
                Expressions.greaterThanOrEqual(
                    FileLayout.TIMESTAMP_COLUMN, Math.multiplyExact(fromTimestamp, 1000L)));
      }
      if (untilTimestamp != null) {
        e =
            Expressions.and(
                e,
                Expressions.lessThan(
                    FileLayout.TIMESTAMP_COLUMN, Math.multiplyExact(untilTimestamp, 1000L)));
      }
    }
    if (has(schema, FileLayout.TOPIC_COLUMN, Type.TypeID.STRING)
        && has(schema, FileLayout.PARTITION_COLUMN, Type.TypeID.INTEGER)
        && has(schema, FileLayout.OFFSET_COLUMN, Type.TypeID.LONG)) {
      for (Map.Entry<TopicPartition, Long> from : fromOffsets.entrySet()) {
        e =
            Expressions.and(
                e,
                Expressions.or(
                    Expressions.not(partitionIs(from.getKey())),
                    Expressions.greaterThanOrEqual(FileLayout.OFFSET_COLUMN, from.getValue())));
      }
      for (Map.Entry<TopicPartition, Long> until : untilOffsets.entrySet()) {
        e =
            Expressions.and(
                e,
                Expressions.or(
                    Expressions.not(partitionIs(until.getKey())),
                    Expressions.lessThan(FileLayout.OFFSET_COLUMN, until.getValue())));
      }
    }
    return e;
  }

  private static Expression partitionIs(TopicPartition tp) {
    return Expressions.and(
        Expressions.equal(FileLayout.TOPIC_COLUMN, tp.topic()),
        Expressions.equal(FileLayout.PARTITION_COLUMN, tp.partition()));
  }

  /**
   * A translation: {@code exact} when it keeps exactly the rows the predicate keeps, else it keeps
   * more. Null: nothing translatable.
   */
  record Translated(Expression expression, boolean exact) {}

  static Translated translate(Predicate p, Schema schema) {
    if (p instanceof Predicate.And and) {
      Translated l = translate(and.left(), schema);
      Translated r = translate(and.right(), schema);
      if (l == null || r == null) {
        Translated one = l == null ? r : l;
        return one == null ? null : new Translated(one.expression(), false);
      }
      return new Translated(
          Expressions.and(l.expression(), r.expression()), l.exact() && r.exact());
    }
    if (p instanceof Predicate.Or or) {
      Translated l = translate(or.left(), schema);
      Translated r = translate(or.right(), schema);
      return l == null || r == null
          ? null
          : new Translated(Expressions.or(l.expression(), r.expression()), l.exact() && r.exact());
    }
    if (p instanceof Predicate.Not not) {
      Translated t = translate(not.operand(), schema);
      // Only an exact operand may be negated: the negation of "more rows" is "fewer rows".
      return t == null || !t.exact() ? null : new Translated(Expressions.not(t.expression()), true);
    }
    if (p instanceof Predicate.IsNull isNull) {
      if (primitive(schema, isNull.column()) == null) {
        return null;
      }
      return new Translated(
          isNull.negated()
              ? Expressions.notNull(isNull.column())
              : Expressions.isNull(isNull.column()),
          true);
    }
    if (p instanceof Predicate.In in) {
      Type type = primitive(schema, in.column());
      if (type == null) {
        return null;
      }
      List<Object> values = new ArrayList<>(in.values().size());
      for (Literal l : in.values()) {
        Object v = value(type, l);
        if (v == null) {
          return null;
        }
        values.add(v);
      }
      return new Translated(Expressions.in(in.column(), values), true);
    }
    Predicate.Compare c = (Predicate.Compare) p;
    Type type = primitive(schema, c.column());
    Object v = type == null ? null : value(type, c.value());
    if (v == null) {
      return null;
    }
    String col = c.column();
    Expression e =
        switch (c.op()) {
          case EQ -> Expressions.equal(col, v);
          case NE -> Expressions.notEqual(col, v);
          case LT -> Expressions.lessThan(col, v);
          case LE -> Expressions.lessThanOrEqual(col, v);
          case GT -> Expressions.greaterThan(col, v);
          case GE -> Expressions.greaterThanOrEqual(col, v);
        };
    return new Translated(e, true);
  }

  /** The type of a column outside lists and maps, when Iceberg compares it as we do; else null. */
  private static Type primitive(Schema schema, String column) {
    Types.NestedField field = schema.findField(column);
    if (field == null || !field.type().isPrimitiveType()) {
      return null;
    }
    String name = schema.findColumnName(field.fieldId());
    if (!column.equals(name)) {
      return null; // inside a list or map (Iceberg names its element or value)
    }
    switch (field.type().typeId()) {
      case BOOLEAN:
      case INTEGER:
      case LONG:
      case STRING:
      case DATE:
      case TIMESTAMP:
        return field.type();
      default:
        return null;
    }
  }

  /** A literal as Iceberg's value of the column's type, when it is exactly one; else null. */
  private static Object value(Type type, Literal literal) {
    switch (type.typeId()) {
      case BOOLEAN:
        return literal instanceof Literal.BooleanValue b ? b.value() : null;
      case INTEGER:
        return literal instanceof Literal.IntegerValue i
                && fits(i.value(), Integer.MIN_VALUE, Integer.MAX_VALUE)
            ? i.value().intValue()
            : null;
      case LONG:
        return literal instanceof Literal.IntegerValue i
                && fits(i.value(), Long.MIN_VALUE, Long.MAX_VALUE)
            ? i.value().longValue()
            : null;
      case STRING:
        return literal instanceof Literal.TextValue t ? t.value() : null;
      case DATE:
        if (literal instanceof Literal.DateValue d) {
          long day = d.value().toEpochDay();
          return day >= Integer.MIN_VALUE && day <= Integer.MAX_VALUE ? (int) day : null;
        }
        return null;
      case TIMESTAMP:
        return literal instanceof Literal.TimestampValue t ? micros(t.value()) : null;
      default:
        return null;
    }
  }

  private static boolean fits(BigInteger v, long min, long max) {
    return v.compareTo(BigInteger.valueOf(min)) >= 0 && v.compareTo(BigInteger.valueOf(max)) <= 0;
  }

  /** An instant in microseconds, or null when it is finer than a microsecond or out of range. */
  private static Long micros(Instant instant) {
    if (instant.getNano() % 1000 != 0) {
      return null;
    }
    try {
      return Math.addExact(
          Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1000);
    } catch (ArithmeticException e) {
      return null;
    }
  }

  private static boolean isTimestamp(Schema schema, String column) {
    return has(schema, column, Type.TypeID.TIMESTAMP);
  }

  private static boolean has(Schema schema, String column, Type.TypeID type) {
    Types.NestedField f = schema.findField(column);
    return f != null && f.type().typeId() == type;
  }
}
