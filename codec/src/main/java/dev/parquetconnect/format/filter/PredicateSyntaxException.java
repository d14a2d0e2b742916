package dev.parquetconnect.format.filter;

import dev.parquetconnect.format.ParquetException;

/** Predicate text that does not follow the grammar; {@link #position()} is where it goes wrong. */
public final class PredicateSyntaxException extends ParquetException {
  private static final long serialVersionUID = 1L;

  private final int position;

  public PredicateSyntaxException(String message, int position) {
    super(message + " at position " + position);
    this.position = position;
  }

  /** The 0-based character position in the predicate text where the error was found. */
  public int position() {
    return position;
  }
}
