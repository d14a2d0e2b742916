package dev.parquetconnect.format.read;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Checks every row group and column chunk of a footer against the schema and the file before
 * anything is read: chunk counts, physical types and paths match the schema, counts are not
 * negative, and every chunk's byte range lies between the leading magic and the footer without
 * overlapping another. The result is the byte range of each chunk.
 */
final class ChunkLayout {
  /** The leading magic: no page can start before it ends. */
  private static final long DATA_START = 4;

  /** Room for the dictionary page header old parquet-mr versions left out of chunk sizes. */
  private static final long DICTIONARY_HEADER_PADDING = 100;

  private ChunkLayout() {}

  /**
   * The range of every column chunk, by row group and then column.
   *
   * @param dataEnd where the footer starts: every page must end before it
   */
  static ChunkRange[][] of(FileMetaData metadata, MessageType schema, long dataEnd, String file)
      throws ParquetException {
    List<ColumnDescriptor> columns = schema.columns();
    List<RowGroup> rowGroups = metadata.rowGroups();
    ChunkRange[][] ranges = new ChunkRange[rowGroups.size()][];
    List<Located> all = new ArrayList<>();
    for (int g = 0; g < rowGroups.size(); g++) {
      RowGroup rowGroup = rowGroups.get(g);
      if (rowGroup.numRows() < 0) {
        throw corrupt(
            "row group " + g + " has a negative row count " + rowGroup.numRows(), file, null);
      }
      if (rowGroup.columns().size() != columns.size()) {
        throw corrupt(
            "row group "
                + g
                + " has "
                + rowGroup.columns().size()
                + " column chunks but the schema has "
                + columns.size()
                + " columns",
            file,
            null);
      }
      ranges[g] = new ChunkRange[columns.size()];
      for (int c = 0; c < columns.size(); c++) {
        ColumnDescriptor column = columns.get(c);
        ChunkRange range = range(rowGroup.columns().get(c), column, g, dataEnd, file);
        ranges[g][c] = range;
        if (range.length() > 0) {
          all.add(new Located(range, g, column));
        }
      }
    }
    checkNoOverlap(all, file);
    if (undercountsDictionaryHeaders(metadata.createdBy())) {
      padForDictionaryHeaders(all, ranges, dataEnd);
    }
    return ranges;
  }

  /**
   * Whether the writer is a parquet-mr older than 1.2.9, which left the dictionary page header out
   * of total_compressed_size (IMPALA-694, PARQUET-816): its chunks end a few bytes after where the
   * metadata says. A parquet-mr that gives no version is assumed to be one of them.
   */
  static boolean undercountsDictionaryHeaders(String createdBy) {
    if (createdBy == null || !createdBy.startsWith("parquet-mr")) {
      return false;
    }
    String prefix = "parquet-mr version ";
    if (!createdBy.startsWith(prefix)) {
      return true;
    }
    int[] version = new int[3];
    int part = 0;
    for (int i = prefix.length(); i < createdBy.length() && part < 3; i++) {
      char ch = createdBy.charAt(i);
      if (ch == '.') {
        part++;
      } else if (ch >= '0' && ch <= '9') {
        version[part] = Math.min(1_000_000, version[part] * 10 + (ch - '0'));
      } else {
        break;
      }
    }
    return version[0] < 1
        || (version[0] == 1 && (version[1] < 2 || (version[1] == 2 && version[2] < 9)));
  }

  /**
   * Extends each chunk by at most {@link #DICTIONARY_HEADER_PADDING} bytes, never into the next
   * chunk or the footer, to cover a dictionary page header its size left out.
   */
  private static void padForDictionaryHeaders(
      List<Located> sorted, ChunkRange[][] ranges, long dataEnd) {
    for (int i = 0; i < sorted.size(); i++) {
      Located chunk = sorted.get(i);
      long limit = i + 1 < sorted.size() ? sorted.get(i + 1).range().start() : dataEnd;
      long end = Math.min(chunk.range().end() + DICTIONARY_HEADER_PADDING, limit);
      ranges[chunk.rowGroup()][chunk.column().index()] =
          new ChunkRange(chunk.range().start(), end - chunk.range().start());
    }
  }

  private static ChunkRange range(
      ColumnChunk chunk, ColumnDescriptor column, int rowGroup, long dataEnd, String file)
      throws ParquetException {
    String name = column.dottedPath();
    String where = "row group " + rowGroup + ": ";
    if (chunk.filePath() != null) {
      throw new UnsupportedFeatureException(
              where
                  + "the column chunk is stored in another file ("
                  + chunk.filePath()
                  + "): external column chunks are not supported")
          .at(file, name, -1);
    }
    ColumnMetaData meta = chunk.metaData();
    if (meta == null) {
      throw corrupt(where + "the column chunk has no metadata", file, name);
    }
    if (meta.type() != column.primitive().type()) {
      throw corrupt(
          where
              + "the column chunk holds "
              + meta.type()
              + " but the schema says "
              + column.primitive().type(),
          file,
          name);
    }
    if (!meta.pathInSchema().equals(column.path())) {
      throw corrupt(
          where
              + "the column chunk's path "
              + String.join(".", meta.pathInSchema())
              + " is not the schema's",
          file,
          name);
    }
    if (meta.numValues() < 0 || meta.totalCompressedSize() < 0) {
      throw corrupt(
          where
              + "negative count: num_values "
              + meta.numValues()
              + ", total_compressed_size "
              + meta.totalCompressedSize(),
          file,
          name);
    }
    if (meta.numValues() == 0) {
      return ChunkRange.EMPTY; // nothing will be read, whatever the offsets say
    }
    // The dictionary page, when there is one, comes first. Writers leave dictionary_page_offset
    // out, set it to 0 without a dictionary, or (with no values) leave data_page_offset at 0, so
    // only offsets past the leading magic count; a dictionary page found at data_page_offset is
    // still read as one.
    long start = Long.MAX_VALUE;
    if (meta.dataPageOffset() >= DATA_START) {
      start = meta.dataPageOffset();
    }
    Long dictionary = meta.dictionaryPageOffset();
    if (dictionary != null && dictionary >= DATA_START && dictionary < start) {
      start = dictionary;
    }
    if (start == Long.MAX_VALUE) {
      throw corrupt(
          where + "data_page_offset " + meta.dataPageOffset() + " points into the leading magic",
          file,
          name);
    }
    long length = meta.totalCompressedSize();
    if (start > dataEnd || length > dataEnd - start || length == 0) {
      throw corrupt(
          where
              + "the column chunk ["
              + start
              + ", +"
              + length
              + ") is not inside the data region [4, "
              + dataEnd
              + ") of the file",
          file,
          name);
    }
    return new ChunkRange(start, length);
  }

  private record Located(ChunkRange range, int rowGroup, ColumnDescriptor column) {}

  private static void checkNoOverlap(List<Located> chunks, String file) throws ParquetException {
    chunks.sort(Comparator.comparingLong(l -> l.range().start()));
    for (int i = 1; i < chunks.size(); i++) {
      Located before = chunks.get(i - 1);
      Located after = chunks.get(i);
      if (after.range().start() < before.range().end()) {
        throw corrupt(
            "the column chunk of row group "
                + after.rowGroup()
                + " at "
                + after.range().start()
                + " overlaps that of column "
                + before.column().dottedPath()
                + " in row group "
                + before.rowGroup()
                + ", which ends at "
                + before.range().end(),
            file,
            after.column().dottedPath());
      }
    }
  }

  private static ParquetException corrupt(String message, String file, String column) {
    return new CorruptDataException(message).at(file, column, -1);
  }
}
