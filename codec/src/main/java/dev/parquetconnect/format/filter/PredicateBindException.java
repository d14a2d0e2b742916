package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.ParquetException;

/**
 * A predicate that does not fit a file's schema: a column it names does not exist, is not a
 * primitive column with one value per row, or has a type its literal cannot be compared with. The
 * message names the column; the caller adds the file with {@link #at}.
 */
public final class PredicateBindException extends ParquetException {
  private static final long serialVersionUID = 1L;

  public PredicateBindException(String message, String column) {
    super(message);
    at(null, column, -1);
  }
}
