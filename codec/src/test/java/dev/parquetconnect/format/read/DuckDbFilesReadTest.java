package dev.parquetconnect.format.read;

import static dev.parquetconnect.format.read.ReadAssertions.assertSameRows;
import static dev.parquetconnect.format.read.ReadAssertions.readAll;
import static dev.parquetconnect.format.read.ReadAssertions.schemaOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.oracle.DuckDbRowOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Files written by DuckDB ({@code COPY ... (FORMAT parquet, COMPRESSION ..., PARQUET_VERSION ...,
 * ROW_GROUP_SIZE ...)}) with integers of every width and sign, floats, strings, blobs, decimals,
 * dates, times, timestamps of three units, UUID, INTERVAL, JSON, and nested lists, lists of
 * structs, structs, maps of lists and three levels of nesting: our rows must equal parquet-java's
 * reading of the same file. parquet-java has no Brotli codec here, so a Brotli file is compared
 * with parquet-java's reading of its uncompressed twin (same query).
 */
class DuckDbFilesReadTest {
  static final String SELECT =
      "SELECT i::BIGINT AS id,"
          + " CASE WHEN i % 7 = 0 THEN NULL ELSE i % 2 = 0 END AS flag,"
          + " (i % 200 - 100)::TINYINT AS i8, (i % 250)::UTINYINT AS u8,"
          + " (i % 30000 - 15000)::SMALLINT AS i16, (i % 60000)::USMALLINT AS u16,"
          + " (i * 7919 % 2000000000)::INTEGER AS i32, (i * 65537)::UINTEGER AS u32,"
          + " (hash(i) % 1000000000000)::BIGINT AS i64, hash(i) AS u64,"
          + " CASE WHEN i % 11 = 0 THEN NULL ELSE (i / 7.0)::FLOAT END AS f32, (i / 3.0)::DOUBLE AS f64,"
          + " CASE WHEN i % 5 = 0 THEN NULL ELSE 'str' || (i % 50) END AS s, ('blob' || i)::BLOB AS b,"
          + " (i * 1.25)::DECIMAL(9,2) AS d9, (i * 1.125)::DECIMAL(18,3) AS d18,"
          + " (i * 1.5)::DECIMAL(38,10) AS d38,"
          + " DATE '2020-01-01' + (i % 1000)::INTEGER AS d, TIME '01:02:03' + INTERVAL (i % 3600) SECOND AS t,"
          + " TIMESTAMP '2020-01-01' + INTERVAL (i) MINUTE AS ts,"
          + " (TIMESTAMP '2020-01-01' + INTERVAL (i) MINUTE)::TIMESTAMPTZ AS tstz,"
          + " (TIMESTAMP '2020-01-01' + INTERVAL (i) MINUTE)::TIMESTAMP_NS AS tsns,"
          + " (TIMESTAMP '2020-01-01' + INTERVAL (i) SECOND)::TIMESTAMP_MS AS tsms,"
          + " md5(i::VARCHAR)::UUID AS u, INTERVAL (i) DAY AS iv,"
          + " (i % 3)::VARCHAR::ENUM('0','1','2') AS e, ('{\"a\":' || i || '}')::JSON AS j,"
          + " CASE WHEN i % 4 = 0 THEN NULL ELSE [i, NULL, i + 1] END AS l,"
          + " CASE WHEN i % 6 = 0 THEN [] ELSE [{'x': i, 'y': 'y' || i}, NULL] END AS ls,"
          + " {'a': i, 'b': CASE WHEN i % 3 = 0 THEN NULL ELSE 'b' || i END, 'c': [i, i]} AS st,"
          + " MAP(['k' || i, 'z'], [[i::INTEGER], CASE WHEN i % 2 = 0 THEN NULL ELSE []::INTEGER[] END]) AS m,"
          + " [[{'p': [i, NULL]}, NULL], []] AS deep, [1.5::DOUBLE, 2.5][1:i%3] AS arr"
          + " FROM range(5000) t(i)";

  @TempDir Path dir;

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
    "uncompressed, V1",
    "snappy, V1",
    "snappy, V2",
    "gzip, V2",
    "zstd, V1",
    "zstd, V2",
    "lz4_raw, V2",
    "brotli, V1",
    "brotli, V2"
  })
  void readsWhatDuckDbWrote(String codec, String version) throws Exception {
    Path file = dir.resolve(codec + version + ".parquet");
    DuckDbRowOracle.copy(
        SELECT,
        file,
        "FORMAT parquet, COMPRESSION "
            + codec
            + ", PARQUET_VERSION "
            + version
            + ", ROW_GROUP_SIZE 2048");
    Path readable = file;
    if (codec.equals("brotli")) {
      readable = dir.resolve("twin" + version + ".parquet");
      DuckDbRowOracle.copy(
          SELECT,
          readable,
          "FORMAT parquet, COMPRESSION uncompressed"
              + ", PARQUET_VERSION "
              + version
              + ", ROW_GROUP_SIZE 2048");
    }
    MessageType schema = schemaOf(file);
    List<Row> ours = readAll(file);
    assertSameRows(
        ParquetJavaOracle.read(readable, schema),
        ours,
        "DuckDB " + codec + " " + version + ": ours vs parquet-java");
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      assertTrue(reader.rowGroups().size() > 1, "several row groups expected");
      ColumnChunk first = reader.rowGroups().get(0).columns().get(0);
      CompressionCodec expected =
          switch (codec) {
            case "lz4_raw" -> CompressionCodec.LZ4_RAW;
            default -> CompressionCodec.valueOf(codec.toUpperCase(java.util.Locale.ROOT));
          };
      assertTrue(first.metaData().codec() == expected, "codec " + first.metaData().codec());
    }
  }

  /** DuckDB's own reading agrees too, on the columns whose physical bytes it gives back. */
  @Test
  void duckDbReadsTheSameNestedValues() throws Exception {
    Path file = dir.resolve("nested.parquet");
    String select =
        "SELECT id, i8, u8, u32, u64, f32, s, b, u, l, ls, st, m, deep, arr"
            + " FROM ("
            + SELECT
            + ")";
    DuckDbRowOracle.copy(select, file, "FORMAT parquet, COMPRESSION zstd, PARQUET_VERSION V2");
    MessageType schema = schemaOf(file);
    assertSameRows(DuckDbRowOracle.read(file, schema), readAll(file), "ours vs DuckDB");
  }
}
