package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ParquetFileWriter#bufferedBytes()} and {@link ParquetFileWriter#heapBytes()} are running
 * totals the columns keep as they change, so that a sink can ask after every record at no cost per
 * column: after every record, batch, dropped record and reshape they equal the sums over the
 * columns, through pages closing, arrays growing, dictionaries falling back and row groups
 * flushing.
 */
class HeldBytesTest {

  /** Every type, required, optional and repeated, nested, with extremes and nulls (fixed seeds). */
  @ParameterizedTest(name = "seed {0}, dictionary {1}, aligned pages {2}")
  @CsvSource({"1, true, false", "2, false, false", "3, true, true"})
  void theTotalsEqualTheSumOverTheColumnsAfterEveryRecord(
      long seed, boolean dictionary, boolean aligned) throws Exception {
    MessageType schema = MatrixSchema.build(MatrixSchema.leafTypes(), false);
    WriterOptions options =
        WriterOptions.builder()
            .pageByteLimit(512)
            .rowGroupByteTarget(24 << 10)
            .dictionary(dictionary)
            .dictionaryByteLimit(2 << 10)
            .alignedPages(aligned)
            .build();
    List<Row> rows = new RandomRows(seed).rows(schema, 250);
    try (ParquetFileWriter writer =
        new ParquetFileWriter(new ByteArrayOutputStream(), schema, options)) {
      assertTotals(writer, "seed " + seed + ", before any record");
      long written = writer.bytesWritten();
      boolean flushed = false;
      for (int i = 0; i < rows.size(); i++) {
        writer.write(rows.get(i));
        assertTotals(writer, "seed " + seed + ", after record " + i);
        flushed |= writer.bytesWritten() > written;
      }
      assertTrue(flushed, "a row group was written on the way");
      writer.flushRowGroup();
      assertTotals(writer, "seed " + seed + ", after the last row group");
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @CsvSource({"11", "12"})
  void batchesDroppedRecordsAndReshapesKeepTheTotals(long seed) throws Exception {
    PrimitiveNode id = PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64);
    PrimitiveNode flag = PrimitiveNode.of("flag", OPTIONAL, PhysicalType.BOOLEAN);
    PrimitiveNode count = PrimitiveNode.of("count", OPTIONAL, PhysicalType.INT32);
    PrimitiveNode text =
        PrimitiveNode.of("text", OPTIONAL, PhysicalType.BYTE_ARRAY)
            .withLogicalType(LogicalType.STRING);
    MessageType narrow = new MessageType("held", List.of(id, flag, count));
    MessageType wide =
        new MessageType(
            "held",
            List.of(id, flag, PrimitiveNode.of("count", OPTIONAL, PhysicalType.INT64), text));
    WriterOptions options = WriterOptions.builder().pageByteLimit(256).build();
    Random random = new Random(seed);
    try (ParquetFileWriter writer =
        new ParquetFileWriter(new ByteArrayOutputStream(), narrow, options)) {
      for (int batch = 0; batch < 20; batch++) {
        int n = 1 + random.nextInt(200);
        long[] ids = new long[n];
        boolean[] flags = new boolean[n];
        int[] counts = new int[n];
        int[] definitions = new int[n];
        for (int i = 0; i < n; i++) {
          ids[i] = random.nextLong();
          flags[i] = random.nextBoolean();
          counts[i] = random.nextInt();
          definitions[i] = 1;
        }
        writer.column(0).writeLongs(ids, 0, null, null, 0, n);
        writer.column(1).writeBooleans(flags, 0, null, definitions, 0, n);
        writer.column(2).writeInts(counts, 0, null, definitions, 0, n);
        writer.endRecords(n);
        assertTotals(writer, "seed " + seed + ", after batch " + batch);
      }
      writer.column(0).writeLong(7, 0, 0);
      writer.column(1).writeBoolean(true, 0, 1);
      writer.discardPartialRecord();
      assertTotals(writer, "seed " + seed + ", after a dropped record");

      assertTrue(writer.reshape(wide, options));
      assertTotals(writer, "seed " + seed + ", after the reshape");
      for (int i = 0; i < 300; i++) {
        writer.column(0).writeLong(i, 0, 0);
        writer.column(1).writeNull(0, 0);
        writer.column(2).writeLong(random.nextLong(), 0, 1);
        writer.column(3).writeString("value " + random.nextInt(1000), 0, 1);
        writer.endRecord();
        assertTotals(writer, "seed " + seed + ", after record " + i + " of the wider schema");
      }
    }
  }

  /**
   * Two dozen distinct texts of 1,500 bytes grow the text column's dictionary when their page is
   * tried on it, and its arrays are let go when the row group is written: the totals follow both.
   */
  @ParameterizedTest(name = "seed {0}")
  @CsvSource({"21"})
  void aDictionaryOfLongTextsKeepsTheTotals(long seed) throws Exception {
    PrimitiveNode text =
        PrimitiveNode.of("text", REQUIRED, PhysicalType.BYTE_ARRAY)
            .withLogicalType(LogicalType.STRING);
    MessageType schema = new MessageType("texts", List.of(text));
    Random random = new Random(seed);
    WriterOptions options = WriterOptions.builder().pageByteLimit(8 << 10).build();
    try (ParquetFileWriter writer =
        new ParquetFileWriter(new ByteArrayOutputStream(), schema, options)) {
      StringBuilder value = new StringBuilder();
      for (int group = 0; group < 2; group++) {
        for (int i = 0; i < 24; i++) {
          value.setLength(0);
          for (int k = 0; k < 1500; k++) {
            value.append((char) ('a' + random.nextInt(26)));
          }
          writer.column(0).writeString(value.toString(), 0, 0);
          writer.endRecord();
          assertTotals(writer, "seed " + seed + ", row group " + group + ", record " + i);
        }
        writer.flushRowGroup();
        assertTotals(writer, "seed " + seed + ", row group " + group + " written");
      }
    }
  }

  private static void assertTotals(ParquetFileWriter writer, String where) {
    assertEquals(writer.bufferedBytesOfColumns(), writer.bufferedBytes(), "buffered, " + where);
    assertEquals(writer.heapBytesOfColumns(), writer.heapBytes(), "heap, " + where);
  }
}
