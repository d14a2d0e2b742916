package dev.parquetconnect.format;

/**
 * Bytes that break the Parquet format: a length past the end of its buffer, an impossible bit
 * width, a count that does not match the data. Thrown by every decoder instead of letting an {@code
 * ArrayIndexOutOfBoundsException} or a huge allocation escape from untrusted input.
 */
public final class CorruptDataException extends ParquetException {
  private static final long serialVersionUID = 1L;

  public CorruptDataException(String message) {
    super(message);
  }

  public CorruptDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
