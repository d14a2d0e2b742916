package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The columnar batch API against parquet-java's own column reader: for every column of every
 * row group, the same repetition levels, definition levels and non-null values, in the same
 * order, whatever the batch size (batches cut pages and records anywhere).
 */
class ColumnBatchTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {
    "data/alltypes_tiny_pages.parquet", "data/nested_lists.snappy.parquet",
    "data/nested_maps.snappy.parquet", "data/nullable.impala.parquet",
    "data/datapage_v2.snappy.parquet", "data/delta_byte_array.parquet",
    "data/byte_stream_split.zstd.parquet", "data/rle_boolean_encoding.parquet",
    "data/int96_from_spark.parquet", "data/repeated_no_annotation.parquet",
    "data/fixed_length_byte_array.parquet", "data/page_v2_empty_compressed.parquet"
  })
  void corpusColumnsMatchParquetJava(String name) throws Exception {
    compareEveryColumn(ReadAssertions.corpus().resolve(name), 7);
  }

  @Test
  void generatedNestedColumnsMatchParquetJavaForV1AndV2() throws Exception {
    var schema = ReadTestData.schema();
    var rows = ReadTestData.rows(schema, 600, 11);
    for (WriterVersion version : WriterVersion.values()) {
      Path file = dir.resolve(version + ".parquet");
      ParquetJavaOracle.write(file, schema, rows, new ParquetJavaOracle.WriteOptions(
          CompressionCodecName.SNAPPY, true, version, 2048, 64 * 1024));
      for (int batch : new int[] {1, 100, 4096}) {
        compareEveryColumn(file, batch);
      }
    }
  }

  @Test
  void batchesMustFitTheirColumn() throws Exception {
    Path file = ReadAssertions.corpus().resolve("data/alltypes_plain.parquet");
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        dev.parquetconnect.format.read.ColumnReader column =
            reader.columnReader(0, reader.schema().column(0))) {
      ColumnBatch wrongType = new ColumnBatch(dev.parquetconnect.format.meta.PhysicalType.DOUBLE, 8);
      assertThrows(IllegalArgumentException.class, () -> column.readBatch(wrongType));
      ColumnBatch batch = column.newBatch(4);
      assertThrows(IllegalArgumentException.class, () -> column.readBatch(batch, 5));
      assertEquals(4, column.readBatch(batch));
      assertEquals(4, column.readBatch(batch));
      assertEquals(0, column.readBatch(batch));
      assertEquals(8, column.rowsRead());
    }
  }

  /** Every column of every row group, ours (in batches of {@code batchSize}) against theirs. */
  private static void compareEveryColumn(Path file, int batchSize) throws Exception {
    List<List<ColumnData>> theirs = parquetJavaColumns(file);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      assertEquals(theirs.size(), reader.rowGroups().size());
      for (int g = 0; g < theirs.size(); g++) {
        for (ColumnDescriptor column : reader.schema().columns()) {
          ColumnData expected = theirs.get(g).get(column.index());
          ColumnData actual = ours(reader, g, column, batchSize);
          String where = file.getFileName() + " row group " + g + " " + column;
          assertArrayEquals(expected.rep(), actual.rep(), where + " repetition levels");
          assertArrayEquals(expected.def(), actual.def(), where + " definition levels");
          assertEquals(expected.values().size(), actual.values().size(), where + " values");
          for (int i = 0; i < expected.values().size(); i++) {
            assertTrue(Arrays.deepEquals(new Object[] {expected.values().get(i)},
                new Object[] {actual.values().get(i)}), where + " value " + i);
          }
        }
      }
    }
  }

  private record ColumnData(int[] rep, int[] def, List<Object> values) {}

  private static ColumnData ours(ParquetFileReader reader, int rowGroup, ColumnDescriptor column,
      int batchSize) throws Exception {
    List<Integer> rep = new ArrayList<>();
    List<Integer> def = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    try (dev.parquetconnect.format.read.ColumnReader columnReader =
        reader.columnReader(rowGroup, column)) {
      ColumnBatch batch = columnReader.newBatch(batchSize);
      while (columnReader.readBatch(batch) > 0) {
        for (int i = 0; i < batch.size(); i++) {
          rep.add(batch.repetitionLevels()[i]);
          def.add(batch.definitionLevels()[i]);
        }
        for (int i = 0; i < batch.valueCount(); i++) {
          values.add(switch (batch.type()) {
            case BOOLEAN -> batch.booleans()[i];
            case INT32 -> batch.ints()[i];
            case INT64 -> batch.longs()[i];
            case FLOAT -> batch.floats()[i];
            case DOUBLE -> batch.doubles()[i];
            case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> batch.binaries().get(i);
          });
        }
      }
      assertEquals(reader.rowGroups().get(rowGroup).numRows(), columnReader.rowsRead());
    }
    return new ColumnData(toArray(rep), toArray(def), values);
  }

  private static List<List<ColumnData>> parquetJavaColumns(Path file) throws Exception {
    List<List<ColumnData>> out = new ArrayList<>();
    try (org.apache.parquet.hadoop.ParquetFileReader reader =
        org.apache.parquet.hadoop.ParquetFileReader.open(new LocalInputFile(file))) {
      MessageType schema = reader.getFooter().getFileMetaData().getSchema();
      String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
      PageReadStore store;
      while ((store = reader.readNextRowGroup()) != null) {
        ColumnReadStoreImpl columns = new ColumnReadStoreImpl(store,
            new GroupRecordConverter(schema).getRootConverter(), schema, createdBy);
        List<ColumnData> group = new ArrayList<>();
        for (org.apache.parquet.column.ColumnDescriptor c : schema.getColumns()) {
          group.add(theirColumn(columns.getColumnReader(c), c));
        }
        out.add(group);
      }
    }
    return out;
  }

  private static ColumnData theirColumn(ColumnReader reader,
      org.apache.parquet.column.ColumnDescriptor c) {
    long n = reader.getTotalValueCount();
    int[] rep = new int[(int) n];
    int[] def = new int[(int) n];
    List<Object> values = new ArrayList<>();
    PrimitiveTypeName type = c.getPrimitiveType().getPrimitiveTypeName();
    for (int i = 0; i < n; i++) {
      rep[i] = reader.getCurrentRepetitionLevel();
      def[i] = reader.getCurrentDefinitionLevel();
      if (def[i] == c.getMaxDefinitionLevel()) {
        values.add(switch (type) {
          case BOOLEAN -> reader.getBoolean();
          case INT32 -> reader.getInteger();
          case INT64 -> reader.getLong();
          case FLOAT -> reader.getFloat();
          case DOUBLE -> reader.getDouble();
          case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> reader.getBinary().getBytes();
        });
      }
      reader.consume();
    }
    return new ColumnData(rep, def, values);
  }

  private static int[] toArray(List<Integer> list) {
    return list.stream().mapToInt(Integer::intValue).toArray();
  }
}
