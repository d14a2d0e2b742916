package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.oracle.DuckDbRowOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mutated real files (the parquet-testing corpus, and files parquet-java and DuckDB write with
 * every kind of nesting) read through the whole reader, records and column batches: only {@link
 * ParquetException}s may come out, never another exception, an error or a hang. Seeds are fixed;
 * each test runs for {@code -Dfuzz.millis} (default 1500) and at least a minimum of iterations.
 * CRCs are not verified, so damaged pages reach the decoders.
 */
@Timeout(120)
class ReaderFuzzTest {
  private static final Logger LOG = LoggerFactory.getLogger(ReaderFuzzTest.class);

  private static final long MILLIS = Long.getLong("fuzz.millis", 1500);
  private static final int MIN_ITERATIONS = 100;

  /** One mutated file taking longer than this to read is treated as a hang. */
  private static final long SLOW_MILLIS = 10_000;

  /** Rows or entries read per mutated file at most: a lie can describe billions of nulls. */
  private static final int MAX_ENTRIES = 200_000;

  private static final ReadOptions OPTIONS = ReadOptions.defaults().withVerifyChecksums(false);

  private static final List<byte[]> CORPUS = new ArrayList<>();
  private static final List<byte[]> GENERATED = new ArrayList<>();

  @BeforeAll
  static void collect(@TempDir Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(ReadAssertions.corpus())) {
      for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
        String name = p.getFileName().toString();
        if (name.endsWith(".parquet") && Files.size(p) < 200_000) {
          CORPUS.add(Files.readAllBytes(p));
        }
      }
    }
    MessageType schema = ReadTestData.schema();
    var rows = ReadTestData.rows(schema, 120, 99);
    int n = 0;
    for (WriterVersion version : WriterVersion.values()) {
      for (CompressionCodecName codec :
          List.of(
              CompressionCodecName.UNCOMPRESSED,
              CompressionCodecName.SNAPPY,
              CompressionCodecName.ZSTD,
              CompressionCodecName.GZIP)) {
        Path file = dir.resolve("pj" + n++ + ".parquet");
        ParquetJavaOracle.write(
            file,
            schema,
            rows,
            new ParquetJavaOracle.WriteOptions(codec, n % 2 == 0, version, 1024, 16 * 1024));
        GENERATED.add(Files.readAllBytes(file));
      }
    }
    Path duck = dir.resolve("duck.parquet");
    DuckDbRowOracle.copy(
        DuckDbFilesReadTest.SELECT.replace("range(5000)", "range(300)"),
        duck,
        "FORMAT parquet, COMPRESSION snappy, PARQUET_VERSION V2, ROW_GROUP_SIZE 2048");
    GENERATED.add(Files.readAllBytes(duck));
  }

  @Test
  void mutatedCorpusFilesFailOnlyWithParquetExceptions() {
    fuzz(CORPUS, 1);
  }

  @Test
  void mutatedGeneratedFilesFailOnlyWithParquetExceptions() {
    fuzz(GENERATED, 2);
  }

  private static void fuzz(List<byte[]> samples, long seed) {
    assertTrue(samples.size() > 5, "samples: " + samples.size());
    SplittableRandom random = new SplittableRandom(seed);
    long deadline = System.nanoTime() + MILLIS * 1_000_000;
    int iterations = 0;
    int rejected = 0;
    while (iterations < MIN_ITERATIONS || System.nanoTime() < deadline) {
      byte[] original = samples.get(random.nextInt(samples.size()));
      long mutationSeed = random.nextLong();
      byte[] mutated = mutate(original, new SplittableRandom(mutationSeed));
      long start = System.nanoTime();
      try {
        readEverything(mutated);
      } catch (ParquetException expected) {
        rejected++;
        if (expected.file() == null) {
          fail(
              "no file named in: "
                  + expected.getMessage()
                  + " (mutation seed "
                  + mutationSeed
                  + ")",
              expected);
        }
      } catch (Throwable e) {
        fail("mutation seed " + mutationSeed + " of a " + original.length + "-byte file: " + e, e);
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      if (millis > SLOW_MILLIS) {
        fail("mutation seed " + mutationSeed + " took " + millis + " ms: a near hang");
      }
      iterations++;
    }
    LOG.info(
        "reader fuzz: "
            + iterations
            + " mutated files, "
            + rejected
            + " rejected with a ParquetException");
    // Most mutations must be caught; some (a flipped value bit) legitimately read fine.
    assertTrue(rejected > iterations / 10, rejected + " of " + iterations + " rejected");
  }

  /** Opens the file and reads every record and every column's batches, bounded in size. */
  private static void readEverything(byte[] file) throws IOException, ParquetException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(new MemoryInput(file, "fuzz"), OPTIONS)) {
      try (RowReader rows = reader.rowReader()) {
        for (int n = 0; n < MAX_ENTRIES && rows.hasNext(); n++) {
          rows.next();
        }
      }
      for (int g = 0; g < reader.rowGroups().size(); g++) {
        for (ColumnDescriptor column : reader.schema().columns()) {
          try (ColumnReader columns = reader.columnReader(g, column)) {
            // Binary values both ways: copied, and kept as dictionary indices (record assembly
            // also reads them so), some of those then materialised.
            boolean keepDictionary = ((g + column.index()) & 1) == 0;
            ColumnBatch batch = columns.newBatch(512, keepDictionary);
            long entries = 0;
            int n;
            while (entries < MAX_ENTRIES && (n = columns.readBatch(batch)) > 0) {
              if (batch.isDictionaryEncoded() && (entries & 512) == 0) {
                batch.plainBinaries();
              }
              entries += n;
            }
          }
        }
      }
    }
  }

  /** One to four damages: flipped bits, set bytes, a truncation, a copied or zeroed range. */
  static byte[] mutate(byte[] original, SplittableRandom r) {
    byte[] b = original.clone();
    int damages = 1 + r.nextInt(4);
    for (int d = 0; d < damages; d++) {
      // Half the damage lands in the last 1 KiB (footer, trailer), where lies spread furthest.
      int at =
          r.nextBoolean()
              ? r.nextInt(b.length)
              : Math.max(0, b.length - 1 - r.nextInt(Math.min(1024, b.length)));
      switch (r.nextInt(6)) {
        case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
        case 1 -> b[at] = (byte) r.nextInt(256);
        case 2 -> b[at] = (byte) (r.nextBoolean() ? 0 : 0xFF);
        case 3 -> {
          int length = Math.min(b.length - at, 1 + r.nextInt(16));
          Arrays.fill(b, at, at + length, (byte) 0);
        }
        case 4 -> {
          int from = r.nextInt(b.length);
          int length = Math.min(Math.min(b.length - at, b.length - from), 1 + r.nextInt(32));
          System.arraycopy(b, from, b, at, length);
        }
        default -> {
          if (r.nextInt(4) == 0) {
            b = Arrays.copyOf(b, Math.max(0, b.length - 1 - r.nextInt(Math.min(64, b.length))));
            if (b.length == 0) {
              return b;
            }
          }
        }
      }
    }
    return b;
  }
}
