package dev.parquetconnect.format.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.oracle.ParquetJavaFeatureWriter;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reading one column costs that column only: one column of a 1 GiB, 20-column file is read in a JVM
 * limited to a 128 MiB heap, as records and as column batches, every value checked, and the bytes
 * fetched from the file stay under twice the column's compressed size. The file is written once
 * under target/ by parquet-java (random strings, so it does not compress) and reused by later runs.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class OneColumnMemoryIT {
  private static final long TARGET_SIZE = 1L << 30;

  /**
   * Rows for a little over 1 GiB: 17 strings of 110 bytes on average with their length prefixes,
   * and 3 numbers, per row, and 2% to spare.
   */
  private static final long ROWS = TARGET_SIZE / (17 * 114 + 24) * 102 / 100;

  private static final int COLUMN = 7;
  private static final Path FILE = Path.of("target", "one-column-1gib.parquet");

  @BeforeAll
  static void writeOnce() throws Exception {
    if (isComplete(FILE)) {
      return;
    }
    Path partial = Path.of("target", "one-column-1gib.parquet.partial");
    MessageType schema = OneColumnData.schema();
    ParquetJavaFeatureWriter.write(
        partial,
        schema,
        lazyRows(schema),
        b -> b.withCompressionCodec(CompressionCodecName.SNAPPY).withDictionaryEncoding(false));
    Files.move(partial, FILE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  private static boolean isComplete(Path file) {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file))) {
      return reader.rowCount() == ROWS && Files.size(file) >= TARGET_SIZE;
    } catch (Exception notThere) {
      return false;
    }
  }

  /** The rows, made one at a time as the writer asks for them. */
  private static List<Row> lazyRows(MessageType schema) {
    return new AbstractList<>() {
      @Override
      public Row get(int row) {
        Row r = new Row(schema.root());
        r.set(0, (long) row);
        r.set(1, OneColumnData.randomLong(row));
        r.set(2, OneColumnData.randomDouble(row));
        for (int c = OneColumnData.FIRST_STRING_COLUMN; c < OneColumnData.COLUMNS; c++) {
          r.set(c, OneColumnData.string(row, c));
        }
        return r;
      }

      @Override
      public int size() {
        return (int) ROWS;
      }
    };
  }

  @Test
  void oneColumnReadsWithin128MiBAndUnderTwiceItsSize() throws Exception {
    assertTrue(Files.size(FILE) >= TARGET_SIZE, "file of " + Files.size(FILE) + " bytes");
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx128m",
                "-XX:+ExitOnOutOfMemoryError",
                "-cp",
                classPath,
                OneColumnReadMain.class.getName(),
                FILE.toString(),
                Integer.toString(COLUMN)));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(20, TimeUnit.MINUTES), "child still running");
    assertEquals(0, process.exitValue(), "child JVM failed:\n" + output);
    System.err.println("one-column read of " + Files.size(FILE) + " bytes:\n" + output);
    for (String mode : List.of("records", "batches")) {
      String[] fields = line(output, mode).split(" ");
      long rows = Long.parseLong(fields[1]);
      long bytesRead = Long.parseLong(fields[2]);
      long chunkBytes = Long.parseLong(fields[3]);
      assertEquals(ROWS, rows, mode + " rows");
      assertTrue(chunkBytes > TARGET_SIZE / 25, mode + ": column of " + chunkBytes + " bytes");
      assertTrue(
          bytesRead < 2 * chunkBytes,
          mode + ": read " + bytesRead + " bytes for a column of " + chunkBytes);
    }
    long maxHeap = Long.parseLong(line(output, "maxHeap").split(" ")[1]);
    assertTrue(maxHeap <= 128L << 20, "child heap " + maxHeap);
  }

  private static String line(String output, String prefix) throws IOException {
    for (String line : output.split("\n")) {
      if (line.startsWith(prefix + " ")) {
        return line.trim();
      }
    }
    throw new IOException("no '" + prefix + "' line in:\n" + output);
  }
}
