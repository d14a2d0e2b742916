package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/**
 * Reads and writes {@code FileMetaData} and what hangs off it: row groups, column chunks, column
 * metadata, key/value pairs, sorting columns, encoding stats, column orders and the encryption
 * fields.
 */
final class FooterCodec {
  private static final String[] FILE_FIELDS = {
    null, "version", "schema", "num_rows", "row_groups", "key_value_metadata", "created_by",
    "column_orders", "encryption_algorithm", "footer_signing_key_metadata"
  };
  private static final int FILE_REQUIRED = 0b11110;
  private static final String[] ROW_GROUP_FIELDS = {
    null, "columns", "total_byte_size", "num_rows", "sorting_columns", "file_offset",
    "total_compressed_size", "ordinal"
  };
  private static final int ROW_GROUP_REQUIRED = 0b1110;
  private static final String[] CHUNK_FIELDS = {
    null, "file_path", "file_offset", "meta_data", "offset_index_offset", "offset_index_length",
    "column_index_offset", "column_index_length", "crypto_metadata", "encrypted_column_metadata"
  };
  private static final int CHUNK_REQUIRED = 1 << 2;
  private static final String[] COLUMN_FIELDS = {
    null, "type", "encodings", "path_in_schema", "codec", "num_values", "total_uncompressed_size",
    "total_compressed_size", "key_value_metadata", "data_page_offset", "index_page_offset",
    "dictionary_page_offset", "statistics", "encoding_stats", "bloom_filter_offset",
    "bloom_filter_length", "size_statistics", "geospatial_statistics"
  };
  private static final int COLUMN_REQUIRED = 0b1011111110;
  private static final String[] KEY_VALUE_FIELDS = {null, "key", "value"};
  private static final String[] SORTING_FIELDS = {null, "column_idx", "descending", "nulls_first"};
  private static final String[] ENCODING_STATS_FIELDS = {null, "page_type", "encoding", "count"};
  private static final String[] COLUMN_KEY_FIELDS = {null, "path_in_schema", "key_metadata"};
  private static final int REQUIRED_1 = 1 << 1;
  private static final int REQUIRED_1_TO_3 = 0b1110;

  private FooterCodec() {}

  // ---- FileMetaData

  static FileMetaData readFileMetaData(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    int version = 0;
    List<SchemaElement> schema = null;
    long numRows = 0;
    List<RowGroup> rowGroups = null;
    List<KeyValue> keyValues = null;
    String createdBy = null;
    List<ColumnOrder> columnOrders = null;
    EncryptionAlgorithm encryption = null;
    ByteString signingKey = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            version = in.i32();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.LIST)) {
            schema = in.structList(SchemaCodec::readSchemaElement);
            seen |= schema != null ? 1 << 2 : 0;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I64)) {
            numRows = in.i64();
            seen |= 1 << 3;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.LIST)) {
            rowGroups = in.structList(FooterCodec::readRowGroup);
            seen |= rowGroups != null ? 1 << 4 : 0;
          }
        }
        case 5 -> {
          if (in.accept(f, TType.LIST)) {
            keyValues = in.structList(FooterCodec::readKeyValue);
          }
        }
        case 6 -> {
          if (in.accept(f, TType.STRING)) {
            createdBy = in.string();
          }
        }
        case 7 -> {
          if (in.accept(f, TType.LIST)) {
            columnOrders = readColumnOrders(in);
          }
        }
        case 8 -> {
          if (in.accept(f, TType.STRUCT)) {
            encryption = readEncryptionAlgorithm(in);
          }
        }
        case 9 -> {
          if (in.accept(f, TType.STRING)) {
            signingKey = in.binary();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, FILE_REQUIRED, "FileMetaData", FILE_FIELDS);
    in.structEnd();
    return new FileMetaData(
        version, schema, numRows, rowGroups, keyValues, createdBy, columnOrders, encryption,
        signingKey);
  }

  static void writeFileMetaData(ThriftOutput out, FileMetaData m) throws TException {
    out.structBegin();
    out.i32(1, m.version());
    SchemaCodec.writeSchema(out, 2, m.schema());
    out.i64(3, m.numRows());
    out.listBegin(4, TType.STRUCT, m.rowGroups().size());
    for (RowGroup rowGroup : m.rowGroups()) {
      writeRowGroup(out, rowGroup);
    }
    writeKeyValues(out, 5, m.keyValueMetadata());
    out.optString(6, m.createdBy());
    if (m.columnOrders() != null) {
      out.listBegin(7, TType.STRUCT, m.columnOrders().size());
      for (ColumnOrder order : m.columnOrders()) {
        if (order == ColumnOrder.UNRECOGNIZED) {
          throw new IllegalArgumentException("cannot write an unrecognised column order");
        }
        out.emptyStructUnion(order.fieldId());
      }
    }
    if (m.encryptionAlgorithm() != null) {
      out.fieldBegin(TType.STRUCT, 8);
      writeEncryptionAlgorithm(out, m.encryptionAlgorithm());
    }
    out.optBinary(9, m.footerSigningKeyMetadata());
    out.structEnd();
  }

  private static List<ColumnOrder> readColumnOrders(ThriftInput in)
      throws TException, ParquetException {
    int n = in.listBegin(TType.STRUCT);
    if (n < 0) {
      return null;
    }
    List<ColumnOrder> orders = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      orders.add(ColumnOrder.fromFieldId(in.emptyStructUnion("ColumnOrder")));
    }
    return orders;
  }

  // ---- RowGroup

  static RowGroup readRowGroup(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    List<ColumnChunk> columns = null;
    long totalByteSize = 0;
    long numRows = 0;
    List<SortingColumn> sorting = null;
    Long fileOffset = null;
    Long totalCompressed = null;
    Short ordinal = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.LIST)) {
            columns = in.structList(FooterCodec::readColumnChunk);
            seen |= columns != null ? 1 << 1 : 0;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.I64)) {
            totalByteSize = in.i64();
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.I64)) {
            numRows = in.i64();
            seen |= 1 << 3;
          }
        }
        case 4 -> {
          if (in.accept(f, TType.LIST)) {
            sorting = in.structList(FooterCodec::readSortingColumn);
          }
        }
        case 5 -> {
          if (in.accept(f, TType.I64)) {
            fileOffset = in.i64();
          }
        }
        case 6 -> {
          if (in.accept(f, TType.I64)) {
            totalCompressed = in.i64();
          }
        }
        case 7 -> {
          if (in.accept(f, TType.I16)) {
            ordinal = in.i16();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, ROW_GROUP_REQUIRED, "RowGroup", ROW_GROUP_FIELDS);
    in.structEnd();
    return new RowGroup(columns, totalByteSize, numRows, sorting, fileOffset, totalCompressed,
        ordinal);
  }

  private static void writeRowGroup(ThriftOutput out, RowGroup g) throws TException {
    out.structBegin();
    out.listBegin(1, TType.STRUCT, g.columns().size());
    for (ColumnChunk chunk : g.columns()) {
      writeColumnChunk(out, chunk);
    }
    out.i64(2, g.totalByteSize());
    out.i64(3, g.numRows());
    if (g.sortingColumns() != null) {
      out.listBegin(4, TType.STRUCT, g.sortingColumns().size());
      for (SortingColumn s : g.sortingColumns()) {
        out.structBegin();
        out.i32(1, s.columnIdx());
        out.bool(2, s.descending());
        out.bool(3, s.nullsFirst());
        out.structEnd();
      }
    }
    out.optI64(5, g.fileOffset());
    out.optI64(6, g.totalCompressedSize());
    out.optI16(7, g.ordinal());
    out.structEnd();
  }

  private static SortingColumn readSortingColumn(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    int columnIdx = 0;
    boolean descending = false;
    boolean nullsFirst = false;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.I32)) {
            columnIdx = in.i32();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.BOOL)) {
            descending = in.bool();
            seen |= 1 << 2;
          }
        }
        case 3 -> {
          if (in.accept(f, TType.BOOL)) {
            nullsFirst = in.bool();
            seen |= 1 << 3;
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1_TO_3, "SortingColumn", SORTING_FIELDS);
    in.structEnd();
    return new SortingColumn(columnIdx, descending, nullsFirst);
  }

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
            crypto = readColumnCryptoMetaData(in);
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
    return new ColumnChunk(filePath, fileOffset, metaData, offsetIndexOffset, offsetIndexLength,
        columnIndexOffset, columnIndexLength, crypto, encryptedMetaData);
  }

  private static void writeColumnChunk(ThriftOutput out, ColumnChunk c) throws TException {
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
      writeColumnCryptoMetaData(out, c.cryptoMetadata());
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
            encodingStats = in.structList(FooterCodec::readPageEncodingStats);
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
    return new ColumnMetaData(type, encodings, path, codec, numValues, totalUncompressed,
        totalCompressed, keyValues, dataPageOffset, indexPageOffset, dictionaryPageOffset,
        statistics, encodingStats, bloomFilterOffset, bloomFilterLength, sizeStatistics,
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
    writeKeyValues(out, 8, c.keyValueMetadata());
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

  // ---- small structs

  private static KeyValue readKeyValue(ThriftInput in) throws TException, ParquetException {
    in.structBegin();
    String key = null;
    String value = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.STRING)) {
            key = in.string();
            seen |= 1 << 1;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRING)) {
            value = in.string();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1, "KeyValue", KEY_VALUE_FIELDS);
    in.structEnd();
    return new KeyValue(key, value);
  }

  private static void writeKeyValues(ThriftOutput out, int fieldId, List<KeyValue> keyValues)
      throws TException {
    if (keyValues == null) {
      return;
    }
    out.listBegin(fieldId, TType.STRUCT, keyValues.size());
    for (KeyValue kv : keyValues) {
      out.structBegin();
      out.string(1, kv.key());
      out.optString(2, kv.value());
      out.structEnd();
    }
  }

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
      throw new IllegalArgumentException("cannot write encoding stats with an unknown page type"
          + " or encoding: " + s);
    }
    out.structBegin();
    out.i32(1, s.pageType().value());
    out.i32(2, s.encoding().value());
    out.i32(3, s.count());
    out.structEnd();
  }

  // ---- encryption

  private static EncryptionAlgorithm readEncryptionAlgorithm(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    EncryptionAlgorithm result = null;
    int members = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      members++;
      int id = ThriftInput.id(f);
      if ((id == 1 || id == 2) && ThriftInput.type(f) == TType.STRUCT) {
        result = readAesGcm(in, id == 1
            ? EncryptionAlgorithm.Kind.AES_GCM_V1
            : EncryptionAlgorithm.Kind.AES_GCM_CTR_V1);
      } else {
        in.skip(ThriftInput.type(f));
        result = new EncryptionAlgorithm(EncryptionAlgorithm.Kind.UNRECOGNIZED, null, null, null);
      }
    }
    in.structEnd();
    in.checkOneMember("EncryptionAlgorithm", members);
    return result;
  }

  /** {@code AesGcmV1} and {@code AesGcmCtrV1}, which have the same fields. */
  private static EncryptionAlgorithm readAesGcm(ThriftInput in, EncryptionAlgorithm.Kind kind)
      throws TException, ParquetException {
    in.structBegin();
    ByteString aadPrefix = null;
    ByteString aadFileUnique = null;
    Boolean supplyAadPrefix = null;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.STRING)) {
            aadPrefix = in.binary();
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRING)) {
            aadFileUnique = in.binary();
          }
        }
        case 3 -> {
          if (in.accept(f, TType.BOOL)) {
            supplyAadPrefix = in.bool();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.structEnd();
    return new EncryptionAlgorithm(kind, aadPrefix, aadFileUnique, supplyAadPrefix);
  }

  private static void writeEncryptionAlgorithm(ThriftOutput out, EncryptionAlgorithm a)
      throws TException {
    if (a.kind() == EncryptionAlgorithm.Kind.UNRECOGNIZED) {
      throw new IllegalArgumentException("cannot write an unrecognised encryption algorithm");
    }
    out.structBegin();
    out.fieldBegin(TType.STRUCT, a.kind().fieldId());
    out.structBegin();
    out.optBinary(1, a.aadPrefix());
    out.optBinary(2, a.aadFileUnique());
    out.optBool(3, a.supplyAadPrefix());
    out.structEnd();
    out.structEnd();
  }

  private static ColumnCryptoMetaData readColumnCryptoMetaData(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    ColumnCryptoMetaData result = null;
    int members = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      members++;
      int id = ThriftInput.id(f);
      if (id == 1 && ThriftInput.type(f) == TType.STRUCT) {
        in.skip(TType.STRUCT);
        result = ColumnCryptoMetaData.FOOTER_KEY;
      } else if (id == 2 && ThriftInput.type(f) == TType.STRUCT) {
        result = readColumnKey(in);
      } else {
        in.skip(ThriftInput.type(f));
        result = new ColumnCryptoMetaData(ColumnCryptoMetaData.Kind.UNRECOGNIZED, null, null);
      }
    }
    in.structEnd();
    in.checkOneMember("ColumnCryptoMetaData", members);
    return result;
  }

  private static ColumnCryptoMetaData readColumnKey(ThriftInput in)
      throws TException, ParquetException {
    in.structBegin();
    List<String> path = null;
    ByteString keyMetadata = null;
    int seen = 0;
    for (int f; (f = in.fieldBegin()) != ThriftInput.STOP; ) {
      switch (ThriftInput.id(f)) {
        case 1 -> {
          if (in.accept(f, TType.LIST)) {
            path = in.stringList();
            seen |= path != null ? 1 << 1 : 0;
          }
        }
        case 2 -> {
          if (in.accept(f, TType.STRING)) {
            keyMetadata = in.binary();
          }
        }
        default -> in.skip(ThriftInput.type(f));
      }
    }
    in.require(seen, REQUIRED_1, "EncryptionWithColumnKey", COLUMN_KEY_FIELDS);
    in.structEnd();
    return new ColumnCryptoMetaData(ColumnCryptoMetaData.Kind.COLUMN_KEY, path, keyMetadata);
  }

  private static void writeColumnCryptoMetaData(ThriftOutput out, ColumnCryptoMetaData c)
      throws TException {
    switch (c.kind()) {
      case FOOTER_KEY -> out.emptyStructUnion(1);
      case COLUMN_KEY -> {
        out.structBegin();
        out.fieldBegin(TType.STRUCT, 2);
        out.structBegin();
        out.stringList(1, c.pathInSchema());
        out.optBinary(2, c.keyMetadata());
        out.structEnd();
        out.structEnd();
      }
      default -> throw new IllegalArgumentException("cannot write unrecognised crypto metadata");
    }
  }
}
