package dev.parquetconnect.format.filter;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the predicate grammar of {@code replay.filter} and {@code pq cat --where} (documented in
 * docs/source.md):
 *
 * <pre>
 * predicate  := or
 * or         := and ( OR and )*
 * and        := not ( AND not )*
 * not        := NOT not | '(' predicate ')' | condition
 * condition  := column op literal
 *             | column                       (a BOOLEAN column: column = TRUE)
 *             | column [NOT] IN '(' literal ( ',' literal )* ')'
 *             | column [NOT] BETWEEN literal AND literal
 *             | column IS [NOT] NULL
 * op         := '=' | '==' | '<>' | '!=' | '<' | '<=' | '>' | '>='
 * column     := name ( '.' name )*          name: [A-Za-z_][A-Za-z0-9_$]* or "double quoted"
 * literal    := 'text' | number | TRUE | FALSE | TIMESTAMP 'iso-8601' | DATE 'yyyy-mm-dd'
 * </pre>
 *
 * Keywords are case-insensitive; {@code ''} in a quoted string and {@code ""} in a quoted name
 * stand for one quote. {@code BETWEEN a AND b} is {@code >= a AND <= b}. Errors give the 0-based
 * position of the first character that does not fit.
 */
public final class PredicateParser {
  /** Nesting deeper than this is refused, so no input can overflow the parser's stack. */
  private static final int MAX_DEPTH = 200;

  private final String text;
  private int pos;
  private int depth;

  private PredicateParser(String text) {
    this.text = text;
  }

  /** Parses {@code text}, which must hold exactly one predicate. */
  public static Predicate parse(String text) throws PredicateSyntaxException {
    if (text == null) {
      throw new PredicateSyntaxException("no predicate", 0);
    }
    PredicateParser parser = new PredicateParser(text);
    parser.skipSpace();
    if (parser.atEnd()) {
      throw new PredicateSyntaxException("empty predicate", 0);
    }
    Predicate p = parser.or();
    parser.skipSpace();
    if (!parser.atEnd()) {
      throw parser.error("unexpected '" + parser.peekToken() + "' after a complete predicate");
    }
    return p;
  }

  private Predicate or() throws PredicateSyntaxException {
    Predicate left = and();
    while (keyword("OR")) {
      left = new Predicate.Or(left, and());
    }
    return left;
  }

  private Predicate and() throws PredicateSyntaxException {
    Predicate left = not();
    while (keyword("AND")) {
      left = new Predicate.And(left, not());
    }
    return left;
  }

  private Predicate not() throws PredicateSyntaxException {
    if (++depth > MAX_DEPTH) {
      throw error("predicate nested deeper than " + MAX_DEPTH + " levels");
    }
    try {
      if (keyword("NOT")) {
        return new Predicate.Not(not());
      }
      skipSpace();
      if (peek() == '(') {
        pos++;
        Predicate inner = or();
        expect(')');
        return inner;
      }
      return condition();
    } finally {
      depth--;
    }
  }

  private Predicate condition() throws PredicateSyntaxException {
    String column = column();
    int at = pos;
    if (keyword("IS")) {
      boolean negated = keyword("NOT");
      if (!keyword("NULL")) {
        throw error("expected NULL after IS" + (negated ? " NOT" : ""));
      }
      return new Predicate.IsNull(column, negated);
    }
    boolean negated = keyword("NOT");
    if (keyword("IN")) {
      expect('(');
      List<Literal> values = new ArrayList<>();
      do {
        values.add(literal());
      } while (accept(','));
      expect(')');
      Predicate in = new Predicate.In(column, values);
      return negated ? new Predicate.Not(in) : in;
    }
    if (keyword("BETWEEN")) {
      Literal low = literal();
      if (!keyword("AND")) {
        throw error("expected AND in BETWEEN");
      }
      Literal high = literal();
      Predicate between =
          new Predicate.And(
              new Predicate.Compare(column, Predicate.Op.GE, low),
              new Predicate.Compare(column, Predicate.Op.LE, high));
      return negated ? new Predicate.Not(between) : between;
    }
    if (negated) {
      throw error("expected IN or BETWEEN after NOT");
    }
    pos = at;
    skipSpace();
    if (atEnd() || peek() == ')' || keywordAhead("AND") || keywordAhead("OR")) {
      // A bare column is a BOOLEAN column's test: "flag" is "flag = TRUE".
      return new Predicate.Compare(column, Predicate.Op.EQ, new Literal.BooleanValue(true));
    }
    Predicate.Op op = operator();
    skipSpace();
    if (keywordAhead("NULL")) {
      throw error("a comparison with NULL is never true: use IS NULL or IS NOT NULL");
    }
    return new Predicate.Compare(column, op, literal());
  }

  private Predicate.Op operator() throws PredicateSyntaxException {
    skipSpace();
    char c = peek();
    char d = pos + 1 < text.length() ? text.charAt(pos + 1) : 0;
    switch (c) {
      case '=':
        pos += d == '=' ? 2 : 1;
        return Predicate.Op.EQ;
      case '!':
        if (d == '=') {
          pos += 2;
          return Predicate.Op.NE;
        }
        break;
      case '<':
        if (d == '=') {
          pos += 2;
          return Predicate.Op.LE;
        }
        if (d == '>') {
          pos += 2;
          return Predicate.Op.NE;
        }
        pos++;
        return Predicate.Op.LT;
      case '>':
        if (d == '=') {
          pos += 2;
          return Predicate.Op.GE;
        }
        pos++;
        return Predicate.Op.GT;
      default:
        break;
    }
    throw error(
        atEnd()
            ? "expected an operator (=, <>, <, <=, >, >=, IN, BETWEEN, IS) at the end"
            : "expected an operator (=, <>, <, <=, >, >=, IN, BETWEEN, IS), found '"
                + peekToken()
                + "'");
  }

  private String column() throws PredicateSyntaxException {
    skipSpace();
    StringBuilder path = new StringBuilder();
    while (true) {
      path.append(name());
      if (pos < text.length() && text.charAt(pos) == '.') {
        pos++;
        path.append('.');
      } else {
        return path.toString();
      }
    }
  }

  private String name() throws PredicateSyntaxException {
    if (atEnd()) {
      throw error("expected a column name at the end");
    }
    char c = text.charAt(pos);
    if (c == '"') {
      int start = pos;
      pos++;
      StringBuilder name = new StringBuilder();
      while (true) {
        if (atEnd()) {
          pos = start;
          throw error("unterminated quoted column name");
        }
        char ch = text.charAt(pos++);
        if (ch == '"') {
          if (pos < text.length() && text.charAt(pos) == '"') {
            name.append('"');
            pos++;
          } else {
            break;
          }
        } else {
          name.append(ch);
        }
      }
      if (name.isEmpty()) {
        pos = start;
        throw error("empty quoted column name");
      }
      return name.toString();
    }
    if (!isNameStart(c)) {
      throw error("expected a column name, found '" + peekToken() + "'");
    }
    int start = pos;
    while (pos < text.length() && isNamePart(text.charAt(pos))) {
      pos++;
    }
    String name = text.substring(start, pos);
    if (isReserved(name)) {
      pos = start;
      throw error("expected a column name, found the keyword " + name.toUpperCase(Locale.ROOT));
    }
    return name;
  }

  private Literal literal() throws PredicateSyntaxException {
    skipSpace();
    if (atEnd()) {
      throw error("expected a value at the end");
    }
    char c = peek();
    if (c == '\'') {
      return new Literal.TextValue(quoted());
    }
    if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
      return number();
    }
    if (keyword("TRUE")) {
      return new Literal.BooleanValue(true);
    }
    if (keyword("FALSE")) {
      return new Literal.BooleanValue(false);
    }
    if (keyword("TIMESTAMP")) {
      skipSpace();
      int at = pos;
      String s = quoted();
      Instant instant = instant(s);
      if (instant == null) {
        pos = at;
        throw error("'" + s + "' is not an ISO-8601 timestamp (like 2024-01-02T03:04:05.123Z)");
      }
      return new Literal.TimestampValue(instant);
    }
    if (keyword("DATE")) {
      skipSpace();
      int at = pos;
      String s = quoted();
      try {
        return new Literal.DateValue(LocalDate.parse(s));
      } catch (DateTimeParseException e) {
        pos = at;
        throw error("'" + s + "' is not an ISO-8601 date (like 2024-02-29)");
      }
    }
    if (keywordAhead("NULL")) {
      throw error("NULL is not a value here: use IS NULL or IS NOT NULL");
    }
    throw error(
        "expected a value (a 'string', a number, TRUE, FALSE, TIMESTAMP '...' or DATE '...'), found '"
            + peekToken()
            + "'");
  }

  /**
   * An ISO-8601 instant: with {@code Z} or an offset, or without a zone (read as UTC), or a bare
   * date (its midnight, UTC); null when {@code s} is none of them.
   */
  static Instant instant(String text) {
    // SQL writes a space where ISO-8601 has a T: accept both.
    String s =
        text.length() > 10 && text.charAt(10) == ' '
            ? text.substring(0, 10) + 'T' + text.substring(11)
            : text;
    try {
      return OffsetDateTime.parse(s).toInstant();
    } catch (DateTimeParseException e) {
      // not with an offset: try the other forms
    }
    try {
      return LocalDateTime.parse(s).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException e) {
      // not a local date-time either
    }
    try {
      return LocalDate.parse(s).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private String quoted() throws PredicateSyntaxException {
    if (peek() != '\'') {
      throw error("expected a quoted string");
    }
    int start = pos;
    pos++;
    StringBuilder s = new StringBuilder();
    while (true) {
      if (atEnd()) {
        pos = start;
        throw error("unterminated string");
      }
      char ch = text.charAt(pos++);
      if (ch == '\'') {
        if (pos < text.length() && text.charAt(pos) == '\'') {
          s.append('\'');
          pos++;
        } else {
          return s.toString();
        }
      } else {
        s.append(ch);
      }
    }
  }

  private Literal number() throws PredicateSyntaxException {
    int start = pos;
    if (peek() == '-' || peek() == '+') {
      pos++;
    }
    boolean integral = true;
    while (pos < text.length()) {
      char ch = text.charAt(pos);
      if (ch >= '0' && ch <= '9') {
        pos++;
      } else if (ch == '.' || ch == 'e' || ch == 'E') {
        integral = false;
        pos++;
        if ((ch == 'e' || ch == 'E')
            && pos < text.length()
            && (text.charAt(pos) == '-' || text.charAt(pos) == '+')) {
          pos++;
        }
      } else {
        break;
      }
    }
    if (pos < text.length() && isNamePart(text.charAt(pos))) {
      while (pos < text.length() && isNamePart(text.charAt(pos))) {
        pos++;
      }
    }
    String s = text.substring(start, pos);
    try {
      if (integral) {
        return new Literal.IntegerValue(new BigInteger(s));
      }
      BigDecimal value = new BigDecimal(s);
      if (Math.abs((long) value.scale()) > 10_000) {
        throw new NumberFormatException("exponent out of range");
      }
      return new Literal.DecimalValue(value);
    } catch (NumberFormatException e) {
      pos = start;
      throw error("'" + s + "' is not a number");
    }
  }

  private boolean keyword(String word) {
    skipSpace();
    if (keywordAhead(word)) {
      pos += word.length();
      return true;
    }
    return false;
  }

  /** Whether {@code word} (case-insensitive, as a whole word) starts at the current position. */
  private boolean keywordAhead(String word) {
    int end = pos + word.length();
    return end <= text.length()
        && text.regionMatches(true, pos, word, 0, word.length())
        && (end == text.length() || !isNamePart(text.charAt(end)));
  }

  private boolean accept(char c) {
    skipSpace();
    if (peek() == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) throws PredicateSyntaxException {
    if (!accept(c)) {
      throw error(
          atEnd()
              ? "expected '" + c + "' at the end"
              : "expected '" + c + "', found '" + peekToken() + "'");
    }
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private boolean atEnd() {
    return pos >= text.length();
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : 0;
  }

  /** The token at the current position, for an error message (at most 20 characters). */
  private String peekToken() {
    int end = pos;
    if (end < text.length() && isNamePart(text.charAt(end))) {
      while (end < text.length() && isNamePart(text.charAt(end)) && end - pos < 20) {
        end++;
      }
    } else if (end < text.length()) {
      end++;
    }
    return text.substring(pos, end);
  }

  private PredicateSyntaxException error(String message) {
    return new PredicateSyntaxException(message, Math.min(pos, text.length()));
  }

  private static boolean isNameStart(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  }

  private static boolean isNamePart(char c) {
    return isNameStart(c) || (c >= '0' && c <= '9') || c == '$';
  }

  private static boolean isReserved(String name) {
    return switch (name.toUpperCase(Locale.ROOT)) {
      case "AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE", "BETWEEN" -> true;
      default -> false;
    };
  }
}
