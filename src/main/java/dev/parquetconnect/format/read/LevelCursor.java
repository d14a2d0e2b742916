package dev.parquetconnect.format.read;

import dev.parquetconnect.format.ParquetException;
import java.io.IOException;

/**
 * One projected column seen entry by entry for record assembly: the current entry's levels and
 * value, refilled batch by batch from its {@link ColumnReader}. Past the chunk's end, both
 * levels read as -1, which matches no field and so ends every repetition.
 */
final class LevelCursor {
  final ColumnReader reader;
  final String name;
  private final ColumnBatch batch;
  private final int maxDefinition;
  private int pos;
  private int valueIndex;
  private boolean exhausted;

  LevelCursor(ColumnReader reader, int batchSize) {
    this.reader = reader;
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
    return true;
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
      case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> batch.isDictionaryEncoded()
          ? batch.dictionaryBinaries().get(i)
          : batch.binaries().get(i);
    };
  }

  /** Moves past the current entry, which {@link #hasEntry()} has confirmed. */
  void advance() {
    if (batch.definitionLevels()[pos] == maxDefinition) {
      valueIndex++;
    }
    pos++;
  }
}
