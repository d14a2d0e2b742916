package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.filter2.predicate.FilterPredicate;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pages of all columns of a row group end at the same rows (WriterOptions.alignedPages), which
 * keeps parquet-java's column-index filtering (up to 1.16, so Spark's non-vectorized reader) from
 * returning values of the wrong row (apache/parquet-java#3747).
 */
class AlignedPagesTest {
  @TempDir Path dir;

  private static final MessageType SCHEMA =
      new MessageType(
          "aligned",
          List.of(
              PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
              PrimitiveNode.of("flag", OPTIONAL, PhysicalType.BOOLEAN),
              PrimitiveNode.of("s", OPTIONAL, PhysicalType.BYTE_ARRAY)
                  .withLogicalType(LogicalType.STRING),
              NestedTypes.list(
                  "l", OPTIONAL, PrimitiveNode.of("e", OPTIONAL, PhysicalType.INT32))));

  /**
   * 200 rows: {@code s} is long enough that each of its 64-byte pages holds one row, while an
   * {@code id} page holds eight. Rows 0-19 and 199 hold "a..." and "z...", the rest "m...".
   */
  private static List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    Random random = new Random(5);
    for (int i = 0; i < 200; i++) {
      String s = (i < 20 ? "a" : i == 199 ? "z" : "m").repeat(70);
      List<Object> list = new ArrayList<>();
      for (int k = random.nextInt(3); k > 0; k--) {
        list.add(random.nextInt());
      }
      rows.add(
          Row.of(
              SCHEMA.root(),
              (long) i,
              i % 3 == 0 ? null : i % 2 == 0,
              s.getBytes(StandardCharsets.UTF_8),
              list));
    }
    return rows;
  }

  private static final FilterPredicate A_OR_Z =
      FilterApi.or(
          FilterApi.eq(FilterApi.binaryColumn("s"), Binary.fromString("a".repeat(70))),
          FilterApi.eq(FilterApi.binaryColumn("s"), Binary.fromString("z".repeat(70))));

  private List<Long> filteredIds(Path file) throws Exception {
    return ParquetJavaOracle.read(
            file, SCHEMA, b -> b.withFilter(FilterCompat.get(A_OR_Z)).useColumnIndexFilter(true))
        .stream()
        .map(r -> (Long) r.get("id"))
        .toList();
  }

  private static List<Long> expectedIds() {
    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < 20; i++) {
      ids.add(i);
    }
    ids.add(199L);
    return ids;
  }

  @Test
  void everyColumnsPagesStartAtTheSameRows() throws Exception {
    Path file =
        WriterMatrix.write(
            dir.resolve("aligned.parquet"),
            SCHEMA,
            rows(),
            WriterOptions.builder().pageByteLimit(64).rowGroupRowLimit(120).build());
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      for (BlockMetaData block : reader.getRowGroups()) {
        List<Long> first = firstRows(reader.readOffsetIndex(block.getColumns().get(0)));
        assertTrue(first.size() > 1, "several pages: " + first);
        for (int c = 1; c < block.getColumns().size(); c++) {
          assertEquals(
              first,
              firstRows(reader.readOffsetIndex(block.getColumns().get(c))),
              "pages of " + block.getColumns().get(c).getPath());
        }
      }
    }
    assertEquals(expectedIds(), filteredIds(file));
  }

  /**
   * A column added to the open row group (a schemaless record with a new key) gets its earlier
   * nulls in pages that end where the other columns' pages ended.
   */
  @Test
  void aColumnAddedInPlaceKeepsThePagesAligned() throws Exception {
    List<Row> rows = rows();
    MessageType narrow = SCHEMA;
    List<SchemaNode> widerFields = new ArrayList<>(SCHEMA.fields());
    widerFields.add(PrimitiveNode.of("late", OPTIONAL, PhysicalType.INT64));
    MessageType wider = new MessageType("aligned", widerFields);
    Path file = dir.resolve("reshaped.parquet");
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer =
            new ParquetFileWriter(
                out,
                narrow,
                WriterOptions.builder().pageByteLimit(64).rowGroupRowLimit(500).build())) {
      for (Row row : rows.subList(0, 150)) {
        writer.write(row);
      }
      assertTrue(writer.reshape(wider, writer.options()));
      for (Row row : rows.subList(150, rows.size())) {
        Object[] values = new Object[row.size() + 1];
        for (int i = 0; i < row.size(); i++) {
          values[i] = row.get(i);
        }
        values[row.size()] = row.get("id");
        writer.write(Row.of(wider.root(), values));
      }
    }
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      BlockMetaData block = reader.getRowGroups().get(0);
      List<Long> first = firstRows(reader.readOffsetIndex(block.getColumns().get(0)));
      assertTrue(first.size() > 2, "several pages before the new column came: " + first);
      for (int c = 1; c < block.getColumns().size(); c++) {
        assertEquals(
            first,
            firstRows(reader.readOffsetIndex(block.getColumns().get(c))),
            "pages of " + block.getColumns().get(c).getPath());
      }
    }
  }

  /**
   * Under codecs without an entropy coder a dictionary-encoded page may close early where its index
   * width grows; a boundary of one column alone, so aligned pages never split that way.
   */
  @Test
  void aGrowingDictionaryDoesNotSplitAlignedPages() throws Exception {
    MessageType schema =
        new MessageType(
            "growing",
            List.of(
                PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
                PrimitiveNode.of("s", REQUIRED, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING)));
    List<Row> rows = new ArrayList<>();
    for (long i = 0; i < 30_000; i++) {
      rows.add(Row.of(schema.root(), i, ("value-" + i / 4).getBytes(StandardCharsets.UTF_8)));
    }
    for (boolean aligned : new boolean[] {true, false}) {
      Path file =
          WriterMatrix.write(
              dir.resolve("growing-" + aligned + ".parquet"),
              schema,
              rows,
              WriterOptions.builder().codec(CompressionCodec.SNAPPY).alignedPages(aligned).build());
      try (ParquetFileReader reader =
          ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
        BlockMetaData block = reader.getRowGroups().get(0);
        List<Long> ids = firstRows(reader.readOffsetIndex(block.getColumns().get(0)));
        List<Long> strings = firstRows(reader.readOffsetIndex(block.getColumns().get(1)));
        if (aligned) {
          assertEquals(ids, strings, "aligned pages");
        } else {
          assertNotEquals(ids, strings, "the split this test is about no longer happens");
        }
      }
    }
  }

  @Test
  void parquetJavaMisreadsUnalignedPagesUnderColumnIndexFiltering() throws Exception {
    // The reason pages are aligned: the same rows with each column's pages cut where they fill.
    // parquet-java 1.16, having read row 19 from the id page of rows 16-23, takes row 199 as
    // its next and last target, mistakes the exhausted target list for the end and returns
    // id 20. Should this start failing, parquet-java has the fix (#3748) and the alignment
    // only still matters for the readers that bundle older versions.
    Path file =
        WriterMatrix.write(
            dir.resolve("unaligned.parquet"),
            SCHEMA,
            rows(),
            WriterOptions.builder().pageByteLimit(64).alignedPages(false).build());
    List<Long> ids = filteredIds(file);
    assertEquals(expectedIds().size(), ids.size());
    assertNotEquals(expectedIds(), ids, "parquet-java's reader now reads unaligned pages right");
  }

  private static List<Long> firstRows(OffsetIndex index) {
    List<Long> rows = new ArrayList<>();
    for (int p = 0; p < index.getPageCount(); p++) {
      rows.add(index.getFirstRowIndex(p));
    }
    return rows;
  }
}
