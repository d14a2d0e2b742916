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

/**
 * {@code pq rewrite}: what it keeps (schema with field ids and every logical type, key/value
 * metadata, values), what the options change (codec, level, page version, dictionary, row groups,
 * page size, encoding policy), and that a failure leaves no file behind. The rewrite of every
 * corpus file under every codec and page version is {@link RewriteCorpusTest}.
 */
class RewriteCommandTest {
  @Test
  void keepsSchemaFieldIdsKeyValuesAndValues(@TempDir Path dir) throws IOException {
    Path in = TestFiles.parquetJavaFile();
    Path out = dir.resolve("out.parquet");
    PqRun run = PqRun.run("rewrite", in.toString(), out.toString());
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertTrue(run.out().startsWith("wrote " + out + ": 3 rows, "), run.out());
    assertEquals("", run.err());

    assertEquals(PqRun.run("schema", in).out(), PqRun.run("schema", out).out());
    assertEquals(SchemaCommandTest.parquetJavaSchema(in), SchemaCommandTest.parquetJavaSchema(out));
    assertTrue(PqRun.run("schema", out).out().contains("required int32 id = 1;"));
    assertEquals(TestFiles.PARQUET_JAVA_EXPECTED_JSON, PqRun.run("cat", out).outLines());

    String meta = PqRun.run("meta", out).out();
    // parquet-java's writer records its object model; the rewrite keeps the file's metadata.
    assertTrue(meta.contains("\nkey/value metadata: 1\n  writer.model.name = \"example\"\n"), meta);
    // The writer is ours now: readers must not apply parquet-mr's workarounds to our file.
    assertTrue(meta.contains("\ncreated_by: kafka-connect-parquet version "), meta);
    assertEquals(Pq.OK, PqRun.run("verify", out).exit());
  }

  @Test
  void keepsTheCodecUnlessToldOtherwise(@TempDir Path dir) {
    Path in = Corpus.file("data/alltypes_plain.snappy.parquet");
    Path out = dir.resolve("out.parquet");
    assertEquals(Pq.OK, PqRun.run("rewrite", in.toString(), out.toString()).exit());
    assertTrue(PqRun.run("meta", out).out().contains("\n    codec: SNAPPY\n"));
    PqRun zstd =
        PqRun.run("rewrite", in.toString(), out.toString(), "--codec", "ZSTD", "--level", "19");
    assertEquals(Pq.OK, zstd.exit(), zstd.describe());
    String meta = PqRun.run("meta", out).out();
    assertTrue(meta.contains("\n    codec: ZSTD\n"), meta);
    assertFalse(meta.contains("\n    codec: SNAPPY\n"), meta);
  }

  @Test
  void optionsShapeTheOutput(@TempDir Path dir) {
    Path in = Corpus.file("data/alltypes_tiny_pages.parquet");
    Path out = dir.resolve("out.parquet");
    PqRun run =
        PqRun.run(
            "rewrite",
            in.toString(),
            out.toString(),
            "--codec",
            "gzip",
            "--page-version",
            "2",
            "--dictionary",
            "off",
            "--row-group-rows",
            "1000",
            "--page-size",
            "2048",
            "--policy",
            "compatible");
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertTrue(
        run.out().endsWith(", GZIP, page v2, dictionary off, compatible encodings\n"), run.out());
    String meta = PqRun.run("meta", out).out();
    assertTrue(meta.contains("\nrow groups: 8\n"), meta);
    assertTrue(meta.contains("\nrow group 7: 300 rows, "), meta);
    assertFalse(meta.contains("DICTIONARY_PAGE"), "dictionary off");
    assertFalse(meta.contains("DATA_PAGE "), "v2 pages only");
    assertTrue(meta.contains("DATA_PAGE_V2 PLAIN x"), meta);
    for (String line : meta.split("\n")) {
      if (line.startsWith("    encodings: ")) {
        // compatible: PLAIN values (RLE is the v2 levels' and the booleans' encoding)
        assertTrue(
            List.of("PLAIN", "PLAIN, RLE", "RLE, PLAIN", "RLE")
                .contains(line.substring("    encodings: ".length())),
            line);
      }
      if (line.startsWith("    codec: ")) {
        assertEquals("    codec: GZIP", line);
      }
    }
    assertTrue(pagesOf(meta, "id") > 8, "2 KiB pages: several per row group");
    assertEquals(PqRun.run("cat", in).out(), PqRun.run("cat", out).out());
  }

  /** The data pages of a column, all row groups, from pq meta's encoding stats. */
  private static int pagesOf(String meta, String column) {
    int pages = 0;
    boolean inColumn = false;
    for (String line : meta.split("\n")) {
      if (line.startsWith("  column ")) {
        inColumn = line.equals("  column " + column);
      } else if (inColumn && line.startsWith("    encoding stats: ")) {
        for (String stat : line.substring("    encoding stats: ".length()).split(", ")) {
          if (stat.startsWith("DATA_PAGE")) {
            pages += Integer.parseInt(stat.substring(stat.lastIndexOf('x') + 1));
          }
        }
      }
    }
    return pages;
  }

  @Test
  void anAnnotationPqDoesNotKnowIsDroppedWithAWarning(@TempDir Path dir) {
    Path in = Corpus.file("data/unknown-logical-type.parquet");
    Path out = dir.resolve("out.parquet");
    PqRun run = PqRun.run("rewrite", in.toString(), out.toString());
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(
        List.of(
            "pq: warning: "
                + in
                + ": column column with unknown type (logical type"
                + " id 2555) has an annotation pq does not know; it is written without it (the values"
                + " are unchanged)"),
        run.errLines());
    assertTrue(
        PqRun.run("schema", out)
            .out()
            .contains("  optional binary column with unknown" + " type;\n"),
        PqRun.run("schema", out).out());
    assertEquals(PqRun.run("cat", in).out(), PqRun.run("cat", out).out());
  }

  @Test
  void aFailureLeavesNoFileAndKeepsTheOldOne(@TempDir Path dir) throws IOException {
    Path out = dir.resolve("out.parquet");
    Files.writeString(out, "the previous content");
    PqRun run =
        PqRun.run(
            "rewrite",
            Corpus.file("data/rle-dict-uncompressed-corrupt-checksum.parquet").toString(),
            out.toString());
    assertEquals(Pq.FAILED, run.exit());
    assertEquals(1, run.errLines().size(), run.err());
    assertTrue(run.err().contains("page CRC mismatch"), run.err());
    assertEquals("the previous content", Files.readString(out));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of(out), files.toList(), "no temporary file is left");
    }
  }

  @Test
  void checksumsOffSalvagesADamagedFile(@TempDir Path dir) {
    Path in = Corpus.file("data/datapage_v1-corrupt-checksum.parquet");
    Path out = dir.resolve("out.parquet");
    PqRun run = PqRun.run("rewrite", in.toString(), out.toString(), "--verify-checksums", "off");
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertTrue(run.out().startsWith("wrote " + out + ": 5120 rows, "), run.out());
    assertEquals(Pq.OK, PqRun.run("verify", out).exit());
  }

  @Test
  void rewritesInPlace(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("f.parquet");
    Files.copy(Corpus.file("data/nested_lists.snappy.parquet"), file);
    String before = PqRun.run("cat", file).out();
    PqRun run = PqRun.run("rewrite", file.toString(), file.toString(), "--codec", "zstd");
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals(before, PqRun.run("cat", file).out());
    assertTrue(PqRun.run("meta", file).out().contains("\n    codec: ZSTD\n"));
  }

  @Test
  void wrongOptionsAreUsageErrors(@TempDir Path dir) {
    String in = Corpus.file("data/alltypes_plain.parquet").toString();
    String out = dir.resolve("out.parquet").toString();
    assertUsage(PqRun.run("rewrite", in), "pq rewrite: missing IN and OUT");
    assertUsage(
        PqRun.run("rewrite", in, out, "--codec", "lzo"),
        "pq rewrite: --codec must be one of uncompressed, snappy, gzip, zstd, lz4_raw, lz4,"
            + " brotli, got 'lzo'");
    assertUsage(
        PqRun.run("rewrite", in, out, "--codec", "snappy", "--level", "3"),
        "pq rewrite: --level applies to gzip, zstd and brotli, not SNAPPY");
    assertUsage(
        PqRun.run("rewrite", in, out, "--codec", "gzip", "--level", "10"),
        "pq rewrite: --level: GZIP level 10 outside 0..9");
    assertUsage(
        PqRun.run("rewrite", in, out, "--page-version", "3"),
        "pq rewrite: --page-version must be one of 1, 2, got '3'");
    assertUsage(
        PqRun.run("rewrite", in, out, "--row-group-rows", "0"),
        "pq rewrite: --row-group-rows must be between 1 and 9223372036854775807, got 0");
    assertUsage(
        PqRun.run("rewrite", in, out, "--dictionary", "yes"),
        "pq rewrite: --dictionary must be one of on, off, got 'yes'");
    assertFalse(Files.exists(Path.of(out)));
  }

  private static void assertUsage(PqRun run, String message) {
    assertEquals(Pq.USAGE, run.exit(), run.describe());
    assertEquals(message, run.errLines().get(0));
  }

  @Test
  void aMissingDirectoryIsOneLine(@TempDir Path dir) {
    Path out = dir.resolve("no/such/dir/out.parquet");
    PqRun run =
        PqRun.run("rewrite", Corpus.file("data/alltypes_plain.parquet").toString(), out.toString());
    assertEquals(Pq.FAILED, run.exit());
    assertEquals(List.of("pq rewrite: " + out.getParent() + ": no such directory"), run.errLines());
  }
}
