package dev.parquetconnect.format.read;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.Row;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Run by {@link OneColumnMemoryIT} in a JVM with a small heap: reads one string column of the wide
 * file twice, as records through a projection and as column batches, checks every value, and prints
 * one line per pass: {@code mode rows bytesRead chunkBytes}. Exits non-zero on any error (the JVM
 * is started to exit on an OutOfMemoryError).
 */
public final class OneColumnReadMain {
  private OneColumnReadMain() {}

  public static void main(String[] args) throws Exception {
    Path file = Path.of(args[0]);
    int column = Integer.parseInt(args[1]);
    System.out.println("records " + records(file, column));
    System.out.println("batches " + batches(file, column));
    System.out.println("maxHeap " + Runtime.getRuntime().maxMemory());
  }

  private static String records(Path file, int column) throws Exception {
    LocalFileInput input = new LocalFileInput(file);
    long rows = 0;
    long chunkBytes;
    try (ParquetFileReader reader = ParquetFileReader.open(input);
        RowReader records =
            reader.rowReader(reader.projection(List.of(OneColumnData.name(column))))) {
      chunkBytes = chunkBytes(reader, column);
      while (records.hasNext()) {
        Row row = records.next();
        check((byte[]) row.get(0), rows, column);
        rows++;
      }
    }
    return rows + " " + input.bytesRead() + " " + chunkBytes;
  }

  private static String batches(Path file, int column) throws Exception {
    LocalFileInput input = new LocalFileInput(file);
    long rows = 0;
    long chunkBytes;
    try (ParquetFileReader reader = ParquetFileReader.open(input)) {
      chunkBytes = chunkBytes(reader, column);
      ColumnDescriptor descriptor = reader.schema().column(column);
      for (int g = 0; g < reader.rowGroups().size(); g++) {
        try (ColumnReader columnReader = reader.columnReader(g, descriptor)) {
          ColumnBatch batch = columnReader.newBatch(4096);
          int n;
          while ((n = columnReader.readBatch(batch)) > 0) {
            for (int i = 0; i < n; i++) {
              byte[] value =
                  Arrays.copyOfRange(
                      batch.binaries().data(),
                      batch.binaries().offset(i),
                      batch.binaries().offset(i + 1));
              check(value, rows++, column);
            }
          }
        }
      }
    }
    return rows + " " + input.bytesRead() + " " + chunkBytes;
  }

  private static long chunkBytes(ParquetFileReader reader, int column) {
    long bytes = 0;
    for (RowGroup g : reader.rowGroups()) {
      bytes += g.columns().get(column).metaData().totalCompressedSize();
    }
    return bytes;
  }

  private static void check(byte[] value, long row, int column) {
    if (!Arrays.equals(value, OneColumnData.string(row, column))) {
      throw new IllegalStateException("row " + row + " of column " + column + " is wrong");
    }
  }
}
