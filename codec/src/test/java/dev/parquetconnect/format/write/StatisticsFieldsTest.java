package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which statistics fields our chunks carry, against parquet-java's on the same data: min_value and
 * max_value always, the deprecated min and max exactly where parquet-java writes them (its signed
 * orders), null_count always, nan_count for floating point; and truncated binary bounds flagged
 * inexact.
 */
class StatisticsFieldsTest {
  @TempDir Path dir;

  private static PrimitiveNode leaf(String name, PhysicalType type, LogicalType logical) {
    PrimitiveNode node = PrimitiveNode.of(name, OPTIONAL, type);
    return logical == null ? node : node.withLogicalType(logical);
  }

  static MessageType schema() {
    return new MessageType(
        "fields",
        List.of(
            leaf("i32", PhysicalType.INT32, null),
            leaf("i64", PhysicalType.INT64, null),
            leaf("u8", PhysicalType.INT32, new LogicalType.IntType((byte) 8, false)),
            leaf("u64", PhysicalType.INT64, new LogicalType.IntType((byte) 64, false)),
            leaf("i16", PhysicalType.INT32, new LogicalType.IntType((byte) 16, true)),
            leaf("day", PhysicalType.INT32, LogicalType.DATE),
            leaf("ts", PhysicalType.INT64, new LogicalType.TimestampType(false, TimeUnit.NANOS)),
            leaf("dec", PhysicalType.INT64, new LogicalType.DecimalType(2, 12)),
            leaf("f", PhysicalType.FLOAT, null),
            leaf("d", PhysicalType.DOUBLE, null),
            leaf("b", PhysicalType.BOOLEAN, null),
            leaf("s", PhysicalType.BYTE_ARRAY, LogicalType.STRING),
            leaf("raw", PhysicalType.BYTE_ARRAY, null),
            PrimitiveNode.fixed("uuid", OPTIONAL, 16).withLogicalType(LogicalType.UUID),
            PrimitiveNode.fixed("half", OPTIONAL, 2).withLogicalType(LogicalType.FLOAT16),
            PrimitiveNode.fixed("decf", OPTIONAL, 6)
                .withLogicalType(new LogicalType.DecimalType(3, 14))));
  }

  @Test
  void deprecatedMinMaxWhereParquetJavaWritesThem() throws Exception {
    MessageType schema = schema();
    // No NaN (parquet-java would put it in its bounds) and min != max everywhere.
    List<Row> rows = new RandomRows(6, 0.0, 0.1, 0.0).rows(schema, 200);
    Path ours =
        WriterMatrix.write(dir.resolve("ours.parquet"), schema, rows, WriterOptions.defaults());
    Path theirs = dir.resolve("theirs.parquet");
    ParquetJavaOracle.write(theirs, schema, rows, ParquetJavaOracle.WriteOptions.defaults());
    List<ColumnChunk> ourChunks = FooterReader.read(ours).rowGroups().get(0).columns();
    List<ColumnChunk> theirChunks = FooterReader.read(theirs).rowGroups().get(0).columns();
    for (int c = 0; c < ourChunks.size(); c++) {
      Statistics o = ourChunks.get(c).metaData().statistics();
      Statistics t = theirChunks.get(c).metaData().statistics();
      String where = String.valueOf(ourChunks.get(c).metaData().pathInSchema());
      assertEquals(t.min() != null, o.min() != null, where + ": deprecated min");
      assertEquals(t.max() != null, o.max() != null, where + ": deprecated max");
      assertEquals(t.minValue(), o.minValue(), where + ": min_value");
      assertEquals(t.maxValue(), o.maxValue(), where + ": max_value");
      assertEquals(t.nullCount(), o.nullCount(), where + ": null_count");
      PhysicalType type = ourChunks.get(c).metaData().type();
      boolean floating =
          type == PhysicalType.FLOAT || type == PhysicalType.DOUBLE || where.contains("half");
      assertEquals(floating, o.nanCount() != null, where + ": nan_count");
    }
  }

  @Test
  void longTextBoundsAreTruncatedAndFlaggedInexact() throws Exception {
    MessageType schema =
        new MessageType(
            "long",
            List.of(
                leaf("s", PhysicalType.BYTE_ARRAY, LogicalType.STRING),
                leaf("ff", PhysicalType.BYTE_ARRAY, null)));
    List<Row> rows = new ArrayList<>();
    String a = "a".repeat(100);
    String z = "zé".repeat(60);
    byte[] allFf = new byte[80];
    Arrays.fill(allFf, (byte) 0xFF);
    rows.add(Row.of(schema.root(), a.getBytes(StandardCharsets.UTF_8), new byte[] {1}));
    rows.add(Row.of(schema.root(), z.getBytes(StandardCharsets.UTF_8), allFf));
    Path file =
        WriterMatrix.write(
            dir.resolve("long.parquet"),
            schema,
            rows,
            // A page per row: a chunk of one page has no column index (its statistics say it all).
            WriterOptions.builder().truncateLength(16).pageRowLimit(1).build());
    List<ColumnChunk> chunks = FooterReader.read(file).rowGroups().get(0).columns();

    Statistics s = chunks.get(0).metaData().statistics();
    assertArrayEquals("a".repeat(16).getBytes(StandardCharsets.UTF_8), s.minValue().toByteArray());
    assertFalse(s.isMinValueExact());
    // "zézé..." ("zé" is 3 bytes) cut at 16 bytes, a code point boundary, then the last code
    // point incremented: the 16th byte is a 'z', which becomes '{'.
    assertEquals("zé".repeat(5) + "{", s.maxValue().toStringUtf8());
    assertFalse(s.isMaxValueExact());
    assertNull(s.min(), "no deprecated bounds for an unsigned order");

    Statistics ff = chunks.get(1).metaData().statistics();
    assertArrayEquals(new byte[] {1}, ff.minValue().toByteArray());
    assertTrue(ff.isMinValueExact());
    assertArrayEquals(allFf, ff.maxValue().toByteArray(), "0xFF... cannot grow: kept whole");
    assertTrue(ff.isMaxValueExact());

    // parquet-java still reads the file and its truncated bounds.
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), "long values");
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      var index = reader.readColumnIndex(reader.getRowGroups().get(0).getColumns().get(0));
      assertEquals(16, index.getMinValues().get(0).remaining());
    }
  }
}
