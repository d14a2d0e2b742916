package dev.parquetconnect.cli;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.filter.BoundPredicate;
import dev.parquetconnect.format.filter.Predicate;
import dev.parquetconnect.format.filter.PredicateBindException;
import dev.parquetconnect.format.filter.PredicateParser;
import dev.parquetconnect.format.filter.PredicateSyntaxException;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.Projection;
import dev.parquetconnect.format.read.RowReader;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code pq cat FILE [--limit N] [--columns a,b.c] [--where PREDICATE]}: rows as JSON lines. */
final class CatCommand implements Command {
  private static final int MAX_LISTED_COLUMNS = 20;

  @Override
  public String name() {
    return "cat";
  }

  @Override
  public String summary() {
    return "print rows as JSON lines";
  }

  @Override
  public String help() {
    return """
        usage: pq cat FILE [--limit N] [--columns a,b.c] [--where PREDICATE]

        Prints the rows of FILE as JSON lines, one object per row, fields in schema order.
        Values follow their logical type:
          STRING, ENUM           JSON strings
          JSON                   embedded as JSON when valid, else a string
          DECIMAL                an exact decimal number (12.30)
          DATE                   "2024-02-29"
          TIME, TIMESTAMP        ISO text with the unit's digits, Z when adjusted to UTC
                                 ("03:04:05.123456Z", "2024-01-02T03:04:05.123")
          INT96                  an ISO timestamp with nanoseconds, no zone
          UUID                   "12345678-1234-5678-1234-567812345678"
          unsigned INTEGER       unsigned numbers
          FLOAT16, FLOAT, DOUBLE numbers; NaN, Infinity, -Infinity as strings
          INTERVAL               {"months":..,"days":..,"milliseconds":..}
          other byte strings     base64 strings (BSON, unannotated BYTE_ARRAY...)
          lists, maps, structs   arrays, objects (map keys as text), objects

        Options:
          --limit N        print at most N rows
          --columns LIST   only these columns: comma-separated dotted paths; a group
                           selects every column under it (a map's key comes along)
          --where PRED     only the rows where PRED is true, in file order, e.g.
                             --where "value.customer = 'c-42' AND __kafka_offset >= 1000"
                           Comparisons (= <> < <= > >=), IN, BETWEEN, IS [NOT] NULL,
                           AND, OR, NOT and parentheses over columns by dotted path
                           (not inside lists or maps); literals: 'text', numbers, TRUE,
                           FALSE, TIMESTAMP '2024-01-02T03:04:05Z', DATE '2024-01-02'.
                           Row groups are skipped by their statistics and bloom filters,
                           pages by the column and offset indexes; the grammar is in
                           docs/source.md. --limit counts the matching rows.
        """;
  }

  @Override
  public Set<String> valuedOptions() {
    return Set.of("limit", "columns", "where");
  }

  @Override
  public int run(Arguments args, CommandOutput output)
      throws UsageException, InputException, IOException, ParquetException {
    String file = args.positionals(1, 1, "FILE").get(0);
    long limit = args.longOption("limit", 0, Long.MAX_VALUE, Long.MAX_VALUE);
    List<String> columns = columnList(args.option("columns"));
    Predicate where = where(args.option("where"));
    try (ParquetFileReader reader = ParquetFiles.open(file)) {
      Projection projection = projection(reader, columns);
      RowRenderer renderer = new RowRenderer(projection.schema());
      Writer out = output.out();
      StringBuilder line = new StringBuilder(256);
      try (RowReader rows =
          where == null
              ? reader.rowReader(projection)
              : reader.rowReader(projection, bind(where, reader, file))) {
        for (long n = 0; n < limit && rows.hasNext(); n++) {
          line.setLength(0);
          renderer.render(rows.next(), line);
          line.append('\n');
          out.append(line);
        }
      }
    }
    return Pq.OK;
  }

  private static Predicate where(String option) throws UsageException {
    if (option == null) {
      return null;
    }
    try {
      return PredicateParser.parse(option);
    } catch (PredicateSyntaxException e) {
      throw new UsageException("--where: " + e.getMessage() + " in: " + option);
    }
  }

  /**
   * The predicate fitted to the file; a column that is missing or does not fit is a usage error.
   */
  private static BoundPredicate bind(Predicate where, ParquetFileReader reader, String file)
      throws UsageException {
    try {
      return where.bind(reader.schema());
    } catch (PredicateBindException e) {
      String more =
          e.reason().startsWith("no column") ? "; its columns are: " + columnNames(reader) : "";
      throw new UsageException("--where: " + e.reason() + " in " + file + more);
    }
  }

  private static List<String> columnList(String option) throws UsageException {
    if (option == null) {
      return null;
    }
    List<String> columns = new ArrayList<>();
    for (String column : option.split(",", -1)) {
      String trimmed = column.strip();
      if (trimmed.isEmpty()) {
        throw new UsageException("--columns has an empty column name: '" + option + "'");
      }
      columns.add(trimmed);
    }
    return columns;
  }

  private static Projection projection(ParquetFileReader reader, List<String> columns)
      throws UsageException {
    if (columns == null) {
      return Projection.all(reader.schema());
    }
    try {
      return reader.projection(columns);
    } catch (IllegalArgumentException e) {
      // The projection names the missing column; the file's own column list helps most.
      throw new UsageException(e.getMessage() + "; its columns are: " + columnNames(reader));
    }
  }

  /** The file's column paths, the first few of a wide file: the error stays one line. */
  private static String columnNames(ParquetFileReader reader) {
    int total = reader.schema().columns().size();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < Math.min(total, MAX_LISTED_COLUMNS); i++) {
      names.add(reader.schema().column(i).dottedPath());
    }
    String more =
        total > MAX_LISTED_COLUMNS ? " and " + (total - MAX_LISTED_COLUMNS) + " more" : "";
    return String.join(", ", names) + more;
  }
}
