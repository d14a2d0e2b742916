package dev.parquetconnect.format.read;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.BinaryBatch;
import dev.parquetconnect.format.encoding.DictionaryBinaryBatch;
import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One projected column seen entry by entry for record assembly: the current entry's levels and
 * value, refilled batch by batch from its {@link ColumnReader}. Past the chunk's end, both levels
 * read as -1, which matches no field and so ends every repetition.
 */
final class LevelCursor {
  final ColumnReader reader;
  final String name;
  private final ColumnBatch batch;
  private final int maxDefinition;

  /** Whether values are returned as {@code String}s (a STRING column, when asked for). */
  private final boolean text;

  private int pos;
  private int valueIndex;
  private boolean exhausted;

  /** The row (index in the row group) of the current entry. */
  private long row;

  LevelCursor(ColumnReader reader, int batchSize, boolean stringsAsText) {
    this.reader = reader;
    this.text = stringsAsText && isString(reader.column().primitive());
    this.name = reader.column().dottedPath();
    // Binary values stay dictionary indices until a row needs them: each is then copied once,
    // from the dictionary into its own array, instead of twice (into the batch, then out).
    this.batch = reader.newBatch(batchSize, true);
    this.maxDefinition = reader.column().maxDefinitionLevel();
  }

  /** Whether an entry is available, reading the next batch when needed. */
  boolean hasEntry() throws IOException, ParquetException {
    if (pos < batch.size()) {
      return true;
    }
    if (exhausted) {
      return false;
    }
    pos = 0;
    valueIndex = 0;
    if (reader.readBatch(batch) == 0) {
      exhausted = true;
      return false;
    }
    long before = reader.batchStartRow();
    row = batch.repetitionLevels()[0] == 0 ? before : before - 1;
    return true;
  }

  /** The row of the current entry, which {@link #hasEntry()} has confirmed. */
  long row() {
    return row;
  }

  /**
   * Moves past every entry of the rows before {@code target}; false when the column ends first.
   * Values are stepped over in the batch, never converted.
   */
  boolean skipToRow(long target) throws IOException, ParquetException {
    while (hasEntry()) {
      if (row >= target) {
        return true;
      }
      advance();
    }
    return false;
  }

  boolean isNull() {
    return batch.definitionLevels()[pos] != maxDefinition;
  }

  long longValue() {
    return switch (batch.type()) {
      case BOOLEAN -> batch.booleans()[valueIndex] ? 1 : 0;
      case INT32 -> batch.ints()[valueIndex];
      default -> batch.longs()[valueIndex];
    };
  }

  double doubleValue() {
    return batch.type() == PhysicalType.FLOAT
        ? batch.floats()[valueIndex]
        : batch.doubles()[valueIndex];
  }

  byte[] binaryArray() {
    return batch.isDictionaryEncoded()
        ? batch.dictionaryBinaries().data()
        : batch.binaries().data();
  }

  int binaryOffset() {
    return batch.isDictionaryEncoded()
        ? batch.dictionaryBinaries().offset(valueIndex)
        : batch.binaries().offset(valueIndex);
  }

  int binaryLength() {
    return batch.isDictionaryEncoded()
        ? batch.dictionaryBinaries().length(valueIndex)
        : batch.binaries().length(valueIndex);
  }

  int repetition() throws IOException, ParquetException {
    return hasEntry() ? batch.repetitionLevels()[pos] : -1;
  }

  int definition() throws IOException, ParquetException {
    return hasEntry() ? batch.definitionLevels()[pos] : -1;
  }

  /** The current entry's value, boxed as the Row model wants it; it must be non-null. */
  Object value() {
    int i = valueIndex;
    return switch (batch.type()) {
      case BOOLEAN -> batch.booleans()[i];
      case INT32 -> batch.ints()[i];
      case INT64 -> batch.longs()[i];
      case FLOAT -> batch.floats()[i];
      case DOUBLE -> batch.doubles()[i];
      case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> binaryValue(i);
    };
  }

  /**
   * A fresh {@code byte[]}, or for a text column a {@code String}: from a dictionary-encoded batch,
   * the one decoded for its dictionary entry, shared by every row that refers to it.
   */
  private Object binaryValue(int i) {
    if (batch.isDictionaryEncoded()) {
      DictionaryBinaryBatch values = batch.dictionaryBinaries();
      return text ? values.string(i) : values.get(i);
    }
    BinaryBatch values = batch.binaries();
    return text
        ? new String(values.data(), values.offset(i), values.length(i), StandardCharsets.UTF_8)
        : values.get(i);
  }

  /** A BYTE_ARRAY column annotated STRING (or UTF8, its converted-type form). */
  static boolean isString(PrimitiveNode leaf) {
    return leaf.type() == PhysicalType.BYTE_ARRAY
        && (leaf.logicalType() instanceof LogicalType.StringType
            || leaf.convertedType() == ConvertedType.UTF8);
  }

  /** Moves past the current entry, which {@link #hasEntry()} has confirmed. */
  void advance() {
    if (batch.definitionLevels()[pos] == maxDefinition) {
      valueIndex++;
    }
    pos++;
    if (pos < batch.size() && batch.repetitionLevels()[pos] == 0) {
      row++;
    }
  }
}
