package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.schema.MessageType;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A condition on the columns of a row, as {@link PredicateParser} reads it: comparisons, {@code
 * IN}, {@code IS [NOT] NULL}, combined with {@code AND}, {@code OR} and {@code NOT}. Columns are
 * named by dotted path ({@code value.customer.id}). An immutable tree, independent of any file:
 * {@link #bind} fits it to a file's schema.
 *
 * <p>Semantics are SQL's {@code WHERE}: a comparison with a null is unknown, and only rows for
 * which the whole predicate is true are kept. Floating-point NaN equals NaN and is greater than
 * every other value, as in DuckDB and PostgreSQL.
 */
public sealed interface Predicate
    permits Predicate.Compare,
        Predicate.In,
        Predicate.IsNull,
        Predicate.And,
        Predicate.Or,
        Predicate.Not {

  /** A comparison operator. */
  enum Op {
    EQ("="),
    NE("<>"),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">=");

    private final String symbol;

    Op(String symbol) {
      this.symbol = symbol;
    }

    public String symbol() {
      return symbol;
    }

    /** The operator that is true exactly where this one is false (for non-null operands). */
    public Op negate() {
      return switch (this) {
        case EQ -> NE;
        case NE -> EQ;
        case LT -> GE;
        case LE -> GT;
        case GT -> LE;
        case GE -> LT;
      };
    }
  }

  /** {@code column op literal}. */
  record Compare(String column, Op op, Literal value) implements Predicate {
    public Compare {
      Objects.requireNonNull(column, "column");
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(value, "value");
    }

    @Override
    public String toString() {
      return column + " " + op.symbol() + " " + value;
    }
  }

  /** {@code column IN (literal, ...)}; {@code NOT IN} is a {@link Not} around it. */
  record In(String column, List<Literal> values) implements Predicate {
    public In {
      Objects.requireNonNull(column, "column");
      values = List.copyOf(values);
      if (values.isEmpty()) {
        throw new IllegalArgumentException("IN needs at least one value");
      }
    }

    @Override
    public String toString() {
      StringBuilder s = new StringBuilder(column).append(" IN (");
      for (int i = 0; i < values.size(); i++) {
        s.append(i == 0 ? "" : ", ").append(values.get(i));
      }
      return s.append(')').toString();
    }
  }

  /** {@code column IS NULL}, or with {@code negated} {@code column IS NOT NULL}. */
  record IsNull(String column, boolean negated) implements Predicate {
    public IsNull {
      Objects.requireNonNull(column, "column");
    }

    @Override
    public String toString() {
      return column + (negated ? " IS NOT NULL" : " IS NULL");
    }
  }

  record And(Predicate left, Predicate right) implements Predicate {
    public And {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
      return "(" + left + " AND " + right + ")";
    }
  }

  record Or(Predicate left, Predicate right) implements Predicate {
    public Or {
      Objects.requireNonNull(left, "left");
      Objects.requireNonNull(right, "right");
    }

    @Override
    public String toString() {
      return "(" + left + " OR " + right + ")";
    }
  }

  record Not(Predicate operand) implements Predicate {
    public Not {
      Objects.requireNonNull(operand, "operand");
    }

    @Override
    public String toString() {
      return "NOT " + operand;
    }
  }

  /**
   * Fits this predicate to {@code schema}: every column must be a primitive column that is not
   * inside a list or map, and every literal must be comparable with its column's type.
   *
   * @throws PredicateBindException naming the column that does not exist or does not fit
   */
  default BoundPredicate bind(MessageType schema) throws PredicateBindException {
    return PredicateBinder.bind(this, schema);
  }

  /** The dotted paths of the columns this predicate reads, sorted. */
  default Set<String> columns() {
    Set<String> columns = new TreeSet<>();
    collectColumns(this, columns);
    return columns;
  }

  private static void collectColumns(Predicate p, Set<String> into) {
    if (p instanceof Compare c) {
      into.add(c.column());
    } else if (p instanceof In in) {
      into.add(in.column());
    } else if (p instanceof IsNull n) {
      into.add(n.column());
    } else if (p instanceof And a) {
      collectColumns(a.left(), into);
      collectColumns(a.right(), into);
    } else if (p instanceof Or o) {
      collectColumns(o.left(), into);
      collectColumns(o.right(), into);
    } else {
      collectColumns(((Not) p).operand(), into);
    }
  }
}
