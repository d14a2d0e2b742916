package dev.parquetconnect.format.write;

import dev.parquetconnect.format.compress.Compressor;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.read.ColumnReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import java.io.IOException;
import java.util.Objects;

/**
 * Writes the values of one leaf column, with their repetition and definition levels (Dremel
 * striping): the API connectors shred their records into directly. Get one from {@link
 * ParquetFileWriter#column(int)}; after writing every column of a record, call {@link
 * ParquetFileWriter#endRecord()}.
 *
 * <p>Levels: a value is written at the column's maximum definition level; a null (or an absent or
 * empty ancestor) with {@link #writeNull} at the level of the deepest defined ancestor. The
 * repetition level is 0 at the start of a record and names the repeated ancestor that repeats
 * otherwise. Batch writes take the non-null values packed in order plus the levels of every entry
 * (level arrays may be null where the column's maximum level is 0) and return the values consumed.
 *
 * <p>Nothing is encoded per value: levels and values go into primitive arrays of the open page,
 * which is encoded, compressed and kept when it closes. A page closes only where a record starts
 * (repetition level 0), once it holds the page row limit or its values reach the page byte limit,
 * so pages never split a record (v2 pages and the page index need that).
 *
 * <p>Misuse (a value of the wrong type, a level out of range, a fixed-length value of the wrong
 * length) throws {@link IllegalArgumentException} and writes nothing of that value or batch. Not
 * thread-safe.
 */
public final class ColumnChunkWriter {
  private final ColumnDescriptor column;
  private final PhysicalType type;

  /** Bytes of every value of a FIXED_LEN_BYTE_ARRAY or INT96 column; -1 otherwise. */
  private final int fixedLength;

  private final int maxDefinitionLevel;
  private final int maxRepetitionLevel;
  private final int pageByteLimit;
  private final int pageRowLimit;

  /** Whether the file writer closes this column's pages (see WriterOptions.alignedPages). */
  private final boolean aligned;

  /**
   * Entries the open page may hold: its level arrays (an int per level) and boolean values (a byte
   * each) take more heap than the page's size counts them at, so without a row cap a page of nulls
   * or of long lists would hold millions; this keeps their heap within the byte limit.
   */
  private final int pageEntryLimit;

  /** PLAIN bytes per value as the page counts them (BYTE_ARRAY: the length prefix). */
  private final int valueBytes;

  /**
   * For each repetition level r > 0, the definition level of the r-th repeated field on the
   * column's path: an entry that repeats that field has at least this definition level.
   */
  private final int[] repeatedFieldDefinitionLevels;

  private final PageBuffer page;
  private final ChunkBuilder chunk;
  private boolean closed;

  ColumnChunkWriter(
      ColumnDescriptor column,
      int[] repeatedFieldDefinitionLevels,
      WriterOptions options,
      Compressor compressor,
      PageScratch scratch,
      HeldBytes held) {
    this.column = column;
    this.repeatedFieldDefinitionLevels = repeatedFieldDefinitionLevels.clone();
    this.type = column.primitive().type();
    this.fixedLength =
        type == PhysicalType.FIXED_LEN_BYTE_ARRAY
            ? column.primitive().typeLength()
            : type == PhysicalType.INT96 ? 12 : -1;
    this.maxDefinitionLevel = column.maxDefinitionLevel();
    this.maxRepetitionLevel = column.maxRepetitionLevel();
    this.pageByteLimit = options.pageByteLimit();
    this.pageRowLimit = options.pageRowLimit();
    this.aligned = options.alignedPages();
    int heapPerEntry =
        4 * ((maxDefinitionLevel > 0 ? 1 : 0) + (maxRepetitionLevel > 0 ? 1 : 0))
            + (type == PhysicalType.BOOLEAN ? 1 : 0);
    this.pageEntryLimit =
        heapPerEntry == 0 ? Integer.MAX_VALUE : Math.max(1, options.pageByteLimit() / heapPerEntry);
    this.valueBytes =
        switch (type) {
          case BOOLEAN -> 0;
          case INT32, FLOAT, BYTE_ARRAY -> 4;
          case INT64, DOUBLE -> 8;
          case INT96, FIXED_LEN_BYTE_ARRAY -> fixedLength;
        };
    this.page =
        new PageBuffer(
            type, column.primitive().typeLength(), maxDefinitionLevel, maxRepetitionLevel, held);
    this.chunk =
        new ChunkBuilder(
            column, options, options.column(column.dottedPath()), compressor, scratch, held);
  }

  /** The column this writer writes: its path, type and maximum levels. */
  public ColumnDescriptor descriptor() {
    return column;
  }

  // ---- one entry at a time

  /** A null, or an absent or empty ancestor: {@code def} is below the maximum level. */
  public void writeNull(int rep, int def) {
    if (def < 0 || def >= maxDefinitionLevel) {
      throw new IllegalArgumentException(
          "column "
              + column.dottedPath()
              + ": a null needs a definition level in 0.."
              + (maxDefinitionLevel - 1)
              + ", got "
              + def);
    }
    startEntry(rep, def);
    page.addEntry(rep, def);
  }

  public void writeBoolean(boolean value, int rep, int def) {
    startValue(PhysicalType.BOOLEAN, rep, def);
    page.addEntry(rep, def);
    page.addBoolean(value);
  }

  public void writeInt(int value, int rep, int def) {
    startValue(PhysicalType.INT32, rep, def);
    page.addEntry(rep, def);
    page.addInt(value);
  }

  public void writeLong(long value, int rep, int def) {
    startValue(PhysicalType.INT64, rep, def);
    page.addEntry(rep, def);
    page.addLong(value);
  }

  public void writeFloat(float value, int rep, int def) {
    startValue(PhysicalType.FLOAT, rep, def);
    page.addEntry(rep, def);
    page.addFloat(value);
  }

  public void writeDouble(double value, int rep, int def) {
    startValue(PhysicalType.DOUBLE, rep, def);
    page.addEntry(rep, def);
    page.addDouble(value);
  }

  /** A BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY or INT96 value: {@code bytes[off, off + len)}, copied. */
  public void writeBinary(byte[] bytes, int off, int len, int rep, int def) {
    Objects.checkFromIndexSize(off, len, bytes.length);
    if (!isBinary(type)) {
      throw wrongType("a byte string");
    }
    if (fixedLength >= 0 && len != fixedLength) {
      throw new IllegalArgumentException(
          "column "
              + column.dottedPath()
              + ": "
              + type
              + " values have "
              + fixedLength
              + " bytes, got "
              + len);
    }
    checkValueLevel(def);
    startEntry(rep, def);
    page.addEntry(rep, def);
    page.addBinary(bytes, off, len);
  }

  public void writeBinary(byte[] bytes, int rep, int def) {
    writeBinary(bytes, 0, bytes.length, rep, def);
  }

  /**
   * A BYTE_ARRAY value given as text: its UTF-8 bytes are encoded straight into the page, with no
   * copy in between (a lone surrogate becomes {@code '?'}, as {@code String.getBytes} does).
   */
  public void writeString(String value, int rep, int def) {
    if (type != PhysicalType.BYTE_ARRAY) {
      throw wrongType("a string");
    }
    checkValueLevel(def);
    startEntry(rep, def);
    page.addEntry(rep, def);
    page.addString(value);
  }

  private void startValue(PhysicalType expected, int rep, int def) {
    if (type != expected) {
      throw wrongType(expected.toString());
    }
    checkValueLevel(def);
    startEntry(rep, def);
  }

  private void checkValueLevel(int def) {
    if (def != maxDefinitionLevel) {
      throw notAValueLevel(def);
    }
  }

  // The messages are built out of line: the per-value methods stay small enough for the JIT
  // to inline into the shredder's loops.
  private IllegalArgumentException notAValueLevel(int def) {
    return new IllegalArgumentException(
        "column "
            + column.dottedPath()
            + ": a value has the maximum definition level "
            + maxDefinitionLevel
            + ", got "
            + def);
  }

  /** Closes the page first when this entry starts a record and the page is full. */
  private void startEntry(int rep, int def) {
    if (closed) {
      throw closedColumn();
    }
    if (rep == 0) {
      if (!aligned && isOpenPageFull()) {
        closePage();
      }
    } else {
      checkContinuation(rep, def);
    }
  }

  private IllegalStateException closedColumn() {
    return new IllegalStateException("the file of column " + column.dottedPath() + " is closed");
  }

  /** Checks an entry that continues a record (repetition level above 0). */
  private void checkContinuation(int rep, int def) {
    if (rep < 0 || rep > maxRepetitionLevel) {
      throw new IllegalArgumentException(
          "column "
              + column.dottedPath()
              + ": repetition level "
              + rep
              + " outside 0.."
              + maxRepetitionLevel);
    } else if (page.isEmpty() && chunk.rows() == 0) {
      throw new IllegalArgumentException(
          "column "
              + column.dottedPath()
              + ": a column chunk must start with a record start"
              + " (repetition level 0), got "
              + rep);
    } else if (def < repeatedFieldDefinitionLevels[rep]) {
      throw inconsistentLevels(rep, def);
    }
  }

  private IllegalArgumentException inconsistentLevels(int rep, int def) {
    return new IllegalArgumentException(
        "column "
            + column.dottedPath()
            + ": repetition level "
            + rep
            + " repeats a field"
            + " defined at level "
            + repeatedFieldDefinitionLevels[rep]
            + ", so the definition level cannot be "
            + def);
  }

  /** Whether the open page has reached a limit, so that it closes before the next record. */
  boolean isOpenPageFull() {
    return page.rows > 0
        && isPageFull(page.rows, page.entries, page.valueBytes() + page.levelBytes(page.entries));
  }

  /** Whether the open page holds nothing. */
  boolean isEmptyOpenPage() {
    return page.isEmpty();
  }

  /** Closes the open page, if it holds anything: the file writer aligns pages this way. */
  void closeOpenPage() {
    if (!page.isEmpty()) {
      closePage();
    }
  }

  private boolean isPageFull(long rows, long entries, long bytes) {
    return rows >= pageRowLimit || bytes >= pageByteLimit || entries >= pageEntryLimit;
  }

  // ---- batches

  /** Moves {@code n} of the batch's values, from value {@code from} on, into the open page. */
  @FunctionalInterface
  private interface ValueMover {
    void move(int from, int n);
  }

  /**
   * Writes {@code count} entries whose levels are {@code rep/def[levelOff, levelOff + count)} and
   * whose non-null values are {@code values[valueOff, ...)} in order.
   *
   * @return the number of values taken from {@code values}
   */
  public int writeBooleans(
      boolean[] values, int valueOff, int[] rep, int[] def, int levelOff, int count) {
    requireType(PhysicalType.BOOLEAN);
    return writeBatch(
        values.length,
        valueOff,
        rep,
        def,
        levelOff,
        count,
        null,
        (from, n) -> page.addBooleans(values, from, n));
  }

  /** As {@link #writeBooleans} for INT32. */
  public int writeInts(int[] values, int valueOff, int[] rep, int[] def, int levelOff, int count) {
    requireType(PhysicalType.INT32);
    return writeBatch(
        values.length,
        valueOff,
        rep,
        def,
        levelOff,
        count,
        null,
        (from, n) -> page.addInts(values, from, n));
  }

  /** As {@link #writeBooleans} for INT64. */
  public int writeLongs(
      long[] values, int valueOff, int[] rep, int[] def, int levelOff, int count) {
    requireType(PhysicalType.INT64);
    return writeBatch(
        values.length,
        valueOff,
        rep,
        def,
        levelOff,
        count,
        null,
        (from, n) -> page.addLongs(values, from, n));
  }

  /** As {@link #writeBooleans} for FLOAT. */
  public int writeFloats(
      float[] values, int valueOff, int[] rep, int[] def, int levelOff, int count) {
    requireType(PhysicalType.FLOAT);
    return writeBatch(
        values.length,
        valueOff,
        rep,
        def,
        levelOff,
        count,
        null,
        (from, n) -> page.addFloats(values, from, n));
  }

  /** As {@link #writeBooleans} for DOUBLE. */
  public int writeDoubles(
      double[] values, int valueOff, int[] rep, int[] def, int levelOff, int count) {
    requireType(PhysicalType.DOUBLE);
    return writeBatch(
        values.length,
        valueOff,
        rep,
        def,
        levelOff,
        count,
        null,
        (from, n) -> page.addDoubles(values, from, n));
  }

  /**
   * As {@link #writeBooleans} for BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY and INT96: the values are {@code
   * values.get(valueFrom), ...}.
   */
  public int writeBinaries(
      BinaryBatch values, int valueFrom, int[] rep, int[] def, int levelOff, int count) {
    if (!isBinary(type)) {
      throw wrongType("byte strings");
    }
    return writeBatch(
        values.count(),
        valueFrom,
        rep,
        def,
        levelOff,
        count,
        values,
        (from, n) -> page.addBinaries(values, from, n));
  }

  /**
   * The loop every batch write runs: checks the whole batch first, then moves it into pages segment
   * by segment, closing a page where a record starts once the page is full.
   */
  private int writeBatch(
      int valueCapacity,
      int valueOff,
      int[] rep,
      int[] def,
      int levelOff,
      int count,
      BinaryBatch binaries,
      ValueMover mover) {
    int n = checkBatch(rep, def, levelOff, count);
    Objects.checkFromIndexSize(valueOff, n, valueCapacity);
    if (binaries != null && fixedLength >= 0) {
      checkFixedLengths(binaries, valueOff, n);
    }
    int v = valueOff;
    for (int pos = levelOff, end = levelOff + count; pos < end; ) {
      int stop = fit(rep, def, pos, end, binaries, v);
      if (stop == pos) {
        closePage();
        continue;
      }
      int taken = addLevels(rep, def, pos, stop);
      mover.move(v, taken);
      v += taken;
      pos = stop;
    }
    return v - valueOff;
  }

  private void checkFixedLengths(BinaryBatch values, int from, int n) {
    int[] offsets = values.offsets();
    for (int i = from; i < from + n; i++) {
      if (offsets[i + 1] - offsets[i] != fixedLength) {
        throw new IllegalArgumentException(
            "column "
                + column.dottedPath()
                + ": "
                + type
                + " values have "
                + fixedLength
                + " bytes, value "
                + i
                + " has "
                + (offsets[i + 1] - offsets[i]));
      }
    }
  }

  /**
   * Checks a batch's levels once: arrays present where the column has levels, every level in range,
   * the chunk's first entry a record start. Returns the number of non-null values.
   */
  private int checkBatch(int[] rep, int[] def, int off, int count) {
    if (closed) {
      throw new IllegalStateException("the file of column " + column.dottedPath() + " is closed");
    }
    if (count < 0) {
      throw new IllegalArgumentException("negative entry count " + count);
    }
    int values = count;
    if (maxDefinitionLevel > 0) {
      Objects.requireNonNull(def, "definition levels");
      Objects.checkFromIndexSize(off, count, def.length);
      values = 0;
      int bad = 0;
      for (int i = off; i < off + count; i++) {
        int d = def[i];
        bad |= d | (maxDefinitionLevel - d);
        values += d == maxDefinitionLevel ? 1 : 0;
      }
      if (bad < 0) {
        throw new IllegalArgumentException(
            "column "
                + column.dottedPath()
                + ": a definition level outside 0.."
                + maxDefinitionLevel);
      }
    }
    if (maxRepetitionLevel > 0) {
      Objects.requireNonNull(rep, "repetition levels");
      Objects.checkFromIndexSize(off, count, rep.length);
      int bad = 0;
      for (int i = off; i < off + count; i++) {
        bad |= rep[i] | (maxRepetitionLevel - rep[i]);
      }
      if (bad < 0) {
        throw new IllegalArgumentException(
            "column "
                + column.dottedPath()
                + ": a repetition level outside 0.."
                + maxRepetitionLevel);
      }
      for (int i = off; i < off + count; i++) {
        if (def[i] < repeatedFieldDefinitionLevels[rep[i]]) {
          throw inconsistentLevels(rep[i], def[i]);
        }
      }
      if (count > 0 && rep[off] != 0 && page.isEmpty() && chunk.rows() == 0) {
        throw new IllegalArgumentException(
            "column "
                + column.dottedPath()
                + ": a column chunk must start with a record start"
                + " (repetition level 0), got "
                + rep[off]);
      }
    }
    return values;
  }

  /**
   * How far from {@code pos} the open page can take entries: to {@code end}, or to the first record
   * start at which the page is full ({@code pos} itself when the page is full there). The page's
   * size is tracked exactly as {@link PageBuffer} counts it, so batches cut pages where
   * value-by-value writes would.
   */
  private int fit(int[] rep, int[] def, int pos, int end, BinaryBatch binaries, int value) {
    long rows = page.rows;
    long entries = page.entries;
    long values = page.values;
    long bytes = page.valueBytes;
    int[] offsets = binaries != null ? binaries.offsets() : null;
    boolean byteArray = type == PhysicalType.BYTE_ARRAY;
    boolean bits = type == PhysicalType.BOOLEAN;
    for (int i = pos; i < end; i++) {
      if (maxRepetitionLevel == 0 || rep[i] == 0) {
        long size = (bits ? (values + 7) >>> 3 : bytes) + page.levelBytes(entries);
        if (isPageFull(rows, entries, size)) {
          return i;
        }
        rows++;
      }
      entries++;
      if (maxDefinitionLevel == 0 || def[i] == maxDefinitionLevel) {
        values++;
        bytes += valueBytes;
        if (byteArray) {
          bytes += offsets[value + 1] - offsets[value];
          value++;
        }
      }
    }
    return end;
  }

  /** Moves the levels of entries [pos, stop) into the page; returns their non-null values. */
  private int addLevels(int[] rep, int[] def, int pos, int stop) {
    int n = stop - pos;
    int rows = n;
    if (maxRepetitionLevel > 0) {
      rows = 0;
      for (int i = pos; i < stop; i++) {
        rows += rep[i] == 0 ? 1 : 0;
      }
    }
    int values = n;
    if (maxDefinitionLevel > 0) {
      values = 0;
      for (int i = pos; i < stop; i++) {
        values += def[i] == maxDefinitionLevel ? 1 : 0;
      }
    }
    page.addEntries(rep, def, pos, n, rows);
    return values;
  }

  private void requireType(PhysicalType expected) {
    if (type != expected) {
      throw wrongType(expected + " values");
    }
  }

  private IllegalArgumentException wrongType(String what) {
    return new IllegalArgumentException(
        "column " + column.dottedPath() + " is " + type + " and cannot take " + what);
  }

  private static boolean isBinary(PhysicalType t) {
    return t == PhysicalType.BYTE_ARRAY
        || t == PhysicalType.FIXED_LEN_BYTE_ARRAY
        || t == PhysicalType.INT96;
  }

  // ---- for the file writer

  /** Memory held by this column now: its open page and its encoded, unwritten pages. */
  public long bufferedBytes() {
    return page.bufferedBytes() + chunk.bufferedBytes();
  }

  /** The heap this column holds now: {@link #bufferedBytes()} with its arrays' spare capacity. */
  public long heapBytes() {
    return page.heapBytes() + chunk.heapBytes();
  }

  /** Records this column holds in the current row group. */
  long rows() {
    return chunk.rows() + page.rows;
  }

  /**
   * Drops the entries of the record this column is in the middle of (it holds one record more than
   * the row group has ended). That record's first entry is in the open page: a page only closes
   * before a record's first entry. Nothing of it has been encoded yet.
   */
  void dropPartialRecord() {
    int n = page.entries;
    int from = n - 1;
    if (from >= 0 && page.hasRepetitionLevels) {
      int[] rep = page.repetitionLevels;
      while (from > 0 && rep[from] != 0) {
        from--;
      }
    }
    if (from < 0
        || page.rows == 0
        || page.hasRepetitionLevels && page.repetitionLevels[from] != 0) {
      throw new IllegalStateException(
          "column " + column.dottedPath() + " has no record in its open page to drop");
    }
    int valuesDropped = n - from;
    if (page.hasDefinitionLevels) {
      valuesDropped = 0;
      int[] def = page.definitionLevels;
      for (int i = from; i < n; i++) {
        if (def[i] == maxDefinitionLevel) {
          valuesDropped++;
        }
      }
    }
    page.dropLastRecord(from, page.values - valuesDropped);
  }

  /** Non-null values this column holds in the current row group. */
  long bufferedValues() {
    return chunk.nonNullValues() + page.values;
  }

  /**
   * A reader of the levels and values this column holds in the current row group, decoded from its
   * closed pages (the caller closes the open page first).
   */
  ColumnReader bufferedPages() {
    if (!page.isEmpty()) {
      throw new IllegalStateException("column " + column.dottedPath() + " has an open page");
    }
    GrowableBuffer bytes = new GrowableBuffer(1024);
    long entries = chunk.copyPagesTo(bytes);
    return ColumnReader.ofBufferedChunk(
        bytes.array(), bytes.size(), column, chunk.codec(), entries, chunk.rows());
  }

  /** Whether anything was written since the last row group. */
  boolean isEmpty() {
    return page.isEmpty() && chunk.rows() == 0;
  }

  private void closePage() {
    chunk.addPage(page);
    page.clear();
  }

  /** Closes the open page and writes the column chunk; the next row group starts afresh. */
  WrittenChunk writeChunk(FileSink sink) throws IOException {
    if (!page.isEmpty()) {
      closePage();
    }
    return chunk.writeTo(sink);
  }

  void markClosed() {
    closed = true;
  }
}
