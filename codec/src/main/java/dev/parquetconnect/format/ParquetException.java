package dev.parquetconnect.format;

/**
 * A problem with Parquet data or metadata: the checked root of the format layer's errors.
 *
 * <p>Low-level code (a decoder, a decompressor) knows what is wrong but not where in which file;
 * the readers above it add that with {@link #at(String, String, long)} as the exception passes
 * through, so the message a user sees names the file, the column and the byte offset.
 */
public class ParquetException extends Exception {
  private static final long serialVersionUID = 1L;

  private String file;
  private String column;
  private long offset = -1;

  public ParquetException(String message) {
    super(message);
  }

  public ParquetException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * Records where the problem is, keeping whatever was recorded closer to the fault. Any argument
   * may be null (or -1 for the offset) when unknown at this level.
   */
  public final ParquetException at(String file, String column, long offset) {
    if (this.file == null) {
      this.file = file;
    }
    if (this.column == null) {
      this.column = column;
    }
    if (this.offset < 0) {
      this.offset = offset;
    }
    return this;
  }

  /** The file the problem is in, or null when not known. */
  public final String file() {
    return file;
  }

  /** The dotted column path the problem is in, or null when not known or not column-specific. */
  public final String column() {
    return column;
  }

  /** The byte offset in the file where the faulty structure starts, or -1 when not known. */
  public final long offset() {
    return offset;
  }

  /** The bare description, without the location suffix {@link #getMessage()} adds. */
  public final String reason() {
    return super.getMessage();
  }

  @Override
  public String getMessage() {
    if (file == null && column == null && offset < 0) {
      return super.getMessage();
    }
    StringBuilder where = new StringBuilder(super.getMessage()).append(" (");
    String sep = "";
    if (file != null) {
      where.append("file ").append(file);
      sep = ", ";
    }
    if (column != null) {
      where.append(sep).append("column ").append(column);
      sep = ", ";
    }
    if (offset >= 0) {
      where.append(sep).append("offset ").append(offset);
    }
    return where.append(')').toString();
  }
}
