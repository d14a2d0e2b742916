package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code pq verify} on every corpus file: exit 0 and one summary line for the sound ones; for the
 * others (corrupt checksums, bad_data/, encrypted, not Parquet) the exit code and one error line
 * saying what and where, and never a stack trace.
 */
class VerifyCommandTest {
  static Stream<Path> corpusFiles() {
    return Corpus.allFiles().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpusFiles")
  void verifiesEveryCorpusFile(Path file) {
    String name = Corpus.name(file);
    PqRun run = PqRun.run("verify", file);
    CorpusOutcomes.Failure failure = CorpusOutcomes.failure(name);
    if (failure == null) {
      assertEquals(Pq.OK, run.exit(), run.describe());
      assertEquals(1, run.outLines().size(), run.out());
      assertTrue(run.out().startsWith("OK " + file + ": "), run.out());
      assertEquals("", run.err());
    } else {
      assertEquals(failure.exit(), run.exit(), run.describe());
      assertEquals("", run.out());
      assertOneErrorLine(run, file);
      for (String part : failure.messageParts()) {
        assertTrue(run.err().contains(part), "'" + part + "' missing in: " + run.err());
      }
    }
  }

  /** One line, naming the file, with no trace of a stack. */
  static void assertOneErrorLine(PqRun run, Path file) {
    List<String> lines = run.errLines();
    assertEquals(1, lines.size(), run.err());
    assertTrue(lines.get(0).startsWith("pq "), run.err());
    assertTrue(lines.get(0).contains(file.toString()), run.err());
    assertFalse(run.err().contains("\tat "), run.err());
    assertFalse(run.err().contains("Exception"), run.err());
  }

  @Test
  void corruptChecksumNamesColumnAndOffset() {
    Path file = Corpus.file("data/rle-dict-uncompressed-corrupt-checksum.parquet");
    PqRun run = PqRun.run("verify", file);
    assertEquals(Pq.FAILED, run.exit());
    assertEquals(
        "pq verify: corrupt: page CRC mismatch: the header says",
        run.err().substring(0, "pq verify: corrupt: page CRC mismatch: the header says".length()));
    assertTrue(run.err().endsWith("(file " + file + ", column long_field, offset 4)\n"), run.err());
  }

  @Test
  void encryptedFileIsRefusedClearly() {
    Path file = Corpus.file("data/encrypt_columns_plaintext_footer.parquet.encrypted");
    PqRun run = PqRun.run("verify", file);
    assertEquals(Pq.UNSUPPORTED, run.exit());
    assertEquals(
        "pq verify: unsupported: encrypted Parquet files are not supported (the footer"
            + " is plaintext but columns are encrypted) (file "
            + file
            + ")\n",
        run.err());
  }

  @Test
  void truncatedAndFlippedCopiesFailInOneLine(@TempDir Path dir) throws IOException {
    byte[] good = Files.readAllBytes(Corpus.file("data/alltypes_plain.snappy.parquet"));
    Path truncated = dir.resolve("truncated.parquet");
    Files.write(truncated, java.util.Arrays.copyOf(good, good.length / 2));
    PqRun run = PqRun.run("verify", truncated);
    assertEquals(Pq.FAILED, run.exit(), run.describe());
    assertOneErrorLine(run, truncated);

    // A byte flipped in a page header or a snappy page: the header decoder, the decompressor
    // or a value decoder must say so, whichever sees it first (this file has no CRCs to catch
    // it earlier); a flipped enum value reads as a feature this reader does not know (exit 3).
    int failures = 0;
    for (int at = 4; at < 200; at += 7) {
      byte[] flipped = good.clone();
      flipped[at] ^= (byte) 0x5A;
      Path copy = dir.resolve("flipped-" + at + ".parquet");
      Files.write(copy, flipped);
      PqRun flippedRun = PqRun.run("verify", copy);
      if (flippedRun.exit() != Pq.OK) {
        failures++;
        assertTrue(
            flippedRun.exit() == Pq.FAILED || flippedRun.exit() == Pq.UNSUPPORTED,
            flippedRun.describe());
        assertOneErrorLine(flippedRun, copy);
      }
    }
    assertTrue(failures > 0, "no flipped byte was noticed");
  }

  @Test
  void missingFileAndDirectoryAreOneLineErrors(@TempDir Path dir) {
    PqRun missing = PqRun.run("verify", dir.resolve("missing.parquet"));
    assertEquals(Pq.FAILED, missing.exit());
    assertEquals(
        "pq verify: no such file: " + dir.resolve("missing.parquet") + "\n", missing.err());
    PqRun directory = PqRun.run("verify", dir);
    assertEquals(Pq.FAILED, directory.exit());
    assertOneErrorLine(directory, dir);
  }
}
