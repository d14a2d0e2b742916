package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reading whole files with our reader, and comparing rows with a useful message. */
final class ReadAssertions {
  private ReadAssertions() {}

  static Path corpus() {
    return Path.of(System.getProperty("shared.dir", "../shared"), "parquet-testing");
  }

  /** The file's schema, as our reader sees it. */
  static MessageType schemaOf(Path file) throws IOException, ParquetException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.schema();
    }
  }

  /** Every row of {@code file}, all columns, read by our reader. */
  static List<Row> readAll(Path file) throws IOException, ParquetException {
    return readAll(file, ReadOptions.defaults());
  }

  static List<Row> readAll(Path file, ReadOptions options) throws IOException, ParquetException {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file), options);
        RowReader rows = reader.rowReader()) {
      List<Row> out = new ArrayList<>();
      while (rows.hasNext()) {
        out.add(rows.next());
      }
      assertEquals(reader.rowCount(), out.size(), file + ": rows read vs row groups' counts");
      return out;
    }
  }

  /** Fails at the first differing row, showing both. */
  static void assertSameRows(List<Row> expected, List<Row> actual, String what) {
    int n = Math.min(expected.size(), actual.size());
    for (int i = 0; i < n; i++) {
      if (!expected.get(i).equals(actual.get(i))) {
        fail(
            what
                + ": row "
                + i
                + " differs\n expected "
                + expected.get(i)
                + "\n actual   "
                + actual.get(i));
      }
    }
    assertEquals(expected.size(), actual.size(), what + ": row count");
  }
}
