package dev.parquetconnect.format.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parquetconnect.format.io.GrowableBuffer;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Write then read gives back the same values, for every struct with all and with no optional field
 * set.
 */
class MetadataRoundTripTest {

  /**
   * A worked example of the compact protocol (Thrift's compact protocol specification): field
   * headers carry the id delta in the high nibble and the type in the low one (5 = i32, 12 =
   * struct), i32 values are zigzag varints, 0 ends a struct.
   */
  @Test
  void pageHeaderWorkedExample() throws Exception {
    byte[] bytes =
        HexFormat.of()
            .parseHex(
                "15"
                    + "00" // 1: type = DATA_PAGE (0)
                    + "15"
                    + "c801" // 2: uncompressed_page_size = 100 (zigzag 200)
                    + "15"
                    + "a001" // 3: compressed_page_size = 80 (zigzag 160)
                    + "2c" // 5 (delta 2): data_page_header struct
                    + "15"
                    + "14" //   1: num_values = 10
                    + "15"
                    + "00" //   2: encoding = PLAIN
                    + "15"
                    + "06" //   3: definition_level_encoding = RLE (3)
                    + "15"
                    + "06" //   4: repetition_level_encoding = RLE
                    + "00" //   end of data_page_header
                    + "00"); // end of PageHeader
    PageHeader expected =
        new PageHeader(
            PageType.DATA_PAGE,
            100,
            80,
            null,
            new DataPageHeader(10, Encoding.PLAIN, Encoding.RLE, Encoding.RLE, null),
            null,
            null,
            null);
    Decoded<PageHeader> decoded = MetadataCodec.readPageHeader(bytes, 0, bytes.length);
    assertEquals(expected, decoded.value());
    assertEquals(bytes.length, decoded.length());
    assertArrayEquals(bytes, MetadataOracleCrossCheckTest.write(expected));
  }

  @Test
  void fileMetaDataWithAllAndNoOptionalFields() throws Exception {
    for (FileMetaData m :
        List.of(SampleMetadata.fullFileMetaData(), SampleMetadata.minimalFileMetaData())) {
      byte[] bytes = MetadataOracleCrossCheckTest.write(m);
      assertEquals(m, MetadataCodec.readFileMetaData(bytes, 0, bytes.length));
    }
  }

  @Test
  void everyLogicalTypeInASchemaElement() throws Exception {
    for (LogicalType t : SampleMetadata.ALL_LOGICAL_TYPES) {
      FileMetaData m =
          new FileMetaData(
              1,
              List.of(SampleMetadata.fullSchemaElement(t)),
              0,
              List.of(),
              null,
              null,
              null,
              null,
              null);
      byte[] bytes = MetadataOracleCrossCheckTest.write(m);
      assertEquals(m, MetadataCodec.readFileMetaData(bytes, 0, bytes.length), t.toString());
    }
  }

  @Test
  void nestedStructsWithAllAndNoOptionalFields() throws Exception {
    // Each nested struct alone in an otherwise minimal footer, so a failure names the struct.
    List<FileMetaData> cases = new ArrayList<>();
    cases.add(withRowGroup(SampleMetadata.fullRowGroup()));
    cases.add(withRowGroup(SampleMetadata.minimalRowGroup()));
    for (ColumnChunk c :
        List.of(SampleMetadata.fullColumnChunk(), SampleMetadata.minimalColumnChunk())) {
      cases.add(withRowGroup(new RowGroup(List.of(c), 1, 1, null, null, null, null)));
    }
    for (ColumnMetaData c :
        List.of(SampleMetadata.fullColumnMetaData(), SampleMetadata.minimalColumnMetaData())) {
      cases.add(
          withRowGroup(
              new RowGroup(
                  List.of(new ColumnChunk(null, 0, c, null, null, null, null, null, null)),
                  1,
                  1,
                  null,
                  null,
                  null,
                  null)));
    }
    ColumnMetaData base = SampleMetadata.minimalColumnMetaData();
    for (Statistics s : List.of(SampleMetadata.fullStatistics(), Statistics.EMPTY)) {
      cases.add(withColumn(base, s, null, null));
    }
    for (SizeStatistics s :
        List.of(
            new SizeStatistics(1L, List.of(), List.of(2L)), new SizeStatistics(null, null, null))) {
      cases.add(withColumn(base, null, s, null));
    }
    for (GeospatialStatistics g :
        List.of(
            new GeospatialStatistics(
                new BoundingBox(1, 2, 3, 4, null, null, null, null), List.of()),
            new GeospatialStatistics(null, null))) {
      cases.add(withColumn(base, null, null, g));
    }
    for (EncryptionAlgorithm a :
        List.of(
            new EncryptionAlgorithm(EncryptionAlgorithm.Kind.AES_GCM_V1, null, null, null),
            new EncryptionAlgorithm(
                EncryptionAlgorithm.Kind.AES_GCM_V1,
                ByteString.ofUtf8("p"),
                ByteString.ofUtf8("u"),
                false))) {
      cases.add(new FileMetaData(1, List.of(), 0, List.of(), null, null, null, a, null));
    }
    cases.add(
        new FileMetaData(
            1, List.of(), 0, List.of(), List.of(), "", List.of(), null, ByteString.EMPTY));
    for (FileMetaData m : cases) {
      byte[] bytes = MetadataOracleCrossCheckTest.write(m);
      assertEquals(m, MetadataCodec.readFileMetaData(bytes, 0, bytes.length));
    }
  }

  @Test
  void pageHeadersWithAllAndNoOptionalFields() throws Exception {
    List<PageHeader> headers = new ArrayList<>(SampleMetadata.minimalPageHeaders());
    headers.add(SampleMetadata.fullPageHeader());
    for (PageHeader h : headers) {
      byte[] bytes = MetadataOracleCrossCheckTest.write(h);
      Decoded<PageHeader> decoded = MetadataCodec.readPageHeader(bytes, 0, bytes.length);
      assertEquals(h, decoded.value());
      assertEquals(bytes.length, decoded.length());
      assertEquals(h, MetadataCodec.readPageHeader(new ByteArrayInputStream(bytes)));
    }
  }

  @Test
  void pageIndexAndBloomHeaderWithAllAndNoOptionalFields() throws Exception {
    for (ColumnIndex c :
        List.of(SampleMetadata.fullColumnIndex(), SampleMetadata.minimalColumnIndex())) {
      byte[] bytes = MetadataOracleCrossCheckTest.write(c);
      assertEquals(c, MetadataCodec.readColumnIndex(bytes, 0, bytes.length));
    }
    for (OffsetIndex o :
        List.of(SampleMetadata.fullOffsetIndex(), SampleMetadata.minimalOffsetIndex())) {
      byte[] bytes = MetadataOracleCrossCheckTest.write(o);
      assertEquals(o, MetadataCodec.readOffsetIndex(bytes, 0, bytes.length));
    }
    BloomFilterHeader b = SampleMetadata.bloomFilterHeader();
    byte[] bytes = MetadataOracleCrossCheckTest.write(b);
    Decoded<BloomFilterHeader> decoded =
        MetadataCodec.readBloomFilterHeader(bytes, 0, bytes.length);
    assertEquals(b, decoded.value());
    assertEquals(bytes.length, decoded.length());
  }

  @Test
  void writingAppendsAfterExistingContentAndTrailingBytesAreIgnored() throws Exception {
    GrowableBuffer out = new GrowableBuffer(16);
    out.write(new byte[] {9, 9, 9});
    PageHeader first = SampleMetadata.fullPageHeader();
    PageHeader second = SampleMetadata.minimalPageHeaders().get(1);
    MetadataCodec.write(first, out);
    int firstEnd = out.size();
    MetadataCodec.write(second, out);
    out.write(new byte[] {7, 7});
    byte[] all = out.toByteArray();

    Decoded<PageHeader> a = MetadataCodec.readPageHeader(all, 3, all.length - 3);
    assertEquals(first, a.value());
    assertEquals(firstEnd - 3, a.length());
    Decoded<PageHeader> b = MetadataCodec.readPageHeader(all, firstEnd, all.length - firstEnd);
    assertEquals(second, b.value());
    assertEquals(all.length - 2 - firstEnd, b.length());
  }

  @Test
  void recordsAreImmutableValues() {
    byte[] raw = {1, 2, 3};
    ByteString s = ByteString.copyOf(raw);
    raw[0] = 9;
    assertEquals(1, s.byteAt(0));
    s.toByteArray()[1] = 9;
    assertEquals(2, s.byteAt(1));
    assertEquals(ByteString.copyOf(new byte[] {1, 2, 3}), s);
    assertEquals("0x010203", s.toString());

    List<Encoding> encodings = new ArrayList<>(List.of(Encoding.PLAIN));
    ColumnMetaData c =
        new ColumnMetaData(
            PhysicalType.INT32,
            encodings,
            List.of("a"),
            CompressionCodec.SNAPPY,
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
    encodings.add(Encoding.RLE);
    assertEquals(List.of(Encoding.PLAIN), c.encodings());
    assertThrows(UnsupportedOperationException.class, () -> c.encodings().add(Encoding.RLE));
    assertThrows(NullPointerException.class, () -> new KeyValue(null, "v"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new PageHeader(PageType.DATA_PAGE, -1, 0, null, null, null, null, null));
  }

  private static FileMetaData withRowGroup(RowGroup g) {
    return new FileMetaData(1, List.of(), 0, List.of(g), null, null, null, null, null);
  }

  private static FileMetaData withColumn(
      ColumnMetaData c, Statistics s, SizeStatistics size, GeospatialStatistics geo) {
    ColumnMetaData column =
        new ColumnMetaData(
            c.type(),
            c.encodings(),
            c.pathInSchema(),
            c.codec(),
            c.numValues(),
            c.totalUncompressedSize(),
            c.totalCompressedSize(),
            null,
            c.dataPageOffset(),
            null,
            null,
            s,
            null,
            null,
            null,
            size,
            geo);
    return withRowGroup(
        new RowGroup(
            List.of(new ColumnChunk(null, 0, column, null, null, null, null, null, null)),
            1,
            1,
            null,
            null,
            null,
            null));
  }
}
