package dev.parquetconnect.format.filter;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exact row test on the types whose literals need converting: instants in the column's unit
 * (offsets, finer literals), dates, unsigned 64-bit integers, decimals at the column's scale.
 */
class LiteralConversionTest {
  private static final MessageType SCHEMA =
      new MessageType(
          "m",
          List.of(
              PrimitiveNode.of("__kafka_timestamp", OPTIONAL, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MILLIS)),
              PrimitiveNode.of("day", OPTIONAL, PhysicalType.INT32)
                  .withLogicalType(new LogicalType.DateType()),
              PrimitiveNode.of("u64", OPTIONAL, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.IntType((byte) 64, false)),
              PrimitiveNode.of("price", OPTIONAL, PhysicalType.INT64)
                  .withLogicalType(new LogicalType.DecimalType(4, 18))));

  /** 2024-01-01T00:00:00Z, 2024-01-01, 2^64-1, 12.3400. */
  private static final long[] VALUES = {1_704_067_200_000L, 19_723, -1L, 123_400};

  private static final RowValues ROW =
      new RowValues() {
        @Override
        public boolean isNull(int column) {
          return false;
        }

        @Override
        public long longValue(int column) {
          return VALUES[column];
        }

        @Override
        public double doubleValue(int column) {
          throw new UnsupportedOperationException();
        }

        @Override
        public byte[] binaryArray(int column) {
          throw new UnsupportedOperationException();
        }

        @Override
        public int binaryOffset(int column) {
          throw new UnsupportedOperationException();
        }

        @Override
        public int binaryLength(int column) {
          throw new UnsupportedOperationException();
        }
      };

  @Test
  void literalsAreConvertedExactly() throws Exception {
    assertMatches(true, "__kafka_timestamp >= TIMESTAMP '2024-01-01T01:00:00+01:00'");
    assertMatches(true, "__kafka_timestamp = '2024-01-01 00:00:00'");
    assertMatches(true, "__kafka_timestamp = 1704067200000");
    assertMatches(true, "__kafka_timestamp = DATE '2024-01-01'");
    assertMatches(false, "__kafka_timestamp > TIMESTAMP '2024-01-01T00:00:00.0005Z'");
    assertMatches(true, "__kafka_timestamp < TIMESTAMP '2024-01-01T00:00:00.0005Z'");
    assertMatches(false, "__kafka_timestamp = TIMESTAMP '2024-01-01T00:00:00.0005Z'");
    assertMatches(true, "__kafka_timestamp <> TIMESTAMP '2024-01-01T00:00:00.0005Z'");
    assertMatches(true, "day = DATE '2024-01-01' AND day < TIMESTAMP '2024-01-01T00:00:01Z'");
    assertMatches(false, "day > TIMESTAMP '2024-01-01T00:00:01Z'");
    assertMatches(true, "u64 = 18446744073709551615 AND u64 > 9223372036854775807");
    assertMatches(false, "u64 < 0 OR u64 > 18446744073709551615");
    assertMatches(true, "price = 12.34 AND price = 12.340000 AND price > 12.33999");
    assertMatches(false, "price = 12.34001 OR price < 12.34");
  }

  private static void assertMatches(boolean expected, String text) throws Exception {
    assertEquals(expected, PredicateParser.parse(text).bind(SCHEMA).test(ROW), text);
  }
}
