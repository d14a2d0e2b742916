package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.read.ColumnChunkReader;
import dev.parquetconnect.format.read.DataPage;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The size decisions of the default page layout: a one-page chunk carries no column index (its
 * statistics say the same) but keeps its offset index, and parquet-java still filters pages by the
 * other columns' indexes; a dictionary page splits where its index width grows, without an
 * entropy-coding codec; a column of distinct values is refused a dictionary after a sample.
 */
class PageLayoutTest {
  @TempDir Path dir;

  private static final MessageType KEY_AND_FLAG =
      new MessageType(
          "t",
          List.of(
              PrimitiveNode.of("key", REQUIRED, PhysicalType.BYTE_ARRAY),
              PrimitiveNode.of("flag", REQUIRED, PhysicalType.INT32)));

  private static byte[] key(int i) {
    return String.format("key-%036d", i).getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void aOnePageChunkHasAnOffsetIndexButNoColumnIndexAndParquetJavaStillFiltersPages()
      throws Exception {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      rows.add(Row.of(KEY_AND_FLAG.root(), key(i), 7));
    }
    // 50,000-byte pages: key (44 PLAIN bytes a row) gets nine, flag (4) one, when each column's
    // pages are cut on their own (aligned pages would give flag nine too).
    Path file =
        WriterMatrix.write(
            dir.resolve("f.parquet"),
            KEY_AND_FLAG,
            rows,
            WriterOptions.builder().pageByteLimit(50_000).alignedPages(false).build());
    List<ColumnChunk> chunks = FooterReader.read(file).rowGroups().get(0).columns();
    ColumnChunk key = chunks.get(0);
    ColumnChunk flag = chunks.get(1);
    assertNotNull(key.columnIndexOffset(), "key: nine pages, a column index");
    assertNotNull(key.offsetIndexOffset());
    assertNull(flag.columnIndexOffset(), "flag: one page, no column index");
    assertNotNull(flag.offsetIndexOffset(), "flag: the offset index is kept");
    assertNotNull(flag.metaData().statistics().minValue(), "the statistics carry the bounds");

    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, KEY_AND_FLAG), "rows");
    // parquet-java prunes by key's index and keeps every row for flag (no index): one page.
    ParquetReadOptions filtered =
        ParquetReadOptions.builder()
            .withRecordFilter(
                FilterCompat.get(
                    FilterApi.and(
                        FilterApi.eq(
                            FilterApi.binaryColumn("key"),
                            Binary.fromConstantByteArray(key(4_321))),
                        FilterApi.eq(FilterApi.intColumn("flag"), 7))))
            .useColumnIndexFilter(true)
            .build();
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file), filtered)) {
      assertNull(reader.readColumnIndex(reader.getRowGroups().get(0).getColumns().get(1)));
      long pageRows = reader.getFilteredRecordCount();
      assertTrue(pageRows > 0 && pageRows < 2_000, "rows of key's page: " + pageRows);
      assertEquals(pageRows, reader.readNextFilteredRowGroup().getRowCount());
    }
  }

  /** Without aligned pages only: a split is a page boundary of one column alone. */
  @Test
  void anUnalignedGrowingDictionarySplitsItsPageWhereTheIndexWidthGrows() throws Exception {
    MessageType schema =
        new MessageType("t", List.of(PrimitiveNode.of("price", REQUIRED, PhysicalType.INT64)));
    List<Row> rows = new ArrayList<>();
    for (long i = 0; i < 40_000; i++) {
      rows.add(Row.of(schema.root(), i / 4)); // 10,000 entries, added in order
    }
    for (CompressionCodec codec : List.of(CompressionCodec.UNCOMPRESSED, CompressionCodec.ZSTD)) {
      Path file =
          WriterMatrix.write(
              dir.resolve(codec + ".parquet"),
              schema,
              rows,
              WriterOptions.builder().codec(codec).alignedPages(false).build());
      List<Integer> widths = dictionaryIndexWidths(file);
      if (codec == CompressionCodec.UNCOMPRESSED) {
        // 320,000 PLAIN bytes: one page by size, split where the width reaches 12, 13 and 14
        // (earlier crossings save less than a page boundary costs).
        assertTrue(widths.size() > 1, "pages: " + widths);
        for (int p = 1; p < widths.size(); p++) {
          assertTrue(widths.get(p) > widths.get(p - 1), "widths grow page by page: " + widths);
        }
        assertEquals(14, widths.get(widths.size() - 1), "widths " + widths);
      } else {
        assertEquals(List.of(14), widths, "ZSTD squeezes the high bits itself: one page");
      }
      WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), codec + " rows");
    }
  }

  @Test
  void aColumnOfDistinctValuesIsRefusedADictionaryAfterASample() throws Exception {
    MessageType schema =
        new MessageType("t", List.of(PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64)));
    List<Row> rows = new ArrayList<>();
    for (long i = 0; i < 100_000; i++) {
      rows.add(Row.of(schema.root(), i * 7919));
    }
    Path file =
        WriterMatrix.write(dir.resolve("ids.parquet"), schema, rows, WriterOptions.defaults());
    ColumnChunk chunk = FooterReader.read(file).rowGroups().get(0).columns().get(0);
    assertNull(chunk.metaData().dictionaryPageOffset(), "no dictionary page");
    assertFalse(chunk.metaData().encodings().contains(Encoding.PLAIN_DICTIONARY));
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), "rows");
  }

  /** The bit width (first byte of the values) of each dictionary-encoded data page. */
  private static List<Integer> dictionaryIndexWidths(Path file) throws Exception {
    List<Integer> widths = new ArrayList<>();
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        ColumnChunkReader pages = reader.chunkReader(0, reader.schema().column(0))) {
      DataPage page;
      while ((page = pages.nextPage()) != null) {
        Encoding encoding = page.valueEncoding();
        assertTrue(
            encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY,
            "a dictionary page: " + encoding);
        widths.add(page.data()[page.offset()] & 0xFF);
      }
    }
    return widths;
  }
}
