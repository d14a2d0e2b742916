package dev.parquetconnect.format.read;

import static dev.parquetconnect.format.read.ReadAssertions.assertSameRows;
import static dev.parquetconnect.format.read.ReadAssertions.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.oracle.ParquetJavaFeatureWriter;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files written by parquet-java (v1 and v2 writers, dictionary on and off, every codec it can write
 * here, byte-stream-split, bloom filters, page checksums, page index, dictionary fallback) with
 * every physical and logical type and nested structs, lists, maps and three levels of nesting: our
 * reader must return the rows that were written, and the rows parquet-java itself reads back.
 */
class ParquetJavaFilesReadTest {
  private static final MessageType SCHEMA = ReadTestData.schema();
  private static List<Row> rows;

  @TempDir Path dir;

  @BeforeAll
  static void generate() {
    rows = ReadTestData.rows(SCHEMA, 1000, 42);
  }

  static Stream<Arguments> matrix() {
    Stream.Builder<Arguments> out = Stream.builder();
    for (WriterVersion version : WriterVersion.values()) {
      for (boolean dictionary : new boolean[] {true, false}) {
        for (CompressionCodecName codec :
            List.of(
                CompressionCodecName.UNCOMPRESSED,
                CompressionCodecName.SNAPPY,
                CompressionCodecName.GZIP,
                CompressionCodecName.ZSTD,
                CompressionCodecName.LZ4,
                CompressionCodecName.LZ4_RAW)) {
          out.add(Arguments.of(version, dictionary, codec));
        }
      }
    }
    return out.build();
  }

  @ParameterizedTest(name = "{0} dictionary={1} {2}")
  @MethodSource("matrix")
  void readsWhatParquetJavaWrote(
      WriterVersion version, boolean dictionary, CompressionCodecName codec) throws Exception {
    Path file = dir.resolve("pj.parquet");
    // Small pages and row groups: many pages per chunk, several row groups per file.
    ParquetJavaOracle.write(
        file,
        SCHEMA,
        rows,
        new ParquetJavaOracle.WriteOptions(codec, dictionary, version, 4096, 96 * 1024));
    checkAgainstWrittenAndParquetJava(file, version + " " + dictionary + " " + codec);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      assertTrue(reader.rowGroups().size() > 1, "several row groups expected");
    }
  }

  @Test
  void byteStreamSplitFloatsDoublesAndIntegers() throws Exception {
    Set<Encoding> seen =
        writeAndCheck(
            "byte-stream-split",
            b ->
                b.withWriterVersion(WriterVersion.PARQUET_2_0)
                    .withDictionaryEncoding(false)
                    .withByteStreamSplitEncoding(true)
                    .withCompressionCodec(CompressionCodecName.ZSTD));
    assertTrue(seen.contains(Encoding.BYTE_STREAM_SPLIT), "encodings " + seen);
  }

  @Test
  void bloomFiltersPageIndexAndChecksums() throws Exception {
    Path file = dir.resolve("bloom.parquet");
    ParquetJavaFeatureWriter.write(
        file,
        SCHEMA,
        rows,
        b ->
            b.withBloomFilterEnabled(true)
                .withPageWriteChecksumEnabled(true)
                .withPageSize(2048)
                .withCompressionCodec(CompressionCodecName.SNAPPY));
    checkAgainstWrittenAndParquetJava(file, "bloom + page index + CRC");
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      ColumnChunk chunk = reader.rowGroups().get(0).columns().get(0);
      assertTrue(chunk.metaData().bloomFilterOffset() != null, "bloom filter written");
      assertTrue(
          chunk.columnIndexOffset() != null && chunk.offsetIndexOffset() != null,
          "page index written");
    }
  }

  @Test
  void dictionaryFallbackAndPageRowLimits() throws Exception {
    for (WriterVersion version : WriterVersion.values()) {
      Set<Encoding> seen =
          writeAndCheck(
              "fallback " + version,
              b ->
                  b.withWriterVersion(version)
                      .withDictionaryPageSize(256)
                      .withPageRowCountLimit(37)
                      .withCompressionCodec(CompressionCodecName.GZIP));
      assertTrue(
          seen.contains(Encoding.PLAIN_DICTIONARY) || seen.contains(Encoding.RLE_DICTIONARY),
          "some dictionary pages expected: " + seen);
    }
  }

  @Test
  void deltaEncodingsOfTheV2Writer() throws Exception {
    Set<Encoding> seen =
        writeAndCheck(
            "v2 delta",
            b ->
                b.withWriterVersion(WriterVersion.PARQUET_2_0)
                    .withDictionaryEncoding(false)
                    .withCompressionCodec(CompressionCodecName.UNCOMPRESSED));
    assertTrue(
        seen.containsAll(List.of(Encoding.DELTA_BINARY_PACKED, Encoding.DELTA_BYTE_ARRAY)),
        "encodings " + seen);
  }

  @Test
  void projectionsReadTheChosenColumnsOnly() throws Exception {
    Path file = dir.resolve("projection.parquet");
    ParquetJavaOracle.write(file, SCHEMA, rows, ParquetJavaOracle.WriteOptions.defaults());
    List<Row> all = readAll(file);
    for (List<String> paths :
        List.of(
            List.of("id"),
            List.of("deep"),
            List.of("m.key_value.value"),
            List.of("ls.list.element.y", "rep_group.q"),
            List.of("s.b", "l", "req.r2"))) {
      try (LocalFileInput input = new LocalFileInput(file);
          ParquetFileReader reader = ParquetFileReader.open(input);
          RowReader projected = reader.rowReader(reader.projection(paths))) {
        MessageType schema = projected.schema();
        int i = 0;
        while (projected.hasNext()) {
          Row row = projected.next();
          assertEquals(ProjectionTest.prune(all.get(i), schema.root()), row, paths + " row " + i);
          i++;
        }
        assertEquals(all.size(), i);
      }
    }
  }

  private Set<Encoding> writeAndCheck(String what, Consumer<ExampleParquetWriter.Builder> setup)
      throws Exception {
    Path file = dir.resolve(what.replace(' ', '_') + ".parquet");
    ParquetJavaFeatureWriter.write(file, SCHEMA, rows, setup);
    checkAgainstWrittenAndParquetJava(file, what);
    Set<Encoding> encodings = EnumSet.noneOf(Encoding.class);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      for (RowGroup rowGroup : reader.rowGroups()) {
        for (ColumnChunk chunk : rowGroup.columns()) {
          encodings.addAll(chunk.metaData().encodings());
        }
      }
    }
    return encodings;
  }

  private static void checkAgainstWrittenAndParquetJava(Path file, String what) throws Exception {
    List<Row> ours = readAll(file);
    assertSameRows(rows, ours, what + ": ours vs written");
    assertSameRows(ParquetJavaOracle.read(file, SCHEMA), ours, what + ": ours vs parquet-java");
  }
}
