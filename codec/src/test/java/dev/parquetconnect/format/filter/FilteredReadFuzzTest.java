package dev.parquetconnect.format.filter;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.read.MemoryInput;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.Projection;
import dev.parquetconnect.format.read.ReadOptions;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Filtered reading of damaged files: bytes flipped anywhere, most often in the tail where the page
 * indexes, bloom filters and footer are, then read with a predicate. Only checked exceptions may
 * come out ({@link ParquetException}, {@link IOException}), never another exception or a hang.
 * Seeded; runs for {@code -Dfuzz.millis} (default 1000).
 */
@Timeout(60)
class FilteredReadFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(FilteredReadFuzzTest.class);
  private static final long SEED = Long.getLong("filter.seed", System.nanoTime());
  private static final long MILLIS = Long.getLong("fuzz.millis", 1000);
  private static final int MAX_ROWS = 100_000;
  private static final ReadOptions OPTIONS = ReadOptions.defaults().withVerifyChecksums(false);

  @Test
  void damagedFilesFailWithCheckedExceptionsOnly() throws Exception {
    LOG.info("seed {} (-Dfilter.seed={} replays it)", SEED, SEED);
    Random random = new Random(SEED);
    MessageType schema = FilterTestData.schema();
    List<Row> rows = FilterTestData.rows(schema, random, 600);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (ParquetFileWriter writer =
        new ParquetFileWriter(
            out,
            schema,
            WriterOptions.builder()
                .pageRowLimit(20)
                .rowGroupRowLimit(200)
                .bloomFilter("s", 200, 0.05)
                .bloomFilter("i64", 200, 0.05)
                .build())) {
      for (Row row : rows) {
        writer.write(row);
      }
    }
    byte[] ours = out.toByteArray();
    byte[] corpus =
        Files.readAllBytes(
            Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing")
                .resolve("data/alltypes_tiny_pages.parquet"));
    FilterTestData.Predicates predicates = new FilterTestData.Predicates(rows, random);
    String[] corpusPredicates = {
      "id BETWEEN 100 AND 300", "string_col = '4' OR int_col > 7", "bigint_col IN (10, 20)"
    };
    long end = System.currentTimeMillis() + MILLIS;
    int iterations = 0;
    int failures = 0;
    while (iterations < 50 || System.currentTimeMillis() < end) {
      boolean useOurs = random.nextBoolean();
      byte[] bytes = (useOurs ? ours : corpus).clone();
      int flips = 1 + random.nextInt(8);
      for (int i = 0; i < flips; i++) {
        int at =
            random.nextBoolean()
                ? bytes.length - 8 - random.nextInt(Math.max(1, bytes.length * 2 / 5))
                : random.nextInt(bytes.length);
        bytes[Math.max(0, at)] ^= (byte) (1 << random.nextInt(8));
      }
      String where =
          useOurs ? predicates.next(2) : corpusPredicates[random.nextInt(corpusPredicates.length)];
      try (ParquetFileReader reader =
          ParquetFileReader.open(new MemoryInput(bytes, "fuzzed.parquet"), OPTIONS)) {
        BoundPredicate bound = PredicateParser.parse(where).bind(reader.schema());
        try (RowReader filtered = reader.rowReader(Projection.all(reader.schema()), bound)) {
          for (int n = 0; n < MAX_ROWS && filtered.hasNext(); n++) {
            filtered.next();
          }
        }
      } catch (ParquetException | IOException e) {
        failures++;
      } catch (RuntimeException | StackOverflowError e) {
        fail("seed " + SEED + ", iteration " + iterations + ", WHERE " + where + ": " + e, e);
      }
      iterations++;
    }
    LOG.info(
        "{} damaged files read with a filter, {} refused with a checked exception",
        iterations,
        failures);
    assertTrue(failures > 0, "some damage should be noticed");
  }
}
