package dev.parquetconnect.format.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.io.GrowableBuffer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Untrusted and unusual input: fields and members from newer writers, unknown enum values, missing
 * required fields, wrong types, deep nesting, lying lengths, truncation, the file trailer and the
 * stream variant's exact consumption.
 */
@Timeout(30)
class MetadataRobustnessTest {

  @FunctionalInterface
  interface Fields {
    void write(ThriftOutput out) throws TException;
  }

  static byte[] bytes(Fields fields) throws TException {
    GrowableBuffer buf = new GrowableBuffer();
    ThriftOutput out = new ThriftOutput(buf);
    fields.write(out);
    return buf.toByteArray();
  }

  /** A footer with one column chunk whose ColumnMetaData fields the caller writes. */
  static byte[] footerWithColumn(Fields columnFields) throws TException {
    return bytes(
        out -> {
          out.structBegin();
          out.i32(1, 1);
          out.listBegin(2, TType.STRUCT, 0);
          out.i64(3, 0);
          out.listBegin(4, TType.STRUCT, 1);
          out.structBegin(); // RowGroup
          out.listBegin(1, TType.STRUCT, 1);
          out.structBegin(); // ColumnChunk
          out.i64(2, 4);
          out.fieldBegin(TType.STRUCT, 3);
          out.structBegin();
          columnFields.write(out);
          out.structEnd();
          out.structEnd();
          out.i64(2, 0);
          out.i64(3, 0);
          out.structEnd();
          out.structEnd();
        });
  }

  /** The fields of a valid ColumnMetaData, with one replaced (id >= 0) or dropped (value null). */
  static Fields columnFieldsExcept(int id, Fields replacement) {
    return out -> {
      for (int f = 1; f <= 9; f++) {
        if (f == id) {
          if (replacement != null) {
            replacement.write(out);
          }
          continue;
        }
        switch (f) {
          case 1 -> out.i32(1, PhysicalType.INT32.value());
          case 2 -> {
            out.listBegin(2, TType.I32, 2);
            out.writeI32(Encoding.PLAIN.value());
            out.writeI32(Encoding.RLE.value());
          }
          case 3 -> out.stringList(3, List.of("a"));
          case 4 -> out.i32(4, CompressionCodec.SNAPPY.value());
          case 5, 6, 7, 9 -> out.i64(f, 10);
          default -> {}
        }
      }
      if (id > 9 && replacement != null) {
        replacement.write(out);
      }
    };
  }

  /** A footer whose single schema element has the given logicalType union bytes. */
  static byte[] footerWithLogicalType(Fields union) throws TException {
    return bytes(
        out -> {
          out.structBegin();
          out.i32(1, 1);
          out.listBegin(2, TType.STRUCT, 1);
          out.structBegin();
          out.i32(1, PhysicalType.BYTE_ARRAY.value());
          out.string(4, "c");
          out.fieldBegin(TType.STRUCT, 10);
          out.structBegin();
          union.write(out);
          out.structEnd();
          out.structEnd();
          out.i64(3, 0);
          out.listBegin(4, TType.STRUCT, 0);
          out.structEnd();
        });
  }

  static FileMetaData read(byte[] footer) throws ParquetException {
    return MetadataCodec.readFileMetaData(footer, 0, footer.length);
  }

  static ColumnMetaData readColumn(byte[] footer) throws ParquetException {
    return read(footer).rowGroups().get(0).columns().get(0).metaData();
  }

  // ---- newer writers

  @Test
  void unknownFieldsOfEveryTypeAtEveryLevelAreSkipped() throws Exception {
    FileMetaData full = SampleMetadata.fullFileMetaData();
    GrowableBuffer buf = new GrowableBuffer();
    InjectingProtocol protocol = new InjectingProtocol(buf);
    FooterCodec.writeFileMetaData(new ThriftOutput(protocol), full);
    assertTrue(protocol.injected() > 50, "injected " + protocol.injected());
    byte[] withUnknown = buf.toByteArray();
    assertEquals(full, read(withUnknown));

    for (PageHeader h :
        List.of(SampleMetadata.fullPageHeader(), SampleMetadata.minimalPageHeaders().get(4))) {
      buf = new GrowableBuffer();
      PageHeaderCodec.writePageHeader(new ThriftOutput(new InjectingProtocol(buf)), h);
      byte[] b = buf.toByteArray();
      Decoded<PageHeader> decoded = MetadataCodec.readPageHeader(b, 0, b.length);
      assertEquals(h, decoded.value());
      assertEquals(b.length, decoded.length());
      ByteArrayInputStream stream = new ByteArrayInputStream(b);
      assertEquals(h, MetadataCodec.readPageHeader(stream));
      assertEquals(0, stream.available());
    }

    buf = new GrowableBuffer();
    PageIndexCodec.writeColumnIndex(
        new ThriftOutput(new InjectingProtocol(buf)), SampleMetadata.fullColumnIndex());
    byte[] b = buf.toByteArray();
    assertEquals(SampleMetadata.fullColumnIndex(), MetadataCodec.readColumnIndex(b, 0, b.length));

    buf = new GrowableBuffer();
    PageIndexCodec.writeOffsetIndex(
        new ThriftOutput(new InjectingProtocol(buf)), SampleMetadata.fullOffsetIndex());
    b = buf.toByteArray();
    assertEquals(SampleMetadata.fullOffsetIndex(), MetadataCodec.readOffsetIndex(b, 0, b.length));
  }

  @Test
  void unknownUnionMembersReadAsUnrecognized() throws Exception {
    // A logical type member with content this codec has never seen.
    LogicalType t =
        read(footerWithLogicalType(
                out -> {
                  out.fieldBegin(TType.STRUCT, 40);
                  out.structBegin();
                  out.string(1, "future");
                  out.structEnd();
                }))
            .schema()
            .get(0)
            .logicalType();
    assertEquals(new LogicalType.Unrecognized(40), t);

    // A known member sent with a non-struct type.
    t = read(footerWithLogicalType(out -> out.i32(1, 5))).schema().get(0).logicalType();
    assertEquals(new LogicalType.Unrecognized(1), t);

    // A timestamp in a unit this codec does not know.
    t =
        read(footerWithLogicalType(
                out -> {
                  out.fieldBegin(TType.STRUCT, 8);
                  out.structBegin();
                  out.bool(1, true);
                  out.fieldBegin(TType.STRUCT, 2);
                  out.emptyStructUnion(4);
                  out.structEnd();
                }))
            .schema()
            .get(0)
            .logicalType();
    assertEquals(new LogicalType.Unrecognized(8), t);

    // A geography with an edge algorithm this codec does not know.
    t =
        read(footerWithLogicalType(
                out -> {
                  out.fieldBegin(TType.STRUCT, 18);
                  out.structBegin();
                  out.i32(2, 77);
                  out.structEnd();
                }))
            .schema()
            .get(0)
            .logicalType();
    assertEquals(new LogicalType.Unrecognized(18), t);

    // A column order, an encryption algorithm and a crypto metadata member from the future.
    FileMetaData m =
        read(
            bytes(
                out -> {
                  out.structBegin();
                  out.i32(1, 1);
                  out.listBegin(2, TType.STRUCT, 0);
                  out.i64(3, 0);
                  out.listBegin(4, TType.STRUCT, 1);
                  out.structBegin();
                  out.listBegin(1, TType.STRUCT, 1);
                  out.structBegin();
                  out.i64(2, 0);
                  out.fieldBegin(TType.STRUCT, 8);
                  out.emptyStructUnion(9);
                  out.structEnd();
                  out.i64(2, 0);
                  out.i64(3, 0);
                  out.structEnd();
                  out.listBegin(7, TType.STRUCT, 2);
                  out.emptyStructUnion(1);
                  out.emptyStructUnion(12);
                  out.fieldBegin(TType.STRUCT, 8);
                  out.emptyStructUnion(3);
                  out.structEnd();
                }));
    assertEquals(List.of(ColumnOrder.TYPE_DEFINED, ColumnOrder.UNRECOGNIZED), m.columnOrders());
    assertEquals(EncryptionAlgorithm.Kind.UNRECOGNIZED, m.encryptionAlgorithm().kind());
    assertEquals(
        ColumnCryptoMetaData.Kind.UNRECOGNIZED,
        m.rowGroups().get(0).columns().get(0).cryptoMetadata().kind());
    assertTrue(m.usesEncryption());

    // A bloom filter hash this codec does not know.
    byte[] bloom =
        bytes(
            out -> {
              out.structBegin();
              out.i32(1, 32);
              out.fieldBegin(TType.STRUCT, 2);
              out.emptyStructUnion(1);
              out.fieldBegin(TType.STRUCT, 3);
              out.emptyStructUnion(2);
              out.fieldBegin(TType.STRUCT, 4);
              out.emptyStructUnion(1);
              out.structEnd();
            });
    BloomFilterHeader header = MetadataCodec.readBloomFilterHeader(bloom, 0, bloom.length).value();
    assertEquals(BloomFilterHeader.Hash.UNRECOGNIZED, header.hash());
    assertFalse(header.isSupported());
  }

  @Test
  void unionsWithoutExactlyOneMemberAreCorrupt() throws Exception {
    CorruptDataException e =
        assertThrows(
            CorruptDataException.class,
            () ->
                read(
                    footerWithLogicalType(
                        out -> {
                          out.emptyStruct(1);
                          out.emptyStruct(6);
                        })));
    assertTrue(e.getMessage().contains("LogicalType has 2 members"), e.getMessage());
    e = assertThrows(CorruptDataException.class, () -> read(footerWithLogicalType(out -> {})));
    assertTrue(e.getMessage().contains("LogicalType has 0 members"), e.getMessage());
  }

  @Test
  void unknownEnumValues() throws Exception {
    UnsupportedFeatureException codec =
        assertThrows(
            UnsupportedFeatureException.class,
            () -> readColumn(footerWithColumn(columnFieldsExcept(4, out -> out.i32(4, 8)))));
    assertTrue(
        codec.getMessage().contains("compression codec 8 in ColumnMetaData.codec"),
        codec.getMessage());

    CorruptDataException type =
        assertThrows(
            CorruptDataException.class,
            () -> readColumn(footerWithColumn(columnFieldsExcept(1, out -> out.i32(1, 8)))));
    assertTrue(type.getMessage().contains("physical type 8"), type.getMessage());

    // Encodings a newer writer added are dropped from the chunk's list (10 is ALP).
    ColumnMetaData column =
        readColumn(
            footerWithColumn(
                columnFieldsExcept(
                    2,
                    out -> {
                      out.listBegin(2, TType.I32, 3);
                      out.writeI32(10);
                      out.writeI32(Encoding.PLAIN.value());
                      out.writeI32(-1);
                    })));
    assertEquals(List.of(Encoding.PLAIN), column.encodings());

    // ...and kept as null in encoding stats, so the count stays visible.
    column =
        readColumn(
            footerWithColumn(
                columnFieldsExcept(
                    13,
                    out -> {
                      out.listBegin(13, TType.STRUCT, 1);
                      out.structBegin();
                      out.i32(1, 9);
                      out.i32(2, 10);
                      out.i32(3, 4);
                      out.structEnd();
                    })));
    assertEquals(List.of(new PageEncodingStats(null, null, 4)), column.encodingStats());

    UnsupportedFeatureException page =
        assertThrows(
            UnsupportedFeatureException.class,
            () ->
                readPageHeader(
                    bytes(
                        out -> {
                          out.structBegin();
                          out.i32(1, 7);
                          out.i32(2, 0);
                          out.i32(3, 0);
                          out.structEnd();
                        })));
    assertTrue(page.getMessage().contains("page type 7"), page.getMessage());

    UnsupportedFeatureException encoding =
        assertThrows(
            UnsupportedFeatureException.class,
            () ->
                readPageHeader(
                    bytes(
                        out -> {
                          out.structBegin();
                          out.i32(1, 0);
                          out.i32(2, 0);
                          out.i32(3, 0);
                          out.fieldBegin(TType.STRUCT, 5);
                          out.structBegin();
                          out.i32(1, 1);
                          out.i32(2, 10);
                          out.i32(3, 3);
                          out.i32(4, 3);
                          out.structEnd();
                          out.structEnd();
                        })));
    assertTrue(
        encoding.getMessage().contains("encoding 10 in DataPageHeader.encoding"),
        encoding.getMessage());

    for (int[] bad : new int[][] {{3, 3}, {6, 22}, {1, -1}}) {
      CorruptDataException e =
          assertThrows(
              CorruptDataException.class,
              () ->
                  read(
                      bytes(
                          out -> {
                            out.structBegin();
                            out.i32(1, 1);
                            out.listBegin(2, TType.STRUCT, 1);
                            out.structBegin();
                            out.i32(bad[0], bad[1]);
                            out.string(4, "c");
                            out.structEnd();
                            out.i64(3, 0);
                            out.listBegin(4, TType.STRUCT, 0);
                            out.structEnd();
                          })));
      assertTrue(e.getMessage().contains("SchemaElement"), e.getMessage());
    }

    assertThrows(
        UnsupportedFeatureException.class,
        () -> {
          byte[] b =
              bytes(
                  out -> {
                    out.structBegin();
                    out.listBegin(1, TType.BOOL, 0);
                    out.listBegin(2, TType.STRING, 0);
                    out.listBegin(3, TType.STRING, 0);
                    out.i32(4, 3);
                    out.structEnd();
                  });
          MetadataCodec.readColumnIndex(b, 0, b.length);
        });
  }

  @Test
  void missingRequiredFieldsNameTheStructAndField() throws Exception {
    assertMissing(
        "ColumnMetaData.codec", () -> readColumn(footerWithColumn(columnFieldsExcept(4, null))));
    assertMissing(
        "ColumnMetaData.data_page_offset",
        () -> readColumn(footerWithColumn(columnFieldsExcept(9, null))));
    assertMissing(
        "ColumnMetaData.encodings",
        () -> readColumn(footerWithColumn(columnFieldsExcept(2, null))));
    // A required field sent with the wrong type is skipped, and so missing.
    assertMissing(
        "ColumnMetaData.num_values",
        () -> readColumn(footerWithColumn(columnFieldsExcept(5, out -> out.string(5, "ten")))));
    assertMissing(
        "FileMetaData.num_rows",
        () ->
            read(
                bytes(
                    out -> {
                      out.structBegin();
                      out.i32(1, 1);
                      out.listBegin(2, TType.STRUCT, 0);
                      out.listBegin(4, TType.STRUCT, 0);
                      out.structEnd();
                    })));
    assertMissing(
        "SchemaElement.name",
        () ->
            read(
                bytes(
                    out -> {
                      out.structBegin();
                      out.i32(1, 1);
                      out.listBegin(2, TType.STRUCT, 1);
                      out.structBegin();
                      out.i32(1, 1);
                      out.structEnd();
                      out.i64(3, 0);
                      out.listBegin(4, TType.STRUCT, 0);
                      out.structEnd();
                    })));
    assertMissing(
        "DecimalType.precision",
        () ->
            read(
                footerWithLogicalType(
                    out -> {
                      out.fieldBegin(TType.STRUCT, 5);
                      out.structBegin();
                      out.i32(1, 2);
                      out.structEnd();
                    })));
    assertMissing(
        "PageHeader.compressed_page_size",
        () ->
            readPageHeader(
                bytes(
                    out -> {
                      out.structBegin();
                      out.i32(1, 0);
                      out.i32(2, 0);
                      out.structEnd();
                    })));
    assertMissing(
        "DataPageHeaderV2.num_rows",
        () ->
            readPageHeader(
                bytes(
                    out -> {
                      out.structBegin();
                      out.i32(1, 3);
                      out.i32(2, 0);
                      out.i32(3, 0);
                      out.fieldBegin(TType.STRUCT, 8);
                      out.structBegin();
                      out.i32(1, 0);
                      out.i32(2, 0);
                      out.i32(4, 0);
                      out.i32(5, 0);
                      out.i32(6, 0);
                      out.structEnd();
                      out.structEnd();
                    })));
    assertMissing(
        "PageLocation.first_row_index",
        () -> {
          byte[] b =
              bytes(
                  out -> {
                    out.structBegin();
                    out.listBegin(1, TType.STRUCT, 1);
                    out.structBegin();
                    out.i64(1, 4);
                    out.i32(2, 10);
                    out.structEnd();
                    out.structEnd();
                  });
          MetadataCodec.readOffsetIndex(b, 0, b.length);
        });
    assertMissing(
        "BloomFilterHeader.compression",
        () -> {
          byte[] b =
              bytes(
                  out -> {
                    out.structBegin();
                    out.i32(1, 32);
                    out.fieldBegin(TType.STRUCT, 2);
                    out.emptyStructUnion(1);
                    out.fieldBegin(TType.STRUCT, 3);
                    out.emptyStructUnion(1);
                    out.structEnd();
                  });
          MetadataCodec.readBloomFilterHeader(b, 0, b.length);
        });
  }

  @Test
  void optionalFieldWithWrongTypeIsSkipped() throws Exception {
    FileMetaData m =
        read(
            bytes(
                out -> {
                  out.structBegin();
                  out.i32(1, 1);
                  out.listBegin(2, TType.STRUCT, 0);
                  out.i64(3, 5);
                  out.listBegin(4, TType.STRUCT, 0);
                  out.i32(6, 42); // created_by is a string
                  out.listBegin(7, TType.STRING, 1); // column_orders is a list of structs
                  out.writeBinary(ByteString.ofUtf8("x"));
                  out.structEnd();
                }));
    assertNull(m.createdBy());
    assertNull(m.columnOrders());
    assertEquals(5, m.numRows());
  }

  @Test
  void integerListsAcceptAnyVarintElementType() throws Exception {
    // ARROW-GH-41317 declares its encodings list as i16; the values are the same varints.
    ColumnMetaData column =
        readColumn(
            footerWithColumn(
                columnFieldsExcept(
                    2,
                    out -> {
                      out.listBegin(2, TType.I16, 2);
                      out.writeI32(Encoding.PLAIN.value());
                      out.writeI32(Encoding.RLE.value());
                    })));
    assertEquals(List.of(Encoding.PLAIN, Encoding.RLE), column.encodings());
  }

  // ---- hostile input

  @Test
  void deepNestingIsCorruptNotAStackOverflow() {
    byte[] structs = new byte[200_000];
    Arrays.fill(structs, (byte) 0x1C); // field 1 (id delta 1), type struct, forever
    assertNesting(structs);

    byte[] lists = new byte[200_000];
    Arrays.fill(lists, (byte) 0x19); // field 1 type list, then list headers: 1 element of list
    assertNesting(lists);

    byte[] maps = new byte[200_001];
    maps[0] = 0x1B; // field 1 type map, then map headers: 1 entry, map -> map
    for (int i = 1; i + 1 < maps.length; i += 2) {
      maps[i] = 0x01;
      maps[i + 1] = (byte) 0xBB;
    }
    assertNesting(maps);
  }

  private static void assertNesting(byte[] bytes) {
    CorruptDataException e =
        assertThrows(
            CorruptDataException.class,
            () -> MetadataCodec.readFileMetaData(bytes, 0, bytes.length));
    assertTrue(e.getMessage().contains("nested deeper than 64"), e.getMessage());
    assertThrows(
        CorruptDataException.class, () -> MetadataCodec.readPageHeader(bytes, 0, bytes.length));
    assertThrows(
        CorruptDataException.class,
        () -> MetadataCodec.readPageHeader(new ByteArrayInputStream(bytes)));
  }

  @Test
  void lyingLengthsFailWithoutAllocating() {
    HexFormat hex = HexFormat.of();
    List<String> cases =
        List.of(
            "68" + "ffffffff07" + "616263", // created_by: a 2 GiB string in 3 bytes
            "98" + "ffffffff07" + "616263", // footer_signing_key_metadata: a 2 GiB binary
            "98" + "ffffffff0f" + "616263", // the same length read as -1
            "29" + "fc" + "ffffffff07" + "00", // schema: 2^31-1 structs
            "29" + "f5" + "feffffff07" + "00", // schema claims i32s: skipped, still 2^31-1
            "1b" + "ffffffff07" + "cc" + "00", // unknown map of 2^31-1 entries
            "19" + "f8" + "80808080" + "08"); // unknown list with a 6-byte varint size
    for (String c : cases) {
      byte[] bytes = hex.parseHex(c);
      long before = usedMemory();
      assertThrows(
          CorruptDataException.class,
          () -> MetadataCodec.readFileMetaData(bytes, 0, bytes.length),
          c);
      assertThrows(
          CorruptDataException.class,
          () -> MetadataCodec.readPageHeader(new ByteArrayInputStream(bytes)),
          c);
      assertTrue(usedMemory() - before < 256L << 20, c + " allocated too much");
    }
  }

  private static long usedMemory() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  @Test
  void everyTruncationIsCorrupt() throws Exception {
    byte[] footer = MetadataOracleCrossCheckTest.write(SampleMetadata.fullFileMetaData());
    byte[] padded = Arrays.copyOf(footer, footer.length + 64);
    Arrays.fill(padded, footer.length, padded.length, (byte) 0x80);
    for (int len = 0; len < footer.length; len++) {
      int n = len;
      // The bytes after the slice are varint continuation bytes: nothing may be read there.
      assertThrows(
          CorruptDataException.class,
          () -> MetadataCodec.readFileMetaData(padded, 0, n),
          "prefix " + len);
    }
    byte[] header = MetadataOracleCrossCheckTest.write(SampleMetadata.fullPageHeader());
    for (int len = 0; len < header.length; len++) {
      int n = len;
      assertThrows(
          CorruptDataException.class,
          () -> MetadataCodec.readPageHeader(header, 0, n),
          "prefix " + len);
      assertThrows(
          CorruptDataException.class,
          () -> MetadataCodec.readPageHeader(new ByteArrayInputStream(header, 0, n)),
          "prefix " + len);
    }
  }

  @Test
  void errorsGiveTheBytePosition() throws Exception {
    byte[] footer = footerWithColumn(columnFieldsExcept(4, null));
    CorruptDataException e = assertThrows(CorruptDataException.class, () -> read(footer));
    assertTrue(e.getMessage().matches("footer: .* \\(at byte \\d+\\)"), e.getMessage());
    byte[] valid = footerWithColumn(columnFieldsExcept(-1, null));
    read(valid);
    byte[] truncated = Arrays.copyOf(valid, valid.length - 5);
    e = assertThrows(CorruptDataException.class, () -> read(truncated));
    assertTrue(e.getMessage().startsWith("footer: malformed Thrift near byte"), e.getMessage());
  }

  // ---- file trailer

  @Test
  void footerLengthChecksTheTrailer() throws Exception {
    byte[] trailer = HexFormat.of().parseHex("64000000" + "50415231"); // 100, "PAR1"
    assertEquals(100, MetadataCodec.footerLength(trailer, 0, 112));
    assertThrows(CorruptDataException.class, () -> MetadataCodec.footerLength(trailer, 0, 111));
    assertThrows(CorruptDataException.class, () -> MetadataCodec.footerLength(trailer, 0, 11));

    byte[] negative = HexFormat.of().parseHex("ffffffff" + "50415231");
    assertThrows(
        CorruptDataException.class, () -> MetadataCodec.footerLength(negative, 0, Long.MAX_VALUE));
    byte[] encrypted = HexFormat.of().parseHex("64000000" + "50415245"); // "PARE"
    UnsupportedFeatureException e =
        assertThrows(
            UnsupportedFeatureException.class,
            () -> MetadataCodec.footerLength(encrypted, 0, 1000));
    assertTrue(e.getMessage().contains("encrypted"), e.getMessage());
    byte[] wrong = HexFormat.of().parseHex("64000000" + "50415232");
    assertThrows(CorruptDataException.class, () -> MetadataCodec.footerLength(wrong, 0, 1000));
  }

  // ---- stream variant

  @Test
  void streamReadTakesExactlyEachHeader() throws Exception {
    // Pages back to back: header, body, header, body...; bodies are 0x80 bytes, which would
    // extend a varint if the reader took one byte too many.
    GrowableBuffer file = new GrowableBuffer();
    List<PageHeader> headers = new java.util.ArrayList<>(SampleMetadata.minimalPageHeaders());
    headers.add(SampleMetadata.fullPageHeader());
    for (PageHeader h : headers) {
      MetadataCodec.write(h, file);
      for (int i = 0; i < h.compressedPageSize() && i < 200; i++) {
        file.writeByte(0x80);
      }
    }
    InputStream in = new OneByteAtATime(new ByteArrayInputStream(file.toByteArray()));
    for (PageHeader h : headers) {
      assertEquals(h, MetadataCodec.readPageHeader(in));
      in.skipNBytes(Math.min(h.compressedPageSize(), 200));
    }
    assertEquals(-1, in.read());
  }

  @Test
  void streamFailuresAndLimits() throws Exception {
    byte[] header = MetadataOracleCrossCheckTest.write(SampleMetadata.fullPageHeader());
    IOException failure = new IOException("disk on fire");
    InputStream failing =
        new InputStream() {
          private int left = 10;

          @Override
          public int read() throws IOException {
            if (left-- == 0) {
              throw failure;
            }
            return header[10 - left - 1] & 0xFF;
          }
        };
    assertSame(
        failure, assertThrows(IOException.class, () -> MetadataCodec.readPageHeader(failing)));

    CorruptDataException tooLarge =
        assertThrows(
            CorruptDataException.class,
            () -> MetadataCodec.readPageHeader(new ByteArrayInputStream(header), 20));
    assertTrue(tooLarge.getMessage().contains("20 bytes"), tooLarge.getMessage());
    assertEquals(
        SampleMetadata.fullPageHeader(),
        MetadataCodec.readPageHeader(new ByteArrayInputStream(header), header.length));
    assertThrows(
        CorruptDataException.class,
        () -> MetadataCodec.readPageHeader(new ByteArrayInputStream(new byte[0])));
  }

  // ---- writing

  @Test
  void unwritableValuesAreRejectedAndLeaveTheBufferAlone() {
    GrowableBuffer out = new GrowableBuffer();
    out.write(new byte[] {1, 2, 3});
    FileMetaData unknownType =
        new FileMetaData(
            1,
            List.of(SampleMetadata.fullSchemaElement(new LogicalType.Unrecognized(30))),
            0,
            List.of(),
            null,
            null,
            null,
            null,
            null);
    assertThrows(IllegalArgumentException.class, () -> MetadataCodec.write(unknownType, out));
    FileMetaData unknownOrder =
        new FileMetaData(
            1, List.of(), 0, List.of(), null, null, List.of(ColumnOrder.UNRECOGNIZED), null, null);
    assertThrows(IllegalArgumentException.class, () -> MetadataCodec.write(unknownOrder, out));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            MetadataCodec.write(
                new BloomFilterHeader(
                    1,
                    BloomFilterHeader.Algorithm.UNRECOGNIZED,
                    BloomFilterHeader.Hash.XXHASH,
                    BloomFilterHeader.Compression.UNCOMPRESSED),
                out));
    assertArrayEquals(new byte[] {1, 2, 3}, out.toByteArray());
  }

  private static PageHeader readPageHeader(byte[] b) throws ParquetException {
    return MetadataCodec.readPageHeader(b, 0, b.length).value();
  }

  @FunctionalInterface
  interface Action {
    void run() throws Exception;
  }

  private static void assertMissing(String field, Action action) {
    CorruptDataException e = assertThrows(CorruptDataException.class, action::run);
    assertTrue(e.getMessage().contains("required field " + field + " "), e.getMessage());
  }

  /** A stream that hands out one byte per read call, as a slow network stream may. */
  private static final class OneByteAtATime extends InputStream {
    private final InputStream in;

    OneByteAtATime(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return len == 0 ? 0 : in.read(b, off, 1);
    }
  }
}
