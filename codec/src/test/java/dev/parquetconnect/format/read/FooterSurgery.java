package dev.parquetconnect.format.read;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.RowGroup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/** Rewrites the footer of a file in memory, to build files whose metadata lies. */
public final class FooterSurgery {
  private FooterSurgery() {}

  public static FileMetaData footer(byte[] file) throws ParquetException {
    int length = MetadataCodec.footerLength(file, file.length - 8, file.length);
    return MetadataCodec.readFileMetaData(file, file.length - 8 - length, length);
  }

  /** The same data with {@code metadata} as its footer. */
  public static byte[] withFooter(byte[] file, FileMetaData metadata) throws ParquetException {
    int length = MetadataCodec.footerLength(file, file.length - 8, file.length);
    GrowableBuffer out = new GrowableBuffer(file.length);
    out.write(file, 0, file.length - 8 - length);
    int start = out.size();
    MetadataCodec.write(metadata, out);
    out.writeIntLE(out.size() - start);
    out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /**
   * The file with every column chunk of row group {@code rowGroup}, column {@code column} changed.
   */
  static byte[] editChunk(byte[] file, int rowGroup, int column, UnaryOperator<ColumnChunk> edit)
      throws ParquetException {
    FileMetaData m = footer(file);
    List<RowGroup> groups = new ArrayList<>(m.rowGroups());
    RowGroup g = groups.get(rowGroup);
    List<ColumnChunk> chunks = new ArrayList<>(g.columns());
    chunks.set(column, edit.apply(chunks.get(column)));
    groups.set(
        rowGroup,
        new RowGroup(
            chunks,
            g.totalByteSize(),
            g.numRows(),
            g.sortingColumns(),
            g.fileOffset(),
            g.totalCompressedSize(),
            g.ordinal()));
    return withFooter(file, withRowGroups(m, groups));
  }

  static byte[] editMeta(byte[] file, int rowGroup, int column, UnaryOperator<ColumnMetaData> edit)
      throws ParquetException {
    return editChunk(
        file,
        rowGroup,
        column,
        c ->
            new ColumnChunk(
                c.filePath(),
                c.fileOffset(),
                edit.apply(c.metaData()),
                c.offsetIndexOffset(),
                c.offsetIndexLength(),
                c.columnIndexOffset(),
                c.columnIndexLength(),
                c.cryptoMetadata(),
                c.encryptedColumnMetadata()));
  }

  static byte[] editRowGroup(byte[] file, int rowGroup, UnaryOperator<RowGroup> edit)
      throws ParquetException {
    FileMetaData m = footer(file);
    List<RowGroup> groups = new ArrayList<>(m.rowGroups());
    groups.set(rowGroup, edit.apply(groups.get(rowGroup)));
    return withFooter(file, withRowGroups(m, groups));
  }

  static FileMetaData withRowGroups(FileMetaData m, List<RowGroup> groups) {
    return new FileMetaData(
        m.version(),
        m.schema(),
        m.numRows(),
        groups,
        m.keyValueMetadata(),
        m.createdBy(),
        m.columnOrders(),
        m.encryptionAlgorithm(),
        m.footerSigningKeyMetadata());
  }

  static ColumnMetaData withLayout(
      ColumnMetaData m,
      long numValues,
      long dataPageOffset,
      Long dictionaryPageOffset,
      long totalCompressedSize) {
    return new ColumnMetaData(
        m.type(),
        m.encodings(),
        m.pathInSchema(),
        m.codec(),
        numValues,
        m.totalUncompressedSize(),
        totalCompressedSize,
        m.keyValueMetadata(),
        dataPageOffset,
        m.indexPageOffset(),
        dictionaryPageOffset,
        m.statistics(),
        m.encodingStats(),
        m.bloomFilterOffset(),
        m.bloomFilterLength(),
        m.sizeStatistics(),
        m.geospatialStatistics());
  }

  static ColumnMetaData withType(ColumnMetaData m, dev.parquetconnect.format.meta.PhysicalType t) {
    return new ColumnMetaData(
        t,
        m.encodings(),
        m.pathInSchema(),
        m.codec(),
        m.numValues(),
        m.totalUncompressedSize(),
        m.totalCompressedSize(),
        m.keyValueMetadata(),
        m.dataPageOffset(),
        m.indexPageOffset(),
        m.dictionaryPageOffset(),
        m.statistics(),
        m.encodingStats(),
        m.bloomFilterOffset(),
        m.bloomFilterLength(),
        m.sizeStatistics(),
        m.geospatialStatistics());
  }
}
