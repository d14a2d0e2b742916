package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaFeatureWriter;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RowReader#returnStringsAsText()} on a file parquet-java wrote with dictionary pages that
 * fall back to plain ones: STRING columns come back as the {@code String}s of the written bytes,
 * one shared instance per dictionary entry while pages are dictionary-encoded; other binary columns
 * stay {@code byte[]}; the default stays {@code byte[]} everywhere.
 */
class RowReaderStringsTest {
  @TempDir Path dir;

  @Test
  void stringColumnsAsTextSharedPerDictionaryEntry() throws Exception {
    MessageType schema = ColumnBatchTest.fallbackSchema();
    List<Row> written = ColumnBatchTest.fallbackRows(schema, 1200);
    for (WriterVersion version : WriterVersion.values()) {
      Path file = dir.resolve(version + ".parquet");
      ParquetJavaFeatureWriter.write(
          file,
          schema,
          written,
          b ->
              b.withWriterVersion(version)
                  .withDictionaryPageSize(1024)
                  .withPageRowCountLimit(37)
                  .withCompressionCodec(CompressionCodecName.SNAPPY));
      List<Row> rows = new ArrayList<>();
      // Batches of 50 levels: the first ones lie wholly in the dictionary-encoded pages (a batch
      // spanning the fallback is materialised, and its strings made one per value).
      try (ParquetFileReader reader =
              ParquetFileReader.open(
                  new LocalFileInput(file), ReadOptions.defaults().withBatchSize(50));
          RowReader rowReader = reader.rowReader()) {
        rowReader.returnStringsAsText();
        while (rowReader.hasNext()) {
          rows.add(rowReader.next());
          if (rows.size() == 1) {
            assertThrows(IllegalStateException.class, rowReader::returnStringsAsText);
          }
        }
      }
      assertEquals(written.size(), rows.size());
      for (int i = 0; i < rows.size(); i++) {
        Row expected = written.get(i);
        Row actual = rows.get(i);
        String what = version + " row " + i;
        assertEquals(expected.get(0), actual.get(0), what);
        assertEquals(text(expected.get(1)), actual.get(1), what);
        if (actual.get(1) != null) {
          assertInstanceOf(String.class, actual.get(1), what);
        }
        assertBytes(expected.get(2), actual.get(2), what);
        assertBytes(expected.get(3), actual.get(3), what);
        @SuppressWarnings("unchecked")
        List<Object> tags = (List<Object>) expected.get(4);
        @SuppressWarnings("unchecked")
        List<Object> actualTags = (List<Object>) actual.get(4);
        if (tags == null) {
          assertNull(actualTags, what);
        } else {
          assertEquals(tags.size(), actualTags.size(), what);
          for (int k = 0; k < tags.size(); k++) {
            assertEquals(text(tags.get(k)), actualTags.get(k), what + " tag " + k);
          }
        }
      }
      // Rows 0 and 4 hold the same value from the first, dictionary-encoded page: one String.
      assertSame(rows.get(0).get(1), rows.get(4).get(1), version.toString());
      // Rows 1000 and 1001 are in plain pages after the fallback: distinct values, own Strings.
      assertNotSame(rows.get(1000).get(1), rows.get(1001).get(1), version.toString());
    }
  }

  @Test
  void theDefaultStaysBytes() throws Exception {
    MessageType schema = ColumnBatchTest.fallbackSchema();
    List<Row> written = ColumnBatchTest.fallbackRows(schema, 100);
    Path file = dir.resolve("default.parquet");
    ParquetJavaFeatureWriter.write(file, schema, written, b -> {});
    List<Row> rows = ReadAssertions.readAll(file);
    ReadAssertions.assertSameRows(written, rows, "default");
    assertInstanceOf(byte[].class, rows.get(0).get(1));
    // Fresh arrays: a caller changing one row's bytes changes no other row.
    assertNotSame(rows.get(0).get(1), rows.get(4).get(1));
  }

  private static String text(Object bytes) {
    return bytes == null ? null : new String((byte[]) bytes, StandardCharsets.UTF_8);
  }

  private static void assertBytes(Object expected, Object actual, String what) {
    if (expected == null) {
      assertNull(actual, what);
    } else {
      assertArrayEquals((byte[]) expected, (byte[]) actual, what);
    }
  }
}
