package dev.parquetconnect.connect;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;

/**
 * The record {@link ConnectRecordReader} is reading, as its field readers need it: the file and row
 * their errors name, and the count of list and map elements against the configured bound.
 */
final class RecordScope {
  private final String fileName;
  private final int maxRecordValues;

  /** The row in the row group being read. */
  long row;

  /** The list and map elements of the record read so far. */
  int recordValues;

  RecordScope(String fileName, int maxRecordValues) {
    this.fileName = fileName;
    this.maxRecordValues = maxRecordValues;
  }

  ParquetException corrupt(ColumnCursor c, String message) {
    return new CorruptDataException("row " + row + ": " + message).at(fileName, c.name, -1);
  }

  /** Counts one more list or map element of the record against the configured bound. */
  void countElement(ColumnCursor c) throws ParquetException {
    if (++recordValues > maxRecordValues) {
      throw new UnsupportedFeatureException(
              "row "
                  + row
                  + " holds more than "
                  + maxRecordValues
                  + " values (ReadOptions.maxRecordValues); read it with the column batch API")
          .at(fileName, c.name, -1);
    }
  }
}
