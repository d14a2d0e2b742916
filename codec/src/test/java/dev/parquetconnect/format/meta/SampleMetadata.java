package dev.parquetconnect.format.meta;

import java.util.List;

/**
 * Hand-built metadata values: every struct with all optional fields set ({@code full...}) and with
 * none set ({@code minimal...}), including the fields newer than parquet-java 1.16.
 */
final class SampleMetadata {
  private SampleMetadata() {}

  static final List<LogicalType> ALL_LOGICAL_TYPES =
      List.of(
          LogicalType.STRING,
          LogicalType.MAP,
          LogicalType.LIST,
          LogicalType.ENUM,
          new LogicalType.DecimalType(2, 9),
          LogicalType.DATE,
          new LogicalType.TimeType(true, TimeUnit.MILLIS),
          new LogicalType.TimeType(false, TimeUnit.NANOS),
          new LogicalType.TimestampType(true, TimeUnit.MICROS),
          new LogicalType.TimestampType(false, TimeUnit.NANOS),
          new LogicalType.IntType((byte) 8, true),
          new LogicalType.IntType((byte) 64, false),
          LogicalType.UNKNOWN,
          LogicalType.JSON,
          LogicalType.BSON,
          LogicalType.UUID,
          LogicalType.FLOAT16,
          new LogicalType.VariantType(null),
          new LogicalType.VariantType((byte) 1),
          new LogicalType.GeometryType(null),
          new LogicalType.GeometryType("OGC:CRS84"),
          new LogicalType.GeographyType(null, null),
          new LogicalType.GeographyType("srid:4326", EdgeInterpolationAlgorithm.KARNEY),
          LogicalType.FILE);

  static Statistics fullStatistics() {
    return new Statistics(
        ByteString.ofUtf8("zz"),
        ByteString.ofUtf8("aa"),
        7L,
        3L,
        ByteString.ofUtf8("zzz"),
        ByteString.EMPTY,
        true,
        false,
        2L);
  }

  static SchemaElement fullSchemaElement(LogicalType logicalType) {
    return new SchemaElement(
        PhysicalType.FIXED_LEN_BYTE_ARRAY,
        16,
        FieldRepetitionType.REPEATED,
        "naïve \uD83D\uDE00",
        0,
        ConvertedType.INTERVAL,
        3,
        10,
        42,
        logicalType);
  }

  static SchemaElement minimalSchemaElement() {
    return new SchemaElement(null, null, null, "", null, null, null, null, null, null);
  }

  static ColumnMetaData fullColumnMetaData() {
    return new ColumnMetaData(
        PhysicalType.DOUBLE,
        List.of(Encoding.PLAIN, Encoding.RLE_DICTIONARY, Encoding.BYTE_STREAM_SPLIT),
        List.of("a", "b.c", ""),
        CompressionCodec.LZ4_RAW,
        Long.MAX_VALUE,
        123_456_789_012L,
        -1L,
        List.of(new KeyValue("k", "v"), new KeyValue("no value", null)),
        4L,
        99L,
        0L,
        fullStatistics(),
        List.of(
            new PageEncodingStats(PageType.DICTIONARY_PAGE, Encoding.PLAIN, 1),
            new PageEncodingStats(PageType.DATA_PAGE_V2, Encoding.RLE_DICTIONARY, 12)),
        1_000_000L,
        4096,
        new SizeStatistics(77L, List.of(1L, 2L, 3L), List.of(0L, Long.MAX_VALUE)),
        new GeospatialStatistics(
            new BoundingBox(-1.5, 2.5, -90, 90, 0.0, 100.0, -0.0, 1e300), List.of(1, 3, 1006)));
  }

  static ColumnMetaData minimalColumnMetaData() {
    return new ColumnMetaData(
        PhysicalType.BOOLEAN,
        List.of(),
        List.of("x"),
        CompressionCodec.UNCOMPRESSED,
        0,
        0,
        0,
        null,
        0,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  static ColumnChunk fullColumnChunk() {
    return new ColumnChunk(
        "other/file.parquet",
        4L,
        fullColumnMetaData(),
        1000L,
        20,
        2000L,
        30,
        new ColumnCryptoMetaData(
            ColumnCryptoMetaData.Kind.COLUMN_KEY, List.of("a", "b"), ByteString.ofUtf8("key")),
        ByteString.copyOf(new byte[] {1, 2, 3}));
  }

  static ColumnChunk minimalColumnChunk() {
    return new ColumnChunk(null, 0, null, null, null, null, null, null, null);
  }

  static RowGroup fullRowGroup() {
    return new RowGroup(
        List.of(
            fullColumnChunk(),
            minimalColumnChunk(),
            new ColumnChunk(
                null,
                9,
                minimalColumnMetaData(),
                null,
                null,
                null,
                null,
                ColumnCryptoMetaData.FOOTER_KEY,
                null)),
        10_000L,
        500L,
        List.of(new SortingColumn(0, true, false), new SortingColumn(2, false, true)),
        4L,
        9_000L,
        (short) 3);
  }

  static RowGroup minimalRowGroup() {
    return new RowGroup(List.of(), 0, 0, null, null, null, null);
  }

  static FileMetaData fullFileMetaData() {
    List<SchemaElement> schema = new java.util.ArrayList<>();
    schema.add(
        new SchemaElement(
            null,
            null,
            null,
            "schema",
            ALL_LOGICAL_TYPES.size() + 1,
            null,
            null,
            null,
            null,
            null));
    for (LogicalType t : ALL_LOGICAL_TYPES) {
      schema.add(fullSchemaElement(t));
    }
    schema.add(minimalSchemaElement());
    return new FileMetaData(
        2,
        schema,
        1_000L,
        List.of(fullRowGroup(), minimalRowGroup()),
        List.of(new KeyValue("ARROW:schema", "abc"), new KeyValue("k", null)),
        "parquet-connect version 0.1.0",
        List.of(ColumnOrder.TYPE_DEFINED, ColumnOrder.IEEE_754_TOTAL, ColumnOrder.INT96_TIMESTAMP),
        new EncryptionAlgorithm(
            EncryptionAlgorithm.Kind.AES_GCM_CTR_V1,
            ByteString.ofUtf8("prefix"),
            ByteString.ofUtf8("unique"),
            true),
        ByteString.ofUtf8("signing key"));
  }

  static FileMetaData minimalFileMetaData() {
    return new FileMetaData(0, List.of(), 0, List.of(), null, null, null, null, null);
  }

  static PageHeader fullPageHeader() {
    return new PageHeader(
        PageType.DATA_PAGE,
        100,
        80,
        0xCAFEBABE,
        new DataPageHeader(10, Encoding.PLAIN, Encoding.RLE, Encoding.BIT_PACKED, fullStatistics()),
        IndexPageHeader.INSTANCE,
        new DictionaryPageHeader(5, Encoding.PLAIN_DICTIONARY, true),
        new DataPageHeaderV2(10, 2, 8, Encoding.DELTA_BYTE_ARRAY, 3, 4, false, fullStatistics()));
  }

  static List<PageHeader> minimalPageHeaders() {
    return List.of(
        new PageHeader(PageType.DATA_PAGE, 0, 0, null, null, null, null, null),
        new PageHeader(
            PageType.DATA_PAGE,
            1,
            1,
            null,
            new DataPageHeader(0, Encoding.PLAIN, Encoding.RLE, Encoding.RLE, null),
            null,
            null,
            null),
        new PageHeader(PageType.INDEX_PAGE, 0, 0, null, null, IndexPageHeader.INSTANCE, null, null),
        new PageHeader(
            PageType.DICTIONARY_PAGE,
            2,
            2,
            null,
            null,
            null,
            new DictionaryPageHeader(0, Encoding.PLAIN, null),
            null),
        new PageHeader(
            PageType.DATA_PAGE_V2,
            3,
            3,
            null,
            null,
            null,
            null,
            new DataPageHeaderV2(0, 0, 0, Encoding.PLAIN, 0, 0, null, null)),
        new PageHeader(
            PageType.DATA_PAGE_V2,
            3,
            3,
            null,
            null,
            null,
            null,
            new DataPageHeaderV2(0, 0, 0, Encoding.PLAIN, 0, 0, null, Statistics.EMPTY)));
  }

  static ColumnIndex fullColumnIndex() {
    return new ColumnIndex(
        List.of(false, true, false),
        List.of(ByteString.ofUtf8("a"), ByteString.EMPTY, ByteString.ofUtf8("m")),
        List.of(ByteString.ofUtf8("f"), ByteString.EMPTY, ByteString.ofUtf8("z")),
        BoundaryOrder.ASCENDING,
        List.of(0L, 5L, 1L),
        List.of(1L, 2L, 3L, 4L, 5L, 6L),
        List.of(6L, 5L, 4L, 3L, 2L, 1L),
        List.of(0L, 0L, 9L));
  }

  static ColumnIndex minimalColumnIndex() {
    return new ColumnIndex(
        List.of(), List.of(), List.of(), BoundaryOrder.UNORDERED, null, null, null, null);
  }

  static OffsetIndex fullOffsetIndex() {
    return new OffsetIndex(
        List.of(new PageLocation(4, 100, 0), new PageLocation(104, 2_000_000_000, 1L << 40)),
        List.of(10L, 20L));
  }

  static OffsetIndex minimalOffsetIndex() {
    return new OffsetIndex(List.of(), null);
  }

  static BloomFilterHeader bloomFilterHeader() {
    return new BloomFilterHeader(
        1024,
        BloomFilterHeader.Algorithm.BLOCK,
        BloomFilterHeader.Hash.XXHASH,
        BloomFilterHeader.Compression.UNCOMPRESSED);
  }
}
