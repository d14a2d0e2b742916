package dev.parquetconnect.format.filter;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.meta.ByteString;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.Statistics;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What row group statistics may and may not rule out: each case is one column chunk's statistics
 * and the predicates they prune (false) or keep (true). When the metadata leaves any doubt (an
 * order the reader does not trust, NaN, an unknown count) the row group is kept.
 */
class StatisticsPruningTest {
  private static final long ROWS = 100;

  private static final MessageType SCHEMA =
      new MessageType(
          "m",
          List.of(
              PrimitiveNode.of("u", OPTIONAL, PhysicalType.INT32)
                  .withLogicalType(new LogicalType.IntType((byte) 32, false)),
              PrimitiveNode.of("s", OPTIONAL, PhysicalType.BYTE_ARRAY)
                  .withLogicalType(LogicalType.STRING),
              PrimitiveNode.of("d", OPTIONAL, PhysicalType.DOUBLE),
              PrimitiveNode.fixed("dec", OPTIONAL, 4)
                  .withLogicalType(new LogicalType.DecimalType(2, 9)),
              PrimitiveNode.of("i", OPTIONAL, PhysicalType.INT64)));

  @Test
  void unsignedIntegersUseOnlyUnsignedBounds() throws Exception {
    // Deprecated fields are signed: for an unsigned column they say nothing.
    Statistics deprecated = new Statistics(i32(-1), i32(7), 0L, null, null, null, null, null, null);
    assertKeeps("u", deprecated, "u > 5", "u < 7");
    Statistics typed = new Statistics(null, null, 0L, null, i32(-1), i32(7), null, null, null);
    assertPrunes("u", typed, "u < 7", "u = 3", "u > 4294967295");
    assertKeeps("u", typed, "u > 4000000000", "u = 7", "u <= 7");
  }

  @Test
  void stringsUseUnsignedBytesAndTruncatedBoundsStillBound() throws Exception {
    assertKeeps(
        "s",
        new Statistics(utf8("b"), utf8("a"), 0L, null, null, null, null, null, null),
        "s = 'zzz'");
    // "é" (0xC3 0xA9) sorts after "z" by unsigned bytes.
    Statistics typed =
        new Statistics(null, null, 0L, null, utf8("é"), utf8("ab"), null, null, null);
    assertPrunes("s", typed, "s = 'a'", "s < 'ab'", "s > 'é'", "s IN ('aa', 'a')");
    assertKeeps("s", typed, "s = 'z'", "s >= 'é'", "s IN ('a', 'abc')", "s <> 'ab'");
    // A truncated max is above every value: "ac" truncated to "b" still rules out "ba".
    Statistics truncated =
        new Statistics(null, null, 0L, null, utf8("b"), utf8("ab"), false, false, null);
    assertPrunes("s", truncated, "s >= 'ba'");
    assertKeeps("s", truncated, "s = 'ac'");
  }

  @Test
  void nanKeepsWhatItCouldMatch() throws Exception {
    Statistics unknownNaNs = new Statistics(null, null, 0L, null, f64(2), f64(1), null, null, null);
    assertKeeps("d", unknownNaNs, "d > 5", "d >= 5", "d = 'NaN'", "d <> 1.5");
    assertPrunes("d", unknownNaNs, "d = 5", "d < 1", "d <= 0.5");
    Statistics noNaNs = new Statistics(null, null, 0L, null, f64(2), f64(1), null, null, 0L);
    assertPrunes("d", noNaNs, "d > 5", "d = 'NaN'", "d >= 2.5");
    Statistics nanBound =
        new Statistics(null, null, 0L, null, f64(Double.NaN), f64(1), null, null, 0L);
    assertKeeps("d", nanBound, "d > 5", "d < 1");
    // -0.0 and 0.0 are equal: a max of -0.0 does not rule out 0.
    Statistics zero = new Statistics(null, null, 0L, null, f64(-0.0), f64(-1), null, null, 0L);
    assertKeeps("d", zero, "d = 0", "d >= 0.0");
  }

  @Test
  void nullCountsDecideNullTests() throws Exception {
    Statistics none = new Statistics(null, null, 0L, null, i64(9), i64(1), null, null, null);
    assertPrunes("i", none, "i IS NULL");
    assertKeeps("i", none, "i IS NOT NULL");
    Statistics allNull = new Statistics(null, null, ROWS, null, null, null, null, null, null);
    assertPrunes("i", allNull, "i IS NOT NULL", "i = 1", "i <> 1", "NOT i IN (1)");
    assertKeeps("i", allNull, "i IS NULL", "i IS NULL OR i = 1");
    Statistics unknown = new Statistics(null, null, null, null, i64(9), i64(1), null, null, null);
    assertKeeps("i", unknown, "i IS NULL", "i IS NOT NULL");
    assertPrunes("i", unknown, "i > 9", "NOT i <= 9");
    assertKeeps("i", Statistics.EMPTY, "i = 1", "i IS NULL");
    assertKeeps("i", null, "i = 1", "i IS NULL");
  }

  @Test
  void decimalsOnBytesCompareAsTwosComplement() throws Exception {
    Statistics s =
        new Statistics(null, null, 0L, null, decimal(300), decimal(-500), null, null, null);
    assertPrunes("dec", s, "dec > 3.00", "dec < -5.001", "dec = 7", "dec IN (-6, 4)");
    assertKeeps("dec", s, "dec = 0", "dec >= 3", "dec > -5.005", "dec = -5");
  }

  @Test
  void anOrderTheReaderDoesNotKnowKeepsEverything() throws Exception {
    Statistics s = new Statistics(null, null, 0L, null, i64(9), i64(1), null, null, null);
    BoundPredicate p = PredicateParser.parse("i > 100").bind(SCHEMA);
    assertEquals(false, p.mightMatch(rowGroup("i", s), null));
    assertEquals(
        true,
        p.mightMatch(rowGroup("i", s), List.of(ColumnOrder.UNRECOGNIZED)),
        "an unknown column order");
    assertEquals(
        false,
        p.mightMatch(
            rowGroup("i", s),
            List.of(
                ColumnOrder.TYPE_DEFINED,
                ColumnOrder.TYPE_DEFINED,
                ColumnOrder.TYPE_DEFINED,
                ColumnOrder.TYPE_DEFINED,
                ColumnOrder.TYPE_DEFINED)));
  }

  private static void assertPrunes(String column, Statistics stats, String... predicates)
      throws Exception {
    for (String text : predicates) {
      BoundPredicate p = PredicateParser.parse(text).bind(SCHEMA);
      assertEquals(false, p.mightMatch(rowGroup(column, stats), null), text + " with " + stats);
    }
  }

  private static void assertKeeps(String column, Statistics stats, String... predicates)
      throws Exception {
    for (String text : predicates) {
      BoundPredicate p = PredicateParser.parse(text).bind(SCHEMA);
      assertEquals(true, p.mightMatch(rowGroup(column, stats), null), text + " with " + stats);
    }
  }

  /** A row group whose column {@code column} has {@code stats}; the others have none. */
  private static RowGroup rowGroup(String column, Statistics stats) {
    List<ColumnChunk> chunks =
        SCHEMA.columns().stream()
            .map(
                c ->
                    new ColumnChunk(
                        null,
                        4,
                        new ColumnMetaData(
                            c.primitive().type(),
                            List.of(),
                            c.path(),
                            CompressionCodec.UNCOMPRESSED,
                            ROWS,
                            10,
                            10,
                            null,
                            4,
                            null,
                            null,
                            c.dottedPath().equals(column) ? stats : null,
                            null,
                            null,
                            null,
                            null,
                            null),
                        null,
                        null,
                        null,
                        null,
                        null,
                        null))
            .toList();
    return new RowGroup(chunks, 100, ROWS, null, null, null, null);
  }

  private static ByteString i32(int v) {
    return ByteString.copyOf(
        ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
  }

  private static ByteString i64(long v) {
    return ByteString.copyOf(
        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
  }

  private static ByteString f64(double v) {
    return ByteString.copyOf(
        ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putDouble(v).array());
  }

  private static ByteString utf8(String s) {
    return ByteString.copyOf(s.getBytes(StandardCharsets.UTF_8));
  }

  /** A 4-byte big-endian two's complement unscaled value. */
  private static ByteString decimal(long unscaled) {
    byte[] raw = BigInteger.valueOf(unscaled).toByteArray();
    byte[] out = new byte[4];
    java.util.Arrays.fill(out, unscaled < 0 ? (byte) 0xFF : 0);
    System.arraycopy(raw, 0, out, 4 - raw.length, raw.length);
    return ByteString.copyOf(out);
  }
}
