package dev.parquetconnect.source;

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

import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.filter.BoundPredicate;
import dev.parquetconnect.format.filter.PredicateParser;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.write.WriterOptions;
import dev.parquetconnect.source.SinkArchive.Original;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.compat.RowGroupFilter;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.filter2.predicate.Operators;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.internal.filter2.columnindex.ColumnIndexFilter;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source's record reader ({@link ConnectRecordReader} with {@code replay.filter}) fetches the
 * same pages as parquet-java keeps: for seeded random sink files (small pages, aligned across
 * columns or not, several row groups, nested and repeated columns, nulls, bloom filters in some)
 * and random predicates, the data pages it reads of every column (seen by a recording input,
 * against the offset index) are exactly those holding rows of the row groups parquet-java's
 * statistics and bloom filter filtering keeps ({@code RowGroupFilter}) and of the rows its
 * column-index filtering keeps ({@code ColumnIndexFilter.calculateRowRanges}), aligned over all
 * columns by the offset index. The records returned are DuckDB's {@code WHERE} answer over the
 * file, value for value those a full read returns; a reader started at a recorded position mid row
 * group resumes with the same records. The corpus file with many tiny pages is checked the same way
 * in generic mode. Seeded: rerun with {@code -Dpages.seed=N}.
 */
final class RecordReaderPageSkippingTest {
  private static final Logger LOG = LoggerFactory.getLogger(RecordReaderPageSkippingTest.class);
  private static final long SEED = Long.getLong("pages.seed", System.nanoTime());
  private static final int FILES = 6;
  private static final int PREDICATES = 12;

  @TempDir Path dir;

  /** One predicate in our grammar, in parquet-java's filter API and in DuckDB's SQL. */
  private record Both(String text, FilterPredicate parquetJava, String sql) {}

  /** Pages read and pages in the file, summed. */
  private long pagesRead;

  private long pagesTotal;

  @Test
  void sinkFilesKeepParquetJavasPagesAndDuckDbsRows() throws Exception {
    LOG.info("seed {} (-Dpages.seed={} replays it)", SEED, SEED);
    SplittableRandom random = new SplittableRandom(SEED);
    int predicates = 0;
    for (int f = 0; f < FILES; f++) {
      int count = 100 + random.nextInt(400);
      List<Original> records = SinkArchive.records("t", f % 2, 1000L * f, count);
      WriterOptions.Builder options =
          WriterOptions.builder()
              .codec(random.nextBoolean() ? CompressionCodec.ZSTD : CompressionCodec.UNCOMPRESSED)
              .rowGroupRowLimit(40 + random.nextInt(200))
              .pageRowLimit(2 + random.nextInt(20))
              // Unaligned pages in some files: a page of one column then starts in the middle of
              // another's, and the reader enters it at the right row.
              .alignedPages(random.nextBoolean())
              .pageByteLimit(64 + random.nextInt(1024));
      if (random.nextBoolean()) {
        options.bloomFilter("name", 500, 0.01);
      }
      Path file = SinkArchive.write(dir.resolve("f" + f + ".parquet"), records, options.build());
      java.util.Set<String> all = new java.util.HashSet<>(records(file, null, null, -1, 0));
      for (int p = 0; p < PREDICATES; p++) {
        Both predicate = predicate(random, records, 2);
        check(file, all, predicate, random);
        predicates++;
      }
    }
    LOG.info(
        "{} predicates over {} files: {} of {} data pages read",
        predicates,
        FILES,
        pagesRead,
        pagesTotal);
    assertTrue(pagesRead < pagesTotal, pagesRead + " of " + pagesTotal + " pages read");
  }

  @Test
  void corpusFileWithTinyPagesKeepsParquetJavasPagesInGenericMode() throws Exception {
    SplittableRandom random = new SplittableRandom(SEED);
    Path file =
        Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing")
            .resolve("data/alltypes_tiny_pages.parquet");
    java.util.Set<String> all = new java.util.HashSet<>(records(file, null, null, -1, 0));
    for (int p = 0; p < PREDICATES / 2; p++) {
      int id = random.nextInt(7300);
      int op = random.nextInt(3);
      Both predicate =
          switch (op) {
            case 0 ->
                new Both(
                    "id BETWEEN " + id + " AND " + (id + 40),
                    and(gtEq(intColumn("id"), id), ltEq(intColumn("id"), id + 40)),
                    "id BETWEEN " + id + " AND " + (id + 40));
            case 1 ->
                new Both(
                    "bigint_col = " + (id % 10) * 10 + " AND id < " + id,
                    and(eq(longColumn("bigint_col"), (id % 10) * 10L), lt(intColumn("id"), id)),
                    "bigint_col = " + (id % 10) * 10 + " AND id < " + id);
            default ->
                new Both(
                    "id > " + id + " OR string_col = '" + id % 10 + "'",
                    or(gt(intColumn("id"), id), eq(binaryColumn("string_col"), text("" + id % 10))),
                    "id > " + id + " OR string_col = '" + id % 10 + "'");
          };
      check(file, all, predicate, random);
    }
    LOG.info("alltypes_tiny_pages: {} of {} data pages read", pagesRead, pagesTotal);
    assertTrue(pagesRead < pagesTotal, pagesRead + " of " + pagesTotal + " pages read");
  }

  /** Reads {@code file} filtered: the pages, the rows and a resumed read are checked. */
  private void check(Path file, java.util.Set<String> all, Both predicate, SplittableRandom random)
      throws Exception {
    String what = "seed " + SEED + ", " + file.getFileName() + ": " + predicate.text();
    RecordingInput input = new RecordingInput(new LocalFileInput(file));
    List<String> got;
    List<long[]> positions = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(input)) {
      input.reads.clear();
      got = records(reader, bind(predicate, reader), positions, -1, 0);
      TreeSet<String> fetched = pagesRead(reader, input.reads);
      TreeSet<String> expected = parquetJavasPages(file, predicate.parquetJava());
      assertEquals(expected, fetched, what + ": pages (row group/column/first row) read");
      pagesRead += fetched.size();
      pagesTotal += pagesRead(reader, List.of(new long[] {0, Long.MAX_VALUE})).size();
    }
    List<String> oracle = duckDb(file, predicate.sql());
    List<String> gotOffsets = new ArrayList<>();
    for (String record : got) {
      gotOffsets.add(record.substring(0, record.indexOf(' ')));
      assertTrue(all.contains(record), what + ": " + record + " is not a record of a full read");
    }
    assertEquals(oracle, gotOffsets, what + ": the records are DuckDB's answer");
    if (!got.isEmpty()) {
      // A restart at the position recorded after a random record returns the records after it.
      int k = random.nextInt(got.size());
      long[] at = positions.get(k);
      try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
        List<String> resumed = records(reader, bind(predicate, reader), null, (int) at[0], at[1]);
        assertEquals(got.subList(k + 1, got.size()), resumed, what + ": resumed after " + k);
      }
    }
  }

  private static BoundPredicate bind(Both predicate, ParquetFileReader reader) throws Exception {
    return PredicateParser.parse(predicate.text()).bind(reader.schema());
  }

  private static List<String> records(
      Path file, BoundPredicate filter, List<long[]> positions, int rowGroup, long row)
      throws Exception {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return records(reader, filter, positions, rowGroup, row);
    }
  }

  /**
   * The records read as text, the first word the row's identity (its offset or id); with {@code
   * positions}, the position after each; {@code rowGroup} >= 0 starts there.
   */
  private static List<String> records(
      ParquetFileReader reader,
      BoundPredicate filter,
      List<long[]> positions,
      int rowGroup,
      long row)
      throws Exception {
    ParquetToConnect mapping =
        ParquetToConnect.of(
            reader.schema(), ParquetToConnect.keyValueMap(reader.metadata().keyValueMetadata()));
    List<String> out = new ArrayList<>();
    try (ConnectRecordReader rows = new ConnectRecordReader(reader, mapping)) {
      if (filter != null) {
        rows.filter(filter);
      }
      if (rowGroup >= 0) {
        rows.startAt(rowGroup, row);
      }
      while (rows.hasNext()) {
        rows.next();
        String identity =
            rows.hasOffset()
                ? Long.toString(rows.offsetValue())
                : String.valueOf(((org.apache.kafka.connect.data.Struct) rows.value()).get("id"));
        out.add(
            identity
                + " "
                + rows.key()
                + " "
                + rows.value()
                + " "
                + rows.headers()
                + " "
                + rows.timestamp());
        if (positions != null) {
          positions.add(new long[] {rows.rowGroup(), rows.rowInGroup()});
        }
      }
    }
    return out;
  }

  /**
   * The data pages {@code reads} touched, as {@code rowGroup/column/firstRow}, by the file's offset
   * indexes (every data page of every column chunk: the sink and the corpus file write them).
   */
  private static TreeSet<String> pagesRead(ParquetFileReader reader, List<long[]> reads)
      throws Exception {
    TreeSet<String> pages = new TreeSet<>();
    for (int g = 0; g < reader.rowGroups().size(); g++) {
      for (var column : reader.schema().columns()) {
        var index = reader.offsetIndex(g, column);
        for (var page : index.pageLocations()) {
          long start = page.offset();
          long end = start + page.compressedPageSize();
          for (long[] r : reads) {
            if (r[0] < end && r[1] > start) {
              pages.add(key(g, column.dottedPath(), page.firstRowIndex()));
              break;
            }
          }
        }
      }
    }
    return pages;
  }

  /**
   * The data pages parquet-java reads with this filter: none of a row group its statistics or bloom
   * filters drop; of the others, per column, the pages of its offset index that hold rows of the
   * ranges its column-index filtering keeps.
   */
  private static TreeSet<String> parquetJavasPages(Path file, FilterPredicate filter)
      throws Exception {
    TreeSet<String> pages = new TreeSet<>();
    try (org.apache.parquet.hadoop.ParquetFileReader theirs =
        org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      List<BlockMetaData> blocks = theirs.getRowGroups();
      List<BlockMetaData> kept =
          RowGroupFilter.filterRowGroups(
              List.of(
                  RowGroupFilter.FilterLevel.STATISTICS, RowGroupFilter.FilterLevel.BLOOMFILTER),
              FilterCompat.get(filter),
              blocks,
              theirs);
      for (int g = 0; g < blocks.size(); g++) {
        BlockMetaData block = blocks.get(g);
        if (!kept.contains(block)) {
          continue;
        }
        java.util.Set<ColumnPath> paths = new java.util.HashSet<>();
        for (ColumnChunkMetaData c : block.getColumns()) {
          paths.add(c.getPath());
        }
        var ranges =
            ColumnIndexFilter.calculateRowRanges(
                FilterCompat.get(filter),
                theirs.getColumnIndexStore(g),
                paths,
                block.getRowCount());
        for (ColumnChunkMetaData c : block.getColumns()) {
          OffsetIndex index = theirs.readOffsetIndex(c);
          for (int p = 0; p < index.getPageCount(); p++) {
            long first = index.getFirstRowIndex(p);
            long last = index.getLastRowIndex(p, block.getRowCount());
            if (ranges.isOverlapping(first, last)) {
              pages.add(key(g, c.getPath().toDotString(), first));
            }
          }
        }
      }
    }
    return pages;
  }

  private static String key(int rowGroup, String column, long firstRow) {
    return rowGroup + "/" + column + "/" + String.format("%08d", firstRow);
  }

  /** DuckDB's matching rows, by their offset (sink files) or id, in file order. */
  private static List<String> duckDb(Path file, String where) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
        Statement st = db.createStatement()) {
      String path = file.toString().replace("'", "''");
      boolean sink;
      try (ResultSet rs =
          st.executeQuery(
              "SELECT count(*) FROM parquet_schema('"
                  + path
                  + "') WHERE name = '__kafka_offset'")) {
        rs.next();
        sink = rs.getLong(1) > 0;
      }
      String identity = sink ? "__kafka_offset" : "id";
      try (ResultSet rs =
          st.executeQuery(
              "SELECT "
                  + identity
                  + " FROM read_parquet('"
                  + path
                  + "', file_row_number = true) WHERE "
                  + where
                  + " ORDER BY file_row_number")) {
        while (rs.next()) {
          rows.add(Long.toString(rs.getLong(1)));
        }
      }
    }
    return rows;
  }

  /**
   * A random predicate over sink columns both sides express alike: comparisons, IN (as ORs for
   * parquet-java), IS [NOT] NULL, AND, OR on top-level, nested and metadata columns (parquet-java's
   * {@code notEq} keeps nulls, so {@code <>} is left out).
   */
  private static Both predicate(SplittableRandom random, List<Original> records, int depth) {
    if (depth > 0 && random.nextInt(3) == 0) {
      Both a = predicate(random, records, depth - 1);
      Both b = predicate(random, records, depth - 1);
      boolean isAnd = random.nextBoolean();
      String op = isAnd ? " AND " : " OR ";
      return new Both(
          "(" + a.text() + op + b.text() + ")",
          isAnd ? and(a.parquetJava(), b.parquetJava()) : or(a.parquetJava(), b.parquetJava()),
          "(" + a.sql() + op + b.sql() + ")");
    }
    Original o = records.get(random.nextInt(records.size()));
    int op = random.nextInt(5);
    String[] symbols = {"=", "<", "<=", ">", ">="};
    String s = symbols[op];
    return switch (random.nextInt(6)) {
      case 0 -> same("id " + s + " " + o.id(), compare(longColumn("id"), op, o.id()));
      case 1 ->
          same(
              "name " + s + " '" + o.name() + "'",
              compare(binaryColumn("name"), op, text(o.name())));
      case 2 ->
          same("address.zip " + s + " " + o.zip(), compare(intColumn("address.zip"), op, o.zip()));
      case 3 ->
          random.nextBoolean()
              ? same("address.zip IS NULL", eq(intColumn("address.zip"), null))
              : same("address.street IS NOT NULL", notEq(binaryColumn("address.street"), null));
      case 4 ->
          same(
              "__kafka_offset " + s + " " + o.offset(),
              compare(longColumn("__kafka_offset"), op, o.offset()));
      default ->
          same(
              "name IN ('" + o.name() + "', 'nobody')",
              or(
                  eq(binaryColumn("name"), text(o.name())),
                  eq(binaryColumn("name"), text("nobody"))));
    };
  }

  private static Both same(String text, FilterPredicate parquetJava) {
    return new Both(text, parquetJava, text);
  }

  private static Binary text(String s) {
    return Binary.fromString(s);
  }

  /** {@code c op v}, {@code op} indexing {@code =, <, <=, >, >=}. */
  private static <T extends Comparable<T>, C extends Operators.Column<T> & Operators.SupportsLtGt>
      FilterPredicate compare(C c, int op, T v) {
    return switch (op) {
      case 0 -> eq(c, v);
      case 1 -> lt(c, v);
      case 2 -> ltEq(c, v);
      case 3 -> gt(c, v);
      default -> gtEq(c, v);
    };
  }

  /** An input that records every range read, {@code [start, end)}. */
  private static final class RecordingInput implements SeekableInput {
    private final SeekableInput in;
    final List<long[]> reads = new ArrayList<>();

    RecordingInput(SeekableInput in) {
      this.in = Objects.requireNonNull(in);
    }

    @Override
    public long length() throws IOException {
      return in.length();
    }

    @Override
    public void readFully(long position, byte[] dst, int off, int len) throws IOException {
      reads.add(new long[] {position, position + len});
      in.readFully(position, dst, off, len);
    }

    @Override
    public String name() {
      return in.name();
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
