package dev.parquetconnect.format.filter;

import static org.apache.parquet.filter2.predicate.FilterApi.and;
import static org.apache.parquet.filter2.predicate.FilterApi.binaryColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.eq;
import static org.apache.parquet.filter2.predicate.FilterApi.gt;
import static org.apache.parquet.filter2.predicate.FilterApi.gtEq;
import static org.apache.parquet.filter2.predicate.FilterApi.intColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.longColumn;
import static org.apache.parquet.filter2.predicate.FilterApi.lt;
import static org.apache.parquet.filter2.predicate.FilterApi.ltEq;
import static org.apache.parquet.filter2.predicate.FilterApi.notEq;
import static org.apache.parquet.filter2.predicate.FilterApi.or;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.FilterCounters;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Page skipping keeps the same pages as parquet-java's column-index filtering ({@code
 * ColumnIndexFilter.calculateRowRanges}) on the same files and predicates: row group by row group,
 * the candidate rows from our column and offset index reading equal parquet-java's {@code
 * RowRanges}. On files of our writer and of parquet-java with small pages, and on the corpus file
 * with many tiny pages (alltypes_tiny_pages). Predicates are those both express the same way
 * (comparisons, IN, IS [NOT] NULL, AND, OR on integer and string columns; parquet-java's {@code
 * notEq} keeps nulls, so {@code <>} is left out). A counting input then shows what skipping saves.
 * Seeded: rerun with {@code -Dfilter.seed=N}.
 */
class PageSkippingParquetJavaTest {
  private static final Logger LOG = LoggerFactory.getLogger(PageSkippingParquetJavaTest.class);
  private static final long SEED = Long.getLong("filter.seed", System.nanoTime());
  private static final int PREDICATES = 40;

  @TempDir Path dir;

  /** A column both sides filter on: our path, its kind, values seen in the file. */
  private record Column(String path, char kind, List<Object> values) {}

  /** One predicate in both forms. */
  private record Both(String text, FilterPredicate parquetJava) {}

  @Test
  void ourAndParquetJavaFilesKeepTheSamePages() throws Exception {
    LOG.info("seed {} (-Dfilter.seed={} replays it)", SEED, SEED);
    Random random = new Random(SEED);
    MessageType schema = FilterTestData.schema();
    List<Row> rows = FilterTestData.rows(schema, random, 2000);
    Path ours = dir.resolve("ours.parquet");
    try (OutputStream out = Files.newOutputStream(ours);
        ParquetFileWriter writer =
            new ParquetFileWriter(
                out,
                schema,
                WriterOptions.builder()
                    .pageByteLimit(256)
                    .pageRowLimit(40)
                    .rowGroupRowLimit(1000)
                    .truncateLength(3)
                    .codec(CompressionCodec.SNAPPY)
                    .build())) {
      for (Row row : rows) {
        writer.write(row);
      }
    }
    Path theirs = dir.resolve("parquet-java.parquet");
    ParquetJavaOracle.write(
        theirs,
        schema,
        rows,
        new ParquetJavaOracle.WriteOptions(
            CompressionCodecName.SNAPPY,
            false,
            ParquetProperties.WriterVersion.PARQUET_1_0,
            512,
            64 * 1024));
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("id", 'L', values(rows, "id")));
    columns.add(new Column("i32", 'I', values(rows, "i32")));
    columns.add(new Column("i64", 'L', values(rows, "i64")));
    columns.add(new Column("s", 'B', values(rows, "s")));
    columns.add(new Column("st.x", 'I', values(rows, "st.x")));
    columns.add(new Column("st.t", 'B', values(rows, "st.t")));
    int[] ourPages = compare(ours, columns, random);
    int[] theirPages = compare(theirs, columns, random);
    LOG.info(
        "our file: {} predicates x row groups kept {} of {} rows; parquet-java's: {} of {}",
        PREDICATES,
        ourPages[0],
        ourPages[1],
        theirPages[0],
        theirPages[1]);
    assertTrue(ourPages[0] < ourPages[1], "pages should be skipped in our file");
    assertTrue(theirPages[0] < theirPages[1], "pages should be skipped in parquet-java's");
  }

  @Test
  void corpusFileWithTinyPagesKeepsTheSamePages() throws Exception {
    Random random = new Random(SEED);
    Path file = corpus().resolve("data/alltypes_tiny_pages.parquet");
    List<Column> columns = new ArrayList<>();
    columns.add(new Column("id", 'I', new ArrayList<>()));
    columns.add(new Column("int_col", 'I', new ArrayList<>()));
    columns.add(new Column("bigint_col", 'L', new ArrayList<>()));
    columns.add(new Column("string_col", 'B', new ArrayList<>()));
    columns.add(new Column("date_string_col", 'B', new ArrayList<>()));
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader all = reader.rowReader()) {
      while (all.hasNext()) {
        Row row = all.next();
        for (Column c : columns) {
          c.values().add(row.get(c.path()));
        }
      }
    }
    int[] kept = compare(file, columns, random);
    LOG.info("alltypes_tiny_pages: kept {} of {} rows", kept[0], kept[1]);
    assertTrue(kept[0] < kept[1], "pages should be skipped in alltypes_tiny_pages");
  }

  @Test
  void nullPagesOfTheCorpusKeepTheSamePages() throws Exception {
    Path file = corpus().resolve("data/fixed_length_byte_array.parquet");
    try (ParquetFileReader ours = ParquetFileReader.open(new LocalFileInput(file));
        org.apache.parquet.hadoop.ParquetFileReader theirs =
            org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      Set<ColumnPath> paths = Set.of(ColumnPath.get("flba_field"));
      for (boolean isNull : new boolean[] {true, false}) {
        BoundPredicate bound =
            PredicateParser.parse("flba_field IS " + (isNull ? "" : "NOT ") + "NULL")
                .bind(ours.schema());
        FilterPredicate pj =
            isNull ? eq(binaryColumn("flba_field"), null) : notEq(binaryColumn("flba_field"), null);
        for (int g = 0; g < ours.rowGroups().size(); g++) {
          long rowCount = ours.rowGroups().get(g).numRows();
          RowRanges ourRows =
              bound.candidateRows(rowCount, ours.pageIndexes(g), ours.metadata().columnOrders());
          RowRanges.Builder converted = new RowRanges.Builder();
          for (var range :
              ColumnIndexFilter.calculateRowRanges(
                      FilterCompat.get(pj), theirs.getColumnIndexStore(g), paths, rowCount)
                  .getRanges()) {
            converted.add(range.from, range.to + 1);
          }
          assertEquals(converted.build(), ourRows, "row group " + g + ", IS NULL " + isNull);
          LOG.info(
              "fixed_length_byte_array row group {}: IS {}NULL keeps {} of {} rows",
              g,
              isNull ? "" : "NOT ",
              ourRows.rowCount(),
              rowCount);
        }
      }
    }
  }

  @Test
  void aNarrowRangeFetchesAFractionOfTheFile() throws Exception {
    Path file = corpus().resolve("data/alltypes_tiny_pages.parquet");
    List<String> columns = List.of("id", "int_col", "bigint_col", "string_col");
    // Bytes past the footer's: the footer is read once either way.
    long full;
    try (LocalFileInput input = new LocalFileInput(file);
        ParquetFileReader reader = ParquetFileReader.open(input);
        RowReader rows = reader.rowReader(reader.projection(columns))) {
      long footer = input.bytesRead();
      while (rows.hasNext()) {
        rows.next();
      }
      full = input.bytesRead() - footer;
    }
    try (LocalFileInput input = new LocalFileInput(file);
        ParquetFileReader reader = ParquetFileReader.open(input)) {
      long footer = input.bytesRead();
      BoundPredicate bound =
          PredicateParser.parse("id BETWEEN 3000 AND 3049").bind(reader.schema());
      List<Integer> ids = new ArrayList<>();
      FilterCounters counters;
      try (RowReader rows = reader.rowReader(reader.projection(columns), bound)) {
        while (rows.hasNext()) {
          ids.add((Integer) rows.next().get("id"));
        }
        counters = rows.counters();
      }
      assertEquals(50, ids.size());
      long filtered = input.bytesRead() - footer;
      LOG.info(
          "id BETWEEN 3000 AND 3049 on alltypes_tiny_pages, columns {}: {} of the {} bytes (past"
              + " the footer) a full read of them fetches ({})",
          columns,
          filtered,
          full,
          counters);
      assertTrue(filtered * 3 < full, filtered + " bytes read of " + full);
    }
  }

  private static Path corpus() {
    return Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing");
  }

  /** Compares predicates row group by row group; {rows kept, rows} summed. */
  private static int[] compare(Path file, List<Column> columns, Random random) throws Exception {
    int kept = 0;
    int total = 0;
    try (ParquetFileReader ours = ParquetFileReader.open(new LocalFileInput(file));
        org.apache.parquet.hadoop.ParquetFileReader theirs =
            org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      Set<ColumnPath> paths = new HashSet<>();
      for (ColumnChunkMetaData c : theirs.getRowGroups().get(0).getColumns()) {
        paths.add(c.getPath());
      }
      for (int p = 0; p < PREDICATES; p++) {
        Both predicate = predicate(columns, random, 2);
        BoundPredicate bound = PredicateParser.parse(predicate.text()).bind(ours.schema());
        for (int g = 0; g < ours.rowGroups().size(); g++) {
          long rowCount = ours.rowGroups().get(g).numRows();
          RowRanges ourRows =
              bound.candidateRows(rowCount, ours.pageIndexes(g), ours.metadata().columnOrders());
          org.apache.parquet.internal.filter2.columnindex.RowRanges theirRows =
              ColumnIndexFilter.calculateRowRanges(
                  FilterCompat.get(predicate.parquetJava()),
                  theirs.getColumnIndexStore(g),
                  paths,
                  rowCount);
          RowRanges.Builder converted = new RowRanges.Builder();
          for (var range : theirRows.getRanges()) {
            converted.add(range.from, range.to + 1);
          }
          assertEquals(
              converted.build(),
              ourRows,
              "seed " + SEED + ", " + file.getFileName() + ", row group " + g + ": " + predicate);
          kept += (int) ourRows.rowCount();
          total += (int) rowCount;
        }
      }
    }
    return new int[] {kept, total};
  }

  private static Both predicate(List<Column> columns, Random random, int depth) {
    if (depth > 0 && random.nextInt(3) == 0) {
      Both left = predicate(columns, random, depth - 1);
      Both right = predicate(columns, random, depth - 1);
      return random.nextBoolean()
          ? new Both(
              "(" + left.text() + " AND " + right.text() + ")",
              and(left.parquetJava(), right.parquetJava()))
          : new Both(
              "(" + left.text() + " OR " + right.text() + ")",
              or(left.parquetJava(), right.parquetJava()));
    }
    Column c = columns.get(random.nextInt(columns.size()));
    int op = random.nextInt(8);
    if (op == 6) {
      return new Both(c.path() + " IS NULL", nullTest(c, true));
    }
    if (op == 7) {
      return new Both(c.path() + " IS NOT NULL", nullTest(c, false));
    }
    if (op == 5) {
      Set<Object> set = new LinkedHashSet<>();
      for (int i = random.nextInt(3); i >= 0; i--) {
        set.add(value(c, random));
      }
      List<String> texts = new ArrayList<>();
      for (Object v : set) {
        texts.add(text(v));
      }
      return new Both(c.path() + " IN (" + String.join(", ", texts) + ")", inSet(c, set));
    }
    Object v = value(c, random);
    String[] symbols = {"=", "<", "<=", ">", ">="};
    return new Both(c.path() + " " + symbols[op] + " " + text(v), compareOp(c, op, v));
  }

  private static Object value(Column c, Random random) {
    Object v = null;
    for (int i = 0; i < 20 && v == null; i++) {
      v = c.values().get(random.nextInt(c.values().size()));
    }
    if (v == null) {
      return switch (c.kind()) {
        case 'I' -> 0;
        case 'L' -> 0L;
        default -> new byte[0];
      };
    }
    return v;
  }

  private static String text(Object v) {
    if (v instanceof byte[] b) {
      return "'" + new String(b, StandardCharsets.UTF_8).replace("'", "''") + "'";
    }
    return v.toString();
  }

  private static FilterPredicate compareOp(Column c, int op, Object v) {
    switch (c.kind()) {
      case 'I' -> {
        Operators.IntColumn column = intColumn(c.path());
        Integer x = (Integer) v;
        return switch (op) {
          case 0 -> eq(column, x);
          case 1 -> lt(column, x);
          case 2 -> ltEq(column, x);
          case 3 -> gt(column, x);
          default -> gtEq(column, x);
        };
      }
      case 'L' -> {
        Operators.LongColumn column = longColumn(c.path());
        Long x = (Long) v;
        return switch (op) {
          case 0 -> eq(column, x);
          case 1 -> lt(column, x);
          case 2 -> ltEq(column, x);
          case 3 -> gt(column, x);
          default -> gtEq(column, x);
        };
      }
      default -> {
        Operators.BinaryColumn column = binaryColumn(c.path());
        Binary x = Binary.fromConstantByteArray((byte[]) v);
        return switch (op) {
          case 0 -> eq(column, x);
          case 1 -> lt(column, x);
          case 2 -> ltEq(column, x);
          case 3 -> gt(column, x);
          default -> gtEq(column, x);
        };
      }
    }
  }

  private static FilterPredicate nullTest(Column c, boolean isNull) {
    return switch (c.kind()) {
      case 'I' -> isNull ? eq(intColumn(c.path()), null) : notEq(intColumn(c.path()), null);
      case 'L' -> isNull ? eq(longColumn(c.path()), null) : notEq(longColumn(c.path()), null);
      default -> isNull ? eq(binaryColumn(c.path()), null) : notEq(binaryColumn(c.path()), null);
    };
  }

  /**
   * IN as an OR of equalities: parquet-java's column-index filter keeps, for IN, every page whose
   * bounds overlap the span of the values, where each value's pages suffice (and ours keeps those).
   */
  private static FilterPredicate inSet(Column c, Set<Object> values) {
    FilterPredicate any = null;
    for (Object v : values) {
      FilterPredicate one = compareOp(c, 0, v);
      any = any == null ? one : or(any, one);
    }
    return any;
  }

  private static List<Object> values(List<Row> rows, String column) {
    List<Object> values = new ArrayList<>();
    for (Row row : rows) {
      if (column.startsWith("st.")) {
        Row st = (Row) row.get("st");
        values.add(st == null ? null : st.get(column.substring(3)));
      } else {
        values.add(row.get(column));
      }
    }
    return values;
  }
}
