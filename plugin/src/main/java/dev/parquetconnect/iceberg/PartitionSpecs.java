package dev.parquetconnect.iceberg;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.sink.ParquetSinkConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;

/**
 * Partition specs from {@code iceberg.partition.spec} text, or derived from the sink's partitioner.
 *
 * <p>The text is a comma-separated list of terms: {@code identity(col)} (or just {@code col}),
 * {@code year(col)}, {@code month(col)}, {@code day(col)}, {@code hour(col)} (Spark's plurals
 * {@code years}, {@code months}, {@code days}, {@code hours} too), {@code bucket(n, col)} and
 * {@code truncate(n, col)} (the width first, as in Spark SQL; {@code truncate(col, n)} is read as
 * well). A column is a dotted path to a nested field; a name segment that holds a dot or other
 * characters is quoted in backticks. An empty text is the unpartitioned spec.
 */
public final class PartitionSpecs {
  private PartitionSpecs() {}

  /** One parsed term: the transform, its numeric argument (or -1), the column, where it starts. */
  record Term(String transform, int argument, String column, int position) {}

  /**
   * The spec of {@code spec} over {@code schema}.
   *
   * @throws IllegalArgumentException with a message ready for a {@code ConfigException}: the
   *     position (0-based character offset) of a syntax error, or the term whose column is missing
   *     or whose transform does not fit the column's type
   */
  public static PartitionSpec parse(String spec, Schema schema) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    for (Term term : terms(spec)) {
      try {
        // alone first, so that a column the schema lacks or a type the transform cannot take is
        // reported with its term
        add(PartitionSpec.builderFor(schema), term).build();
        add(builder, term);
      } catch (RuntimeException e) {
        throw new IllegalArgumentException(
            "partition spec '"
                + spec
                + "', term at position "
                + term.position()
                + " ("
                + describe(term)
                + "): "
                + e.getMessage(),
            e);
      }
    }
    try {
      return builder.build();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("partition spec '" + spec + "': " + e.getMessage(), e);
    }
  }

  private static PartitionSpec.Builder add(PartitionSpec.Builder builder, Term term) {
    String column = term.column();
    return switch (term.transform()) {
      case "identity" -> builder.identity(column);
      case "year" -> builder.year(column);
      case "month" -> builder.month(column);
      case "day" -> builder.day(column);
      case "hour" -> builder.hour(column);
      case "bucket" -> builder.bucket(column, term.argument());
      case "truncate" -> builder.truncate(column, term.argument());
      default -> throw new IllegalStateException("unparsed transform " + term.transform());
    };
  }

  /**
   * Checks the syntax of {@code spec} without a schema (for a connector's {@code validate()}).
   *
   * @return the problem, with its position, or empty when the text parses
   */
  public static Optional<String> validateSyntax(String spec) {
    try {
      terms(spec);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * The spec the sink's partitioner implies when {@code iceberg.partition.spec} is not set: the
   * field partitioner's fields as identity partitions, the time partitioner's finest unit in {@code
   * path.format} (hour, day, month or year) of its timestamp column ({@code timestamp.field} for
   * {@code timestamp.extractor=field}, {@code __kafka_timestamp} for {@code record}); any other
   * partitioner, and the time partitioner on the wall clock (a time no column holds),
   * unpartitioned. Iceberg's time transforms work in UTC, whatever {@code timezone} says.
   *
   * @throws IllegalArgumentException when a partition column is not in {@code schema} or does not
   *     fit its transform
   */
  public static PartitionSpec derive(Schema schema, ParquetSinkConfig config) {
    String timeColumn =
        switch (config.timestampSource()) {
          case FIELD -> config.timestampField();
          case RECORD -> FileLayout.TIMESTAMP_COLUMN;
          default -> null;
        };
    return derive(
        schema, config.partitioner(), config.partitionFields(), config.pathFormat(), timeColumn);
  }

  /**
   * As {@link #derive(Schema, ParquetSinkConfig)}, from the keys themselves: {@code partitioner} as
   * {@code partitioner.class} names it, {@code fields} ({@code partition.field.name}), {@code
   * pathFormat} and {@code timeColumn} (null: the wall clock).
   */
  public static PartitionSpec derive(
      Schema schema,
      String partitioner,
      List<String> fields,
      String pathFormat,
      String timeColumn) {
    PartitionSpec.Builder builder = PartitionSpec.builderFor(schema);
    switch (partitioner.toLowerCase(Locale.ROOT)) {
      case ParquetSinkConfig.PARTITIONER_FIELD:
        for (String field : fields) {
          builder.identity(field);
        }
        return builder.build();
      case ParquetSinkConfig.PARTITIONER_TIME:
        if (timeColumn == null) {
          return PartitionSpec.unpartitioned();
        }
        Types.NestedField column = schema.findField(timeColumn);
        if (column == null) {
          throw new IllegalArgumentException(
              "the time partitioner's column '"
                  + timeColumn
                  + "' is not in the table's schema: set iceberg.partition.spec");
        }
        switch (finestUnit(pathFormat)) {
          case 'H' -> builder.hour(timeColumn);
          case 'd' -> builder.day(timeColumn);
          case 'M' -> builder.month(timeColumn);
          case 'y' -> builder.year(timeColumn);
          default -> {
            return PartitionSpec.unpartitioned();
          }
        }
        return builder.build();
      default:
        return PartitionSpec.unpartitioned();
    }
  }

  /**
   * The finest of hour ({@code H}), day ({@code d}), month ({@code M}) and year ({@code y}) that
   * the unquoted pattern letters of {@code pathFormat} print, or 0.
   */
  static char finestUnit(String pathFormat) {
    boolean quoted = false;
    char finest = 0;
    String order = "yMdH";
    for (int i = 0; i < pathFormat.length(); i++) {
      char c = pathFormat.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
        continue;
      }
      if (quoted) {
        continue;
      }
      char unit =
          switch (c) {
            case 'H', 'h', 'K', 'k' -> 'H';
            case 'd', 'D', 'e', 'E' -> 'd';
            case 'M', 'L' -> 'M';
            case 'y', 'u', 'Y' -> 'y';
            default -> 0;
          };
      if (unit != 0 && order.indexOf(unit) > order.indexOf(finest)) {
        finest = unit;
      }
    }
    return finest;
  }

  private static String describe(Term term) {
    return switch (term.transform()) {
      case "bucket", "truncate" ->
          term.transform() + "(" + term.argument() + ", " + term.column() + ")";
      default -> term.transform() + "(" + term.column() + ")";
    };
  }

  /** The terms of {@code spec}; a syntax error is an {@link IllegalArgumentException}. */
  static List<Term> terms(String spec) {
    return new Parser(spec).terms();
  }

  /** A hand-written recursive-descent parser; positions are 0-based offsets into the text. */
  private static final class Parser {
    private final String text;
    private int pos;

    Parser(String text) {
      this.text = text == null ? "" : text;
    }

    List<Term> terms() {
      List<Term> terms = new ArrayList<>();
      skipSpaces();
      if (pos == text.length()) {
        return terms;
      }
      while (true) {
        terms.add(term());
        skipSpaces();
        if (pos == text.length()) {
          return terms;
        }
        expect(',');
      }
    }

    private Term term() {
      skipSpaces();
      int start = pos;
      String first = column();
      skipSpaces();
      if (!peek('(')) {
        return new Term("identity", -1, first, start);
      }
      if (first.contains(".")) {
        throw error(start, "a transform name, not a column path, before '('");
      }
      String transform = canonical(first.toLowerCase(Locale.ROOT), start);
      pos++;
      skipSpaces();
      Term term;
      if (transform.equals("bucket") || transform.equals("truncate")) {
        if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
          int n = number();
          skipSpaces();
          expect(',');
          skipSpaces();
          term = new Term(transform, n, column(), start);
        } else {
          String column = column();
          skipSpaces();
          expect(',');
          skipSpaces();
          term = new Term(transform, number(), column, start);
        }
      } else {
        term = new Term(transform, -1, column(), start);
      }
      skipSpaces();
      expect(')');
      return term;
    }

    private String canonical(String name, int at) {
      return switch (name) {
        case "identity", "bucket", "truncate" -> name;
        case "year", "years" -> "year";
        case "month", "months" -> "month";
        case "day", "days" -> "day";
        case "hour", "hours" -> "hour";
        default ->
            throw new IllegalArgumentException(
                "partition spec '"
                    + text
                    + "': unknown transform '"
                    + name
                    + "' at position "
                    + at
                    + " (identity, year, month, day, hour, bucket, truncate)");
      };
    }

    private int number() {
      int start = pos;
      while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      if (start == pos) {
        throw error(pos, "a number");
      }
      try {
        int n = Integer.parseInt(text.substring(start, pos));
        if (n <= 0) {
          throw error(start, "a number above 0");
        }
        return n;
      } catch (NumberFormatException e) {
        throw error(start, "a number below 2^31");
      }
    }

    /** A column path: segments of letters, digits, '_' and '$', or in backticks; joined by '.'. */
    private String column() {
      StringBuilder path = new StringBuilder();
      while (true) {
        int start = pos;
        if (peek('`')) {
          int close = text.indexOf('`', pos + 1);
          if (close < 0) {
            throw error(pos, "a closing backtick");
          }
          if (close == pos + 1) {
            throw error(pos, "a name between the backticks");
          }
          path.append(text, pos + 1, close);
          pos = close + 1;
        } else {
          while (pos < text.length() && isNameChar(text.charAt(pos))) {
            pos++;
          }
          if (start == pos) {
            throw error(pos, "a column name");
          }
          path.append(text, start, pos);
        }
        if (!peek('.')) {
          return path.toString();
        }
        path.append('.');
        pos++;
      }
    }

    private static boolean isNameChar(char c) {
      return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    private boolean peek(char c) {
      return pos < text.length() && text.charAt(pos) == c;
    }

    private void expect(char c) {
      if (!peek(c)) {
        throw error(pos, "'" + c + "'");
      }
      pos++;
    }

    private void skipSpaces() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    private IllegalArgumentException error(int at, String expected) {
      String found =
          at >= text.length()
              ? "the end"
              : "'" + text.substring(at, Math.min(text.length(), at + 12)) + "'";
      return new IllegalArgumentException(
          "partition spec '"
              + text
              + "': expected "
              + expected
              + " at position "
              + at
              + ", found "
              + found);
    }
  }
}
