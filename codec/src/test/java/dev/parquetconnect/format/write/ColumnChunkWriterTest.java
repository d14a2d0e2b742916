package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Decoded;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PageEncodingStats;
import dev.parquetconnect.format.meta.PageHeader;
import dev.parquetconnect.format.meta.PageType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The column writer: batches equal value-by-value writes byte for byte; pages close at record
 * starts and hold the row cap; the dictionary falls back mid-chunk or is dropped when it does not
 * pay; the fallback encoding follows the data; misuse is refused and leaves nothing behind.
 */
class ColumnChunkWriterTest {
  @TempDir Path dir;

  static MessageType nestedSchema() {
    return new MessageType(
        "batches",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            NestedTypes.list(
                "tags",
                OPTIONAL,
                PrimitiveNode.of("t", OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING)),
            NestedTypes.list(
                "scores", OPTIONAL, PrimitiveNode.of("s", REQUIRED, PhysicalType.INT32)),
            GroupNode.of(
                "point",
                OPTIONAL,
                List.of(
                    PrimitiveNode.of("x", OPTIONAL, PhysicalType.DOUBLE),
                    PrimitiveNode.of("flag", REQUIRED, PhysicalType.BOOLEAN),
                    PrimitiveNode.fixed("code", OPTIONAL, 4))),
            PrimitiveNode.of("f", OPTIONAL, PhysicalType.FLOAT)));
  }

  static List<Row> nestedRows(MessageType schema, int count) {
    Random random = new Random(12);
    GroupNode point = (GroupNode) schema.root().field(3);
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < count; r++) {
      List<Object> tags = new ArrayList<>();
      for (int i = random.nextInt(4); i > 0; i--) {
        tags.add(
            random.nextInt(5) == 0
                ? null
                : ("tag-" + random.nextInt(40)).getBytes(StandardCharsets.US_ASCII));
      }
      List<Object> scores = new ArrayList<>();
      for (int i = random.nextInt(7); i > 0; i--) {
        scores.add(random.nextInt());
      }
      rows.add(
          Row.of(
              schema.root(),
              (long) r * 3,
              random.nextInt(6) == 0 ? null : tags,
              random.nextInt(6) == 0 ? null : scores,
              random.nextInt(5) == 0
                  ? null
                  : Row.of(
                      point,
                      random.nextBoolean() ? null : random.nextGaussian(),
                      random.nextBoolean(),
                      random.nextBoolean()
                          ? null
                          : ("c" + (100 + random.nextInt(900)))
                              .getBytes(StandardCharsets.US_ASCII)),
              random.nextInt(4) == 0 ? null : random.nextFloat()));
    }
    return rows;
  }

  /** One column's entries as parquet-java read them back, parsed into arrays. */
  private static final class Stream {
    final int[] rep;
    final int[] def;
    final List<String> values = new ArrayList<>();
    final List<Integer> recordStarts = new ArrayList<>();

    Stream(List<String> entries) {
      rep = new int[entries.size()];
      def = new int[entries.size()];
      for (int i = 0; i < entries.size(); i++) {
        String[] parts = entries.get(i).split(",", 3);
        rep[i] = Integer.parseInt(parts[0]);
        def[i] = Integer.parseInt(parts[1]);
        if (parts.length == 3) {
          values.add(parts[2]);
        }
        if (rep[i] == 0) {
          recordStarts.add(i);
        }
      }
      recordStarts.add(entries.size());
    }
  }

  @ParameterizedTest
  @EnumSource(PageVersion.class)
  void batchesWriteTheSameBytesAsValueByValueWrites(PageVersion version) throws Exception {
    MessageType schema = nestedSchema();
    List<Row> rows = nestedRows(schema, 3000);
    WriterOptions options =
        WriterOptions.builder().pageVersion(version).pageRowLimit(97).pageByteLimit(3000).build();
    Path single = WriterMatrix.write(dir.resolve("single.parquet"), schema, rows, options);
    Map<String, List<String>> entries = ParquetJavaLevels.read(single, schema);

    List<Stream> streams = new ArrayList<>();
    for (ColumnDescriptor column : schema.columns()) {
      streams.add(new Stream(entries.get(column.dottedPath())));
    }
    Path batched = dir.resolve("batched.parquet");
    Random random = new Random(3);
    int[] consumed = new int[streams.size()];
    try (OutputStream out = Files.newOutputStream(batched);
        ParquetFileWriter writer = new ParquetFileWriter(out, schema, options)) {
      int record = 0;
      while (record < rows.size()) {
        int k = Math.min(rows.size() - record, 1 + random.nextInt(60));
        for (int c = 0; c < streams.size(); c++) {
          Stream s = streams.get(c);
          int from = s.recordStarts.get(record);
          int to = s.recordStarts.get(record + k);
          // Sub-batches cut anywhere, records split across them included.
          for (int pos = from; pos < to; ) {
            int n = Math.min(to - pos, 1 + random.nextInt(40));
            consumed[c] += writeBatch(writer.column(c), s, consumed[c], pos, n);
            pos += n;
          }
        }
        writer.endRecords(k);
        record += k;
      }
    }
    assertArrayEquals(Files.readAllBytes(single), Files.readAllBytes(batched));
  }

  /** Writes entries [pos, pos + n) of {@code s} as one batch; returns the values taken. */
  private static int writeBatch(ColumnChunkWriter column, Stream s, int valueOff, int pos, int n) {
    int count = 0;
    for (int i = pos; i < pos + n; i++) {
      count += s.def[i] == column.descriptor().maxDefinitionLevel() ? 1 : 0;
    }
    List<String> v = s.values.subList(valueOff, valueOff + count);
    int taken =
        switch (column.descriptor().primitive().type()) {
          case INT64 ->
              column.writeLongs(
                  v.stream().mapToLong(Long::parseLong).toArray(), 0, s.rep, s.def, pos, n);
          case INT32 ->
              column.writeInts(
                  v.stream().mapToInt(Integer::parseInt).toArray(), 0, s.rep, s.def, pos, n);
          case DOUBLE ->
              column.writeDoubles(
                  v.stream()
                      .mapToDouble(x -> Double.longBitsToDouble(Long.parseUnsignedLong(x, 16)))
                      .toArray(),
                  0,
                  s.rep,
                  s.def,
                  pos,
                  n);
          case FLOAT -> {
            float[] floats = new float[count];
            for (int i = 0; i < count; i++) {
              floats[i] = Float.intBitsToFloat(Integer.parseUnsignedInt(v.get(i), 16));
            }
            yield column.writeFloats(floats, 0, s.rep, s.def, pos, n);
          }
          case BOOLEAN -> {
            boolean[] booleans = new boolean[count];
            for (int i = 0; i < count; i++) {
              booleans[i] = Boolean.parseBoolean(v.get(i));
            }
            yield column.writeBooleans(booleans, 0, s.rep, s.def, pos, n);
          }
          default -> {
            BinaryBatch batch = new BinaryBatch();
            for (String x : v) {
              batch.add(x.substring(0, x.lastIndexOf('/')).getBytes(StandardCharsets.US_ASCII));
            }
            yield column.writeBinaries(batch, 0, s.rep, s.def, pos, n);
          }
        };
    assertEquals(count, taken);
    return taken;
  }

  @ParameterizedTest
  @EnumSource(PageVersion.class)
  void pagesHoldTheRowCapAndNeverSplitARecord(PageVersion version) throws Exception {
    MessageType schema = nestedSchema();
    List<Row> rows = nestedRows(schema, 1000);
    Path file =
        WriterMatrix.write(
            dir.resolve("pages.parquet"),
            schema,
            rows,
            WriterOptions.builder().pageVersion(version).pageRowLimit(7).build());
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), "row cap 7");
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      for (var chunk : reader.getRowGroups().get(0).getColumns()) {
        OffsetIndex index = reader.readOffsetIndex(chunk);
        for (int p = 0; p < index.getPageCount(); p++) {
          // Every page but the last holds exactly 7 records: pages start at record starts.
          assertEquals(7L * p, index.getFirstRowIndex(p), chunk.getPath() + " page " + p);
        }
        assertEquals((1000 + 6) / 7, index.getPageCount(), chunk.getPath().toString());
      }
    }
  }

  @Test
  void aRecordLargerThanThePageLimitStaysInOnePage() throws Exception {
    MessageType schema =
        new MessageType(
            "big",
            List.of(
                NestedTypes.list(
                    "l", OPTIONAL, PrimitiveNode.of("e", REQUIRED, PhysicalType.INT64))));
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < 20; r++) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < (r % 5 == 0 ? 500 : 3); i++) {
        values.add((long) i * r);
      }
      rows.add(Row.of(schema.root(), values));
    }
    Path file =
        WriterMatrix.write(
            dir.resolve("big.parquet"),
            schema,
            rows,
            WriterOptions.builder().pageVersion(PageVersion.V2).pageByteLimit(256).build());
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), "large records");
    int pages = 0;
    for (PageHeader header : pageHeaders(file, 0)) {
      if (header.dataPageHeaderV2() != null) {
        pages++;
        assertTrue(header.dataPageHeaderV2().numRows() >= 1);
      }
    }
    assertTrue(pages > 4, "pages " + pages);
  }

  /** The page headers of column {@code column} of the first row group, in file order. */
  static List<PageHeader> pageHeaders(Path file, int column) throws Exception {
    byte[] bytes = Files.readAllBytes(file);
    var meta = FooterReader.read(file).rowGroups().get(0).columns().get(column).metaData();
    long pos =
        meta.dictionaryPageOffset() != null ? meta.dictionaryPageOffset() : meta.dataPageOffset();
    long end = pos + meta.totalCompressedSize();
    List<PageHeader> headers = new ArrayList<>();
    while (pos < end) {
      Decoded<PageHeader> h = MetadataCodec.readPageHeader(bytes, (int) pos, (int) (end - pos));
      headers.add(h.value());
      pos += h.length() + h.value().compressedPageSize();
    }
    return headers;
  }

  private static Encoding dataEncoding(PageHeader h) {
    return h.dataPageHeader() != null
        ? h.dataPageHeader().encoding()
        : h.dataPageHeaderV2().encoding();
  }

  @Test
  void theDictionaryFallsBackMidChunkAndEarlierPagesKeepIt() throws Exception {
    MessageType schema =
        new MessageType("fallback", List.of(PrimitiveNode.of("v", REQUIRED, PhysicalType.INT64)));
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < 1000; r++) {
      // Five values repeat for the first 300 rows, then every value is new.
      rows.add(Row.of(schema.root(), r < 300 ? (long) (r % 5) * 1_000_003 : r * 7_919L));
    }
    Path file =
        WriterMatrix.write(
            dir.resolve("fallback.parquet"),
            schema,
            rows,
            WriterOptions.builder().pageRowLimit(100).dictionaryByteLimit(400).build());
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), "fallback");
    List<PageHeader> headers = pageHeaders(file, 0);
    assertEquals(PageType.DICTIONARY_PAGE, headers.get(0).type());
    List<Encoding> encodings = new ArrayList<>();
    for (PageHeader h : headers.subList(1, headers.size())) {
      encodings.add(dataEncoding(h));
    }
    int firstFallback = encodings.indexOf(Encoding.DELTA_BINARY_PACKED);
    assertTrue(firstFallback > 0, encodings.toString());
    assertTrue(
        encodings.subList(0, firstFallback).stream().allMatch(Encoding::usesDictionary),
        encodings.toString());
    assertTrue(
        encodings.subList(firstFallback, encodings.size()).stream()
            .noneMatch(Encoding::usesDictionary),
        encodings.toString());
    List<PageEncodingStats> stats =
        FooterReader.read(file).rowGroups().get(0).columns().get(0).metaData().encodingStats();
    assertEquals(
        new PageEncodingStats(PageType.DICTIONARY_PAGE, Encoding.PLAIN_DICTIONARY, 1),
        stats.get(0));
  }

  @Test
  void aDictionaryThatDoesNotPayIsDropped() throws Exception {
    MessageType schema =
        new MessageType("unique", List.of(PrimitiveNode.of("v", REQUIRED, PhysicalType.INT64)));
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < 1000; r++) {
      rows.add(Row.of(schema.root(), r * 31L));
    }
    Path file =
        WriterMatrix.write(dir.resolve("unique.parquet"), schema, rows, WriterOptions.defaults());
    ColumnChunk chunk = FooterReader.read(file).rowGroups().get(0).columns().get(0);
    assertNull(chunk.metaData().dictionaryPageOffset());
    assertEquals(
        List.of(Encoding.DELTA_BINARY_PACKED),
        FooterReader.dataPageEncodings(FooterReader.read(file)).stream().toList());
  }

  static MessageType adaptiveSchema() {
    return new MessageType(
        "adaptive",
        List.of(
            PrimitiveNode.of("sorted", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("random", REQUIRED, PhysicalType.INT32),
            PrimitiveNode.of("url", REQUIRED, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.of("walk", REQUIRED, PhysicalType.DOUBLE),
            PrimitiveNode.of("flag", REQUIRED, PhysicalType.BOOLEAN),
            PrimitiveNode.fixed("money", REQUIRED, 8)
                .withLogicalType(new LogicalType.DecimalType(2, 18))));
  }

  static List<Row> adaptiveRows(MessageType schema) {
    Random random = new Random(21);
    List<Row> rows = new ArrayList<>();
    double walk = 20;
    for (int r = 0; r < 5000; r++) {
      walk += random.nextGaussian() * 0.01;
      byte[] money = new byte[8];
      random.nextBytes(money);
      rows.add(
          Row.of(
              schema.root(),
              1_700_000_000_000L + r * 1000L + random.nextInt(10),
              random.nextInt(),
              ("https://example.com/catalog/items/" + (100_000 + r))
                  .getBytes(StandardCharsets.UTF_8),
              walk,
              random.nextBoolean(),
              money));
    }
    return rows;
  }

  private Map<String, Encoding> encodingsByColumn(WriterOptions options) throws Exception {
    MessageType schema = adaptiveSchema();
    List<Row> rows = adaptiveRows(schema);
    Path file = WriterMatrix.write(dir.resolve("adaptive.parquet"), schema, rows, options);
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), "adaptive");
    try (DuckDbOracle duckdb = new DuckDbOracle()) {
      // DuckDB too reads every layout chosen (delta blocks of 128, 1024 or 4096 values).
      WriterMatrix.assertSameAsDuckDb(duckdb, rows, file, schema, "adaptive");
    }
    FileMetaData footer = FooterReader.read(file);
    Map<String, Encoding> out = new java.util.LinkedHashMap<>();
    for (ColumnChunk chunk : footer.rowGroups().get(0).columns()) {
      List<PageEncodingStats> stats = chunk.metaData().encodingStats();
      assertEquals(1, stats.size(), chunk.metaData().pathInSchema() + ": " + stats);
      out.put(chunk.metaData().pathInSchema().get(0), stats.get(0).encoding());
    }
    return out;
  }

  @Test
  void theFallbackEncodingFollowsTheData() throws Exception {
    WriterOptions adaptive = WriterOptions.builder().dictionary(false).build();
    assertEquals(
        Map.of(
            "sorted", Encoding.DELTA_BINARY_PACKED,
            "random", Encoding.PLAIN,
            "url", Encoding.DELTA_BYTE_ARRAY,
            "walk", Encoding.PLAIN,
            "flag", Encoding.PLAIN,
            "money", Encoding.PLAIN),
        encodingsByColumn(adaptive));
    // BYTE_STREAM_SPLIT, which Spark's vectorized reader before 4.1 and Trino refuse, only when
    // asked for: the extended policy (or a column override).
    Map<String, Encoding> extended =
        encodingsByColumn(adaptive.toBuilder().encodingPolicy(EncodingPolicy.EXTENDED).build());
    assertEquals(Encoding.BYTE_STREAM_SPLIT, extended.get("walk"));
    assertEquals(Encoding.DELTA_BINARY_PACKED, extended.get("sorted"));
    Map<String, Encoding> v2 =
        encodingsByColumn(adaptive.toBuilder().pageVersion(PageVersion.V2).build());
    assertEquals(Encoding.RLE, v2.get("flag"));
    Map<String, Encoding> uncompressed =
        encodingsByColumn(
            adaptive.toBuilder()
                .encodingPolicy(EncodingPolicy.EXTENDED)
                .codec(CompressionCodec.UNCOMPRESSED)
                .build());
    assertEquals(Encoding.PLAIN, uncompressed.get("walk"), "no byte stream split uncompressed");
    Map<String, Encoding> compatible =
        encodingsByColumn(
            adaptive.toBuilder()
                .encodingPolicy(EncodingPolicy.COMPATIBLE)
                .pageVersion(PageVersion.V2)
                .build());
    assertTrue(
        compatible.values().stream().allMatch(e -> e == Encoding.PLAIN), compatible.toString());
    Map<String, Encoding> overridden =
        encodingsByColumn(
            adaptive.toBuilder().columnEncoding("random", Encoding.DELTA_BINARY_PACKED).build());
    assertEquals(Encoding.DELTA_BINARY_PACKED, overridden.get("random"));
  }

  @Test
  void misuseIsRefusedAndLeavesNothingBehind() throws Exception {
    MessageType schema = nestedSchema();
    Path file = dir.resolve("misuse.parquet");
    try (ParquetFileWriter writer =
        new ParquetFileWriter(Files.newOutputStream(file), schema, WriterOptions.defaults())) {
      ColumnChunkWriter id = writer.column("id");
      ColumnChunkWriter tags = writer.column("tags.list.element");
      ColumnChunkWriter code = writer.column("point.code");
      assertThrows(IllegalArgumentException.class, () -> id.writeInt(1, 0, 0));
      assertThrows(IllegalArgumentException.class, () -> id.writeNull(0, 0));
      assertThrows(IllegalArgumentException.class, () -> id.writeLong(1, 1, 0));
      assertThrows(IllegalArgumentException.class, () -> tags.writeBinary(new byte[1], 1, 3));
      assertThrows(IllegalArgumentException.class, () -> tags.writeBinary(new byte[1], 0, 2));
      assertThrows(IllegalArgumentException.class, () -> tags.writeNull(0, 3));
      assertThrows(IllegalArgumentException.class, () -> code.writeBinary(new byte[3], 0, 2));
      assertThrows(
          IllegalArgumentException.class,
          () -> tags.writeBinaries(new BinaryBatch(), 0, new int[] {0}, new int[] {9}, 0, 1));
      assertThrows(
          IllegalArgumentException.class,
          () -> tags.writeBinaries(new BinaryBatch(), 0, new int[] {1}, new int[] {1}, 0, 1));
      id.writeLong(7, 0, 0);
      tags.writeBinary("x".getBytes(StandardCharsets.UTF_8), 0, 3);
      // Repeating the list (rep 1) with the list itself undefined (def 1 < 2) cannot assemble.
      assertThrows(IllegalArgumentException.class, () -> tags.writeNull(1, 1));
      assertThrows(
          IllegalArgumentException.class,
          () -> tags.writeBinaries(new BinaryBatch(), 0, new int[] {1}, new int[] {1}, 0, 1));
      writer.column("scores.list.element").writeNull(0, 0);
      writer.column("point.x").writeNull(0, 0);
      writer.column("point.flag").writeNull(0, 0);
      code.writeNull(0, 0);
      writer.column("f").writeNull(0, 0);
      writer.endRecord();
    }
    List<Row> back = ParquetJavaOracle.read(file, schema);
    assertEquals(1, back.size());
    assertEquals(7L, back.get(0).get("id"));
    assertNotNull(back.get(0).get("tags"));
  }
}
