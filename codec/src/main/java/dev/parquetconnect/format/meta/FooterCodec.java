package dev.parquetconnect.format.meta;

import dev.parquetconnect.format.ParquetException;
import java.util.ArrayList;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TType;

/**
 * Reads and writes {@code FileMetaData} and its own small parts: row groups, sorting columns,
 * column orders and key/value pairs. Column chunks are {@link ColumnChunkCodec}'s, the encryption
 * fields {@link EncryptionCodec}'s.
 */
final class FooterCodec {
  private static final String[] FILE_FIELDS = {
    null,
    "version",
    "schema",
    "num_rows",
    "row_groups",
    "key_value_metadata",
    "created_by",
    "column_orders",
    "encryption_algorithm",
    "footer_signing_key_metadata"
  };
  private static final int FILE_REQUIRED = 0b11110;
  private static final String[] ROW_GROUP_FIELDS = {
    null,
    "columns",
    "total_byte_size",
    "num_rows",
    "sorting_columns",
    "file_offset",
    "total_compressed_size",
    "ordinal"
  };
  private static final int ROW_GROUP_REQUIRED = 0b1110;
  private static final String[] KEY_VALUE_FIELDS = {null, "key", "value"};
  private static final String[] SORTING_FIELDS = {null, "column_idx", "descending", "nulls_first"};
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
            encryption = EncryptionCodec.readEncryptionAlgorithm(in);
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
        version,
        schema,
        numRows,
        rowGroups,
        keyValues,
        createdBy,
        columnOrders,
        encryption,
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
      EncryptionCodec.writeEncryptionAlgorithm(out, m.encryptionAlgorithm());
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
            columns = in.structList(ColumnChunkCodec::readColumnChunk);
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
    return new RowGroup(
        columns, totalByteSize, numRows, sorting, fileOffset, totalCompressed, ordinal);
  }

  private static void writeRowGroup(ThriftOutput out, RowGroup g) throws TException {
    out.structBegin();
    out.listBegin(1, TType.STRUCT, g.columns().size());
    for (ColumnChunk chunk : g.columns()) {
      ColumnChunkCodec.writeColumnChunk(out, chunk);
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

  // ---- KeyValue

  static KeyValue readKeyValue(ThriftInput in) throws TException, ParquetException {
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

  static void writeKeyValues(ThriftOutput out, int fieldId, List<KeyValue> keyValues)
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
}
