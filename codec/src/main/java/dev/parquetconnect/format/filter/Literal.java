package dev.parquetconnect.format.filter;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;

/**
 * A typed constant of a {@link Predicate}: what the text wrote, not yet fitted to a column. Binding
 * ({@link Predicate#bind}) converts it to the column's physical type, or refuses it naming the
 * column and the type.
 */
public sealed interface Literal
    permits Literal.TextValue,
        Literal.IntegerValue,
        Literal.DecimalValue,
        Literal.BooleanValue,
        Literal.TimestampValue,
        Literal.DateValue {

  /** A quoted string: {@code 'it''s'}. */
  record TextValue(String value) implements Literal {
    @Override
    public String toString() {
      return "'" + value.replace("'", "''") + "'";
    }
  }

  /** An integer without a fraction or exponent: {@code -42}. */
  record IntegerValue(BigInteger value) implements Literal {
    @Override
    public String toString() {
      return value.toString();
    }
  }

  /** A number with a fraction or an exponent: {@code 12.50}, {@code 1e-3}. */
  record DecimalValue(BigDecimal value) implements Literal {
    @Override
    public String toString() {
      return value.toString();
    }
  }

  /** {@code TRUE} or {@code FALSE}. */
  record BooleanValue(boolean value) implements Literal {
    @Override
    public String toString() {
      return value ? "TRUE" : "FALSE";
    }
  }

  /**
   * {@code TIMESTAMP '2024-01-02T03:04:05.123456Z'}: an instant, to the nanosecond; without a zone
   * offset the text is read as UTC.
   */
  record TimestampValue(Instant value) implements Literal {
    @Override
    public String toString() {
      return "TIMESTAMP '" + value + "'";
    }
  }

  /** {@code DATE '2024-02-29'}. */
  record DateValue(LocalDate value) implements Literal {
    @Override
    public String toString() {
      return "DATE '" + value + "'";
    }
  }
}
