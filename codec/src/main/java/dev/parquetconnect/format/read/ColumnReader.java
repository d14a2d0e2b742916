package dev.parquetconnect.format.read;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.encoding.DictionaryDecoder;
import dev.parquetconnect.format.encoding.LevelsDecoder;
import dev.parquetconnect.format.encoding.ValuesCodecs;
import dev.parquetconnect.format.encoding.ValuesDecoder;
import dev.parquetconnect.format.io.SeekableInput;
import dev.parquetconnect.format.meta.ColumnMetaData;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.Encoding;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.EOFException;
import java.io.IOException;
import java.util.List;

/**
 * Decodes one column chunk into {@link ColumnBatch}es: levels and values of its data pages, page
 * after page, in batches of primitive arrays. This is the fast path the connectors and tools use;
 * record assembly is built on it.
 *
 * <p>Counts are checked as pages are consumed: a page's levels must hold its num_values, its values
 * section the non-null values its definition levels call for, a v2 page the nulls and rows its
 * header announces, and the chunk as many rows (entries with repetition level 0) as the row group.
 * Errors name the file, the column and the page.
 */
public final class ColumnReader implements AutoCloseable {
  private final ColumnChunkReader chunk;
  private final String file;
  private final ColumnDescriptor column;
  private final PhysicalType type;
  private final int typeLength;
  private final int maxRepetition;
  private final int maxDefinition;
  private final long rowGroupRows;
  private final LevelsDecoder repetition = new LevelsDecoder();
  private final LevelsDecoder definition = new LevelsDecoder();

  /** Decoders by encoding, created on first use and reused for every page of the chunk. */
  private final ValuesDecoder[] decoders = new ValuesDecoder[Encoding.values().length];

  private DictionaryDecoder dictionaryDecoder;
  private ValuesDecoder values;
  private DataPage page;
  private int pageLeft;
  private long pageNonNull;
  private long pageRows;
  private long rows;
  private long batchStartRow;
  private long pageEndRow;
  private long entries;
  private boolean done;

  ColumnReader(ColumnChunkReader chunk, String file, long rowGroupRows) {
    this.chunk = chunk;
    this.file = file;
    this.column = chunk.column();
    PrimitiveNode leaf = column.primitive();
    this.type = leaf.type();
    this.typeLength = leaf.typeLength();
    this.maxRepetition = column.maxRepetitionLevel();
    this.maxDefinition = column.maxDefinitionLevel();
    this.rowGroupRows = rowGroupRows;
  }

  public ColumnDescriptor column() {
    return column;
  }

  /**
   * A reader of a column chunk held in memory, {@code bytes[0, length)}: its dictionary page (if
   * any) and data pages, as a writer keeps them before the row group is written out. A writer that
   * changes a column in place (ParquetFileWriter.reshape) reads its buffered pages back with this,
   * through the same checks as any file.
   */
  public static ColumnReader ofBufferedChunk(
      byte[] bytes,
      int length,
      ColumnDescriptor column,
      CompressionCodec codec,
      long numValues,
      long rows) {
    ColumnMetaData meta =
        new ColumnMetaData(
            column.primitive().type(),
            List.of(),
            column.path(),
            codec,
            numValues,
            length,
            length,
            null,
            0,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null);
    SeekableInput input = new BufferedChunkInput(bytes, length);
    return new ColumnReader(
        new ColumnChunkReader(
            input, input.name(), column, meta, new ChunkRange(0, length), ReadOptions.defaults()),
        input.name(),
        rows);
  }

  /** The bytes of a chunk in memory as a {@link SeekableInput}. */
  private static final class BufferedChunkInput implements SeekableInput {
    private final byte[] bytes;
    private final int length;

    BufferedChunkInput(byte[] bytes, int length) {
      this.bytes = bytes;
      this.length = length;
    }

    @Override
    public long length() {
      return length;
    }

    @Override
    public void readFully(long position, byte[] dst, int off, int len) throws IOException {
      if (position < 0 || len < 0 || position > length - (long) len) {
        throw new EOFException(
            "read ["
                + position
                + ", +"
                + len
                + ") past the "
                + length
                + " bytes of a buffered column chunk");
      }
      System.arraycopy(bytes, (int) position, dst, off, len);
    }

    @Override
    public String name() {
      return "(buffered row group)";
    }

    @Override
    public void close() {
      // Nothing to release: the bytes belong to the writer.
    }
  }

  /** A batch sized for this column. */
  public ColumnBatch newBatch(int capacity) {
    return new ColumnBatch(type, capacity);
  }

  /**
   * A batch sized for this column that, with {@code keepDictionaryEncoding}, receives a binary
   * column's dictionary-encoded values as indices into the chunk's dictionary instead of copies of
   * their bytes (see {@link ColumnBatch}).
   */
  public ColumnBatch newBatch(int capacity, boolean keepDictionaryEncoding) {
    return new ColumnBatch(type, capacity, keepDictionaryEncoding);
  }

  /** Rows (entries with repetition level 0) read so far. */
  public long rowsRead() {
    return rows;
  }

  /**
   * The rows begun before the first entry of the batch read last: the row index (in the row group)
   * of that entry when it starts a row, else of the row it continues. With skipped pages the rows
   * of a batch still follow each other: a batch never spans a gap.
   */
  public long batchStartRow() {
    return batchStartRow;
  }

  /** Fills {@code batch} with up to its capacity of entries; returns the count, 0 at the end. */
  public int readBatch(ColumnBatch batch) throws IOException, ParquetException {
    return readBatch(batch, batch.capacity());
  }

  /** Fills {@code batch} with up to {@code max} entries; returns the count, 0 at the end. */
  public int readBatch(ColumnBatch batch, int max) throws IOException, ParquetException {
    if (batch.type() != type || max < 0 || max > batch.capacity()) {
      throw new IllegalArgumentException(
          "a batch of "
              + batch.type()
              + " for "
              + max
              + " entries cannot take "
              + type
              + " column "
              + column.dottedPath());
    }
    batch.clear();
    while (batch.size < max && !done) {
      if (pageLeft == 0) {
        if (batch.size > 0 && chunk.isPlanned()) {
          break; // the next planned page may not follow this one
        }
        nextPage();
        continue;
      }
      int n = Math.min(max - batch.size, pageLeft);
      try {
        decode(batch, n);
      } catch (ParquetException e) {
        throw e.at(file, column.dottedPath(), page.fileOffset());
      }
      pageLeft -= n;
    }
    return batch.size;
  }

  private void decode(ColumnBatch batch, int n) throws ParquetException {
    int from = batch.size;
    if (from == 0) {
      batchStartRow = rows;
    }
    int[] rep = batch.repetitionLevels();
    int[] def = batch.definitionLevels();
    repetition.read(rep, from, n);
    definition.read(def, from, n);
    int newRows = n;
    if (maxRepetition > 0) {
      if (entries == 0 && rep[from] != 0) {
        throw new CorruptDataException(
            "the column chunk starts with repetition level " + rep[from] + ", not 0");
      }
      newRows = 0;
      for (int i = from; i < from + n; i++) {
        if (rep[i] == 0) {
          newRows++;
        }
      }
    }
    int nonNull = n;
    if (maxDefinition > 0) {
      nonNull = 0;
      for (int i = from; i < from + n; i++) {
        if (def[i] == maxDefinition) {
          nonNull++;
        }
      }
    }
    readValues(batch, nonNull);
    batch.size += n;
    entries += n;
    rows += newRows;
    pageRows += newRows;
    pageNonNull += nonNull;
  }

  private void readValues(ColumnBatch batch, int n) throws ParquetException {
    if (n == 0) {
      return;
    }
    int at = batch.valueCount;
    switch (type) {
      case BOOLEAN -> values.readBooleans(batch.booleans(), at, n);
      case INT32 -> values.readInts(batch.ints(), at, n);
      case INT64 -> values.readLongs(batch.longs(), at, n);
      case FLOAT -> values.readFloats(batch.floats(), at, n);
      case DOUBLE -> values.readDoubles(batch.doubles(), at, n);
      case INT96, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY -> readBinaryValues(batch, n);
    }
    batch.valueCount += n;
  }

  /**
   * Binary values: as dictionary indices when the batch asks for them, the page is
   * dictionary-encoded and the batch does not already hold plain values; else copied into the
   * batch's {@link ColumnBatch#binaries()}, after materialising any indices it holds (a chunk that
   * falls back to plain pages in the middle of the batch).
   */
  private void readBinaryValues(ColumnBatch batch, int n) throws ParquetException {
    if (values == dictionaryDecoder
        && batch.keepsDictionaryEncoding()
        && (batch.dictionaryEncoded || batch.valueCount == 0)) {
      dictionaryDecoder.readIndices(batch.dictionaryBinaries(), n);
      batch.dictionaryEncoded = true;
    } else {
      if (batch.dictionaryEncoded) {
        batch.toPlainForm();
      }
      values.readBinaries(batch.binaries(), n);
    }
  }

  /** Finishes the current page's checks and starts the next, or marks the end of the chunk. */
  private void nextPage() throws IOException, ParquetException {
    if (page != null) {
      finishPage();
    }
    page = chunk.nextPage();
    if (page == null) {
      done = true;
      if (!chunk.isPlanned() && rows != rowGroupRows) {
        throw new CorruptDataException(
                "the column chunk holds " + rows + " rows but its row group has " + rowGroupRows)
            .at(file, column.dottedPath(), -1);
      }
      return;
    }
    if (chunk.isPlanned()) {
      rows = chunk.plannedPageFirstRow();
      pageEndRow = chunk.plannedPageEndRow();
    }
    try {
      startPage();
    } catch (ParquetException e) {
      throw e.at(file, column.dottedPath(), page.fileOffset());
    }
  }

  private void startPage() throws ParquetException {
    DataPage p = page;
    byte[] data = p.data;
    int n = p.numValues;
    int at = p.offset;
    int end = p.offset + p.length;
    ValuesDecoder decoder = decoderFor(p.valueEncoding);
    if (p.v2) {
      repetition.initV2(maxRepetition, data, at, p.repetitionLevelsLength, n);
      at += p.repetitionLevelsLength;
      definition.initV2(maxDefinition, data, at, p.definitionLevelsLength, n);
      at += p.definitionLevelsLength;
      decoder.init(data, at, end - at, n - p.numNulls);
    } else {
      at += repetition.initV1(p.repetitionLevelEncoding, maxRepetition, data, at, end - at, n);
      at += definition.initV1(p.definitionLevelEncoding, maxDefinition, data, at, end - at, n);
      // The non-null count is known only once the levels are read: n bounds it.
      decoder.init(data, at, end - at, n);
    }
    values = decoder;
    pageLeft = n;
    pageNonNull = 0;
    pageRows = 0;
  }

  private void finishPage() throws ParquetException {
    DataPage p = page;
    if (chunk.isPlanned() && rows != pageEndRow) {
      throw new CorruptDataException(
              "the page holds rows up to "
                  + rows
                  + " but the offset index says up to "
                  + pageEndRow)
          .at(file, column.dottedPath(), p.fileOffset);
    }
    if (!p.v2) {
      return;
    }
    long expectedNonNull = (long) p.numValues - p.numNulls;
    if (pageNonNull != expectedNonNull || (maxRepetition > 0 && pageRows != p.numRows)) {
      throw new CorruptDataException(
              "a v2 page announces "
                  + p.numNulls
                  + " nulls and "
                  + p.numRows
                  + " rows but its levels hold "
                  + (p.numValues - pageNonNull)
                  + " nulls and "
                  + pageRows
                  + " rows")
          .at(file, column.dottedPath(), p.fileOffset);
    }
  }

  private ValuesDecoder decoderFor(Encoding encoding) throws ParquetException {
    if (encoding.usesDictionary()) {
      if (dictionaryDecoder == null) {
        if (chunk.dictionary() == null) {
          throw new CorruptDataException(
              "a " + encoding + " page but the column chunk has no dictionary page");
        }
        dictionaryDecoder = ValuesCodecs.dictionaryDecoder(encoding, chunk.dictionary());
      }
      return dictionaryDecoder;
    }
    ValuesDecoder decoder = decoders[encoding.ordinal()];
    if (decoder == null) {
      decoder = ValuesCodecs.decoder(encoding, type, typeLength);
      decoders[encoding.ordinal()] = decoder;
    }
    return decoder;
  }

  /** Frees the chunk's buffers and codec state. */
  @Override
  public void close() {
    chunk.close();
  }
}
