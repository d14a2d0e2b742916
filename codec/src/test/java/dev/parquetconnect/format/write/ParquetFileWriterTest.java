package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.ColumnOrder;
import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.KeyValue;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.oracle.DuckDbOracle;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaTestData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file writer: row groups leave memory as they close, footer contents, lifecycle errors. */
class ParquetFileWriterTest {
  @TempDir Path dir;

  private static final MessageType SCHEMA = SchemaTestData.sample();

  @Test
  void rowGroupsReachTheStreamAsTheyCloseAndLeaveMemory() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<Row> rows = new RandomRows(2).rows(SCHEMA, 3000);
    WriterOptions options = WriterOptions.builder().rowGroupByteTarget(16 << 10).build();
    int groupsSeen = 0;
    try (ParquetFileWriter writer = new ParquetFileWriter(out, SCHEMA, options)) {
      long written = writer.bytesWritten();
      assertEquals(4, written, "the magic comes first");
      for (Row row : rows) {
        writer.write(row);
        if (writer.bytesWritten() > written) {
          // A row group just closed: its bytes are in the stream, not in the writer.
          groupsSeen++;
          assertEquals(writer.bytesWritten(), out.size());
          assertTrue(writer.bufferedBytes() < 4 << 10, "held " + writer.bufferedBytes());
          written = writer.bytesWritten();
        }
        assertTrue(writer.bufferedBytes() < 3 * (16 << 10), "held " + writer.bufferedBytes());
      }
    }
    Path file = Files.write(dir.resolve("groups.parquet"), out.toByteArray());
    FileMetaData footer = FooterReader.read(file);
    assertTrue(
        groupsSeen >= 3 && footer.rowGroups().size() == groupsSeen + 1,
        groupsSeen + " flushes, " + footer.rowGroups().size() + " row groups");
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, SCHEMA), "row groups");
  }

  @Test
  void theRowCapClosesRowGroups() throws Exception {
    List<Row> rows = new RandomRows(3).rows(SCHEMA, 95);
    Path file =
        WriterMatrix.write(
            dir.resolve("cap.parquet"),
            SCHEMA,
            rows,
            WriterOptions.builder().rowGroupRowLimit(10).build());
    List<RowGroup> groups = FooterReader.read(file).rowGroups();
    assertEquals(10, groups.size());
    for (int g = 0; g < groups.size(); g++) {
      assertEquals(g < 9 ? 10 : 5, groups.get(g).numRows());
      assertEquals(g, (int) groups.get(g).ordinal());
    }
  }

  @Test
  void theFooterCarriesMetadataParquetJavaReads() throws Exception {
    Path file =
        WriterMatrix.write(
            dir.resolve("meta.parquet"),
            SCHEMA,
            new RandomRows(4).rows(SCHEMA, 5),
            WriterOptions.builder()
                .keyValue("origin", "topic-a/0")
                .keyValue("empty", null)
                .build());
    FileMetaData footer = FooterReader.read(file);
    assertEquals(1, footer.version());
    assertTrue(footer.createdBy().startsWith("kafka-connect-parquet version "), footer.createdBy());
    assertEquals(
        List.of(new KeyValue("origin", "topic-a/0"), new KeyValue("empty", null)),
        footer.keyValueMetadata());
    assertEquals(
        Collections.nCopies(SCHEMA.columns().size(), ColumnOrder.TYPE_DEFINED),
        footer.columnOrders());
    try (ParquetFileReader reader =
        ParquetFileReader.open(new LocalInputFile(file), ParquetReadOptions.builder().build())) {
      Map<String, String> kv = reader.getFileMetaData().getKeyValueMetaData();
      assertEquals("topic-a/0", kv.get("origin"));
      assertEquals(footer.createdBy(), reader.getFileMetaData().getCreatedBy());
      assertEquals(ParquetJavaOracle.toParquetJava(SCHEMA), reader.getFileMetaData().getSchema());
    }
  }

  @Test
  void aFileWithoutRowsIsValid() throws Exception {
    Path file =
        WriterMatrix.write(
            dir.resolve("empty.parquet"), SCHEMA, List.of(), WriterOptions.defaults());
    assertEquals(0, FooterReader.read(file).rowGroups().size());
    assertEquals(0, ParquetJavaOracle.read(file, SCHEMA).size());
    try (DuckDbOracle duckdb = new DuckDbOracle()) {
      assertEquals(0, duckdb.read(file, SCHEMA).size());
    }
  }

  @Test
  void aColumnWithoutItsEntriesIsReported() throws Exception {
    ParquetFileWriter writer =
        new ParquetFileWriter(new ByteArrayOutputStream(), SCHEMA, WriterOptions.defaults());
    writer.column("id").writeLong(1, 0, 0);
    writer.endRecord();
    IllegalStateException e = assertThrows(IllegalStateException.class, writer::flushRowGroup);
    assertTrue(e.getMessage().contains("column name"), e.getMessage());
    assertThrows(IllegalStateException.class, writer::close);
  }

  @Test
  void aClosedWriterRefusesWork() throws Exception {
    ParquetFileWriter writer =
        new ParquetFileWriter(new ByteArrayOutputStream(), SCHEMA, WriterOptions.defaults());
    writer.close();
    writer.close();
    assertThrows(IllegalStateException.class, writer::endRecord);
    assertThrows(IllegalStateException.class, () -> writer.column("id").writeLong(1, 0, 0));
  }

  @Test
  void aFailingStreamLeavesTheWriterFailedAndClosed() throws Exception {
    FailingStream out = new FailingStream(100);
    ParquetFileWriter writer =
        new ParquetFileWriter(out, SCHEMA, WriterOptions.builder().rowGroupRowLimit(50).build());
    List<Row> rows = new RandomRows(5).rows(SCHEMA, 60);
    IOException failure =
        assertThrows(
            IOException.class,
            () -> {
              for (Row row : rows) {
                writer.write(row);
              }
            });
    assertEquals("disk full", failure.getMessage());
    assertThrows(IllegalStateException.class, () -> writer.write(rows.get(0)));
    writer.close();
    assertTrue(out.closed, "the stream is closed");
  }

  /** Accepts {@code limit} bytes, then fails. */
  private static final class FailingStream extends OutputStream {
    private final int limit;
    private int written;
    boolean closed;

    FailingStream(int limit) {
      this.limit = limit;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (written + len > limit) {
        throw new IOException("disk full");
      }
      written += len;
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
