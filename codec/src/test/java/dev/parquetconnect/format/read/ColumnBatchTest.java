package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.DictionaryBinaryBatch;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaFeatureWriter;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
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
 * The columnar batch API against parquet-java's own column reader: for every column of every row
 * group, the same repetition levels, definition levels and non-null values, in the same order,
 * whatever the batch size (batches cut pages and records anywhere).
 */
class ColumnBatchTest {
  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(
      strings = {
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
      ParquetJavaOracle.write(
          file,
          schema,
          rows,
          new ParquetJavaOracle.WriteOptions(
              CompressionCodecName.SNAPPY, true, version, 2048, 64 * 1024));
      for (int batch : new int[] {1, 100, 4096}) {
        compareEveryColumn(file, batch);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "data/alltypes_tiny_pages.parquet", "data/nested_lists.snappy.parquet",
        "data/nested_maps.snappy.parquet", "data/nullable.impala.parquet",
        "data/datapage_v2.snappy.parquet", "data/int96_from_spark.parquet",
        "data/fixed_length_byte_array.parquet", "data/alltypes_dictionary.parquet",
        "data/binary.parquet", "data/dict-page-offset-zero.parquet"
      })
  void corpusColumnsMatchParquetJavaWithDictionaryBatches(String name) throws Exception {
    Path file = ReadAssertions.corpus().resolve(name);
    compareEveryColumn(file, 7, true);
    compareEveryColumn(file, 4096, true);
  }

  @Test
  void dictionaryBatchesOfNullableAndNestedColumnsForV1AndV2() throws Exception {
    var schema = ReadTestData.schema();
    var rows = ReadTestData.rows(schema, 600, 12);
    for (WriterVersion version : WriterVersion.values()) {
      Path file = dir.resolve(version + ".parquet");
      ParquetJavaOracle.write(
          file,
          schema,
          rows,
          new ParquetJavaOracle.WriteOptions(
              CompressionCodecName.SNAPPY, true, version, 2048, 64 * 1024));
      FormsSeen seen = new FormsSeen();
      for (int batch : new int[] {1, 100, 4096}) {
        seen.add(compareEveryColumn(file, batch, true));
      }
      assertTrue(seen.dictionary > 0, version + ": dictionary-encoded batches expected");
    }
  }

  @Test
  void dictionaryBatchesFallBackToPlainWithinAChunk() throws Exception {
    // Four distinct values for 300 rows, then every value new, under a 1 KiB dictionary limit:
    // parquet-java writes dictionary pages of 37 rows, then falls back to plain pages once the
    // dictionary is full. Large batches span the switch, so their dictionary-encoded values are
    // materialised before the plain ones follow.
    var schema = fallbackSchema();
    var rows = fallbackRows(schema, 1200);
    for (WriterVersion version : WriterVersion.values()) {
      Path file = dir.resolve("fallback-" + version + ".parquet");
      ParquetJavaFeatureWriter.write(
          file,
          schema,
          rows,
          b ->
              b.withWriterVersion(version)
                  .withDictionaryPageSize(1024)
                  .withPageRowCountLimit(37)
                  .withCompressionCodec(CompressionCodecName.GZIP));
      // Record assembly reads binary columns through dictionary batches too.
      ReadAssertions.assertSameRows(rows, ReadAssertions.readAll(file), version + " rows");
      FormsSeen small = compareEveryColumn(file, 5, true);
      FormsSeen large = compareEveryColumn(file, 4096, true);
      assertTrue(
          small.dictionary > 0 && small.plainInDictionaryChunk > 0,
          version + ": both forms in chunks that fall back, " + small);
      // A chunk whose first 5 entries arrive dictionary-encoded but whose first 4096 arrive
      // plain: that large batch began with indices and was materialised at the switch.
      java.util.Set<String> switched = new java.util.TreeSet<>(small.firstBatchDictionary);
      switched.retainAll(large.firstBatchPlain);
      assertTrue(
          !switched.isEmpty(),
          version
              + ": batches that start dictionary-encoded and end plain; small "
              + small
              + "; large "
              + large);
    }
  }

  /** Binary columns of each kind, optional (nulls), and in a list (repetition). */
  static dev.parquetconnect.format.schema.MessageType fallbackSchema() {
    return new dev.parquetconnect.format.schema.MessageType(
        "fallback",
        List.of(
            PrimitiveNode.of("id", FieldRepetitionType.REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("str", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.fixed("fixed", FieldRepetitionType.OPTIONAL, 6),
            PrimitiveNode.of("ts96", FieldRepetitionType.OPTIONAL, PhysicalType.INT96),
            NestedTypes.list(
                "tags",
                FieldRepetitionType.OPTIONAL,
                PrimitiveNode.of("e", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING))));
  }

  static List<Row> fallbackRows(dev.parquetconnect.format.schema.MessageType schema, int count) {
    GroupNode root = schema.root();
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int v = i < 300 ? i % 4 : i; // few distinct values first, then all distinct
      Row row = new Row(root);
      row.set(0, (long) i);
      row.set(
          1,
          i % 7 == 3
              ? null
              : ("value-" + v + "-" + "x".repeat(v % 23)).getBytes(StandardCharsets.UTF_8));
      row.set(2, i % 5 == 1 ? null : new byte[] {1, 2, 3, 4, (byte) v, (byte) (v >> 8)});
      byte[] ts = new byte[12];
      ts[0] = (byte) v;
      ts[11] = (byte) (v >> 8);
      row.set(3, i % 6 == 2 ? null : ts);
      List<Object> tags = new ArrayList<>();
      for (int k = 0; k < i % 4; k++) {
        tags.add(k == 1 ? null : ("tag-" + (v + k)).getBytes(StandardCharsets.UTF_8));
      }
      row.set(4, i % 9 == 4 ? null : tags);
      rows.add(row);
    }
    return rows;
  }

  @Test
  void batchesMustFitTheirColumn() throws Exception {
    Path file = ReadAssertions.corpus().resolve("data/alltypes_plain.parquet");
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        dev.parquetconnect.format.read.ColumnReader column =
            reader.columnReader(0, reader.schema().column(0))) {
      ColumnBatch wrongType =
          new ColumnBatch(dev.parquetconnect.format.meta.PhysicalType.DOUBLE, 8);
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
    compareEveryColumn(file, batchSize, false);
  }

  /** Which forms the batches of binary columns took, in a read with dictionary batches. */
  private static final class FormsSeen {
    int dictionary;
    int plainInDictionaryChunk;

    /** Chunks ("rowGroup/column") whose first batch was dictionary-encoded, or plain. */
    final java.util.Set<String> firstBatchDictionary = new java.util.TreeSet<>();

    final java.util.Set<String> firstBatchPlain = new java.util.TreeSet<>();

    void add(FormsSeen other) {
      dictionary += other.dictionary;
      plainInDictionaryChunk += other.plainInDictionaryChunk;
    }

    @Override
    public String toString() {
      return "dictionary "
          + dictionary
          + ", plain in dictionary chunks "
          + plainInDictionaryChunk
          + ", first batch dictionary-encoded "
          + firstBatchDictionary
          + ", plain "
          + firstBatchPlain;
    }
  }

  /**
   * As above; with {@code dictionaryBatches}, binary columns are read into batches that keep
   * dictionary encoding, and their values taken from whichever form each batch holds.
   */
  private static FormsSeen compareEveryColumn(Path file, int batchSize, boolean dictionaryBatches)
      throws Exception {
    FormsSeen seen = new FormsSeen();
    List<List<ColumnData>> theirs = parquetJavaColumns(file);
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      assertEquals(theirs.size(), reader.rowGroups().size());
      for (int g = 0; g < theirs.size(); g++) {
        for (ColumnDescriptor column : reader.schema().columns()) {
          ColumnData expected = theirs.get(g).get(column.index());
          ColumnData actual = ours(reader, g, column, batchSize, dictionaryBatches, seen);
          String where = file.getFileName() + " row group " + g + " " + column;
          assertArrayEquals(expected.rep(), actual.rep(), where + " repetition levels");
          assertArrayEquals(expected.def(), actual.def(), where + " definition levels");
          assertEquals(expected.values().size(), actual.values().size(), where + " values");
          for (int i = 0; i < expected.values().size(); i++) {
            assertTrue(
                Arrays.deepEquals(
                    new Object[] {expected.values().get(i)}, new Object[] {actual.values().get(i)}),
                where + " value " + i);
          }
        }
      }
    }
    return seen;
  }

  private record ColumnData(int[] rep, int[] def, List<Object> values) {}

  private static ColumnData ours(
      ParquetFileReader reader,
      int rowGroup,
      ColumnDescriptor column,
      int batchSize,
      boolean dictionaryBatches,
      FormsSeen seen)
      throws Exception {
    List<Integer> rep = new ArrayList<>();
    List<Integer> def = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    boolean hasDictionary =
        reader
            .rowGroups()
            .get(rowGroup)
            .columns()
            .get(column.index())
            .metaData()
            .encodings()
            .stream()
            .anyMatch(e -> e.usesDictionary());
    try (dev.parquetconnect.format.read.ColumnReader columnReader =
        reader.columnReader(rowGroup, column)) {
      ColumnBatch batch = columnReader.newBatch(batchSize, dictionaryBatches);
      int batchNumber = 0;
      while (columnReader.readBatch(batch) > 0) {
        batchNumber++;
        String chunk = rowGroup + "/" + column.dottedPath();
        if (batch.isDictionaryEncoded()) {
          seen.dictionary++;
          if (batchNumber == 1) {
            seen.firstBatchDictionary.add(chunk);
          }
          DictionaryBinaryBatch encoded = batch.dictionaryBinaries();
          assertEquals(batch.valueCount(), encoded.count());
          assertEquals(0, batch.binaries().count());
          for (int i = 0; i < encoded.count(); i++) {
            assertTrue(encoded.index(i) >= 0 && encoded.index(i) < encoded.dictionary().size());
          }
          if (batchNumber % 2 == 0) {
            // Every other batch through the contiguous form, which must hold the same values.
            List<byte[]> before = new ArrayList<>();
            for (int i = 0; i < encoded.count(); i++) {
              before.add(encoded.get(i));
            }
            BinaryBatch plain = batch.plainBinaries();
            assertTrue(!batch.isDictionaryEncoded() && plain.count() == before.size());
            for (int i = 0; i < before.size(); i++) {
              assertArrayEquals(before.get(i), plain.get(i));
            }
          }
        } else if (dictionaryBatches
            && batch.binaries() != null
            && batch.valueCount() > 0
            && hasDictionary) {
          seen.plainInDictionaryChunk++;
          if (batchNumber == 1) {
            seen.firstBatchPlain.add(chunk);
          }
        }
        for (int i = 0; i < batch.size(); i++) {
          rep.add(batch.repetitionLevels()[i]);
          def.add(batch.definitionLevels()[i]);
        }
        for (int i = 0; i < batch.valueCount(); i++) {
          values.add(
              switch (batch.type()) {
                case BOOLEAN -> batch.booleans()[i];
                case INT32 -> batch.ints()[i];
                case INT64 -> batch.longs()[i];
                case FLOAT -> batch.floats()[i];
                case DOUBLE -> batch.doubles()[i];
                case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY ->
                    batch.isDictionaryEncoded()
                        ? batch.dictionaryBinaries().get(i)
                        : batch.binaries().get(i);
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
        ColumnReadStoreImpl columns =
            new ColumnReadStoreImpl(
                store, new GroupRecordConverter(schema).getRootConverter(), schema, createdBy);
        List<ColumnData> group = new ArrayList<>();
        for (org.apache.parquet.column.ColumnDescriptor c : schema.getColumns()) {
          group.add(theirColumn(columns.getColumnReader(c), c));
        }
        out.add(group);
      }
    }
    return out;
  }

  private static ColumnData theirColumn(
      ColumnReader reader, org.apache.parquet.column.ColumnDescriptor c) {
    long n = reader.getTotalValueCount();
    int[] rep = new int[(int) n];
    int[] def = new int[(int) n];
    List<Object> values = new ArrayList<>();
    PrimitiveTypeName type = c.getPrimitiveType().getPrimitiveTypeName();
    for (int i = 0; i < n; i++) {
      rep[i] = reader.getCurrentRepetitionLevel();
      def[i] = reader.getCurrentDefinitionLevel();
      if (def[i] == c.getMaxDefinitionLevel()) {
        values.add(
            switch (type) {
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
