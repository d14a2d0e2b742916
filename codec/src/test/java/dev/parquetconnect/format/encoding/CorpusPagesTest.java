package dev.parquetconnect.format.encoding;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.PhysicalType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real pages written by other implementations (parquet-java, Impala, Spark, Arrow C++, arrow-rs)
 * from the shared parquet-testing corpus: parquet-java extracts and decompresses each page, then
 * decodes its levels and values; our decoders must produce the same from the same bytes. Pages in
 * encodings another package handles (DELTA_*, BYTE_STREAM_SPLIT) are passed over.
 */
class CorpusPagesTest {
  private static final Path DATA =
      Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "data/alltypes_plain.parquet",
        "data/alltypes_plain.snappy.parquet",
        "data/alltypes_dictionary.parquet",
        "data/alltypes_tiny_pages.parquet",
        "data/binary.parquet",
        "data/byte_array_decimal.parquet",
        "data/datapage_v1-uncompressed-checksum.parquet",
        "data/datapage_v1-snappy-compressed-checksum.parquet",
        "data/datapage_v2.snappy.parquet",
        "data/dict-page-offset-zero.parquet",
        "data/fixed_length_byte_array.parquet",
        "data/fixed_length_decimal.parquet",
        "data/fixed_length_decimal_legacy.parquet",
        "data/float16_nonzeros_and_nans.parquet",
        "data/floating_orders_nan_count.parquet",
        "data/int32_decimal.parquet",
        "data/int64_decimal.parquet",
        "data/int96_from_spark.parquet",
        "data/list_columns.parquet",
        "data/nan_in_stats.parquet",
        "data/nested_lists.snappy.parquet",
        "data/nested_maps.snappy.parquet",
        "data/nonnullable.impala.parquet",
        "data/nullable.impala.parquet",
        "data/nulls.snappy.parquet",
        "data/old_list_structure.parquet",
        "data/plain-dict-uncompressed-checksum.parquet",
        "data/repeated_no_annotation.parquet",
        "data/rle-dict-snappy-checksum.parquet",
        "data/rle_boolean_encoding.parquet",
        "data/single_nan.parquet",
        "bad_data/ARROW-GH-43605.parquet"
      })
  void ourDecodersAgreeWithParquetJavaOnEveryPage(String file)
      throws IOException, ParquetException {
    Path path = DATA.resolve(file);
    assertTrue(Files.isRegularFile(path), "corpus file missing: " + path);
    int compared = 0;
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(path))) {
      var schema = reader.getFooter().getFileMetaData().getSchema();
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        for (ColumnDescriptor column : schema.getColumns()) {
          compared += compareColumnChunk(column, rowGroup.getPageReader(column), file);
        }
      }
    }
    assertTrue(compared > 0, file + ": no page in this package's encodings");
  }

  private static int compareColumnChunk(ColumnDescriptor column, PageReader pages, String file)
      throws IOException, ParquetException {
    String typeName = column.getPrimitiveType().getPrimitiveTypeName().name();
    PhysicalType type =
        typeName.equals("BINARY") ? PhysicalType.BYTE_ARRAY : PhysicalType.valueOf(typeName);
    int typeLength = column.getPrimitiveType().getTypeLength();
    DictionaryPage dictPage = pages.readDictionaryPage();
    Dictionary ours = null;
    org.apache.parquet.column.Dictionary theirs = null;
    if (dictPage != null) {
      // A decompressed page can be read once: keep a copy for both decoders.
      dictPage = dictPage.copy();
      byte[] bytes = ParquetJava.bytes(dictPage.getBytes());
      ours =
          Dictionary.decode(type, typeLength, bytes, 0, bytes.length, dictPage.getDictionarySize());
      theirs = dictPage.getEncoding().initDictionary(column, dictPage);
    }
    int compared = 0;
    DataPage page;
    int pageNumber = 0;
    while ((page = pages.readPage()) != null) {
      String where = file + " column " + column + " page " + pageNumber++;
      if (page instanceof DataPageV1 v1) {
        compared += compareV1(column, type, typeLength, v1, ours, theirs, where);
      } else {
        compared += compareV2(column, type, typeLength, (DataPageV2) page, ours, theirs, where);
      }
    }
    return compared;
  }

  private static int compareV1(
      ColumnDescriptor column,
      PhysicalType type,
      int typeLength,
      DataPageV1 page,
      Dictionary ours,
      org.apache.parquet.column.Dictionary theirs,
      String where)
      throws IOException, ParquetException {
    byte[] body = ParquetJava.bytes(page.getBytes());
    int n = page.getValueCount();
    ByteBufferInputStream in = ByteBufferInputStream.wrap(ByteBuffer.wrap(body));
    int[] theirRep = readLevels(page.getRlEncoding(), column, ValuesType.REPETITION_LEVEL, n, in);
    int[] theirDef = readLevels(page.getDlEncoding(), column, ValuesType.DEFINITION_LEVEL, n, in);

    LevelsDecoder levels = new LevelsDecoder();
    int at =
        levels.initV1(
            ours(page.getRlEncoding()), column.getMaxRepetitionLevel(), body, 0, body.length, n);
    int[] rep = new int[n];
    levels.read(rep, 0, n);
    at +=
        levels.initV1(
            ours(page.getDlEncoding()),
            column.getMaxDefinitionLevel(),
            body,
            at,
            body.length - at,
            n);
    int[] def = new int[n];
    levels.read(def, 0, n);
    assertArrayEquals(theirRep, rep, where + " repetition levels");
    assertArrayEquals(theirDef, def, where + " definition levels");
    assertEquals(in.position(), at, where + " end of levels");
    return compareValues(
        column,
        type,
        typeLength,
        page.getValueEncoding(),
        body,
        at,
        nonNull(def, column),
        in,
        ours,
        theirs,
        where);
  }

  private static int compareV2(
      ColumnDescriptor column,
      PhysicalType type,
      int typeLength,
      DataPageV2 page,
      Dictionary ours,
      org.apache.parquet.column.Dictionary theirs,
      String where)
      throws IOException, ParquetException {
    int n = page.getValueCount();
    byte[] repBytes = ParquetJava.bytes(page.getRepetitionLevels());
    byte[] defBytes = ParquetJava.bytes(page.getDefinitionLevels());
    LevelsDecoder levels = new LevelsDecoder();
    int[] def = new int[n];
    levels.initV2(column.getMaxDefinitionLevel(), defBytes, 0, defBytes.length, n);
    levels.read(def, 0, n);
    int[] rep = new int[n];
    levels.initV2(column.getMaxRepetitionLevel(), repBytes, 0, repBytes.length, n);
    levels.read(rep, 0, n);
    if (column.getMaxDefinitionLevel() > 0) {
      int[] theirDef = readLevelsV2(column.getMaxDefinitionLevel(), defBytes, n);
      assertArrayEquals(theirDef, def, where + " definition levels");
    }
    if (column.getMaxRepetitionLevel() > 0) {
      assertArrayEquals(
          readLevelsV2(column.getMaxRepetitionLevel(), repBytes, n),
          rep,
          where + " repetition levels");
    }
    byte[] data = ParquetJava.bytes(page.getData());
    ByteBufferInputStream in = ByteBufferInputStream.wrap(ByteBuffer.wrap(data));
    return compareValues(
        column,
        type,
        typeLength,
        page.getDataEncoding(),
        data,
        0,
        nonNull(def, column),
        in,
        ours,
        theirs,
        where);
  }

  /** Values: ours from {@code body[at..]}, theirs from {@code in}; 1 if compared, else 0. */
  private static int compareValues(
      ColumnDescriptor column,
      PhysicalType type,
      int typeLength,
      Encoding encoding,
      byte[] body,
      int at,
      int count,
      ByteBufferInputStream in,
      Dictionary ours,
      org.apache.parquet.column.Dictionary theirs,
      String where)
      throws IOException, ParquetException {
    ValuesDecoder decoder;
    ValuesReader reader;
    switch (encoding) {
      case PLAIN -> {
        decoder = new PlainDecoder(type, typeLength);
        reader = encoding.getValuesReader(column, ValuesType.VALUES);
      }
      case PLAIN_DICTIONARY, RLE_DICTIONARY -> {
        decoder = new DictionaryDecoder(ours);
        reader = encoding.getDictionaryBasedValuesReader(column, ValuesType.VALUES, theirs);
      }
      case RLE -> {
        decoder = new RleBitPackedHybridDecoder(1, true);
        reader = encoding.getValuesReader(column, ValuesType.VALUES);
      }
      default -> {
        return 0; // DELTA_* and BYTE_STREAM_SPLIT belong to another package
      }
    }
    decoder.init(body, at, body.length - at, count);
    reader.initFromPage(count, in);
    PlainCodecTest.Column expected = PlainCodecTest.Column.readFrom(reader, type, count);
    PlainCodecTest.Column actual =
        PlainCodecTest.Column.read(decoder, type, count, new java.util.Random(count));
    expected.assertSame(actual, where + " values (" + encoding + ")");
    return 1;
  }

  private static int nonNull(int[] def, ColumnDescriptor column) {
    int max = column.getMaxDefinitionLevel();
    int count = 0;
    for (int d : def) {
      if (d == max) {
        count++;
      }
    }
    return count;
  }

  private static int[] readLevels(
      Encoding encoding, ColumnDescriptor column, ValuesType kind, int n, ByteBufferInputStream in)
      throws IOException {
    ValuesReader reader = encoding.getValuesReader(column, kind);
    reader.initFromPage(n, in);
    int[] levels = new int[n];
    for (int i = 0; i < n; i++) {
      levels[i] = reader.readInteger();
    }
    return levels;
  }

  private static int[] readLevelsV2(int maxLevel, byte[] bytes, int n) throws IOException {
    var decoder =
        new org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder(
            BitPacking.bitWidth(maxLevel), new java.io.ByteArrayInputStream(bytes));
    int[] levels = new int[n];
    for (int i = 0; i < n; i++) {
      levels[i] = decoder.readInt();
    }
    return levels;
  }

  private static dev.parquetconnect.format.meta.Encoding ours(Encoding encoding) {
    return dev.parquetconnect.format.meta.Encoding.valueOf(encoding.name());
  }
}
