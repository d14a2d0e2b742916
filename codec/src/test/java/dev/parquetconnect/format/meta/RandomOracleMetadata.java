package dev.parquetconnect.format.meta;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Rich random parquet-java metadata objects from a fixed seed: every optional field is set with
 * probability one half, lists have 0 to a few elements, numbers span small and extreme values, and
 * every logical type, codec, encoding and page type the oracle knows appears.
 */
final class RandomOracleMetadata {
  private final Random random;

  RandomOracleMetadata(long seed) {
    this.random = new Random(seed);
  }

  org.apache.parquet.format.FileMetaData fileMetaData() {
    int schemaSize = 1 + random.nextInt(6);
    List<org.apache.parquet.format.SchemaElement> schema = new ArrayList<>();
    for (int i = 0; i < schemaSize; i++) {
      schema.add(schemaElement());
    }
    List<org.apache.parquet.format.RowGroup> rowGroups = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      rowGroups.add(rowGroup());
    }
    org.apache.parquet.format.FileMetaData m =
        new org.apache.parquet.format.FileMetaData(anyInt(), schema, anyLong(), rowGroups);
    if (maybe()) m.setKey_value_metadata(keyValues());
    if (maybe()) m.setCreated_by(string());
    if (maybe()) {
      List<org.apache.parquet.format.ColumnOrder> orders = new ArrayList<>();
      for (int i = random.nextInt(4); i > 0; i--) {
        orders.add(
            org.apache.parquet.format.ColumnOrder.TYPE_ORDER(
                new org.apache.parquet.format.TypeDefinedOrder()));
      }
      m.setColumn_orders(orders);
    }
    if (random.nextInt(8) == 0) m.setEncryption_algorithm(encryptionAlgorithm());
    if (random.nextInt(8) == 0) m.setFooter_signing_key_metadata(bytes());
    return m;
  }

  org.apache.parquet.format.SchemaElement schemaElement() {
    org.apache.parquet.format.SchemaElement e =
        new org.apache.parquet.format.SchemaElement(string());
    if (maybe()) e.setType(org.apache.parquet.format.Type.findByValue(random.nextInt(8)));
    if (maybe()) e.setType_length(anyInt());
    if (maybe())
      e.setRepetition_type(
          org.apache.parquet.format.FieldRepetitionType.findByValue(random.nextInt(3)));
    if (maybe()) e.setNum_children(anyInt());
    if (maybe())
      e.setConverted_type(org.apache.parquet.format.ConvertedType.findByValue(random.nextInt(22)));
    if (maybe()) e.setScale(anyInt());
    if (maybe()) e.setPrecision(anyInt());
    if (maybe()) e.setField_id(anyInt());
    if (maybe()) e.setLogicalType(logicalType());
    return e;
  }

  org.apache.parquet.format.LogicalType logicalType() {
    switch (random.nextInt(17)) {
      case 0:
        return org.apache.parquet.format.LogicalType.STRING(
            new org.apache.parquet.format.StringType());
      case 1:
        return org.apache.parquet.format.LogicalType.MAP(new org.apache.parquet.format.MapType());
      case 2:
        return org.apache.parquet.format.LogicalType.LIST(new org.apache.parquet.format.ListType());
      case 3:
        return org.apache.parquet.format.LogicalType.ENUM(new org.apache.parquet.format.EnumType());
      case 4:
        return org.apache.parquet.format.LogicalType.DECIMAL(
            new org.apache.parquet.format.DecimalType(anyInt(), anyInt()));
      case 5:
        return org.apache.parquet.format.LogicalType.DATE(new org.apache.parquet.format.DateType());
      case 6:
        return org.apache.parquet.format.LogicalType.TIME(
            new org.apache.parquet.format.TimeType(random.nextBoolean(), timeUnit()));
      case 7:
        return org.apache.parquet.format.LogicalType.TIMESTAMP(
            new org.apache.parquet.format.TimestampType(random.nextBoolean(), timeUnit()));
      case 8:
        return org.apache.parquet.format.LogicalType.INTEGER(
            new org.apache.parquet.format.IntType((byte) random.nextInt(), random.nextBoolean()));
      case 9:
        return org.apache.parquet.format.LogicalType.UNKNOWN(
            new org.apache.parquet.format.NullType());
      case 10:
        return org.apache.parquet.format.LogicalType.JSON(new org.apache.parquet.format.JsonType());
      case 11:
        return org.apache.parquet.format.LogicalType.BSON(new org.apache.parquet.format.BsonType());
      case 12:
        return org.apache.parquet.format.LogicalType.UUID(new org.apache.parquet.format.UUIDType());
      case 13:
        return org.apache.parquet.format.LogicalType.FLOAT16(
            new org.apache.parquet.format.Float16Type());
      case 14:
        {
          org.apache.parquet.format.VariantType v = new org.apache.parquet.format.VariantType();
          if (maybe()) v.setSpecification_version((byte) random.nextInt());
          return org.apache.parquet.format.LogicalType.VARIANT(v);
        }
      case 15:
        {
          org.apache.parquet.format.GeometryType g = new org.apache.parquet.format.GeometryType();
          if (maybe()) g.setCrs(string());
          return org.apache.parquet.format.LogicalType.GEOMETRY(g);
        }
      default:
        {
          org.apache.parquet.format.GeographyType g = new org.apache.parquet.format.GeographyType();
          if (maybe()) g.setCrs(string());
          if (maybe())
            g.setAlgorithm(
                org.apache.parquet.format.EdgeInterpolationAlgorithm.findByValue(
                    random.nextInt(5)));
          return org.apache.parquet.format.LogicalType.GEOGRAPHY(g);
        }
    }
  }

  private org.apache.parquet.format.TimeUnit timeUnit() {
    switch (random.nextInt(3)) {
      case 0:
        return org.apache.parquet.format.TimeUnit.MILLIS(
            new org.apache.parquet.format.MilliSeconds());
      case 1:
        return org.apache.parquet.format.TimeUnit.MICROS(
            new org.apache.parquet.format.MicroSeconds());
      default:
        return org.apache.parquet.format.TimeUnit.NANOS(
            new org.apache.parquet.format.NanoSeconds());
    }
  }

  private org.apache.parquet.format.EncryptionAlgorithm encryptionAlgorithm() {
    if (random.nextBoolean()) {
      org.apache.parquet.format.AesGcmV1 v = new org.apache.parquet.format.AesGcmV1();
      if (maybe()) v.setAad_prefix(bytes());
      if (maybe()) v.setAad_file_unique(bytes());
      if (maybe()) v.setSupply_aad_prefix(random.nextBoolean());
      return org.apache.parquet.format.EncryptionAlgorithm.AES_GCM_V1(v);
    }
    org.apache.parquet.format.AesGcmCtrV1 v = new org.apache.parquet.format.AesGcmCtrV1();
    if (maybe()) v.setAad_prefix(bytes());
    if (maybe()) v.setAad_file_unique(bytes());
    if (maybe()) v.setSupply_aad_prefix(random.nextBoolean());
    return org.apache.parquet.format.EncryptionAlgorithm.AES_GCM_CTR_V1(v);
  }

  org.apache.parquet.format.RowGroup rowGroup() {
    List<org.apache.parquet.format.ColumnChunk> columns = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      columns.add(columnChunk());
    }
    org.apache.parquet.format.RowGroup g =
        new org.apache.parquet.format.RowGroup(columns, anyLong(), anyLong());
    if (maybe()) {
      List<org.apache.parquet.format.SortingColumn> sorting = new ArrayList<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        sorting.add(
            new org.apache.parquet.format.SortingColumn(
                anyInt(), random.nextBoolean(), random.nextBoolean()));
      }
      g.setSorting_columns(sorting);
    }
    if (maybe()) g.setFile_offset(anyLong());
    if (maybe()) g.setTotal_compressed_size(anyLong());
    if (maybe()) g.setOrdinal((short) random.nextInt());
    return g;
  }

  org.apache.parquet.format.ColumnChunk columnChunk() {
    org.apache.parquet.format.ColumnChunk c = new org.apache.parquet.format.ColumnChunk(anyLong());
    if (maybe()) c.setFile_path(string());
    if (random.nextInt(4) != 0) c.setMeta_data(columnMetaData());
    if (maybe()) c.setOffset_index_offset(anyLong());
    if (maybe()) c.setOffset_index_length(anyInt());
    if (maybe()) c.setColumn_index_offset(anyLong());
    if (maybe()) c.setColumn_index_length(anyInt());
    if (random.nextInt(6) == 0) {
      if (random.nextBoolean()) {
        c.setCrypto_metadata(
            org.apache.parquet.format.ColumnCryptoMetaData.ENCRYPTION_WITH_FOOTER_KEY(
                new org.apache.parquet.format.EncryptionWithFooterKey()));
      } else {
        org.apache.parquet.format.EncryptionWithColumnKey k =
            new org.apache.parquet.format.EncryptionWithColumnKey(strings());
        if (maybe()) k.setKey_metadata(bytes());
        c.setCrypto_metadata(
            org.apache.parquet.format.ColumnCryptoMetaData.ENCRYPTION_WITH_COLUMN_KEY(k));
      }
    }
    if (random.nextInt(6) == 0) c.setEncrypted_column_metadata(bytes());
    return c;
  }

  org.apache.parquet.format.ColumnMetaData columnMetaData() {
    List<org.apache.parquet.format.Encoding> encodings = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      encodings.add(encoding());
    }
    org.apache.parquet.format.ColumnMetaData c =
        new org.apache.parquet.format.ColumnMetaData(
            org.apache.parquet.format.Type.findByValue(random.nextInt(8)),
            encodings,
            strings(),
            org.apache.parquet.format.CompressionCodec.findByValue(random.nextInt(8)),
            anyLong(),
            anyLong(),
            anyLong(),
            anyLong());
    if (maybe()) c.setKey_value_metadata(keyValues());
    if (maybe()) c.setIndex_page_offset(anyLong());
    if (maybe()) c.setDictionary_page_offset(anyLong());
    if (maybe()) c.setStatistics(statistics());
    if (maybe()) {
      List<org.apache.parquet.format.PageEncodingStats> stats = new ArrayList<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        stats.add(
            new org.apache.parquet.format.PageEncodingStats(pageType(), encoding(), anyInt()));
      }
      c.setEncoding_stats(stats);
    }
    if (maybe()) c.setBloom_filter_offset(anyLong());
    if (maybe()) c.setBloom_filter_length(anyInt());
    if (maybe()) {
      org.apache.parquet.format.SizeStatistics s = new org.apache.parquet.format.SizeStatistics();
      if (maybe()) s.setUnencoded_byte_array_data_bytes(anyLong());
      if (maybe()) s.setRepetition_level_histogram(longs());
      if (maybe()) s.setDefinition_level_histogram(longs());
      c.setSize_statistics(s);
    }
    if (random.nextInt(4) == 0) {
      org.apache.parquet.format.GeospatialStatistics g =
          new org.apache.parquet.format.GeospatialStatistics();
      if (maybe()) {
        org.apache.parquet.format.BoundingBox b =
            new org.apache.parquet.format.BoundingBox(
                anyDouble(), anyDouble(), anyDouble(), anyDouble());
        if (maybe()) b.setZmin(anyDouble());
        if (maybe()) b.setZmax(anyDouble());
        if (maybe()) b.setMmin(anyDouble());
        if (maybe()) b.setMmax(anyDouble());
        g.setBbox(b);
      }
      if (maybe()) {
        List<Integer> types = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
          types.add(anyInt());
        }
        g.setGeospatial_types(types);
      }
      c.setGeospatial_statistics(g);
    }
    return c;
  }

  org.apache.parquet.format.Statistics statistics() {
    org.apache.parquet.format.Statistics s = new org.apache.parquet.format.Statistics();
    if (maybe()) s.setMax(bytes());
    if (maybe()) s.setMin(bytes());
    if (maybe()) s.setNull_count(anyLong());
    if (maybe()) s.setDistinct_count(anyLong());
    if (maybe()) s.setMax_value(bytes());
    if (maybe()) s.setMin_value(bytes());
    if (maybe()) s.setIs_max_value_exact(random.nextBoolean());
    if (maybe()) s.setIs_min_value_exact(random.nextBoolean());
    return s;
  }

  org.apache.parquet.format.PageHeader pageHeader() {
    org.apache.parquet.format.PageHeader h =
        new org.apache.parquet.format.PageHeader(pageType(), pageSize(), pageSize());
    if (maybe()) h.setCrc(anyInt());
    if (maybe()) {
      org.apache.parquet.format.DataPageHeader d =
          new org.apache.parquet.format.DataPageHeader(
              anyInt(), encoding(), encoding(), encoding());
      if (maybe()) d.setStatistics(statistics());
      h.setData_page_header(d);
    }
    if (random.nextInt(4) == 0)
      h.setIndex_page_header(new org.apache.parquet.format.IndexPageHeader());
    if (maybe()) {
      org.apache.parquet.format.DictionaryPageHeader d =
          new org.apache.parquet.format.DictionaryPageHeader(anyInt(), encoding());
      if (maybe()) d.setIs_sorted(random.nextBoolean());
      h.setDictionary_page_header(d);
    }
    if (maybe()) {
      org.apache.parquet.format.DataPageHeaderV2 d =
          new org.apache.parquet.format.DataPageHeaderV2(
              anyInt(), anyInt(), anyInt(), encoding(), anyInt(), anyInt());
      if (maybe()) d.setIs_compressed(random.nextBoolean());
      if (maybe()) d.setStatistics(statistics());
      h.setData_page_header_v2(d);
    }
    return h;
  }

  org.apache.parquet.format.ColumnIndex columnIndex() {
    int pages = random.nextInt(20);
    List<Boolean> nullPages = new ArrayList<>();
    List<ByteBuffer> mins = new ArrayList<>();
    List<ByteBuffer> maxs = new ArrayList<>();
    for (int i = 0; i < pages; i++) {
      nullPages.add(random.nextBoolean());
      mins.add(ByteBuffer.wrap(bytes()));
      maxs.add(ByteBuffer.wrap(bytes()));
    }
    org.apache.parquet.format.ColumnIndex c =
        new org.apache.parquet.format.ColumnIndex(
            nullPages,
            mins,
            maxs,
            org.apache.parquet.format.BoundaryOrder.findByValue(random.nextInt(3)));
    if (maybe()) c.setNull_counts(longs());
    if (maybe()) c.setRepetition_level_histograms(longs());
    if (maybe()) c.setDefinition_level_histograms(longs());
    return c;
  }

  org.apache.parquet.format.OffsetIndex offsetIndex() {
    List<org.apache.parquet.format.PageLocation> locations = new ArrayList<>();
    for (int i = random.nextInt(20); i > 0; i--) {
      locations.add(new org.apache.parquet.format.PageLocation(anyLong(), anyInt(), anyLong()));
    }
    org.apache.parquet.format.OffsetIndex o = new org.apache.parquet.format.OffsetIndex(locations);
    if (maybe()) o.setUnencoded_byte_array_data_bytes(longs());
    return o;
  }

  org.apache.parquet.format.BloomFilterHeader bloomFilterHeader() {
    return new org.apache.parquet.format.BloomFilterHeader(
        anyInt(),
        org.apache.parquet.format.BloomFilterAlgorithm.BLOCK(
            new org.apache.parquet.format.SplitBlockAlgorithm()),
        org.apache.parquet.format.BloomFilterHash.XXHASH(new org.apache.parquet.format.XxHash()),
        org.apache.parquet.format.BloomFilterCompression.UNCOMPRESSED(
            new org.apache.parquet.format.Uncompressed()));
  }

  // ---- values

  private boolean maybe() {
    return random.nextBoolean();
  }

  private org.apache.parquet.format.Encoding encoding() {
    org.apache.parquet.format.Encoding[] all = org.apache.parquet.format.Encoding.values();
    return all[random.nextInt(all.length)];
  }

  private org.apache.parquet.format.PageType pageType() {
    return org.apache.parquet.format.PageType.findByValue(random.nextInt(4));
  }

  private int anyInt() {
    switch (random.nextInt(4)) {
      case 0:
        return random.nextInt(16);
      case 1:
        return random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE;
      case 2:
        return -random.nextInt(1000);
      default:
        return random.nextInt();
    }
  }

  private int pageSize() {
    return random.nextBoolean() ? random.nextInt(1 << 20) : random.nextInt() & Integer.MAX_VALUE;
  }

  private long anyLong() {
    switch (random.nextInt(4)) {
      case 0:
        return random.nextInt(1 << 20);
      case 1:
        return random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
      case 2:
        return -random.nextInt(1000);
      default:
        return random.nextLong();
    }
  }

  private double anyDouble() {
    // No NaN: the generated classes compare doubles with ==.
    switch (random.nextInt(4)) {
      case 0:
        return random.nextInt(100) - 50;
      case 1:
        return random.nextBoolean() ? Double.NEGATIVE_INFINITY : Double.MAX_VALUE;
      case 2:
        return -0.0;
      default:
        return random.nextGaussian() * 1e6;
    }
  }

  private List<Long> longs() {
    List<Long> list = new ArrayList<>();
    for (int i = random.nextInt(20); i > 0; i--) {
      list.add(anyLong());
    }
    return list;
  }

  private byte[] bytes() {
    byte[] b = new byte[random.nextInt(4) == 0 ? random.nextInt(300) : random.nextInt(9)];
    random.nextBytes(b);
    return b;
  }

  private String string() {
    int length = random.nextInt(12);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      switch (random.nextInt(4)) {
        case 0:
          sb.append((char) ('a' + random.nextInt(26)));
          break;
        case 1:
          sb.append("é");
          break;
        case 2:
          sb.append("\uD83D\uDE00");
          break;
        default:
          sb.append((char) ('0' + random.nextInt(10)));
      }
    }
    return sb.toString();
  }

  private List<String> strings() {
    List<String> list = new ArrayList<>();
    for (int i = 1 + random.nextInt(3); i > 0; i--) {
      list.add(string());
    }
    return list;
  }

  private List<org.apache.parquet.format.KeyValue> keyValues() {
    List<org.apache.parquet.format.KeyValue> list = new ArrayList<>();
    for (int i = random.nextInt(4); i > 0; i--) {
      org.apache.parquet.format.KeyValue kv = new org.apache.parquet.format.KeyValue(string());
      if (maybe()) kv.setValue(string());
      list.add(kv);
    }
    return list;
  }
}
