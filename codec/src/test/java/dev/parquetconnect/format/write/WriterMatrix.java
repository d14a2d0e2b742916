package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.oracle.CanonicalValues;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The writer matrix (run by {@link WriterMatrixV1Test} and {@link WriterMatrixV2Test}, one page
 * version each, to keep each class short): every physical and logical type, required, optional and
 * repeated, at the top level and nested (struct, list of structs, map of lists, three levels of
 * lists, legacy two-level lists, repeated groups), written by us under every page version,
 * dictionary mode and codec, then read back equal by parquet-java (physical values, exactly) and by
 * DuckDB (values interpreted per logical type, see {@link CanonicalValues}).
 *
 * <p>Each file: 40 seeded random rows, 8-row pages and 20-row row groups, so every column has
 * several pages and row groups; "fallback" sets a 64-byte dictionary limit, so columns switch from
 * dictionary pages to their fallback encoding mid-chunk.
 *
 * <p>Exclusions, each a limitation of the oracle, not of the file: parquet-java here has no Brotli
 * codec (it needs the separate brotli-codec jar), so BROTLI files are checked by DuckDB only, and
 * their BSON file by nobody. DuckDB: LZ4 (DuckDB reads only LZ4_RAW, not the Hadoop-framed LZ4
 * codec); BSON (DuckDB refuses to open a file with a BSON column, so BSON has its own file, checked
 * by parquet-java only); TIME and UTC-adjusted TIMESTAMP NANOS and INT96 are compared at
 * microseconds (DuckDB's TIME, TIMESTAMPTZ and TIMESTAMP hold microseconds); local timestamps stay
 * after 1600 and NANOS ones inside 1685..2255 (DuckDB's JDBC hands local timestamps over as
 * java.sql.Timestamp).
 */
final class WriterMatrix {
  private static final int ROWS = 40;
  private static final MessageType SCHEMA = MatrixSchema.build(MatrixSchema.leafTypes(), true);
  private static final MessageType BSON_SCHEMA =
      MatrixSchema.build(List.of(MatrixSchema.bson()), false);

  enum Dictionary {
    ON,
    OFF,
    FALLBACK
  }

  private WriterMatrix() {}

  /**
   * The configurations of one page version: each dictionary mode under every codec with the
   * adaptive policy, and under ZSTD with the compatible and the extended ones.
   */
  static Stream<Arguments> configurations(PageVersion version) {
    List<Arguments> all = new ArrayList<>();
    for (Dictionary dictionary : Dictionary.values()) {
      for (CompressionCodec codec : CompressionCodec.values()) {
        if (codec != CompressionCodec.LZO) {
          all.add(Arguments.of(dictionary, codec, EncodingPolicy.ADAPTIVE));
        }
      }
      all.add(Arguments.of(dictionary, CompressionCodec.ZSTD, EncodingPolicy.COMPATIBLE));
      all.add(Arguments.of(dictionary, CompressionCodec.ZSTD, EncodingPolicy.EXTENDED));
    }
    return all.stream();
  }

  /** Writes the matrix under one configuration and checks it with both oracles. */
  static void check(
      Path dir,
      DuckDbOracle duckdb,
      PageVersion version,
      Dictionary dictionary,
      CompressionCodec codec,
      EncodingPolicy policy)
      throws Exception {
    WriterOptions options = options(version, dictionary, codec, policy);
    long seed = 31L * version.ordinal() + 7L * dictionary.ordinal() + codec.ordinal();
    String name = version + "-" + dictionary + "-" + codec + "-" + policy;

    List<Row> rows = new RandomRows(seed).rows(SCHEMA, ROWS);
    Path file = write(dir.resolve(name + ".parquet"), SCHEMA, rows, options);
    assertLayout(FooterReader.read(file), dictionary, policy, name);
    // Our own reader reads every configuration, BROTLI and BSON included.
    assertRowsEqual(rows, readWithOurReader(file), "our reader, " + name);
    if (codec != CompressionCodec.BROTLI) {
      assertRowsEqual(rows, ParquetJavaOracle.read(file, SCHEMA), "parquet-java, " + name);
    }
    if (codec != CompressionCodec.LZ4) {
      assertSameAsDuckDb(duckdb, rows, file, SCHEMA, name);
    }
    if (codec != CompressionCodec.BROTLI) {
      List<Row> bsonRows = new RandomRows(seed).rows(BSON_SCHEMA, ROWS);
      Path bsonFile = write(dir.resolve(name + "-bson.parquet"), BSON_SCHEMA, bsonRows, options);
      assertRowsEqual(bsonRows, ParquetJavaOracle.read(bsonFile, BSON_SCHEMA), "BSON, " + name);
    }
    List<Row> bsonRows = new RandomRows(seed).rows(BSON_SCHEMA, ROWS);
    Path bsonFile = write(dir.resolve(name + "-bson-ours.parquet"), BSON_SCHEMA, bsonRows, options);
    assertRowsEqual(bsonRows, readWithOurReader(bsonFile), "BSON by our reader, " + name);
  }

  /** Every row of {@code file} as our reader assembles it. */
  static List<Row> readWithOurReader(Path file) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader rowReader = reader.rowReader()) {
      while (rowReader.hasNext()) {
        rows.add(rowReader.next());
      }
    }
    return rows;
  }

  /** The file really holds what the configuration is meant to exercise. */
  private static void assertLayout(
      FileMetaData footer, Dictionary dictionary, EncodingPolicy policy, String name) {
    Set<Encoding> encodings = FooterReader.dataPageEncodings(footer);
    assertEquals(
        dictionary != Dictionary.OFF,
        FooterReader.anyDictionary(footer),
        name + ": dictionary pages");
    if (dictionary == Dictionary.FALLBACK) {
      assertTrue(
          FooterReader.someChunkMixesEncodings(footer),
          name + ": no chunk fell back from its dictionary");
    }
    Set<Encoding> allowed =
        EnumSet.of(Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY);
    if (policy == EncodingPolicy.COMPATIBLE) {
      assertTrue(allowed.containsAll(encodings), name + ": " + encodings);
    } else if (dictionary != Dictionary.ON) {
      assertTrue(
          encodings.containsAll(
              EnumSet.of(
                  Encoding.DELTA_BINARY_PACKED,
                  Encoding.DELTA_BYTE_ARRAY,
                  Encoding.DELTA_LENGTH_BYTE_ARRAY,
                  Encoding.BYTE_STREAM_SPLIT)),
          name + ": " + encodings);
    }
  }

  static WriterOptions options(
      PageVersion version, Dictionary dictionary, CompressionCodec codec, EncodingPolicy policy) {
    WriterOptions.Builder b =
        WriterOptions.builder()
            .pageVersion(version)
            .codec(codec)
            .encodingPolicy(policy)
            .pageRowLimit(8)
            .rowGroupRowLimit(20)
            .dictionary(dictionary != Dictionary.OFF);
    if (dictionary == Dictionary.FALLBACK) {
      b.dictionaryByteLimit(64);
    }
    if (policy != EncodingPolicy.COMPATIBLE) {
      // Random values rarely make the byte-oriented encodings win on their own: name them for a
      // few columns, so every configuration has readers decode them too.
      b.columnEncoding("r_f32", Encoding.BYTE_STREAM_SPLIT)
          .columnEncoding("o_f64", Encoding.BYTE_STREAM_SPLIT)
          .columnEncoding("st.o_i32", Encoding.DELTA_BINARY_PACKED)
          .columnEncoding("st.o_bin", Encoding.DELTA_BYTE_ARRAY)
          .columnEncoding("st.r_str", Encoding.DELTA_LENGTH_BYTE_ARRAY);
    }
    return b.build();
  }

  static Path write(Path file, MessageType schema, List<Row> rows, WriterOptions options)
      throws Exception {
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer = new ParquetFileWriter(out, schema, options)) {
      for (Row row : rows) {
        writer.write(row);
      }
    }
    return file;
  }

  static void assertRowsEqual(List<Row> expected, List<Row> actual, String what) {
    assertEquals(expected.size(), actual.size(), what + ": row count");
    for (int r = 0; r < expected.size(); r++) {
      Row e = expected.get(r);
      Row a = actual.get(r);
      for (int f = 0; f < e.size(); f++) {
        if (!Row.valueEquals(e.get(f), a.get(f))) {
          fail(
              what
                  + ": row "
                  + r
                  + " field "
                  + e.type().field(f).name()
                  + "\nwrote "
                  + describe(e.get(f))
                  + "\nread  "
                  + describe(a.get(f)));
        }
      }
    }
  }

  /** A readable rendering of a generic value (byte strings in hex). */
  static String describe(Object v) {
    if (v instanceof byte[] b) {
      return "0x" + HexFormat.of().formatHex(b);
    }
    if (v instanceof List<?> list) {
      return list.stream().map(WriterMatrix::describe).toList().toString();
    }
    if (v instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder("{");
      map.forEach((k, x) -> out.append(describe(k)).append('=').append(describe(x)).append(' '));
      return out.append('}').toString();
    }
    return String.valueOf(v);
  }

  static void assertSameAsDuckDb(
      DuckDbOracle duckdb, List<Row> rows, Path file, MessageType schema, String name)
      throws Exception {
    List<List<String>> duck = duckdb.read(file, schema);
    assertEquals(rows.size(), duck.size(), "DuckDB row count, " + name);
    for (int r = 0; r < rows.size(); r++) {
      List<String> ours = CanonicalValues.fields(rows.get(r), schema);
      List<String> theirs = duck.get(r);
      for (int f = 0; f < ours.size(); f++) {
        assertEquals(
            ours.get(f),
            theirs.get(f),
            "DuckDB, " + name + ": row " + r + " field " + schema.fields().get(f).name());
      }
    }
  }
}
