package dev.parquetconnect.format.meta;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites our reading of a footer into what parquet-java 1.16 can represent, for comparisons: it
 * does not know Statistics.nan_count, the IEEE 754 and INT96 column orders, or the FILE logical
 * type, and it cannot tell which unknown union member it skipped.
 */
final class CorpusNormalizer {
  private CorpusNormalizer() {}

  /** Whether the footer holds anything parquet-java 1.16 drops, so its bytes would differ. */
  static boolean hasNewerContent(FileMetaData m) {
    return !asOracleSees(m).equals(m);
  }

  static FileMetaData asOracleSees(FileMetaData m) {
    List<SchemaElement> schema = new ArrayList<>();
    for (SchemaElement e : m.schema()) {
      schema.add(
          new SchemaElement(
              e.type(),
              e.typeLength(),
              e.repetitionType(),
              e.name(),
              e.numChildren(),
              e.convertedType(),
              e.scale(),
              e.precision(),
              e.fieldId(),
              logicalType(e.logicalType())));
    }
    List<RowGroup> rowGroups = new ArrayList<>();
    for (RowGroup g : m.rowGroups()) {
      List<ColumnChunk> columns = new ArrayList<>();
      for (ColumnChunk c : g.columns()) {
        columns.add(
            new ColumnChunk(
                c.filePath(),
                c.fileOffset(),
                columnMetaData(c.metaData()),
                c.offsetIndexOffset(),
                c.offsetIndexLength(),
                c.columnIndexOffset(),
                c.columnIndexLength(),
                c.cryptoMetadata(),
                c.encryptedColumnMetadata()));
      }
      rowGroups.add(
          new RowGroup(
              columns,
              g.totalByteSize(),
              g.numRows(),
              g.sortingColumns(),
              g.fileOffset(),
              g.totalCompressedSize(),
              g.ordinal()));
    }
    List<ColumnOrder> orders = null;
    if (m.columnOrders() != null) {
      orders = new ArrayList<>();
      for (ColumnOrder o : m.columnOrders()) {
        orders.add(o == ColumnOrder.TYPE_DEFINED ? o : ColumnOrder.UNRECOGNIZED);
      }
    }
    return new FileMetaData(
        m.version(),
        schema,
        m.numRows(),
        rowGroups,
        m.keyValueMetadata(),
        m.createdBy(),
        orders,
        m.encryptionAlgorithm(),
        m.footerSigningKeyMetadata());
  }

  static ColumnIndex withoutNanCounts(ColumnIndex c) {
    return new ColumnIndex(
        c.nullPages(),
        c.minValues(),
        c.maxValues(),
        c.boundaryOrder(),
        c.nullCounts(),
        c.repetitionLevelHistograms(),
        c.definitionLevelHistograms(),
        null);
  }

  private static LogicalType logicalType(LogicalType t) {
    if (t instanceof LogicalType.Unrecognized || t instanceof LogicalType.FileType) {
      return new LogicalType.Unrecognized(-1);
    }
    return t;
  }

  private static ColumnMetaData columnMetaData(ColumnMetaData c) {
    if (c == null) {
      return null;
    }
    Statistics s = c.statistics();
    if (s != null) {
      s =
          new Statistics(
              s.max(),
              s.min(),
              s.nullCount(),
              s.distinctCount(),
              s.maxValue(),
              s.minValue(),
              s.isMaxValueExact(),
              s.isMinValueExact(),
              null);
    }
    return new ColumnMetaData(
        c.type(),
        c.encodings(),
        c.pathInSchema(),
        c.codec(),
        c.numValues(),
        c.totalUncompressedSize(),
        c.totalCompressedSize(),
        c.keyValueMetadata(),
        c.dataPageOffset(),
        c.indexPageOffset(),
        c.dictionaryPageOffset(),
        s,
        c.encodingStats(),
        c.bloomFilterOffset(),
        c.bloomFilterLength(),
        c.sizeStatistics(),
        c.geospatialStatistics());
  }
}
