package dev.parquetconnect.format.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.read.MemoryInput;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaTestData;
import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/** The footer a writer hands out after closing is the one a reader finds in the file. */
class WrittenFooterTest {
  private static final MessageType SCHEMA = SchemaTestData.sample();

  @Test
  void theFooterOfAClosedFileIsTheOneInTheFile() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ParquetFileWriter writer =
        new ParquetFileWriter(out, SCHEMA, WriterOptions.builder().rowGroupRowLimit(100).build());
    for (Row row : new RandomRows(5).rows(SCHEMA, 400)) {
      writer.write(row);
    }
    assertThrows(IllegalStateException.class, writer::footer, "no footer before close");
    writer.close();
    FileMetaData footer = writer.footer();
    assertEquals(4, footer.rowGroups().size());
    try (ParquetFileReader reader =
        ParquetFileReader.open(new MemoryInput(out.toByteArray(), "footer.parquet"))) {
      assertEquals(reader.metadata(), footer);
    }
  }
}
