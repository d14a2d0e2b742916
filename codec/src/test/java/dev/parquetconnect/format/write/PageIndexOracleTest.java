package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.BoundaryOrder;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Statistics and page indexes, judged by parquet-java: its ParquetFileReader reads our column and
 * offset indexes, chunk statistics, page header statistics and size statistics, and they must equal
 * what parquet-java computes from the values of each page (found independently by {@link
 * LeafValues}, pages located through the offset index). Its filtering reader, pruning row groups
 * and pages with them, must return exactly the matching rows.
 */
class PageIndexOracleTest {
  private static final int ROWS = 1200;

  @TempDir Path dir;

  static MessageType schema() {
    return new MessageType(
        "stats",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("down", OPTIONAL, PhysicalType.INT32),
            leaf("u32", PhysicalType.INT32, new LogicalType.IntType((byte) 32, false)),
            leaf("u64", PhysicalType.INT64, new LogicalType.IntType((byte) 64, false)),
            PrimitiveNode.of("f", OPTIONAL, PhysicalType.FLOAT),
            PrimitiveNode.of("d", OPTIONAL, PhysicalType.DOUBLE),
            leaf("s", PhysicalType.BYTE_ARRAY, LogicalType.STRING),
            PrimitiveNode.of("raw", OPTIONAL, PhysicalType.BYTE_ARRAY),
            PrimitiveNode.fixed("uuid", OPTIONAL, 16).withLogicalType(LogicalType.UUID),
            PrimitiveNode.fixed("dec", OPTIONAL, 9)
                .withLogicalType(new LogicalType.DecimalType(2, 20)),
            leaf("decb", PhysicalType.BYTE_ARRAY, new LogicalType.DecimalType(3, 30)),
            PrimitiveNode.fixed("half", OPTIONAL, 2).withLogicalType(LogicalType.FLOAT16),
            PrimitiveNode.of("b", OPTIONAL, PhysicalType.BOOLEAN),
            leaf("day", PhysicalType.INT32, LogicalType.DATE),
            leaf("ts", PhysicalType.INT64, new LogicalType.TimestampType(true, TimeUnit.MICROS)),
            NestedTypes.list("l", OPTIONAL, PrimitiveNode.of("e", OPTIONAL, PhysicalType.INT32)),
            NestedTypes.map(
                "m",
                OPTIONAL,
                leaf("k", PhysicalType.BYTE_ARRAY, LogicalType.STRING),
                PrimitiveNode.of("v", OPTIONAL, PhysicalType.DOUBLE))));
  }

  private static PrimitiveNode leaf(String name, PhysicalType type, LogicalType logical) {
    return PrimitiveNode.of(name, OPTIONAL, type).withLogicalType(logical);
  }

  /**
   * Rows with a sorted id (ascending pages), a descending column with a run of nulls (all-null
   * pages), and random values with extremes, NaN and both zeros elsewhere.
   */
  static List<Row> rows(MessageType schema) {
    Random random = new Random(17);
    List<Row> rows = new ArrayList<>(ROWS);
    float[] floats = {Float.NaN, -0.0f, 0.0f, Float.MAX_VALUE, -Float.MIN_VALUE, 1.5f};
    String[] words = {"", "apple", "Äpfel", "zebra", "😀", "m", "mango"};
    for (int i = 0; i < ROWS; i++) {
      Map<Object, Object> map = new LinkedHashMap<>();
      for (int k = 0; k < i % 3; k++) {
        map.put(
            ("key" + k).getBytes(StandardCharsets.UTF_8),
            k == 1 ? null : random.nextBoolean() ? -0.0 : random.nextGaussian());
      }
      List<Object> list = new ArrayList<>();
      for (int k = 0; k < i % 4; k++) {
        list.add(k == 2 ? null : random.nextInt(100) - 50);
      }
      byte[] uuid = new byte[16];
      random.nextBytes(uuid);
      byte[] dec = new byte[9];
      random.nextBytes(dec);
      rows.add(
          Row.of(
              schema.root(),
              (long) i,
              i >= 200 && i < 350 ? null : ROWS - i,
              random.nextInt(),
              random.nextLong(),
              random.nextInt(5) == 0
                  ? floats[random.nextInt(floats.length)]
                  : (float) random.nextGaussian(),
              i % 7 == 0 ? null : random.nextInt(9) == 0 ? Double.NaN : random.nextGaussian(),
              i % 5 == 0
                  ? null
                  : (words[random.nextInt(words.length)] + i).getBytes(StandardCharsets.UTF_8),
              new byte[] {(byte) random.nextInt(256), (byte) 0xFF, (byte) i},
              i % 3 == 0 ? null : uuid,
              dec,
              BigInteger.valueOf(random.nextLong())
                  .multiply(BigInteger.valueOf(i - 600))
                  .toByteArray(),
              random.nextInt(6) == 0
                  ? new byte[] {0, (byte) 0x80}
                  : new byte[] {(byte) random.nextInt(256), (byte) random.nextInt(0x7C)},
              i % 11 == 0 ? null : random.nextBoolean(),
              18_000 + random.nextInt(1000),
              1_700_000_000_000_000L + random.nextInt(1_000_000),
              i % 9 == 0 ? null : list,
              i % 8 == 0 ? null : map));
    }
    return rows;
  }

  private Path write(List<Row> rows, MessageType schema, WriterOptions options) throws Exception {
    Path file = dir.resolve("stats-" + options.pageVersion() + ".parquet");
    return WriterMatrix.write(file, schema, rows, options);
  }

  private static WriterOptions options(PageVersion version) {
    return WriterOptions.builder()
        .pageVersion(version)
        .pageRowLimit(50)
        .rowGroupRowLimit(500)
        .pageHeaderStatistics(true)
        .build();
  }

  @ParameterizedTest
  @EnumSource(PageVersion.class)
  void indexesAndStatisticsMatchWhatParquetJavaComputes(PageVersion version) throws Exception {
    MessageType schema = schema();
    List<Row> rows = rows(schema);
    Path file = write(rows, schema, options(version));
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      int firstRow = 0;
      for (int g = 0; g < reader.getRowGroups().size(); g++) {
        BlockMetaData block = reader.getRowGroups().get(g);
        List<Row> groupRows = rows.subList(firstRow, firstRow + (int) block.getRowCount());
        PageReadStore pages = reader.readRowGroup(g);
        for (ColumnDescriptor column : schema.columns()) {
          ColumnChunkMetaData chunk = block.getColumns().get(column.index());
          checkChunk(reader, file, pages, schema, column, chunk, groupRows, version);
        }
        firstRow += (int) block.getRowCount();
      }
      assertEquals(ROWS, firstRow);
    }
  }

  private static void checkChunk(
      ParquetFileReader reader,
      Path file,
      PageReadStore pages,
      MessageType schema,
      ColumnDescriptor column,
      ColumnChunkMetaData chunk,
      List<Row> groupRows,
      PageVersion version)
      throws Exception {
    String where = column.dottedPath() + " in row group at " + chunk.getStartingPos();
    PrimitiveNode node = column.primitive();
    PrimitiveType type = ParquetJavaStatistics.type(schema, column);

    LeafValues all = LeafValues.of(groupRows, schema, column);
    Statistics<?> expectedChunk = ParquetJavaStatistics.of(type, node, all.values, all.nulls);
    assertStatistics(expectedChunk, chunk.getStatistics(), node, where);

    OffsetIndex offsets = reader.readOffsetIndex(chunk);
    assertNotNull(offsets, where + ": offset index");
    ColumnIndex index = reader.readColumnIndex(chunk);
    boolean nan =
        ParquetJavaStatistics.hasNaN(
            all.values, node.logicalType() instanceof LogicalType.Float16Type);
    if (nan) {
      // Readers without nan_count would skip NaN on a column index's bounds: none is written.
      assertNull(index, where + ": a column index for a chunk holding NaN");
    } else {
      assertNotNull(index, where + ": column index");
    }
    checkOffsetIndex(file, chunk, offsets, groupRows.size(), version, where);

    PageReader pageReader =
        pages.getPageReader(
            ParquetJavaOracle.toParquetJava(schema)
                .getColumnDescription(column.path().toArray(new String[0])));
    List<Statistics<?>> expectedPages = new ArrayList<>();
    long pageNulls = 0;
    for (int p = 0; p < offsets.getPageCount(); p++) {
      int from = (int) offsets.getFirstRowIndex(p);
      int to =
          p + 1 < offsets.getPageCount() ? (int) offsets.getFirstRowIndex(p + 1) : groupRows.size();
      LeafValues page = LeafValues.of(groupRows.subList(from, to), schema, column);
      Statistics<?> expected = ParquetJavaStatistics.of(type, node, page.values, page.nulls);
      expectedPages.add(expected);
      String pageWhere = where + ", page " + p;

      if (index != null) {
        assertEquals(page.values.isEmpty(), index.getNullPages().get(p), pageWhere + ": null page");
        assertEquals(page.nulls, index.getNullCounts().get(p), pageWhere + ": null count");
      }
      if (index != null && !page.values.isEmpty()) {
        assertArrayEquals(
            ParquetJavaStatistics.min(expected, node),
            bytes(index.getMinValues().get(p)),
            pageWhere + ": min");
        assertArrayEquals(
            ParquetJavaStatistics.max(expected, node),
            bytes(index.getMaxValues().get(p)),
            pageWhere + ": max");
      }
      DataPage data = pageReader.readPage();
      assertNotNull(data, pageWhere + ": parquet-java finds fewer pages than the index");
      assertEquals(page.values.size() + page.nulls, data.getValueCount(), pageWhere);
      if (data instanceof DataPageV2 v2) {
        assertEquals(to - from, v2.getRowCount(), pageWhere + ": rows");
        assertEquals(page.nulls, v2.getNullCount(), pageWhere + ": nulls");
        assertStatistics(expected, v2.getStatistics(), node, pageWhere + " header");
      } else {
        assertStatistics(
            expected,
            ((org.apache.parquet.column.page.DataPageV1) data).getStatistics(),
            node,
            pageWhere + " header");
      }
      pageNulls += page.nulls;
    }
    assertNull(pageReader.readPage(), where + ": parquet-java finds more pages than the index");
    assertEquals(all.nulls, pageNulls, where);
    if (index != null) {
      assertEquals(expectedBoundaryOrder(expectedPages), index.getBoundaryOrder(), where);
    }

    if (node.type() == PhysicalType.BYTE_ARRAY) {
      long bytes = 0;
      for (Object v : all.values) {
        bytes += ((byte[]) v).length;
      }
      assertEquals(
          bytes,
          chunk.getSizeStatistics().getUnencodedByteArrayDataBytes().orElseThrow(),
          where + ": unencoded bytes");
    }
    if (column.maxRepetitionLevel() > 0) {
      List<Long> histogram = chunk.getSizeStatistics().getRepetitionLevelHistogram();
      assertEquals(groupRows.size(), histogram.get(0), where + ": records in the histogram");
      assertEquals(all.values.size() + all.nulls, sum(histogram), where);
    }
    if (column.maxDefinitionLevel() > 1) {
      List<Long> histogram = chunk.getSizeStatistics().getDefinitionLevelHistogram();
      assertEquals(
          all.values.size(), histogram.get(column.maxDefinitionLevel()), where + ": values");
      assertEquals(all.values.size() + all.nulls, sum(histogram), where);
    }
  }

  private static long sum(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).sum();
  }

  /** parquet-java's reading of our statistics equals what it computes itself. */
  private static void assertStatistics(
      Statistics<?> expected, Statistics<?> actual, PrimitiveNode node, String where) {
    assertEquals(expected.getNumNulls(), actual.getNumNulls(), where + ": nulls");
    assertEquals(expected.hasNonNullValue(), actual.hasNonNullValue(), where + ": has min/max");
    if (expected.hasNonNullValue()) {
      assertArrayEquals(
          ParquetJavaStatistics.min(expected, node), actual.getMinBytes(), where + ": min");
      assertArrayEquals(
          ParquetJavaStatistics.max(expected, node), actual.getMaxBytes(), where + ": max");
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static BoundaryOrder expectedBoundaryOrder(List<Statistics<?>> pages) {
    boolean ascending = true;
    boolean descending = true;
    Statistics previous = null;
    for (Statistics page : pages) {
      if (!page.hasNonNullValue()) {
        continue;
      }
      if (previous != null) {
        PrimitiveComparator comparator = page.comparator();
        int byMin = comparator.compare(previous.genericGetMin(), page.genericGetMin());
        int byMax = comparator.compare(previous.genericGetMax(), page.genericGetMax());
        ascending &= byMin <= 0 && byMax <= 0;
        descending &= byMin >= 0 && byMax >= 0;
      }
      previous = page;
    }
    return ascending
        ? BoundaryOrder.ASCENDING
        : descending ? BoundaryOrder.DESCENDING : BoundaryOrder.UNORDERED;
  }

  /** Every offset index entry points at a data page parquet-java reads, back to back. */
  private static void checkOffsetIndex(
      Path file,
      ColumnChunkMetaData chunk,
      OffsetIndex offsets,
      int rows,
      PageVersion version,
      String where)
      throws Exception {
    assertEquals(chunk.getFirstDataPageOffset(), offsets.getOffset(0), where);
    assertEquals(0, offsets.getFirstRowIndex(0), where);
    long end = chunk.getStartingPos() + chunk.getTotalSize();
    try (InputStream in = Files.newInputStream(file)) {
      long position = 0;
      for (int p = 0; p < offsets.getPageCount(); p++) {
        long offset = offsets.getOffset(p);
        in.skipNBytes(offset - position);
        CountingStream counting = new CountingStream(in);
        PageHeader header = Util.readPageHeader(counting);
        assertEquals(
            offsets.getCompressedPageSize(p),
            counting.count + header.getCompressed_page_size(),
            where + ", page " + p + ": size");
        assertTrue(header.isSetData_page_header() || header.isSetData_page_header_v2(), where);
        assertEquals(version == PageVersion.V2, header.isSetData_page_header_v2(), where);
        assertTrue(header.isSetCrc(), where + ": page CRC");
        in.skipNBytes(header.getCompressed_page_size());
        position = offset + offsets.getCompressedPageSize(p);
        long next = p + 1 < offsets.getPageCount() ? offsets.getOffset(p + 1) : end;
        assertEquals(next, position, where + ": pages are not back to back");
        if (p > 0) {
          assertTrue(offsets.getFirstRowIndex(p) > offsets.getFirstRowIndex(p - 1), where);
        }
      }
    }
    assertTrue(offsets.getFirstRowIndex(offsets.getPageCount() - 1) < rows, where);
  }

  /** Counts the bytes a page header takes. */
  private static final class CountingStream extends java.io.FilterInputStream {
    long count;

    CountingStream(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws java.io.IOException {
      int b = super.read();
      count += b < 0 ? 0 : 1;
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws java.io.IOException {
      int n = super.read(b, off, len);
      count += Math.max(0, n);
      return n;
    }
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] b = new byte[buffer.remaining()];
    buffer.duplicate().get(b);
    return b;
  }

  @Test
  void parquetJavaFiltersWithOurIndexesLoseNoRow() throws Exception {
    MessageType schema = schema();
    List<Row> rows = rows(schema);
    Path file = write(rows, schema, options(PageVersion.V1));
    check(
        file,
        schema,
        rows,
        FilterApi.eq(FilterApi.longColumn("id"), 777L),
        r -> (Long) r.get("id") == 777L);
    check(
        file,
        schema,
        rows,
        FilterApi.lt(FilterApi.intColumn("down"), 100),
        r -> r.get("down") != null && (Integer) r.get("down") < 100);
    check(
        file,
        schema,
        rows,
        FilterApi.gtEq(FilterApi.binaryColumn("s"), Binary.fromString("zebra")),
        r ->
            r.get("s") != null
                && Arrays.compareUnsigned(
                        (byte[]) r.get("s"), "zebra".getBytes(StandardCharsets.UTF_8))
                    >= 0);
    // parquet-java's record filter orders NaN above every number (Float.compare): pages whose
    // bounds leave NaN out must still be read for it.
    check(
        file,
        schema,
        rows,
        FilterApi.gt(FilterApi.floatColumn("f"), 1.0f),
        r -> r.get("f") != null && Float.compare((Float) r.get("f"), 1.0f) > 0);
    check(
        file,
        schema,
        rows,
        FilterApi.eq(FilterApi.intColumn("down"), null),
        r -> r.get("down") == null);
  }

  private static void check(
      Path file,
      MessageType schema,
      List<Row> rows,
      FilterPredicate predicate,
      Predicate<Row> matches)
      throws Exception {
    List<Row> expected = rows.stream().filter(matches).toList();
    List<Row> actual =
        ParquetJavaOracle.read(
            file,
            schema,
            b ->
                b.withFilter(FilterCompat.get(predicate))
                    .useStatsFilter(true)
                    .useColumnIndexFilter(true)
                    .useRecordFilter(true));
    assertFalse(expected.isEmpty(), "the filter " + predicate + " matches nothing");
    WriterMatrix.assertRowsEqual(expected, actual, "filtered by " + predicate);
  }

  @Test
  void columnsWithoutAnOrderOrWithANanHaveNoColumnIndexAndNanChunksNoBounds() throws Exception {
    MessageType schema =
        new MessageType(
            "nan",
            List.of(
                PrimitiveNode.of("f", OPTIONAL, PhysicalType.DOUBLE),
                PrimitiveNode.of("t", OPTIONAL, PhysicalType.INT96),
                PrimitiveNode.of("g", OPTIONAL, PhysicalType.DOUBLE)));
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      byte[] int96 = new byte[12];
      LittleEndian.putInt(int96, 8, 2_440_588 + i);
      rows.add(Row.of(schema.root(), i < 10 ? Double.NaN : (double) i, int96, (double) -i));
    }
    Path file = dir.resolve("nan.parquet");
    WriterMatrix.write(
        file, schema, rows, WriterOptions.builder().pageRowLimit(10).dictionary(false).build());
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      BlockMetaData block = reader.getRowGroups().get(0);
      assertNull(reader.readColumnIndex(block.getColumns().get(0)), "a page of NaN only");
      assertNull(reader.readColumnIndex(block.getColumns().get(1)), "INT96 has no order");
      ColumnIndex descending = reader.readColumnIndex(block.getColumns().get(2));
      assertEquals(BoundaryOrder.DESCENDING, descending.getBoundaryOrder());
      // NaN and numbers in one chunk: no bounds (parquet-java's filters would take 10..29 as
      // all there is and skip the chunk for f = NaN or f > 29).
      Statistics<?> f = block.getColumns().get(0).getStatistics();
      assertFalse(f.hasNonNullValue(), "min/max of a chunk holding NaN");
      assertFalse(block.getColumns().get(1).getStatistics().hasNonNullValue());
      for (int c = 0; c < 3; c++) {
        assertNotNull(reader.readOffsetIndex(block.getColumns().get(c)));
      }
    }
  }

  /** A schema node by name, for tests that build rows by hand. */
  static SchemaNode field(MessageType schema, String name) {
    return schema.root().field(schema.root().fieldIndex(name));
  }
}
