package dev.parquetconnect.iceberg.maintenance;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.read.ColumnBatch;
import dev.parquetconnect.format.read.ColumnReader;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.SchemaConverter;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The codec-level merge of compaction: the rows of Parquet files that share one footer schema,
 * decoded page by page into primitive batches and re-encoded by our writer, file after file and row
 * group after row group in the order given, into one output. The output's footer schema is the
 * inputs' own elements (names, repetition, physical and logical types, field ids), so every column
 * keeps its type and its Iceberg field id, the {@code __kafka_*} columns included; key/value
 * metadata every input has with the same value is kept.
 *
 * <p>Memory: one input column chunk's pages at a time plus the writer's open row group, which is
 * flushed at {@link WriterOptions#rowGroupByteTarget()}.
 */
final class FileMerger implements AutoCloseable {
  private static final int BATCH = 4096;

  private final ParquetFileWriter writer;
  private final FileMetaData first;
  private final ColumnBatch[] batches;

  /** Bytes a flushed row group took per byte it buffered, as last seen. */
  private double compression = 1.0;

  private FileMerger(ParquetFileWriter writer, FileMetaData first) {
    this.writer = writer;
    this.first = first;
    this.batches = new ColumnBatch[writer.columnCount()];
  }

  /**
   * A merger writing to {@code out} files with the footer {@code first} has.
   *
   * @param keyValues the key/value metadata to write (see {@link #commonKeyValues})
   * @param rowGroupBytes the output's row group byte target
   */
  static FileMerger open(
      OutputStream out, FileMetaData first, Map<String, String> keyValues, long rowGroupBytes)
      throws IOException, ParquetException {
    MessageType schema = SchemaConverter.fromSchemaElements(first.schema());
    WriterOptions.Builder options =
        WriterOptions.defaults().toBuilder()
            .footerSchema(first.schema())
            .rowGroupByteTarget(rowGroupBytes);
    CompressionCodec codec = codecOf(first);
    if (codec != null) {
      options.codec(codec);
    }
    keyValues.forEach(options::keyValue);
    return new FileMerger(new ParquetFileWriter(out, schema, options.build()), first);
  }

  /**
   * Why files with these footers cannot be merged into one, or null when they can: each must have
   * the first's schema elements exactly (so the output annotates every column as each input did),
   * and no logical type this codec cannot write back.
   */
  static String mismatch(FileMetaData first, FileMetaData other) {
    for (SchemaElement e : first.schema()) {
      if (e.logicalType() instanceof LogicalType.Unrecognized) {
        return "column " + e.name() + " has a logical type this codec cannot write";
      }
    }
    List<SchemaElement> a = first.schema();
    List<SchemaElement> b = other.schema();
    if (a.size() != b.size()) {
      return "the schemas have " + a.size() + " and " + b.size() + " elements";
    }
    // The root's name is no part of the data.
    for (int i = 1; i < a.size(); i++) {
      if (!a.get(i).equals(b.get(i))) {
        return "schema element " + a.get(i).name() + " differs: " + a.get(i) + " / " + b.get(i);
      }
    }
    return null;
  }

  /** The key/value metadata all {@code footers} have with the same value. */
  static Map<String, String> commonKeyValues(List<FileMetaData> footers) {
    Map<String, String> common = null;
    for (FileMetaData footer : footers) {
      Map<String, String> these = new LinkedHashMap<>();
      if (footer.keyValueMetadata() != null) {
        for (KeyValue kv : footer.keyValueMetadata()) {
          these.put(kv.key(), kv.value());
        }
      }
      if (common == null) {
        common = these;
      } else {
        common.entrySet().removeIf(e -> !Objects.equals(these.get(e.getKey()), e.getValue()));
      }
    }
    return common == null ? Map.of() : common;
  }

  private static CompressionCodec codecOf(FileMetaData footer) {
    for (RowGroup rowGroup : footer.rowGroups()) {
      if (!rowGroup.columns().isEmpty()) {
        return rowGroup.columns().get(0).metaData().codec();
      }
    }
    return null;
  }

  /**
   * Appends every row of {@code reader}'s file, whose footer must pass {@link #mismatch} against
   * the first's.
   */
  void append(ParquetFileReader reader) throws IOException, ParquetException {
    String problem = mismatch(first, reader.metadata());
    if (problem != null) {
      throw new IllegalArgumentException(reader.name() + " cannot be merged: " + problem);
    }
    List<ColumnDescriptor> columns = reader.schema().columns();
    List<RowGroup> rowGroups = reader.rowGroups();
    for (int rg = 0; rg < rowGroups.size(); rg++) {
      long rows = rowGroups.get(rg).numRows();
      if (rows == 0) {
        continue;
      }
      for (int c = 0; c < columns.size(); c++) {
        copyChunk(reader, rg, columns.get(c), writer.column(c), c);
      }
      writer.endRecords(rows);
    }
  }

  private void copyChunk(
      ParquetFileReader reader, int rowGroup, ColumnDescriptor column, ColumnChunkWriter out, int c)
      throws IOException, ParquetException {
    try (ColumnReader in = reader.columnReader(rowGroup, column)) {
      ColumnBatch batch = batches[c];
      if (batch == null) {
        batch = in.newBatch(BATCH);
        batches[c] = batch;
      }
      int[] rep = batch.repetitionLevels();
      int[] def = batch.definitionLevels();
      for (int n = in.readBatch(batch); n > 0; n = in.readBatch(batch)) {
        switch (batch.type()) {
          case BOOLEAN -> out.writeBooleans(batch.booleans(), 0, rep, def, 0, n);
          case INT32 -> out.writeInts(batch.ints(), 0, rep, def, 0, n);
          case INT64 -> out.writeLongs(batch.longs(), 0, rep, def, 0, n);
          case FLOAT -> out.writeFloats(batch.floats(), 0, rep, def, 0, n);
          case DOUBLE -> out.writeDoubles(batch.doubles(), 0, rep, def, 0, n);
          default -> out.writeBinaries(batch.plainBinaries(), 0, rep, def, 0, n);
        }
      }
    }
  }

  /** Rows written so far. */
  long recordCount() {
    return writer.recordCount();
  }

  /**
   * Whether the output has reached {@code target} bytes on its store: once the bytes written plus
   * the open row group (scaled by the compression the last flushes achieved) reach it, the row
   * group is flushed and the bytes actually written decide. A file closed here is at least {@code
   * target} large, so it is never a compaction input again.
   */
  boolean reached(long target) throws IOException {
    long written = writer.bytesWritten();
    long buffered = writer.bufferedBytes();
    if (written + (long) (buffered * compression) < target) {
      return false;
    }
    writer.flushRowGroup();
    long grown = writer.bytesWritten() - written;
    if (buffered > 0 && grown > 0) {
      compression = (double) grown / buffered;
    }
    return writer.bytesWritten() >= target;
  }

  /** Completes the file and returns its footer (for the table's metrics). */
  FileMetaData finish() throws IOException {
    writer.close();
    return writer.footer();
  }

  @Override
  public void close() throws IOException {
    writer.close();
  }
}
