package dev.parquetconnect.connect;

import dev.parquetconnect.format.filter.RowValues;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The current row's values under the column cursors, as a predicate tests them ({@link
 * ConnectRecordReader#filter}): the columns a bound predicate reads have no repetition, so the
 * cursor's current entry is the row's value (or its null). Nothing is copied.
 */
final class CursorValues implements RowValues {
  private final ColumnCursor[] columns;

  CursorValues(ColumnCursor[] columns) {
    this.columns = columns;
  }

  @Override
  public boolean isNull(int column) {
    ColumnCursor c = columns[column];
    try {
      int def = c.def();
      if (def < 0) {
        throw new UncheckedIOException(
            new IOException("column " + c.name + " ends before the row"));
      }
      return def < c.maxDefinition;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (dev.parquetconnect.format.ParquetException e) {
      throw new FilterReadException(e);
    }
  }

  @Override
  public long longValue(int column) {
    ColumnCursor c = columns[column];
    return switch (c.type) {
      case BOOLEAN -> c.booleans[c.valueIndex] ? 1 : 0;
      case INT32 -> c.ints[c.valueIndex];
      case INT64 -> c.longs[c.valueIndex];
      default -> throw new IllegalStateException("not an integer column: " + c.name);
    };
  }

  @Override
  public double doubleValue(int column) {
    ColumnCursor c = columns[column];
    return switch (c.type) {
      case FLOAT -> c.floats[c.valueIndex];
      case DOUBLE -> c.doubles[c.valueIndex];
      default -> throw new IllegalStateException("not a floating-point column: " + c.name);
    };
  }

  @Override
  public byte[] binaryArray(int column) {
    return columns[column].data;
  }

  @Override
  public int binaryOffset(int column) {
    ColumnCursor c = columns[column];
    return c.offsets[c.entry(c.valueIndex)];
  }

  @Override
  public int binaryLength(int column) {
    ColumnCursor c = columns[column];
    int e = c.entry(c.valueIndex);
    return c.offsets[e + 1] - c.offsets[e];
  }

  /** A format error met while a predicate read the row: unwrapped by the reader. */
  static final class FilterReadException extends RuntimeException {
    FilterReadException(dev.parquetconnect.format.ParquetException cause) {
      super(cause);
    }

    @Override
    public synchronized dev.parquetconnect.format.ParquetException getCause() {
      return (dev.parquetconnect.format.ParquetException) super.getCause();
    }
  }
}
