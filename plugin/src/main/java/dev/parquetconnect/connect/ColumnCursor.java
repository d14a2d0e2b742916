package dev.parquetconnect.connect;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.Dictionary;
import dev.parquetconnect.format.encoding.DictionaryBinaryBatch;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.read.ColumnBatch;
import dev.parquetconnect.format.read.ColumnReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import java.io.IOException;

/**
 * One column of the current row group, entry by entry over its batches: the current entry's levels
 * ({@code -1} past the chunk's end, which matches no field and so ends every repetition) and, when
 * it has a value, the value at {@link #valueIndex} of the dense arrays.
 */
final class ColumnCursor {
  final String name;
  final int maxDefinition;
  final int maxRepetition;
  final PhysicalType type;
  private ColumnReader reader;
  private ColumnBatch batch;
  int[] repetition;
  int[] definition;
  int pos;
  int size;
  int valueIndex;
  boolean exhausted;
  boolean[] booleans;
  int[] ints;
  long[] longs;
  float[] floats;
  double[] doubles;

  /**
   * The binary values: value {@code i} is {@code data[offsets[e], offsets[e + 1])} with {@code e}
   * its {@link #entry(int)}: the batch's own bytes when plain, the chunk dictionary's entries when
   * dictionary-encoded (never copied then).
   */
  byte[] data;

  int[] offsets;

  /** The current batch's dictionary and per-value indices when it is dictionary-encoded. */
  Dictionary dictionary;

  int[] indices;

  /** The row (index in the row group) of the batch's first entry. */
  private long batchRow;

  /** An entry of the batch at or before {@link #pos}, and its row: {@link #row()} counts on. */
  private int rowPos;

  private long rowAtRowPos;

  ColumnCursor(ColumnDescriptor descriptor) {
    this.name = descriptor.dottedPath();
    this.maxDefinition = descriptor.maxDefinitionLevel();
    this.maxRepetition = descriptor.maxRepetitionLevel();
    this.type = descriptor.primitive().type();
  }

  void bind(ColumnReader columnReader, int capacity) {
    reader = columnReader;
    if (batch == null) {
      // Binary columns keep dictionary-encoded pages as indices: a value's String (or other
      // immutable conversion) is then made once per dictionary entry, not once per row.
      batch = columnReader.newBatch(capacity, true);
      repetition = batch.repetitionLevels();
      definition = batch.definitionLevels();
      booleans = batch.booleans();
      ints = batch.ints();
      longs = batch.longs();
      floats = batch.floats();
      doubles = batch.doubles();
    }
    pos = 0;
    size = 0;
    valueIndex = 0;
    exhausted = false;
  }

  void unbind() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
    pos = 0;
    size = 0;
    exhausted = true;
  }

  boolean hasEntry() throws IOException, ParquetException {
    return pos < size || refill();
  }

  private boolean refill() throws IOException, ParquetException {
    if (exhausted || reader == null) {
      return false;
    }
    pos = 0;
    valueIndex = 0;
    size = reader.readBatch(batch);
    if (size == 0) {
      exhausted = true;
      return false;
    }
    // An entry that continues a row belongs to the row begun before the batch.
    batchRow = repetition[0] == 0 ? reader.batchStartRow() : reader.batchStartRow() - 1;
    rowPos = 0;
    rowAtRowPos = batchRow;
    // A batch is all dictionary-encoded or all plain; a chunk may change form between batches
    // (a writer falling back to plain mid-chunk) and every chunk brings its own dictionary.
    if (batch.isDictionaryEncoded()) {
      DictionaryBinaryBatch values = batch.dictionaryBinaries();
      dictionary = values.dictionary();
      indices = values.indices();
      data = dictionary.binaryData();
      offsets = dictionary.binaryOffsets();
    } else {
      dictionary = null;
      indices = null;
      BinaryBatch binaries = batch.binaries();
      if (binaries != null) {
        data = binaries.data();
        offsets = binaries.offsets();
      }
    }
    return true;
  }

  /** Where binary value {@code i} of the batch is in {@link #offsets}. */
  int entry(int i) {
    int[] map = indices;
    return map == null ? i : map[i];
  }

  /**
   * Binary value {@code i} as UTF-8 text: the dictionary's shared string when dictionary-encoded
   * (no decoding, no allocation), else decoded through {@code strings}.
   */
  String string(int i, Utf8Strings strings) {
    Dictionary d = dictionary;
    if (d != null) {
      return d.stringAt(indices[i]);
    }
    int off = offsets[i];
    return strings.decode(data, off, offsets[i + 1] - off);
  }

  int rep() throws IOException, ParquetException {
    return pos < size || refill() ? repetition[pos] : -1;
  }

  int def() throws IOException, ParquetException {
    return pos < size || refill() ? definition[pos] : -1;
  }

  /**
   * The row of the current entry, which {@link #hasEntry()} has confirmed. Counted from the batch's
   * first row only when asked for, so reading row after row pays nothing for it.
   */
  long row() {
    if (maxRepetition == 0) {
      return batchRow + pos;
    }
    int[] rep = repetition;
    while (rowPos < pos) {
      rowPos++;
      if (rep[rowPos] == 0) {
        rowAtRowPos++;
      }
    }
    return rowAtRowPos;
  }

  /**
   * Moves past every entry of the rows before {@code target} (values stepped over, never
   * converted); false when the column ends first. Pages the reader skipped never show up: the batch
   * after a gap starts at the first row of the next page read.
   */
  boolean skipToRow(long target) throws IOException, ParquetException {
    while (pos < size || refill()) {
      if (maxRepetition == 0) {
        long at = batchRow + pos;
        if (at >= target) {
          return true;
        }
        int end = (int) Math.min(size, pos + (target - at));
        int[] def = definition;
        int max = maxDefinition;
        for (; pos < end; pos++) {
          if (def[pos] == max) {
            valueIndex++;
          }
        }
      } else {
        if (row() >= target) {
          return true;
        }
        advance();
      }
    }
    return false;
  }

  /** Moves past the current entry, which {@link #hasEntry()} has confirmed. */
  void advance() {
    if (definition[pos] == maxDefinition) {
      valueIndex++;
    }
    pos++;
  }
}
