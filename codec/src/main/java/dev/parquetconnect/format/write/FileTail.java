package dev.parquetconnect.format.write;

import dev.parquetconnect.format.io.GrowableBuffer;
import dev.parquetconnect.format.io.LittleEndian;
import dev.parquetconnect.format.meta.ColumnChunk;
import dev.parquetconnect.format.meta.ColumnIndex;
import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.OffsetIndex;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.SchemaConverter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a file ends with, collected row group by row group while the file is written: the column
 * indexes (all row groups), then the offset indexes, then the footer pointing at everything, its
 * length and {@code PAR1}, as parquet-java lays them out. Holds only metadata: a few dozen bytes
 * per page.
 */
final class FileTail {
  static final byte[] MAGIC = {'P', 'A', 'R', '1'};

  /** Footer version 1 for files of v1 pages, which every reader takes; 2 with v2 pages. */
  private static final int FORMAT_VERSION_1 = 1;

  private static final int FORMAT_VERSION_2 = 2;

  /** A written row group: its chunks (bloom filters already written) and where it starts. */
  private record Group(WrittenChunk[] chunks, long rows, long fileOffset) {}

  private final List<Group> groups = new ArrayList<>();

  int rowGroupCount() {
    return groups.size();
  }

  void addRowGroup(WrittenChunk[] chunks, long rows, long fileOffset) {
    groups.add(new Group(chunks, rows, fileOffset));
  }

  FileMetaData write(FileSink sink, MessageType schema, WriterOptions options, long totalRows)
      throws IOException {
    int columns = schema.columns().size();
    GrowableBuffer buffer = new GrowableBuffer(1 << 12);
    long[][] columnIndexAt = new long[groups.size()][columns];
    int[][] columnIndexLength = new int[groups.size()][columns];
    long[][] offsetIndexAt = new long[groups.size()][columns];
    int[][] offsetIndexLength = new int[groups.size()][columns];
    for (int g = 0; g < groups.size(); g++) {
      WrittenChunk[] chunks = groups.get(g).chunks();
      buffer.reset();
      long base = sink.position();
      for (int c = 0; c < columns; c++) {
        columnIndexAt[g][c] = -1;
        ColumnIndex index = chunks[c].columnIndex();
        if (index != null) {
          int before = buffer.size();
          MetadataCodec.write(index, buffer);
          columnIndexAt[g][c] = base + before;
          columnIndexLength[g][c] = buffer.size() - before;
        }
      }
      sink.write(buffer);
    }
    for (int g = 0; g < groups.size(); g++) {
      WrittenChunk[] chunks = groups.get(g).chunks();
      buffer.reset();
      long base = sink.position();
      for (int c = 0; c < columns; c++) {
        offsetIndexAt[g][c] = -1;
        OffsetIndex index = chunks[c].offsetIndex();
        if (index != null) {
          int before = buffer.size();
          MetadataCodec.write(index, buffer);
          offsetIndexAt[g][c] = base + before;
          offsetIndexLength[g][c] = buffer.size() - before;
        }
      }
      sink.write(buffer);
    }
    List<RowGroup> rowGroups = new ArrayList<>(groups.size());
    for (int g = 0; g < groups.size(); g++) {
      Group group = groups.get(g);
      List<ColumnChunk> chunks = new ArrayList<>(columns);
      long uncompressed = 0;
      long compressed = 0;
      for (int c = 0; c < columns; c++) {
        WrittenChunk chunk = group.chunks()[c];
        uncompressed += chunk.metaData().totalUncompressedSize();
        compressed += chunk.metaData().totalCompressedSize();
        boolean hasColumnIndex = columnIndexAt[g][c] >= 0;
        boolean hasOffsetIndex = offsetIndexAt[g][c] >= 0;
        chunks.add(
            new ColumnChunk(
                null,
                0, // deprecated: parquet.thrift asks for 0 when no metadata is written apart
                chunk.metaData(),
                hasOffsetIndex ? offsetIndexAt[g][c] : null,
                hasOffsetIndex ? offsetIndexLength[g][c] : null,
                hasColumnIndex ? columnIndexAt[g][c] : null,
                hasColumnIndex ? columnIndexLength[g][c] : null,
                null,
                null));
      }
      rowGroups.add(
          new RowGroup(
              chunks,
              uncompressed,
              group.rows(),
              null,
              group.fileOffset(),
              compressed,
              g <= Short.MAX_VALUE ? (short) g : null));
    }
    List<KeyValue> keyValues = new ArrayList<>();
    options.keyValueMetadata().forEach((k, v) -> keyValues.add(new KeyValue(k, v)));
    FileMetaData footer =
        new FileMetaData(
            options.pageVersion() == PageVersion.V1 ? FORMAT_VERSION_1 : FORMAT_VERSION_2,
            SchemaConverter.toSchemaElements(schema),
            totalRows,
            rowGroups,
            keyValues.isEmpty() ? null : keyValues,
            options.createdBy(),
            Collections.nCopies(columns, ColumnOrder.TYPE_DEFINED),
            null,
            null);
    buffer.reset();
    MetadataCodec.write(footer, buffer);
    int footerLength = buffer.size();
    buffer.ensureCapacity(8);
    LittleEndian.putInt(buffer.array(), buffer.size(), footerLength);
    buffer.advance(4);
    buffer.write(MAGIC);
    sink.write(buffer);
    return footer;
  }
}
