package dev.parquetconnect.format.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.Projection;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.EncodingPolicy;
import dev.parquetconnect.format.write.PageVersion;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Filtered reading keeps exactly the rows DuckDB's {@code SELECT ... WHERE} keeps, in the same
 * order, for random files and random predicates: files by our writer (row groups of a few hundred
 * rows, pages of 64 bytes to 2 KiB or a few dozen rows, v1 and v2, dictionary on and off, bloom
 * filters, string statistics truncated to a few bytes), by DuckDB (its own layout) and by
 * parquet-java (small pages, column and offset indexes). Every filtered row also equals, column for
 * column, the row a full unfiltered read gives at that position: the columns that are not in the
 * predicate stay aligned when pages are skipped. Seeded: the seed is logged; rerun one with {@code
 * -Dfilter.seed=N}.
 */
class FilterDifferentialTest {
  private static final Logger LOG = LoggerFactory.getLogger(FilterDifferentialTest.class);
  private static final long SEED = Long.getLong("filter.seed", System.nanoTime());
  private static final int LAYOUTS = 2;
  private static final int PREDICATES_PER_FILE = 14;
  private static final CompressionCodec[] CODECS = {
    CompressionCodec.UNCOMPRESSED, CompressionCodec.SNAPPY, CompressionCodec.ZSTD
  };

  @TempDir Path dir;

  @Test
  void filteredRowsEqualDuckDbsWhere() throws Exception {
    LOG.info("seed {} (-Dfilter.seed={} replays it)", SEED, SEED);
    Random random = new Random(SEED);
    MessageType schema = FilterTestData.schema();
    long bytesFiltered = 0;
    long bytesFull = 0;
    int checked = 0;
    try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Statement sql = duck.createStatement()) {
      sql.execute("SET threads = 1");
      for (int layout = 0; layout < LAYOUTS; layout++) {
        int count = 400 + random.nextInt(800);
        List<Row> rows = FilterTestData.rows(schema, random, count);
        List<Path> files = new ArrayList<>();
        files.add(writeOurs(dir.resolve("ours-" + layout + ".parquet"), schema, rows, random));
        Path theirs = dir.resolve("parquet-java-" + layout + ".parquet");
        ParquetJavaOracle.write(
            theirs,
            schema,
            rows,
            new ParquetJavaOracle.WriteOptions(
                CompressionCodecName.SNAPPY,
                random.nextBoolean(),
                // v2 would write FIXED_LEN_BYTE_ARRAY as DELTA_BYTE_ARRAY, which DuckDB cannot read
                ParquetProperties.WriterVersion.PARQUET_1_0,
                256 << random.nextInt(4),
                16 * 1024));
        files.add(theirs);
        Path duckFile = dir.resolve("duckdb-" + layout + ".parquet");
        sql.execute(
            "COPY (SELECT * FROM read_parquet('"
                + files.get(0).toAbsolutePath()
                + "')) TO '"
                + duckFile.toAbsolutePath()
                + "' (FORMAT parquet, ROW_GROUP_SIZE 2048)");
        files.add(duckFile);
        FilterTestData.Predicates predicates = new FilterTestData.Predicates(rows, random);
        for (Path file : files) {
          List<Row> all = new ArrayList<>();
          long fullRead = readAll(file, all);
          assertEquals(count, all.size(), file.toString());
          for (int p = 0; p < PREDICATES_PER_FILE; p++) {
            String text = predicates.next(2);
            String where = "seed " + SEED + ", " + file.getFileName() + ", WHERE " + text;
            List<Long> expected = new ArrayList<>();
            try (ResultSet rs =
                sql.executeQuery(
                    "SELECT id FROM read_parquet('" + file.toAbsolutePath() + "') WHERE " + text)) {
              while (rs.next()) {
                expected.add(rs.getLong(1));
              }
            }
            List<Long> actual = new ArrayList<>();
            try (LocalFileInput input = new LocalFileInput(file);
                ParquetFileReader reader = ParquetFileReader.open(input)) {
              BoundPredicate bound = PredicateParser.parse(text).bind(reader.schema());
              try (RowReader filtered = reader.rowReader(Projection.all(reader.schema()), bound)) {
                while (filtered.hasNext()) {
                  Row row = filtered.next();
                  long id = (Long) row.get("id");
                  actual.add(id);
                  if (id < 0 || id >= all.size() || !all.get((int) id).equals(row)) {
                    fail(where + ": row " + id + " read filtered as " + row);
                  }
                  if (filtered.rowInGroup() <= 0) {
                    fail(where + ": no position after row " + id);
                  }
                }
              }
              bytesFiltered += input.bytesRead();
            }
            if (!expected.equals(actual)) {
              fail(where + "\nDuckDB: " + expected + "\nours:   " + actual);
            }
            bytesFull += fullRead;
            checked++;
          }
        }
      }
    }
    LOG.info(
        "{} predicates matched DuckDB's rows; filtered reads fetched {} bytes where full reads"
            + " fetch {}",
        checked,
        bytesFiltered,
        bytesFull);
    assertTrue(bytesFiltered < bytesFull, "pruning should save reads over " + checked + " scans");
  }

  private static Path writeOurs(Path file, MessageType schema, List<Row> rows, Random random)
      throws Exception {
    WriterOptions.Builder options =
        WriterOptions.builder()
            .pageVersion(random.nextBoolean() ? PageVersion.V1 : PageVersion.V2)
            .dictionary(random.nextInt(3) != 0)
            .pageByteLimit(64 << random.nextInt(6))
            .rowGroupRowLimit(150 + random.nextInt(700))
            .codec(CODECS[random.nextInt(CODECS.length)])
            // DuckDB reads DELTA_BYTE_ARRAY only on BYTE_ARRAY; COMPATIBLE falls back to PLAIN
            .encodingPolicy(EncodingPolicy.COMPATIBLE);
    if (random.nextBoolean()) {
      options.pageRowLimit(10 + random.nextInt(60));
    }
    if (random.nextBoolean()) {
      options.truncateLength(2 + random.nextInt(4));
    }
    if (random.nextBoolean()) {
      options.bloomFilter("i64", 1000, 0.01).bloomFilter("s", 1000, 0.01);
      options.bloomFilter("f64", 1000, 0.01).bloomFilter("i32", 1000, 0.01);
    }
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer = new ParquetFileWriter(out, schema, options.build())) {
      for (Row row : rows) {
        writer.write(row);
      }
    }
    return file;
  }

  /** Reads every row of {@code file} into {@code rows}; the bytes it took. */
  private static long readAll(Path file, List<Row> rows) throws Exception {
    try (LocalFileInput input = new LocalFileInput(file);
        ParquetFileReader reader = ParquetFileReader.open(input);
        RowReader all = reader.rowReader()) {
      while (all.hasNext()) {
        rows.add(all.next());
      }
      return input.bytesRead();
    }
  }
}
