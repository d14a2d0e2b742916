package dev.parquetconnect.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code pq meta}: every corpus file whose footer reads, each row group and column chunk checked
 * against parquet-java's reading of the same footer (codec, encodings, counts, sizes, offsets, null
 * counts, bloom filter and page index locations, and min/max where parquet-java exposes them as
 * plain values); the bounds of typed columns rendered by logical type; files whose footer is
 * unreadable fail in one line.
 */
class MetaCommandTest {
  /** Files whose footer parquet-java cannot read, and why. */
  private static final Map<String, String> PARQUET_JAVA_FAILS =
      Map.of(
          "data/unknown-logical-type.parquet", "NullPointerException on an unknown logical type");

  /** Only the footer is read: files that fail in their pages still have their metadata. */
  private static boolean footerReads(String name) {
    CorpusOutcomes.Failure failure = CorpusOutcomes.failure(name);
    return failure == null
        || CorpusOutcomes.onlyChecksumsFail(name)
        || name.equals("data/large_string_map.brotli.parquet")
        || name.equals("bad_data/ARROW-GH-41321.parquet")
        || name.equals("bad_data/ARROW-GH-47662.parquet");
  }

  static Stream<Path> corpusFiles() {
    return Corpus.allFiles().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpusFiles")
  void metadataEqualsParquetJavasReading(Path file) throws IOException {
    String name = Corpus.name(file);
    PqRun run = PqRun.run("meta", file);
    if (!footerReads(name)) {
      CorpusOutcomes.Failure failure = CorpusOutcomes.failure(name);
      assertEquals(failure.exit(), run.exit(), run.describe());
      VerifyCommandTest.assertOneErrorLine(run, file);
      return;
    }
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertEquals("", run.err());
    if (PARQUET_JAVA_FAILS.containsKey(name)) {
      return; // listed with the reason above; pq's output is checked by its exit code only
    }
    MetaText meta = MetaText.parse(run.out());
    ParquetMetadata footer = parquetJavaFooter(file);
    String createdBy = footer.getFileMetaData().getCreatedBy();
    assertEquals(createdBy == null ? "(not recorded)" : createdBy, meta.file.get("created_by"));
    List<BlockMetaData> blocks = footer.getBlocks();
    assertEquals(blocks.size(), meta.rowGroups.size());
    for (int g = 0; g < blocks.size(); g++) {
      BlockMetaData block = blocks.get(g);
      assertTrue(
          meta.rowGroups.get(g).startsWith(block.getRowCount() + " rows"), meta.rowGroups.get(g));
      List<ColumnChunkMetaData> columns = block.getColumns();
      for (int c = 0; c < columns.size(); c++) {
        assertSameChunk(columns.get(c), meta.chunks.get(g).get(c), name + " row group " + g);
      }
    }
  }

  private static void assertSameChunk(
      ColumnChunkMetaData pj, Map<String, String> ours, String where) {
    String what = where + " column " + pj.getPath().toDotString() + ": " + ours;
    assertEquals(pj.getPath().toDotString(), ours.get("column"), what);
    assertEquals(pj.getCodec().getParquetCompressionCodec().name(), ours.get("codec"), what);
    Set<String> encodings = new TreeSet<>();
    for (Encoding e : pj.getEncodings()) {
      encodings.add(e.name());
    }
    Set<String> ourEncodings = new TreeSet<>();
    if (!ours.get("encodings").equals("none listed")) {
      ourEncodings.addAll(List.of(ours.get("encodings").split(", ")));
    }
    assertEquals(encodings, ourEncodings, what);
    assertEquals(String.valueOf(pj.getValueCount()), ours.get("values"), what);
    assertEquals(pj.getTotalSize() + " bytes", ours.get("compressed size"), what);
    assertEquals(pj.getTotalUncompressedSize() + " bytes", ours.get("uncompressed size"), what);
    assertEquals(String.valueOf(pj.getFirstDataPageOffset()), ours.get("data page offset"), what);
    // parquet-java says 0 for an absent dictionary_page_offset; pq says "none".
    long dictionary = pj.getDictionaryPageOffset();
    String ourDictionary = ours.get("dictionary page offset");
    if (dictionary == 0) {
      assertTrue(ourDictionary.equals("none") || ourDictionary.equals("0"), what);
    } else {
      assertEquals(String.valueOf(dictionary), ourDictionary, what);
    }
    assertEquals(
        pj.getBloomFilterOffset() < 0 ? "none" : "at " + pj.getBloomFilterOffset(),
        ours.get("bloom filter").replaceAll(",.*", ""),
        what);
    assertEquals(
        pj.getColumnIndexReference() == null
            ? "none"
            : "at "
                + pj.getColumnIndexReference().getOffset()
                + ", "
                + pj.getColumnIndexReference().getLength()
                + " bytes",
        ours.get("column index"),
        what);
    assertEquals(
        pj.getOffsetIndexReference() == null
            ? "none"
            : "at "
                + pj.getOffsetIndexReference().getOffset()
                + ", "
                + pj.getOffsetIndexReference().getLength()
                + " bytes",
        ours.get("offset index"),
        what);
    Statistics<?> stats = pj.getStatistics();
    if (stats != null && stats.isNumNullsSet() && ours.containsKey("nulls")) {
      assertEquals(String.valueOf(stats.getNumNulls()), ours.get("nulls"), what);
    }
    if (stats != null && stats.hasNonNullValue() && ours.containsKey("min")) {
      String min = plainBound(pj.getPrimitiveType(), stats.genericGetMin());
      String max = plainBound(pj.getPrimitiveType(), stats.genericGetMax());
      if (min != null) {
        assertSameBound(min, bound(ours.get("min")), what);
        assertSameBound(max, bound(ours.get("max")), what);
      }
    }
  }

  /**
   * parquet-java's bound as pq prints it, for the types where the two agree on the text:
   * unannotated numbers and booleans and STRING; null for the others.
   */
  private static String plainBound(PrimitiveType type, Object value) {
    LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN, INT32, INT64, FLOAT, DOUBLE -> {
        if (logical != null) {
          return null;
        }
        return value instanceof Double d && !Double.isFinite(d)
                || value instanceof Float f && !Float.isFinite(f)
            ? null
            : value.toString();
      }
      case BINARY -> {
        if (!(logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)) {
          return null;
        }
        String text = Json.quote(((org.apache.parquet.io.api.Binary) value).toStringUsingUTF8());
        return text.length() > 120 ? null : text;
      }
      default -> {
        return null;
      }
    }
  }

  /**
   * Equal texts, or equal numbers: parquet-java widens a float bound of 0.0 to -0.0 (and a max of
   * -0.0 to 0.0) as the specification advises readers; pq shows the stored value.
   */
  private static void assertSameBound(String expected, String actual, String what) {
    if (expected.equals(actual)) {
      return;
    }
    try {
      assertTrue(
          Double.parseDouble(expected) == Double.parseDouble(actual),
          expected + " vs " + actual + ": " + what);
    } catch (NumberFormatException e) {
      assertEquals(expected, actual, what);
    }
  }

  /** A bound without pq's note on its exactness. */
  private static String bound(String text) {
    return text.replaceAll(" \\((exact|not exact: a truncated bound|deprecated .*)\\)$", "");
  }

  private static ParquetMetadata parquetJavaFooter(Path file) throws IOException {
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            new LocalInputFile(file),
            ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
      return reader.getFooter();
    }
  }

  @Test
  void boundsAreRenderedByLogicalType() {
    PqRun run = PqRun.run("meta", TestFiles.duckDbFile());
    assertEquals(Pq.OK, run.exit(), run.describe());
    MetaText meta = MetaText.parse(run.out());
    Map<String, Map<String, String>> byColumn = new LinkedHashMap<>();
    meta.chunks.get(0).forEach(chunk -> byColumn.put(chunk.get("column"), chunk));
    assertBounds(byColumn.get("u64"), "0", "18446744073709551615");
    assertBounds(byColumn.get("dec4"), "-0.01", "12.34");
    assertBounds(byColumn.get("dec38"), "-1.0000000000", "1234567890123456789012.3456789000");
    assertBounds(byColumn.get("d"), "\"1969-12-31\"", "\"2024-02-29\"");
    assertBounds(
        byColumn.get("ts"), "\"1900-01-01T00:00:00.000000\"", "\"2024-01-02T03:04:05.123456\"");
    assertBounds(
        byColumn.get("tstz"), "\"2024-01-02T03:04:05.123456Z\"", "\"2024-01-02T03:04:05.123456Z\"");
    assertBounds(
        byColumn.get("uu"),
        "\"12345678-1234-5678-1234-567812345678\"",
        "\"12345678-1234-5678-1234-567812345678\"");
    assertBounds(byColumn.get("s"), "\"\"", "\"h\u00e9llo \\\"q\\\" \\\\ /\"");
    assertEquals("INT64 INTEGER(64,false), optional", byColumn.get("u64").get("type"));
    assertEquals("1", byColumn.get("u64").get("nulls"));
  }

  private static void assertBounds(Map<String, String> chunk, String min, String max) {
    assertEquals(min + " (exact)", chunk.get("min"), chunk.toString());
    assertEquals(max + " (exact)", chunk.get("max"), chunk.toString());
  }

  @Test
  void truncatedBoundsSayTheyAreNotExact() {
    PqRun run = PqRun.run("meta", Corpus.file("data/binary_truncated_min_max.parquet"));
    assertEquals(Pq.OK, run.exit(), run.describe());
    assertTrue(run.out().contains(" (not exact: a truncated bound)"), run.out());
  }

  @Test
  void fileLevelFacts() {
    PqRun run = PqRun.run("meta", Corpus.file("data/repeated_no_annotation.parquet"));
    MetaText meta = MetaText.parse(run.out());
    // The footer's total is 0, the row groups hold 6: pq says both.
    assertEquals("6 (the footer's num_rows says 0; the row groups hold 6)", meta.file.get("rows"));
    PqRun kv = PqRun.run("meta", Corpus.file("data/data_index_bloom_encoding_stats.parquet"));
    assertTrue(
        kv.out().contains("\nkey/value metadata: 2\n  parquet.avro.schema = \"{\\\""), kv.out());
    assertTrue(kv.out().contains("... (163 chars)\n"), kv.out());
    assertTrue(kv.out().contains("    encoding stats: DATA_PAGE PLAIN x1\n"), kv.out());
  }

  /** pq meta's text split into the file's lines, the row group heads and the chunk lines. */
  private static final class MetaText {
    final Map<String, String> file = new LinkedHashMap<>();
    final List<String> rowGroups = new ArrayList<>();
    final List<List<Map<String, String>>> chunks = new ArrayList<>();

    static MetaText parse(String text) {
      MetaText meta = new MetaText();
      Map<String, String> chunk = null;
      for (String line : text.split("\n")) {
        if (line.startsWith("row group ")) {
          meta.rowGroups.add(line.substring(line.indexOf(": ") + 2));
          meta.chunks.add(new ArrayList<>());
        } else if (line.startsWith("  column ")) {
          chunk = new LinkedHashMap<>();
          chunk.put("column", line.substring("  column ".length()));
          meta.chunks.get(meta.chunks.size() - 1).add(chunk);
        } else if (line.startsWith("    ") && chunk != null && line.indexOf(": ") > 0) {
          String entry = line.strip();
          chunk.put(
              entry.substring(0, entry.indexOf(": ")), entry.substring(entry.indexOf(": ") + 2));
        } else if (!line.startsWith(" ") && line.indexOf(": ") > 0 && meta.rowGroups.isEmpty()) {
          meta.file.put(
              line.substring(0, line.indexOf(": ")), line.substring(line.indexOf(": ") + 2));
        }
      }
      return meta;
    }
  }
}
