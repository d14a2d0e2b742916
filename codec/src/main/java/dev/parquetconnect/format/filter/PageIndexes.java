package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.ColumnIndex;
import dev.parquetconnect.format.meta.OffsetIndex;
import java.io.IOException;

/**
 * The page indexes of one row group's column chunks, by file column index, read when asked for;
 * null where the chunk has none.
 */
public interface PageIndexes {
  ColumnIndex columnIndex(int column) throws IOException, ParquetException;

  OffsetIndex offsetIndex(int column) throws IOException, ParquetException;
}
