package dev.parquetconnect.format.read;

import static dev.parquetconnect.format.read.ReadAssertions.assertSameRows;
import static dev.parquetconnect.format.read.ReadAssertions.corpus;
import static dev.parquetconnect.format.read.ReadAssertions.readAll;
import static dev.parquetconnect.format.read.ReadAssertions.schemaOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.oracle.DuckDbRowOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file of the shared parquet-testing corpus, data/ and bad_data/, with what our reader must
 * do with it: read values equal to parquet-java's reading (or to the {@code *_expect.csv}, or to
 * DuckDB's reading where parquet-java cannot read the file), fail with a CRC error naming the
 * column, refuse encryption clearly, or fail with a checked error that names the file. A file
 * without an expectation here fails the test, so new corpus files are noticed.
 * docs/compatibility.md reports the same table.
 */
class CorpusReadTest {
  private enum Oracle {
    /** Values equal to parquet-java's. */
    PARQUET_JAVA,
    /** Values equal to the {@code *_expect.csv} and to parquet-java's. */
    EXPECT_CSV,
    /** Values equal to DuckDB's (parquet-java cannot read the file). */
    DUCKDB,
    /** Values equal to parquet-java's and DuckDB's. */
    PARQUET_JAVA_AND_DUCKDB,
    /** Values equal to parquet-java's reading of the file named in the detail (same data). */
    SAME_AS,
    /** A page CRC mismatch in the column named in the detail. */
    CRC_ERROR,
    /** Refused: encrypted. */
    ENCRYPTED,
    /** Refused with an UnsupportedFeatureException whose message holds the detail. */
    REFUSED,
    /** A CorruptDataException whose message holds the detail. */
    CORRUPT
  }

  private record Expectation(Oracle oracle, String detail) {}

  private static final Map<String, Expectation> EXPECTED = new LinkedHashMap<>();
  private static final Set<String> CHECKED = new HashSet<>();

  static {
    for (String name :
        List.of(
            "alltypes_dictionary",
            "alltypes_plain",
            "alltypes_plain.snappy",
            "alltypes_tiny_pages",
            "binary",
            "binary_truncated_min_max",
            "byte_array_decimal",
            "byte_stream_split.zstd",
            "column_chunk_key_value_metadata",
            "data_index_bloom_encoding_stats",
            "data_index_bloom_encoding_with_length",
            "datapage_v1-snappy-compressed-checksum",
            "datapage_v1-uncompressed-checksum",
            "datapage_v2.snappy",
            "delta_length_byte_array",
            "dict-page-offset-zero",
            "fixed_length_byte_array",
            "fixed_length_decimal",
            "fixed_length_decimal_legacy",
            "float16_nonzeros_and_nans",
            "float16_zeros_and_nans",
            "floating_orders_nan_count",
            "hadoop_lz4_compressed",
            "hadoop_lz4_compressed_larger",
            "incorrect_map_schema",
            "int32_decimal",
            "int64_decimal",
            "int96_from_spark",
            "list_columns",
            "lz4_raw_compressed",
            "map_no_value",
            "nan_in_stats",
            "nested_lists.snappy",
            "nested_maps.snappy",
            "nonnullable.impala",
            "nullable.impala",
            "nulls.snappy",
            "page_v2_empty_compressed",
            "plain-dict-uncompressed-checksum",
            "repeated_no_annotation",
            "rle-dict-snappy-checksum",
            "rle_boolean_encoding",
            "single_nan",
            "sort_columns")) {
      expect("data/" + name + ".parquet", Oracle.PARQUET_JAVA, null);
    }
    for (String name :
        List.of("delta_binary_packed", "delta_byte_array", "delta_encoding_required_column")) {
      expect("data/" + name + ".parquet", Oracle.EXPECT_CSV, "data/" + name + "_expect.csv");
      expect("data/" + name + "_expect.csv", Oracle.CORRUPT, "magic");
    }
    expect("data/old_list_structure.parquet", Oracle.PARQUET_JAVA_AND_DUCKDB, null);
    // parquet-java fails on these (no bare-block LZ4 fallback; an NPE on the unknown logical
    // type; an EOF where the chunk size leaves out the dictionary page header).
    expect(
        "data/non_hadoop_lz4_compressed.parquet",
        Oracle.SAME_AS,
        "data/hadoop_lz4_compressed.parquet");
    expect("data/unknown-logical-type.parquet", Oracle.DUCKDB, null);
    expect("data/nation.dict-malformed.parquet", Oracle.DUCKDB, null);
    expect("data/datapage_v1-corrupt-checksum.parquet", Oracle.CRC_ERROR, "a");
    expect("data/rle-dict-uncompressed-corrupt-checksum.parquet", Oracle.CRC_ERROR, "long_field");
    expect("data/large_string_map.brotli.parquet", Oracle.REFUSED, "ReadOptions.maxPageSize");
    for (String name :
        List.of(
            "bloom_filter.bin",
            "bloom_filter.xxhash.bin",
            "_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json")) {
      expect("data/" + name, Oracle.CORRUPT, "magic");
    }
    for (String name :
        List.of(
            "encrypt_columns_and_footer",
            "encrypt_columns_and_footer_aad",
            "encrypt_columns_and_footer_bloom_filter",
            "encrypt_columns_and_footer_ctr",
            "encrypt_columns_and_footer_disable_aad_storage",
            "encrypt_columns_plaintext_footer",
            "external_key_material_java",
            "uniform_encryption")) {
      expect("data/" + name + ".parquet.encrypted", Oracle.ENCRYPTED, null);
    }
    for (String name :
        List.of(
            "encrypt_columns_and_footer",
            "encrypt_columns_and_footer_ctr",
            "encrypt_columns_and_footer_disable_aad_storage",
            "encrypt_columns_plaintext_footer",
            "uniform_encryption")) {
      expect("data/aes256/" + name + ".parquet.encrypted", Oracle.ENCRYPTED, null);
    }
    expect("bad_data/ARROW-GH-41317.parquet", Oracle.CORRUPT, "is not the schema's");
    expect("bad_data/ARROW-GH-41321.parquet", Oracle.CORRUPT, "bit width");
    expect("bad_data/ARROW-GH-43605.parquet", Oracle.PARQUET_JAVA, null);
    expect("bad_data/ARROW-GH-47662.parquet", Oracle.CORRUPT, "remain");
    expect("bad_data/ARROW-RS-GH-6229-DICTHEADER.parquet", Oracle.CORRUPT, "data region");
    expect("bad_data/PARQUET-1481.parquet", Oracle.CORRUPT, "physical type");
  }

  private static void expect(String file, Oracle oracle, String detail) {
    EXPECTED.put(file, new Expectation(oracle, detail));
  }

  static Stream<String> files() throws IOException {
    List<String> files = new ArrayList<>();
    for (String dir : List.of("data", "bad_data")) {
      try (Stream<Path> walk = Files.walk(corpus().resolve(dir))) {
        walk.filter(Files::isRegularFile)
            .map(p -> corpus().relativize(p).toString())
            .sorted()
            .forEach(files::add);
      }
    }
    return files.stream();
  }

  @Test
  void corpusIsThere() throws IOException {
    assertTrue(files().count() > 60, "parquet-testing corpus not found under " + corpus());
  }

  @AfterAll
  static void everyExpectationWasChecked() {
    if (!CHECKED.isEmpty()) {
      Set<String> unchecked = new HashSet<>(EXPECTED.keySet());
      unchecked.removeAll(CHECKED);
      assertTrue(unchecked.isEmpty(), "expected corpus files missing: " + unchecked);
    }
  }

  @ParameterizedTest
  @MethodSource("files")
  void readsAsExpected(String name) throws Exception {
    Expectation expectation = EXPECTED.get(name);
    assertNotNull(expectation, name + " has no expectation in this test: add one");
    CHECKED.add(name);
    Path file = corpus().resolve(name);
    switch (expectation.oracle()) {
      case PARQUET_JAVA ->
          assertSameRows(ParquetJavaOracle.read(file, schemaOf(file)), readAll(file), name);
      case PARQUET_JAVA_AND_DUCKDB -> {
        List<Row> ours = readAll(file);
        assertSameRows(ParquetJavaOracle.read(file, schemaOf(file)), ours, name + " parquet-java");
        assertSameRows(DuckDbRowOracle.read(file, schemaOf(file)), ours, name + " DuckDB");
      }
      case DUCKDB ->
          assertSameRows(DuckDbRowOracle.read(file, schemaOf(file)), readAll(file), name);
      case SAME_AS -> {
        Path twin = corpus().resolve(expectation.detail());
        assertSameRows(ParquetJavaOracle.read(twin, schemaOf(file)), readAll(file), name);
      }
      case EXPECT_CSV -> {
        List<Row> ours = readAll(file);
        assertSameRows(ParquetJavaOracle.read(file, schemaOf(file)), ours, name);
        assertMatchesCsv(ours, corpus().resolve(expectation.detail()), name);
      }
      case CRC_ERROR -> {
        CorruptDataException e = assertThrows(CorruptDataException.class, () -> readAll(file));
        assertTrue(e.getMessage().contains("page CRC mismatch"), e.getMessage());
        assertEquals(expectation.detail(), e.column(), e.getMessage());
        assertEquals(file.toString(), e.file());
        assertTrue(e.offset() > 0, e.getMessage());
        // parquet-java does not verify CRCs by default: with ours off, both read the same.
        assertSameRows(
            ParquetJavaOracle.read(file, schemaOf(file)),
            readAll(file, ReadOptions.defaults().withVerifyChecksums(false)),
            name + " no CRC");
      }
      case ENCRYPTED -> {
        UnsupportedFeatureException e =
            assertThrows(UnsupportedFeatureException.class, () -> readAll(file));
        assertTrue(
            e.getMessage().startsWith("encrypted Parquet files are not supported"), e.getMessage());
        assertEquals(file.toString(), e.file());
      }
      case REFUSED -> {
        UnsupportedFeatureException e =
            assertThrows(UnsupportedFeatureException.class, () -> readAll(file));
        assertTrue(e.getMessage().contains(expectation.detail()), e.getMessage());
        assertEquals(file.toString(), e.file());
      }
      case CORRUPT -> {
        ParquetException e = assertThrows(CorruptDataException.class, () -> readAll(file));
        assertTrue(e.getMessage().contains(expectation.detail()), e.getMessage());
        assertEquals(file.toString(), e.file(), e.getMessage());
      }
    }
  }

  /** Our rows against a CSV of the same columns in order: empty unquoted fields are nulls. */
  private static void assertMatchesCsv(List<Row> rows, Path csv, String name) throws IOException {
    List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
    assertEquals(rows.size(), lines.size() - 1, name + ": rows vs CSV lines");
    for (int i = 0; i < rows.size(); i++) {
      List<String> cells = parseCsvLine(lines.get(i + 1));
      Row row = rows.get(i);
      assertEquals(row.size(), cells.size(), name + " line " + (i + 2));
      for (int c = 0; c < cells.size(); c++) {
        Object v = row.get(c);
        String text =
            v == null
                ? null
                : v instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : v.toString();
        if (!java.util.Objects.equals(cells.get(c), text)) {
          fail(
              name
                  + " row "
                  + i
                  + " column "
                  + row.type().field(c).name()
                  + ": CSV "
                  + cells.get(c)
                  + ", ours "
                  + text);
        }
      }
    }
  }

  /** RFC 4180 fields; an empty unquoted field is null, an empty quoted one the empty string. */
  private static List<String> parseCsvLine(String line) {
    List<String> cells = new ArrayList<>();
    int i = 0;
    while (i <= line.length()) {
      if (i < line.length() && line.charAt(i) == '"') {
        StringBuilder cell = new StringBuilder();
        i++;
        while (i < line.length()) {
          char ch = line.charAt(i);
          if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
            cell.append('"');
            i += 2;
          } else if (ch == '"') {
            i++;
            break;
          } else {
            cell.append(ch);
            i++;
          }
        }
        cells.add(cell.toString());
        i++; // the comma
      } else {
        int end = line.indexOf(',', i);
        if (end < 0) {
          end = line.length();
        }
        String cell = line.substring(i, end);
        cells.add(cell.isEmpty() ? null : cell);
        i = end + 1;
      }
    }
    return cells;
  }

  /** Whatever the expectation, reading never lets an unchecked exception escape. */
  @ParameterizedTest
  @MethodSource("files")
  void onlyCheckedErrors(String name) throws IOException {
    try {
      readAll(corpus().resolve(name));
    } catch (ParquetException expected) {
      assertNotNull(expected.file(), expected.getMessage());
    }
  }
}
