package dev.parquetconnect.format.read;

import dev.parquetconnect.format.meta.Encoding;

/**
 * One data page of a column chunk, decompressed: its header fields and its body in {@code
 * data()[offset(), offset() + length())}. For a v1 page the body is the repetition levels, the
 * definition levels and the values, each level section in its own encoding; for a v2 page it is the
 * repetition levels, the definition levels (both RLE without length prefix, of the lengths given)
 * and the values. The {@link ColumnChunkReader} reuses one instance and its buffers: a page is
 * valid until the next page is read.
 */
public final class DataPage {
  boolean v2;
  int numValues;
  int numNulls;
  int numRows;
  Encoding valueEncoding;
  Encoding repetitionLevelEncoding;
  Encoding definitionLevelEncoding;
  int repetitionLevelsLength;
  int definitionLevelsLength;
  byte[] data;
  int offset;
  int length;
  long fileOffset;

  DataPage() {}

  /** Whether this is a DATA_PAGE_V2. */
  public boolean isV2() {
    return v2;
  }

  /** Number of levels (values including nulls) in the page. */
  public int numValues() {
    return numValues;
  }

  /** v2 only: number of nulls the header announces; -1 for v1. */
  public int numNulls() {
    return numNulls;
  }

  /** v2 only: number of rows (records) the page holds; -1 for v1. */
  public int numRows() {
    return numRows;
  }

  public Encoding valueEncoding() {
    return valueEncoding;
  }

  /** v1 only (null for v2, whose levels are always RLE). */
  public Encoding repetitionLevelEncoding() {
    return repetitionLevelEncoding;
  }

  /** v1 only (null for v2, whose levels are always RLE). */
  public Encoding definitionLevelEncoding() {
    return definitionLevelEncoding;
  }

  /** v2 only: bytes of repetition levels at the start of the body. */
  public int repetitionLevelsLength() {
    return repetitionLevelsLength;
  }

  /** v2 only: bytes of definition levels after the repetition levels. */
  public int definitionLevelsLength() {
    return definitionLevelsLength;
  }

  public byte[] data() {
    return data;
  }

  public int offset() {
    return offset;
  }

  public int length() {
    return length;
  }

  /** Where the page's header starts in the file, for error messages. */
  public long fileOffset() {
    return fileOffset;
  }
}
