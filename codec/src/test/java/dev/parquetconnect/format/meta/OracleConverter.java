package dev.parquetconnect.format.meta;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Converts between our metadata records and parquet-java's generated {@code
 * org.apache.parquet.format} classes (the oracle), field by field, so cross-checks can compare
 * values in either model. An oracle union with no member set (parquet-java read a member it does
 * not know) becomes our "unrecognised" value with field id -1.
 */
final class OracleConverter {
  private OracleConverter() {}

  // ================= oracle -> ours

  static FileMetaData fromOracle(org.apache.parquet.format.FileMetaData m) {
    return new FileMetaData(
        m.getVersion(),
        map(m.getSchema(), OracleConverter::fromOracle),
        m.getNum_rows(),
        map(m.getRow_groups(), OracleConverter::fromOracle),
        m.isSetKey_value_metadata()
            ? map(m.getKey_value_metadata(), OracleConverter::fromOracle)
            : null,
        m.getCreated_by(),
        m.isSetColumn_orders() ? map(m.getColumn_orders(), OracleConverter::fromOracle) : null,
        m.isSetEncryption_algorithm() ? fromOracle(m.getEncryption_algorithm()) : null,
        bytes(m.bufferForFooter_signing_key_metadata()));
  }

  static SchemaElement fromOracle(org.apache.parquet.format.SchemaElement e) {
    return new SchemaElement(
        e.isSetType() ? PhysicalType.fromValueOrNull(e.getType().getValue()) : null,
        e.isSetType_length() ? e.getType_length() : null,
        e.isSetRepetition_type()
            ? FieldRepetitionType.fromValueOrNull(e.getRepetition_type().getValue())
            : null,
        e.getName(),
        e.isSetNum_children() ? e.getNum_children() : null,
        e.isSetConverted_type()
            ? ConvertedType.fromValueOrNull(e.getConverted_type().getValue())
            : null,
        e.isSetScale() ? e.getScale() : null,
        e.isSetPrecision() ? e.getPrecision() : null,
        e.isSetField_id() ? e.getField_id() : null,
        e.isSetLogicalType() ? fromOracle(e.getLogicalType()) : null);
  }

  static LogicalType fromOracle(org.apache.parquet.format.LogicalType t) {
    if (t.getSetField() == null) {
      return new LogicalType.Unrecognized(-1);
    }
    switch (t.getSetField()) {
      case STRING:
        return LogicalType.STRING;
      case MAP:
        return LogicalType.MAP;
      case LIST:
        return LogicalType.LIST;
      case ENUM:
        return LogicalType.ENUM;
      case DECIMAL:
        return new LogicalType.DecimalType(
            t.getDECIMAL().getScale(), t.getDECIMAL().getPrecision());
      case DATE:
        return LogicalType.DATE;
      case TIME:
        return new LogicalType.TimeType(
            t.getTIME().isIsAdjustedToUTC(), fromOracle(t.getTIME().getUnit()));
      case TIMESTAMP:
        return new LogicalType.TimestampType(
            t.getTIMESTAMP().isIsAdjustedToUTC(), fromOracle(t.getTIMESTAMP().getUnit()));
      case INTEGER:
        return new LogicalType.IntType(t.getINTEGER().getBitWidth(), t.getINTEGER().isIsSigned());
      case UNKNOWN:
        return LogicalType.UNKNOWN;
      case JSON:
        return LogicalType.JSON;
      case BSON:
        return LogicalType.BSON;
      case UUID:
        return LogicalType.UUID;
      case FLOAT16:
        return LogicalType.FLOAT16;
      case VARIANT:
        return new LogicalType.VariantType(
            t.getVARIANT().isSetSpecification_version()
                ? t.getVARIANT().getSpecification_version()
                : null);
      case GEOMETRY:
        return new LogicalType.GeometryType(t.getGEOMETRY().getCrs());
      case GEOGRAPHY:
        return new LogicalType.GeographyType(
            t.getGEOGRAPHY().getCrs(),
            t.getGEOGRAPHY().isSetAlgorithm()
                ? EdgeInterpolationAlgorithm.fromValueOrNull(
                    t.getGEOGRAPHY().getAlgorithm().getValue())
                : null);
      default:
        throw new AssertionError(t.getSetField());
    }
  }

  static TimeUnit fromOracle(org.apache.parquet.format.TimeUnit u) {
    switch (u.getSetField()) {
      case MILLIS:
        return TimeUnit.MILLIS;
      case MICROS:
        return TimeUnit.MICROS;
      case NANOS:
        return TimeUnit.NANOS;
      default:
        throw new AssertionError(u.getSetField());
    }
  }

  static ColumnOrder fromOracle(org.apache.parquet.format.ColumnOrder o) {
    return o.isSetTYPE_ORDER() ? ColumnOrder.TYPE_DEFINED : ColumnOrder.UNRECOGNIZED;
  }

  static EncryptionAlgorithm fromOracle(org.apache.parquet.format.EncryptionAlgorithm a) {
    if (a.isSetAES_GCM_V1()) {
      org.apache.parquet.format.AesGcmV1 v = a.getAES_GCM_V1();
      return new EncryptionAlgorithm(
          EncryptionAlgorithm.Kind.AES_GCM_V1,
          bytes(v.bufferForAad_prefix()),
          bytes(v.bufferForAad_file_unique()),
          v.isSetSupply_aad_prefix() ? v.isSupply_aad_prefix() : null);
    }
    if (a.isSetAES_GCM_CTR_V1()) {
      org.apache.parquet.format.AesGcmCtrV1 v = a.getAES_GCM_CTR_V1();
      return new EncryptionAlgorithm(
          EncryptionAlgorithm.Kind.AES_GCM_CTR_V1,
          bytes(v.bufferForAad_prefix()),
          bytes(v.bufferForAad_file_unique()),
          v.isSetSupply_aad_prefix() ? v.isSupply_aad_prefix() : null);
    }
    return new EncryptionAlgorithm(EncryptionAlgorithm.Kind.UNRECOGNIZED, null, null, null);
  }

  static RowGroup fromOracle(org.apache.parquet.format.RowGroup g) {
    return new RowGroup(
        map(g.getColumns(), OracleConverter::fromOracle),
        g.getTotal_byte_size(),
        g.getNum_rows(),
        g.isSetSorting_columns() ? map(g.getSorting_columns(), OracleConverter::fromOracle) : null,
        g.isSetFile_offset() ? g.getFile_offset() : null,
        g.isSetTotal_compressed_size() ? g.getTotal_compressed_size() : null,
        g.isSetOrdinal() ? g.getOrdinal() : null);
  }

  static SortingColumn fromOracle(org.apache.parquet.format.SortingColumn s) {
    return new SortingColumn(s.getColumn_idx(), s.isDescending(), s.isNulls_first());
  }

  static KeyValue fromOracle(org.apache.parquet.format.KeyValue kv) {
    return new KeyValue(kv.getKey(), kv.getValue());
  }

  static ColumnChunk fromOracle(org.apache.parquet.format.ColumnChunk c) {
    return new ColumnChunk(
        c.getFile_path(),
        c.getFile_offset(),
        c.isSetMeta_data() ? fromOracle(c.getMeta_data()) : null,
        c.isSetOffset_index_offset() ? c.getOffset_index_offset() : null,
        c.isSetOffset_index_length() ? c.getOffset_index_length() : null,
        c.isSetColumn_index_offset() ? c.getColumn_index_offset() : null,
        c.isSetColumn_index_length() ? c.getColumn_index_length() : null,
        c.isSetCrypto_metadata() ? fromOracle(c.getCrypto_metadata()) : null,
        bytes(c.bufferForEncrypted_column_metadata()));
  }

  static ColumnCryptoMetaData fromOracle(org.apache.parquet.format.ColumnCryptoMetaData c) {
    if (c.isSetENCRYPTION_WITH_FOOTER_KEY()) {
      return ColumnCryptoMetaData.FOOTER_KEY;
    }
    if (c.isSetENCRYPTION_WITH_COLUMN_KEY()) {
      org.apache.parquet.format.EncryptionWithColumnKey k = c.getENCRYPTION_WITH_COLUMN_KEY();
      return new ColumnCryptoMetaData(
          ColumnCryptoMetaData.Kind.COLUMN_KEY,
          k.getPath_in_schema(),
          bytes(k.bufferForKey_metadata()));
    }
    return new ColumnCryptoMetaData(ColumnCryptoMetaData.Kind.UNRECOGNIZED, null, null);
  }

  static ColumnMetaData fromOracle(org.apache.parquet.format.ColumnMetaData c) {
    List<Encoding> encodings = new ArrayList<>();
    for (org.apache.parquet.format.Encoding e : c.getEncodings()) {
      if (e != null) {
        encodings.add(Encoding.fromValueOrNull(e.getValue()));
      }
    }
    return new ColumnMetaData(
        PhysicalType.fromValueOrNull(c.getType().getValue()),
        encodings,
        c.getPath_in_schema(),
        CompressionCodec.fromValueOrNull(c.getCodec().getValue()),
        c.getNum_values(),
        c.getTotal_uncompressed_size(),
        c.getTotal_compressed_size(),
        c.isSetKey_value_metadata()
            ? map(c.getKey_value_metadata(), OracleConverter::fromOracle)
            : null,
        c.getData_page_offset(),
        c.isSetIndex_page_offset() ? c.getIndex_page_offset() : null,
        c.isSetDictionary_page_offset() ? c.getDictionary_page_offset() : null,
        c.isSetStatistics() ? fromOracle(c.getStatistics()) : null,
        c.isSetEncoding_stats() ? map(c.getEncoding_stats(), OracleConverter::fromOracle) : null,
        c.isSetBloom_filter_offset() ? c.getBloom_filter_offset() : null,
        c.isSetBloom_filter_length() ? c.getBloom_filter_length() : null,
        c.isSetSize_statistics() ? fromOracle(c.getSize_statistics()) : null,
        c.isSetGeospatial_statistics() ? fromOracle(c.getGeospatial_statistics()) : null);
  }

  static PageEncodingStats fromOracle(org.apache.parquet.format.PageEncodingStats s) {
    return new PageEncodingStats(
        s.getPage_type() == null ? null : PageType.fromValueOrNull(s.getPage_type().getValue()),
        s.getEncoding() == null ? null : Encoding.fromValueOrNull(s.getEncoding().getValue()),
        s.getCount());
  }

  static Statistics fromOracle(org.apache.parquet.format.Statistics s) {
    return new Statistics(
        bytes(s.bufferForMax()),
        bytes(s.bufferForMin()),
        s.isSetNull_count() ? s.getNull_count() : null,
        s.isSetDistinct_count() ? s.getDistinct_count() : null,
        bytes(s.bufferForMax_value()),
        bytes(s.bufferForMin_value()),
        s.isSetIs_max_value_exact() ? s.isIs_max_value_exact() : null,
        s.isSetIs_min_value_exact() ? s.isIs_min_value_exact() : null,
        null);
  }

  static SizeStatistics fromOracle(org.apache.parquet.format.SizeStatistics s) {
    return new SizeStatistics(
        s.isSetUnencoded_byte_array_data_bytes() ? s.getUnencoded_byte_array_data_bytes() : null,
        s.getRepetition_level_histogram(),
        s.getDefinition_level_histogram());
  }

  static GeospatialStatistics fromOracle(org.apache.parquet.format.GeospatialStatistics g) {
    BoundingBox bbox = null;
    if (g.isSetBbox()) {
      org.apache.parquet.format.BoundingBox b = g.getBbox();
      bbox =
          new BoundingBox(
              b.getXmin(),
              b.getXmax(),
              b.getYmin(),
              b.getYmax(),
              b.isSetZmin() ? b.getZmin() : null,
              b.isSetZmax() ? b.getZmax() : null,
              b.isSetMmin() ? b.getMmin() : null,
              b.isSetMmax() ? b.getMmax() : null);
    }
    return new GeospatialStatistics(bbox, g.getGeospatial_types());
  }

  static PageHeader fromOracle(org.apache.parquet.format.PageHeader h) {
    DataPageHeader data = null;
    if (h.isSetData_page_header()) {
      org.apache.parquet.format.DataPageHeader d = h.getData_page_header();
      data =
          new DataPageHeader(
              d.getNum_values(),
              enc(d.getEncoding()),
              enc(d.getDefinition_level_encoding()),
              enc(d.getRepetition_level_encoding()),
              d.isSetStatistics() ? fromOracle(d.getStatistics()) : null);
    }
    DictionaryPageHeader dictionary = null;
    if (h.isSetDictionary_page_header()) {
      org.apache.parquet.format.DictionaryPageHeader d = h.getDictionary_page_header();
      dictionary =
          new DictionaryPageHeader(
              d.getNum_values(), enc(d.getEncoding()), d.isSetIs_sorted() ? d.isIs_sorted() : null);
    }
    DataPageHeaderV2 v2 = null;
    if (h.isSetData_page_header_v2()) {
      org.apache.parquet.format.DataPageHeaderV2 d = h.getData_page_header_v2();
      v2 =
          new DataPageHeaderV2(
              d.getNum_values(),
              d.getNum_nulls(),
              d.getNum_rows(),
              enc(d.getEncoding()),
              d.getDefinition_levels_byte_length(),
              d.getRepetition_levels_byte_length(),
              d.isSetIs_compressed() ? d.isIs_compressed() : null,
              d.isSetStatistics() ? fromOracle(d.getStatistics()) : null);
    }
    return new PageHeader(
        PageType.fromValueOrNull(h.getType().getValue()),
        h.getUncompressed_page_size(),
        h.getCompressed_page_size(),
        h.isSetCrc() ? h.getCrc() : null,
        data,
        h.isSetIndex_page_header() ? IndexPageHeader.INSTANCE : null,
        dictionary,
        v2);
  }

  static ColumnIndex fromOracle(org.apache.parquet.format.ColumnIndex c) {
    return new ColumnIndex(
        c.getNull_pages(),
        map(c.getMin_values(), OracleConverter::bytes),
        map(c.getMax_values(), OracleConverter::bytes),
        BoundaryOrder.fromValueOrNull(c.getBoundary_order().getValue()),
        c.getNull_counts(),
        c.getRepetition_level_histograms(),
        c.getDefinition_level_histograms(),
        null);
  }

  static OffsetIndex fromOracle(org.apache.parquet.format.OffsetIndex o) {
    return new OffsetIndex(
        map(
            o.getPage_locations(),
            p ->
                new PageLocation(
                    p.getOffset(), p.getCompressed_page_size(), p.getFirst_row_index())),
        o.getUnencoded_byte_array_data_bytes());
  }

  static BloomFilterHeader fromOracle(org.apache.parquet.format.BloomFilterHeader b) {
    return new BloomFilterHeader(
        b.getNumBytes(),
        b.getAlgorithm().isSetBLOCK()
            ? BloomFilterHeader.Algorithm.BLOCK
            : BloomFilterHeader.Algorithm.UNRECOGNIZED,
        b.getHash().isSetXXHASH()
            ? BloomFilterHeader.Hash.XXHASH
            : BloomFilterHeader.Hash.UNRECOGNIZED,
        b.getCompression().isSetUNCOMPRESSED()
            ? BloomFilterHeader.Compression.UNCOMPRESSED
            : BloomFilterHeader.Compression.UNRECOGNIZED);
  }

  private static Encoding enc(org.apache.parquet.format.Encoding e) {
    return e == null ? null : Encoding.fromValueOrNull(e.getValue());
  }

  static ByteString bytes(ByteBuffer b) {
    if (b == null) {
      return null;
    }
    byte[] copy = new byte[b.remaining()];
    b.duplicate().get(copy);
    return ByteString.copyOf(copy);
  }

  // ================= ours -> oracle

  static org.apache.parquet.format.FileMetaData toOracle(FileMetaData m) {
    org.apache.parquet.format.FileMetaData o = new org.apache.parquet.format.FileMetaData();
    o.setVersion(m.version());
    o.setSchema(map(m.schema(), OracleConverter::toOracle));
    o.setNum_rows(m.numRows());
    o.setRow_groups(map(m.rowGroups(), OracleConverter::toOracle));
    if (m.keyValueMetadata() != null) {
      o.setKey_value_metadata(map(m.keyValueMetadata(), OracleConverter::toOracle));
    }
    o.setCreated_by(m.createdBy());
    if (m.columnOrders() != null) {
      o.setColumn_orders(map(m.columnOrders(), OracleConverter::toOracle));
    }
    if (m.encryptionAlgorithm() != null) {
      o.setEncryption_algorithm(toOracle(m.encryptionAlgorithm()));
    }
    if (m.footerSigningKeyMetadata() != null) {
      o.setFooter_signing_key_metadata(m.footerSigningKeyMetadata().toByteArray());
    }
    return o;
  }

  static org.apache.parquet.format.SchemaElement toOracle(SchemaElement e) {
    org.apache.parquet.format.SchemaElement o =
        new org.apache.parquet.format.SchemaElement(e.name());
    if (e.type() != null) {
      o.setType(org.apache.parquet.format.Type.findByValue(e.type().value()));
    }
    if (e.typeLength() != null) {
      o.setType_length(e.typeLength());
    }
    if (e.repetitionType() != null) {
      o.setRepetition_type(
          org.apache.parquet.format.FieldRepetitionType.findByValue(e.repetitionType().value()));
    }
    if (e.numChildren() != null) {
      o.setNum_children(e.numChildren());
    }
    if (e.convertedType() != null) {
      o.setConverted_type(
          org.apache.parquet.format.ConvertedType.findByValue(e.convertedType().value()));
    }
    if (e.scale() != null) {
      o.setScale(e.scale());
    }
    if (e.precision() != null) {
      o.setPrecision(e.precision());
    }
    if (e.fieldId() != null) {
      o.setField_id(e.fieldId());
    }
    if (e.logicalType() != null) {
      o.setLogicalType(toOracle(e.logicalType()));
    }
    return o;
  }

  static org.apache.parquet.format.LogicalType toOracle(LogicalType t) {
    if (t instanceof LogicalType.StringType)
      return org.apache.parquet.format.LogicalType.STRING(
          new org.apache.parquet.format.StringType());
    if (t instanceof LogicalType.MapType)
      return org.apache.parquet.format.LogicalType.MAP(new org.apache.parquet.format.MapType());
    if (t instanceof LogicalType.ListType)
      return org.apache.parquet.format.LogicalType.LIST(new org.apache.parquet.format.ListType());
    if (t instanceof LogicalType.EnumType)
      return org.apache.parquet.format.LogicalType.ENUM(new org.apache.parquet.format.EnumType());
    if (t instanceof LogicalType.DecimalType d) {
      return org.apache.parquet.format.LogicalType.DECIMAL(
          new org.apache.parquet.format.DecimalType(d.scale(), d.precision()));
    }
    if (t instanceof LogicalType.DateType)
      return org.apache.parquet.format.LogicalType.DATE(new org.apache.parquet.format.DateType());
    if (t instanceof LogicalType.TimeType x) {
      return org.apache.parquet.format.LogicalType.TIME(
          new org.apache.parquet.format.TimeType(x.adjustedToUtc(), toOracle(x.unit())));
    }
    if (t instanceof LogicalType.TimestampType x) {
      return org.apache.parquet.format.LogicalType.TIMESTAMP(
          new org.apache.parquet.format.TimestampType(x.adjustedToUtc(), toOracle(x.unit())));
    }
    if (t instanceof LogicalType.IntType x) {
      return org.apache.parquet.format.LogicalType.INTEGER(
          new org.apache.parquet.format.IntType(x.bitWidth(), x.signed()));
    }
    if (t instanceof LogicalType.NullType)
      return org.apache.parquet.format.LogicalType.UNKNOWN(
          new org.apache.parquet.format.NullType());
    if (t instanceof LogicalType.JsonType)
      return org.apache.parquet.format.LogicalType.JSON(new org.apache.parquet.format.JsonType());
    if (t instanceof LogicalType.BsonType)
      return org.apache.parquet.format.LogicalType.BSON(new org.apache.parquet.format.BsonType());
    if (t instanceof LogicalType.UuidType)
      return org.apache.parquet.format.LogicalType.UUID(new org.apache.parquet.format.UUIDType());
    if (t instanceof LogicalType.Float16Type)
      return org.apache.parquet.format.LogicalType.FLOAT16(
          new org.apache.parquet.format.Float16Type());
    if (t instanceof LogicalType.VariantType v) {
      org.apache.parquet.format.VariantType o = new org.apache.parquet.format.VariantType();
      if (v.specificationVersion() != null) {
        o.setSpecification_version(v.specificationVersion());
      }
      return org.apache.parquet.format.LogicalType.VARIANT(o);
    }
    if (t instanceof LogicalType.GeometryType g) {
      org.apache.parquet.format.GeometryType o = new org.apache.parquet.format.GeometryType();
      o.setCrs(g.crs());
      return org.apache.parquet.format.LogicalType.GEOMETRY(o);
    }
    if (t instanceof LogicalType.GeographyType g) {
      org.apache.parquet.format.GeographyType o = new org.apache.parquet.format.GeographyType();
      o.setCrs(g.crs());
      if (g.algorithm() != null) {
        o.setAlgorithm(
            org.apache.parquet.format.EdgeInterpolationAlgorithm.findByValue(
                g.algorithm().value()));
      }
      return org.apache.parquet.format.LogicalType.GEOGRAPHY(o);
    }
    throw new IllegalArgumentException("the oracle has no " + t);
  }

  static org.apache.parquet.format.TimeUnit toOracle(TimeUnit u) {
    switch (u) {
      case MILLIS:
        return org.apache.parquet.format.TimeUnit.MILLIS(
            new org.apache.parquet.format.MilliSeconds());
      case MICROS:
        return org.apache.parquet.format.TimeUnit.MICROS(
            new org.apache.parquet.format.MicroSeconds());
      default:
        return org.apache.parquet.format.TimeUnit.NANOS(
            new org.apache.parquet.format.NanoSeconds());
    }
  }

  static org.apache.parquet.format.ColumnOrder toOracle(ColumnOrder o) {
    if (o != ColumnOrder.TYPE_DEFINED) {
      throw new IllegalArgumentException("the oracle has no " + o);
    }
    return org.apache.parquet.format.ColumnOrder.TYPE_ORDER(
        new org.apache.parquet.format.TypeDefinedOrder());
  }

  static org.apache.parquet.format.EncryptionAlgorithm toOracle(EncryptionAlgorithm a) {
    if (a.kind() == EncryptionAlgorithm.Kind.AES_GCM_V1) {
      org.apache.parquet.format.AesGcmV1 v = new org.apache.parquet.format.AesGcmV1();
      if (a.aadPrefix() != null) v.setAad_prefix(a.aadPrefix().toByteArray());
      if (a.aadFileUnique() != null) v.setAad_file_unique(a.aadFileUnique().toByteArray());
      if (a.supplyAadPrefix() != null) v.setSupply_aad_prefix(a.supplyAadPrefix());
      return org.apache.parquet.format.EncryptionAlgorithm.AES_GCM_V1(v);
    }
    org.apache.parquet.format.AesGcmCtrV1 v = new org.apache.parquet.format.AesGcmCtrV1();
    if (a.aadPrefix() != null) v.setAad_prefix(a.aadPrefix().toByteArray());
    if (a.aadFileUnique() != null) v.setAad_file_unique(a.aadFileUnique().toByteArray());
    if (a.supplyAadPrefix() != null) v.setSupply_aad_prefix(a.supplyAadPrefix());
    return org.apache.parquet.format.EncryptionAlgorithm.AES_GCM_CTR_V1(v);
  }

  static org.apache.parquet.format.RowGroup toOracle(RowGroup g) {
    org.apache.parquet.format.RowGroup o =
        new org.apache.parquet.format.RowGroup(
            map(g.columns(), OracleConverter::toOracle), g.totalByteSize(), g.numRows());
    if (g.sortingColumns() != null) {
      o.setSorting_columns(
          map(
              g.sortingColumns(),
              s ->
                  new org.apache.parquet.format.SortingColumn(
                      s.columnIdx(), s.descending(), s.nullsFirst())));
    }
    if (g.fileOffset() != null) o.setFile_offset(g.fileOffset());
    if (g.totalCompressedSize() != null) o.setTotal_compressed_size(g.totalCompressedSize());
    if (g.ordinal() != null) o.setOrdinal(g.ordinal());
    return o;
  }

  static org.apache.parquet.format.KeyValue toOracle(KeyValue kv) {
    org.apache.parquet.format.KeyValue o = new org.apache.parquet.format.KeyValue(kv.key());
    if (kv.value() != null) {
      o.setValue(kv.value());
    }
    return o;
  }

  static org.apache.parquet.format.ColumnChunk toOracle(ColumnChunk c) {
    org.apache.parquet.format.ColumnChunk o =
        new org.apache.parquet.format.ColumnChunk(c.fileOffset());
    if (c.filePath() != null) o.setFile_path(c.filePath());
    if (c.metaData() != null) o.setMeta_data(toOracle(c.metaData()));
    if (c.offsetIndexOffset() != null) o.setOffset_index_offset(c.offsetIndexOffset());
    if (c.offsetIndexLength() != null) o.setOffset_index_length(c.offsetIndexLength());
    if (c.columnIndexOffset() != null) o.setColumn_index_offset(c.columnIndexOffset());
    if (c.columnIndexLength() != null) o.setColumn_index_length(c.columnIndexLength());
    if (c.cryptoMetadata() != null) {
      ColumnCryptoMetaData cm = c.cryptoMetadata();
      if (cm.kind() == ColumnCryptoMetaData.Kind.FOOTER_KEY) {
        o.setCrypto_metadata(
            org.apache.parquet.format.ColumnCryptoMetaData.ENCRYPTION_WITH_FOOTER_KEY(
                new org.apache.parquet.format.EncryptionWithFooterKey()));
      } else {
        org.apache.parquet.format.EncryptionWithColumnKey k =
            new org.apache.parquet.format.EncryptionWithColumnKey(
                new ArrayList<>(cm.pathInSchema()));
        if (cm.keyMetadata() != null) k.setKey_metadata(cm.keyMetadata().toByteArray());
        o.setCrypto_metadata(
            org.apache.parquet.format.ColumnCryptoMetaData.ENCRYPTION_WITH_COLUMN_KEY(k));
      }
    }
    if (c.encryptedColumnMetadata() != null) {
      o.setEncrypted_column_metadata(c.encryptedColumnMetadata().toByteArray());
    }
    return o;
  }

  static org.apache.parquet.format.ColumnMetaData toOracle(ColumnMetaData c) {
    org.apache.parquet.format.ColumnMetaData o =
        new org.apache.parquet.format.ColumnMetaData(
            org.apache.parquet.format.Type.findByValue(c.type().value()),
            map(c.encodings(), e -> org.apache.parquet.format.Encoding.findByValue(e.value())),
            new ArrayList<>(c.pathInSchema()),
            org.apache.parquet.format.CompressionCodec.findByValue(c.codec().value()),
            c.numValues(),
            c.totalUncompressedSize(),
            c.totalCompressedSize(),
            c.dataPageOffset());
    if (c.keyValueMetadata() != null)
      o.setKey_value_metadata(map(c.keyValueMetadata(), OracleConverter::toOracle));
    if (c.indexPageOffset() != null) o.setIndex_page_offset(c.indexPageOffset());
    if (c.dictionaryPageOffset() != null) o.setDictionary_page_offset(c.dictionaryPageOffset());
    if (c.statistics() != null) o.setStatistics(toOracle(c.statistics()));
    if (c.encodingStats() != null) {
      o.setEncoding_stats(
          map(
              c.encodingStats(),
              s ->
                  new org.apache.parquet.format.PageEncodingStats(
                      org.apache.parquet.format.PageType.findByValue(s.pageType().value()),
                      org.apache.parquet.format.Encoding.findByValue(s.encoding().value()),
                      s.count())));
    }
    if (c.bloomFilterOffset() != null) o.setBloom_filter_offset(c.bloomFilterOffset());
    if (c.bloomFilterLength() != null) o.setBloom_filter_length(c.bloomFilterLength());
    if (c.sizeStatistics() != null) {
      SizeStatistics s = c.sizeStatistics();
      org.apache.parquet.format.SizeStatistics so = new org.apache.parquet.format.SizeStatistics();
      if (s.unencodedByteArrayDataBytes() != null)
        so.setUnencoded_byte_array_data_bytes(s.unencodedByteArrayDataBytes());
      if (s.repetitionLevelHistogram() != null)
        so.setRepetition_level_histogram(new ArrayList<>(s.repetitionLevelHistogram()));
      if (s.definitionLevelHistogram() != null)
        so.setDefinition_level_histogram(new ArrayList<>(s.definitionLevelHistogram()));
      o.setSize_statistics(so);
    }
    if (c.geospatialStatistics() != null) {
      GeospatialStatistics g = c.geospatialStatistics();
      org.apache.parquet.format.GeospatialStatistics go =
          new org.apache.parquet.format.GeospatialStatistics();
      if (g.bbox() != null) {
        BoundingBox b = g.bbox();
        org.apache.parquet.format.BoundingBox bo =
            new org.apache.parquet.format.BoundingBox(b.xmin(), b.xmax(), b.ymin(), b.ymax());
        if (b.zmin() != null) bo.setZmin(b.zmin());
        if (b.zmax() != null) bo.setZmax(b.zmax());
        if (b.mmin() != null) bo.setMmin(b.mmin());
        if (b.mmax() != null) bo.setMmax(b.mmax());
        go.setBbox(bo);
      }
      if (g.geospatialTypes() != null) go.setGeospatial_types(new ArrayList<>(g.geospatialTypes()));
      o.setGeospatial_statistics(go);
    }
    return o;
  }

  static org.apache.parquet.format.Statistics toOracle(Statistics s) {
    if (s.nanCount() != null) {
      throw new IllegalArgumentException("the oracle has no nan_count");
    }
    org.apache.parquet.format.Statistics o = new org.apache.parquet.format.Statistics();
    if (s.max() != null) o.setMax(s.max().toByteArray());
    if (s.min() != null) o.setMin(s.min().toByteArray());
    if (s.nullCount() != null) o.setNull_count(s.nullCount());
    if (s.distinctCount() != null) o.setDistinct_count(s.distinctCount());
    if (s.maxValue() != null) o.setMax_value(s.maxValue().toByteArray());
    if (s.minValue() != null) o.setMin_value(s.minValue().toByteArray());
    if (s.isMaxValueExact() != null) o.setIs_max_value_exact(s.isMaxValueExact());
    if (s.isMinValueExact() != null) o.setIs_min_value_exact(s.isMinValueExact());
    return o;
  }

  static org.apache.parquet.format.PageHeader toOracle(PageHeader h) {
    org.apache.parquet.format.PageHeader o =
        new org.apache.parquet.format.PageHeader(
            org.apache.parquet.format.PageType.findByValue(h.type().value()),
            h.uncompressedPageSize(),
            h.compressedPageSize());
    if (h.crc() != null) o.setCrc(h.crc());
    if (h.dataPageHeader() != null) {
      DataPageHeader d = h.dataPageHeader();
      org.apache.parquet.format.DataPageHeader x =
          new org.apache.parquet.format.DataPageHeader(
              d.numValues(),
              toOracle(d.encoding()),
              toOracle(d.definitionLevelEncoding()),
              toOracle(d.repetitionLevelEncoding()));
      if (d.statistics() != null) x.setStatistics(toOracle(d.statistics()));
      o.setData_page_header(x);
    }
    if (h.indexPageHeader() != null)
      o.setIndex_page_header(new org.apache.parquet.format.IndexPageHeader());
    if (h.dictionaryPageHeader() != null) {
      DictionaryPageHeader d = h.dictionaryPageHeader();
      org.apache.parquet.format.DictionaryPageHeader x =
          new org.apache.parquet.format.DictionaryPageHeader(d.numValues(), toOracle(d.encoding()));
      if (d.isSorted() != null) x.setIs_sorted(d.isSorted());
      o.setDictionary_page_header(x);
    }
    if (h.dataPageHeaderV2() != null) {
      DataPageHeaderV2 d = h.dataPageHeaderV2();
      org.apache.parquet.format.DataPageHeaderV2 x =
          new org.apache.parquet.format.DataPageHeaderV2(
              d.numValues(),
              d.numNulls(),
              d.numRows(),
              toOracle(d.encoding()),
              d.definitionLevelsByteLength(),
              d.repetitionLevelsByteLength());
      if (d.isCompressed() != null) x.setIs_compressed(d.isCompressed());
      if (d.statistics() != null) x.setStatistics(toOracle(d.statistics()));
      o.setData_page_header_v2(x);
    }
    return o;
  }

  static org.apache.parquet.format.Encoding toOracle(Encoding e) {
    return org.apache.parquet.format.Encoding.findByValue(e.value());
  }

  static org.apache.parquet.format.ColumnIndex toOracle(ColumnIndex c) {
    if (c.nanCounts() != null) {
      throw new IllegalArgumentException("the oracle has no nan_counts");
    }
    org.apache.parquet.format.ColumnIndex o =
        new org.apache.parquet.format.ColumnIndex(
            new ArrayList<>(c.nullPages()),
            map(c.minValues(), b -> ByteBuffer.wrap(b.toByteArray())),
            map(c.maxValues(), b -> ByteBuffer.wrap(b.toByteArray())),
            org.apache.parquet.format.BoundaryOrder.findByValue(c.boundaryOrder().value()));
    if (c.nullCounts() != null) o.setNull_counts(new ArrayList<>(c.nullCounts()));
    if (c.repetitionLevelHistograms() != null) {
      o.setRepetition_level_histograms(new ArrayList<>(c.repetitionLevelHistograms()));
    }
    if (c.definitionLevelHistograms() != null) {
      o.setDefinition_level_histograms(new ArrayList<>(c.definitionLevelHistograms()));
    }
    return o;
  }

  static org.apache.parquet.format.OffsetIndex toOracle(OffsetIndex x) {
    org.apache.parquet.format.OffsetIndex o =
        new org.apache.parquet.format.OffsetIndex(
            map(
                x.pageLocations(),
                p ->
                    new org.apache.parquet.format.PageLocation(
                        p.offset(), p.compressedPageSize(), p.firstRowIndex())));
    if (x.unencodedByteArrayDataBytes() != null) {
      o.setUnencoded_byte_array_data_bytes(new ArrayList<>(x.unencodedByteArrayDataBytes()));
    }
    return o;
  }

  static org.apache.parquet.format.BloomFilterHeader toOracle(BloomFilterHeader b) {
    return new org.apache.parquet.format.BloomFilterHeader(
        b.numBytes(),
        org.apache.parquet.format.BloomFilterAlgorithm.BLOCK(
            new org.apache.parquet.format.SplitBlockAlgorithm()),
        org.apache.parquet.format.BloomFilterHash.XXHASH(new org.apache.parquet.format.XxHash()),
        org.apache.parquet.format.BloomFilterCompression.UNCOMPRESSED(
            new org.apache.parquet.format.Uncompressed()));
  }

  static <A, B> List<B> map(List<A> list, Function<A, B> f) {
    List<B> out = new ArrayList<>(list.size());
    for (A a : list) {
      out.add(f.apply(a));
    }
    return out;
  }
}
