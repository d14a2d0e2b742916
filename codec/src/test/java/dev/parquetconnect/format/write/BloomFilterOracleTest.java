package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.filter2.predicate.FilterApi;
import org.apache.parquet.hadoop.BloomFilterReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bloom filters: parquet-java's BloomFilterReader finds every value we inserted, rejects absent
 * values at about the configured rate, and its reader prunes row groups with them without losing a
 * row.
 */
class BloomFilterOracleTest {
  private static final int ROWS = 3000;
  private static final double FPP = 0.01;

  @TempDir Path dir;

  static MessageType schema() {
    return new MessageType(
        "bloom",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("i", OPTIONAL, PhysicalType.INT32),
            PrimitiveNode.of("f", OPTIONAL, PhysicalType.FLOAT),
            PrimitiveNode.of("d", OPTIONAL, PhysicalType.DOUBLE),
            PrimitiveNode.of("s", OPTIONAL, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.fixed("u", OPTIONAL, 16).withLogicalType(LogicalType.UUID),
            NestedTypes.list(
                "tags",
                OPTIONAL,
                PrimitiveNode.of("t", OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING)),
            PrimitiveNode.of("plain", OPTIONAL, PhysicalType.INT32)));
  }

  static List<Row> rows(MessageType schema) {
    Random random = new Random(23);
    List<Row> rows = new ArrayList<>();
    for (int r = 0; r < ROWS; r++) {
      byte[] uuid = new byte[16];
      random.nextBytes(uuid);
      rows.add(
          Row.of(
              schema.root(),
              (long) r * 7919,
              r % 10 == 0 ? null : random.nextInt(),
              random.nextFloat() * 1000,
              r % 3 == 0 ? -0.0 : random.nextGaussian(),
              ("value-" + random.nextInt(5000)).getBytes(StandardCharsets.UTF_8),
              uuid,
              List.of(("tag" + (r % 50)).getBytes(StandardCharsets.UTF_8)),
              r));
    }
    return rows;
  }

  private Path write(MessageType schema, List<Row> rows) throws Exception {
    WriterOptions.Builder options = WriterOptions.builder().rowGroupRowLimit(ROWS / 2);
    for (String column : List.of("id", "i", "f", "d", "s", "u", "tags.list.element")) {
      options.bloomFilter(column, ROWS, FPP);
    }
    return WriterMatrix.write(dir.resolve("bloom.parquet"), schema, rows, options.build());
  }

  @Test
  void parquetJavaFindsEveryValueAndRejectsAbsentOnes() throws Exception {
    MessageType schema = schema();
    List<Row> rows = rows(schema);
    Path file = write(schema, rows);
    Random random = new Random(5);
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      int first = 0;
      for (BlockMetaData block : reader.getRowGroups()) {
        List<Row> groupRows = rows.subList(first, first + (int) block.getRowCount());
        first += (int) block.getRowCount();
        BloomFilterReader blooms = reader.getBloomFilterDataReader(block);
        for (ColumnDescriptor column : schema.columns()) {
          BloomFilter filter = blooms.readBloomFilter(block.getColumns().get(column.index()));
          if (column.dottedPath().equals("plain")) {
            assertNull(filter, "a column without a configured filter has none");
            continue;
          }
          assertNotNull(filter, column.dottedPath());
          Set<Long> inserted = new HashSet<>();
          for (Object value : LeafValues.of(groupRows, schema, column).values) {
            long hash = hash(filter, value);
            inserted.add(hash);
            assertTrue(filter.findHash(hash), column.dottedPath() + ": lost " + value);
          }
          int absent = 0;
          int falsePositives = 0;
          while (absent < 20_000) {
            long hash = filter.hash(Binary.fromConstantByteArray(randomBytes(random)));
            if (!inserted.contains(hash)) {
              absent++;
              falsePositives += filter.findHash(hash) ? 1 : 0;
            }
          }
          double rate = falsePositives / (double) absent;
          assertTrue(rate < 2 * FPP, column.dottedPath() + ": false positive rate " + rate);
        }
      }
    }
  }

  private static byte[] randomBytes(Random random) {
    byte[] b = new byte[1 + random.nextInt(16)];
    random.nextBytes(b);
    return b;
  }

  private static long hash(BloomFilter filter, Object value) {
    if (value instanceof Integer i) {
      return filter.hash(i.intValue());
    }
    if (value instanceof Long l) {
      return filter.hash(l.longValue());
    }
    if (value instanceof Float f) {
      return filter.hash(f.floatValue());
    }
    if (value instanceof Double d) {
      return filter.hash(d.doubleValue());
    }
    return filter.hash(Binary.fromConstantByteArray((byte[]) value));
  }

  @Test
  void parquetJavaPrunesRowGroupsWithOurFiltersAndLosesNoRow() throws Exception {
    MessageType schema = schema();
    List<Row> rows = rows(schema);
    Path file = write(schema, rows);
    long present = 1234L * 7919;
    List<Row> found =
        ParquetJavaOracle.read(
            file,
            schema,
            b ->
                b.withFilter(FilterCompat.get(FilterApi.eq(FilterApi.longColumn("id"), present)))
                    .useBloomFilter(true)
                    .useStatsFilter(false)
                    .useColumnIndexFilter(false));
    assertEquals(1, found.size());
    assertEquals(present, found.get(0).get("id"));
    Binary tag = Binary.fromString("value-77");
    long expected =
        rows.stream()
            .filter(r -> Binary.fromConstantByteArray((byte[]) r.get("s")).equals(tag))
            .count();
    List<Row> tagged =
        ParquetJavaOracle.read(
            file,
            schema,
            b ->
                b.withFilter(FilterCompat.get(FilterApi.eq(FilterApi.binaryColumn("s"), tag)))
                    .useBloomFilter(true));
    assertEquals(expected, tagged.size());
  }
}
