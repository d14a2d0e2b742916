package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/**
 * Reads and writes {@code ColumnChunk}, {@code ColumnMetaData} and {@code PageEncodingStats}: the
 * bulk of a footer, one per column per row group.
 */
final class ColumnChunkCodec {
  private static final String[] CHUNK_FIELDS = {
    null,
    "file_path",
    "file_offset",
    "meta_data",
    "offset_index_offset",
    "offset_index_length",
    "column_index_offset",
    "column_index_length",
    "crypto_metadata",
    "encrypted_column_metadata"
  };
  private static final int CHUNK_REQUIRED = 1 << 2;
  private static final String[] COLUMN_FIELDS = {
    null,
    "type",
    "encodings",
    "path_in_schema",
    "codec",
    "num_values",
    "total_uncompressed_size",
    "total_compressed_size",
    "key_value_metadata",
    "data_page_offset",
    "index_page_offset",
    "dictionary_page_offset",
    "statistics",
    "encoding_stats",
    "bloom_filter_offset",
    "bloom_filter_length",
    "size_statistics",
    "geospatial_statistics"
  };
  private static final int COLUMN_REQUIRED = 0b1011111110;
  private static final String[] ENCODING_STATS_FIELDS = {null, "page_type", "encoding", "count"};
  private static final int REQUIRED_1_TO_3 = 0b1110;

  private ColumnChunkCodec() {}

  // ---- ColumnChunk

  static ColumnChunk readColumnChunk(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    String filePath = null;
    long fileOffset = 0;
    ColumnMetaData metaData = null;
    Long offsetIndexOffset = null;
    Integer offsetIndexLength = null;
    Long columnIndexOffset = null;
    Integer columnIndexLength = null;
    ColumnCryptoMetaData crypto = null;
    ByteString encryptedMetaData = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.STRING)) {
            filePath = in.string();
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I64)) {
            fileOffset = in.i64();
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.STRUCT)) {
            metaData = readColumnMetaData(in);
          }
        }
        case 4 -> {
          if (in.accept(f, TType.I64)) {
            offsetIndexOffset = in.i64();
          }
        }
        case 5 -> {
          if (in.accept(f, TType.I32)) {
            offsetIndexLength = in.i32();
          }
        }
        case 6 -> {
          if (in.accept(f, TType.I64)) {
            columnIndexOffset = in.i64();
          }
        }
        case 7 -> {
          if (in.accept(f, TType.I32)) {
            columnIndexLength = in.i32();
          }
        }
        case 8 -> {
          if (in.accept(f, TType.STRUCT)) {
            crypto = EncryptionCodec.readColumnCryptoMetaData(in);
          }
        }
        case 9 -> {
          if (in.accept(f, TType.STRING)) {
            encryptedMetaData = in.binary();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, CHUNK_REQUIRED, "ColumnChunk", CHUNK_FIELDS);
    in.structEnd();
    return new ColumnChunk(
        filePath,
        fileOffset,
        metaData,
        offsetIndexOffset,
        offsetIndexLength,
        columnIndexOffset,
        columnIndexLength,
        crypto,
        encryptedMetaData);
  }

  static void writeColumnChunk(ThriftOutput out, ColumnChunk c) throws TException {
    out.structBegin();
    out.optString(1, c.filePath());
    out.i64(2, c.fileOffset());
    if (c.metaData() != null) {
      out.fieldBegin(TType.STRUCT, 3);
      writeColumnMetaData(out, c.metaData());
    }
    out.optI64(4, c.offsetIndexOffset());
    out.optI32(5, c.offsetIndexLength());
    out.optI64(6, c.columnIndexOffset());
    out.optI32(7, c.columnIndexLength());
    if (c.cryptoMetadata() != null) {
      out.fieldBegin(TType.STRUCT, 8);
      EncryptionCodec.writeColumnCryptoMetaData(out, c.cryptoMetadata());
    }
    out.optBinary(9, c.encryptedColumnMetadata());
    out.structEnd();
  }

  // ---- ColumnMetaData

  static ColumnMetaData readColumnMetaData(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    PhysicalType type = null;
    List<Encoding> encodings = null;
    List<String> path = null;
    CompressionCodec codec = null;
    long numValues = 0;
    long totalUncompressed = 0;
    long totalCompressed = 0;
    List<KeyValue> keyValues = null;
    long dataPageOffset = 0;
    Long indexPageOffset = null;
    Long dictionaryPageOffset = null;
    Statistics statistics = null;
    List<PageEncodingStats> encodingStats = null;
    Long bloomFilterOffset = null;
    Integer bloomFilterLength = null;
    SizeStatistics sizeStatistics = null;
    GeospatialStatistics geoStatistics = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            type = in.physicalType(in.i32(), "ColumnMetaData.type");
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.LIST)) {
            encodings = readEncodings(in);
            seen |= encodings != null ? 1 << 2 : 0;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.LIST)) {
            path = in.stringList();
            seen |= path != null ? 1 << 3 : 0;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.I32)) {
            codec = in.codec(in.i32(), "ColumnMetaData.codec");
            seen |= 1 << 4;
          }
        }
        case 5 -> {
          if (in.accept(f, TType.I64)) {
            numValues = in.i64();
            seen |= 1 << 5;
          }
        }
        case 6 -> {
          if (in.accept(f, TType.I64)) {
            totalUncompressed = in.i64();
            seen |= 1 << 6;
          }
        }
        case 7 -> {
          if (in.accept(f, TType.I64)) {
            totalCompressed = in.i64();
            seen |= 1 << 7;
          }
        }
        case 8 -> {
          if (in.accept(f, TType.LIST)) {
            keyValues = in.structList(FooterCodec::readKeyValue);
          }
        }
        case 9 -> {
          if (in.accept(f, TType.I64)) {
            dataPageOffset = in.i64();
            seen |= 1 << 9;
          }
        }
        case 10 -> {
          if (in.accept(f, TType.I64)) {
            indexPageOffset = in.i64();
          }
        }
        case 11 -> {
          if (in.accept(f, TType.I64)) {
            dictionaryPageOffset = in.i64();
          }
        }
        case 12 -> {
          if (in.accept(f, TType.STRUCT)) {
            statistics = StatisticsCodec.readStatistics(in);
          }
        }
        case 13 -> {
          if (in.accept(f, TType.LIST)) {
            encodingStats = in.structList(ColumnChunkCodec::readPageEncodingStats);
          }
        }
        case 14 -> {
          if (in.accept(f, TType.I64)) {
            bloomFilterOffset = in.i64();
          }
        }
        case 15 -> {
          if (in.accept(f, TType.I32)) {
            bloomFilterLength = in.i32();
          }
        }
        case 16 -> {
          if (in.accept(f, TType.STRUCT)) {
            sizeStatistics = StatisticsCodec.readSizeStatistics(in);
          }
        }
        case 17 -> {
          if (in.accept(f, TType.STRUCT)) {
            geoStatistics = StatisticsCodec.readGeospatialStatistics(in);
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, COLUMN_REQUIRED, "ColumnMetaData", COLUMN_FIELDS);
    in.structEnd();
    return new ColumnMetaData(
        type,
        encodings,
        path,
        codec,
        numValues,
        totalUncompressed,
        totalCompressed,
        keyValues,
        dataPageOffset,
        indexPageOffset,
        dictionaryPageOffset,
        statistics,
        encodingStats,
        bloomFilterOffset,
        bloomFilterLength,
        sizeStatistics,
        geoStatistics);
  }

  /** The chunk's encodings, dropping values a newer writer defined (see ColumnMetaData). */
  private static List<Encoding> readEncodings(ThriftInput in) throws TException, ParquetException {
    int n = in.listBegin(TType.I32);
    if (n < 0) {
      return null;
    }
    List<Encoding> encodings = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Encoding e = Encoding.fromValueOrNull(in.i32());
      if (e != null) {
        encodings.add(e);
      }
    }
    return encodings;
  }

  private static void writeColumnMetaData(ThriftOutput out, ColumnMetaData c) throws TException {
    out.structBegin();
    out.i32(1, c.type().value());
    out.listBegin(2, TType.I32, c.encodings().size());
    for (Encoding e : c.encodings()) {
      out.writeI32(e.value());
    }
    out.stringList(3, c.pathInSchema());
    out.i32(4, c.codec().value());
    out.i64(5, c.numValues());
    out.i64(6, c.totalUncompressedSize());
    out.i64(7, c.totalCompressedSize());
    FooterCodec.writeKeyValues(out, 8, c.keyValueMetadata());
    out.i64(9, c.dataPageOffset());
    out.optI64(10, c.indexPageOffset());
    out.optI64(11, c.dictionaryPageOffset());
    if (c.statistics() != null) {
      out.fieldBegin(TType.STRUCT, 12);
      StatisticsCodec.writeStatistics(out, c.statistics());
    }
    if (c.encodingStats() != null) {
      out.listBegin(13, TType.STRUCT, c.encodingStats().size());
      for (PageEncodingStats s : c.encodingStats()) {
        writePageEncodingStats(out, s);
      }
    }
    out.optI64(14, c.bloomFilterOffset());
    out.optI32(15, c.bloomFilterLength());
    if (c.sizeStatistics() != null) {
      out.fieldBegin(TType.STRUCT, 16);
      StatisticsCodec.writeSizeStatistics(out, c.sizeStatistics());
    }
    if (c.geospatialStatistics() != null) {
      out.fieldBegin(TType.STRUCT, 17);
      StatisticsCodec.writeGeospatialStatistics(out, c.geospatialStatistics());
    }
    out.structEnd();
  }

  // ---- PageEncodingStats

  /** Unknown page types and encodings read as null; see {@link PageEncodingStats}. */
  private static PageEncodingStats readPageEncodingStats(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    PageType pageType = null;
    Encoding encoding = null;
    int count = 0;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            pageType = PageType.fromValueOrNull(in.i32());
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I32)) {
            encoding = Encoding.fromValueOrNull(in.i32());
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I32)) {
            count = in.i32();
            seen |= 1 << 3;
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_3, "PageEncodingStats", ENCODING_STATS_FIELDS);
    in.structEnd();
    return new PageEncodingStats(pageType, encoding, count);
  }

  private static void writePageEncodingStats(ThriftOutput out, PageEncodingStats s)
      throws TException {
    if (s.pageType() == null || s.encoding() == null) {
      throw new IllegalArgumentException(
          "cannot write encoding stats with an unknown page type" + " or encoding: " + s);
    }
    out.structBegin();
    out.i32(1, s.pageType().value());
    out.i32(2, s.encoding().value());
    out.i32(3, s.count());
    out.structEnd();
  }
}
