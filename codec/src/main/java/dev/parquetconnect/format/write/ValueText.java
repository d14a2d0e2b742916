package dev.parquetconnect.format.write;

import dev.parquetconnect.format.schema.ColumnDescriptor;

/**
 * How the values of a column turn into text when a reshape widens it to a STRING column in place
 * ({@link ParquetFileWriter#reshape(dev.parquetconnect.format.schema.MessageType, WriterOptions,
 * ValueText)}): the layer above decides what text a value of its type is, so the rows already
 * buffered read as later rows of the same value are written.
 */
public interface ValueText {
  /**
   * Whether the values of {@code from} have a text form here; when not, a reshape that would turn
   * them into text refuses (the caller starts a new file instead).
   */
  boolean renders(ColumnDescriptor from);

  /** An INT32 or INT64 value of {@code from}. */
  String integerText(ColumnDescriptor from, long value);

  /** A BOOLEAN value of {@code from}. */
  String booleanText(ColumnDescriptor from, boolean value);
}
