package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replay in bounded memory: a 1 GiB file replays through the task in a JVM limited to a 256 MiB
 * heap, every record checked. The file (an id and 8 random strings of 60-180 characters per row, so
 * it does not compress) is written once under target/ by our writer and reused by later runs.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
final class LargeFileReplayIT {
  private static final Logger LOG = LoggerFactory.getLogger(LargeFileReplayIT.class);
  static final int STRING_COLUMNS = 8;
  private static final long TARGET_SIZE = 1L << 30;

  /**
   * Rows for a little over 1 GiB: 8 strings of 120 characters on average, their lengths, the id.
   */
  private static final long ROWS = TARGET_SIZE / (STRING_COLUMNS * 124 + 8) * 105 / 100;

  private static final Path ROOT = Path.of("target", "large-file-replay");
  private static final Path FILE = ROOT.resolve("large.parquet");

  @BeforeAll
  static void writeOnce() throws Exception {
    if (isComplete()) {
      return;
    }
    Files.createDirectories(ROOT);
    List<SchemaNode> fields = new ArrayList<>();
    fields.add(PrimitiveNode.of("id", FieldRepetitionType.REQUIRED, PhysicalType.INT64));
    for (int c = 0; c < STRING_COLUMNS; c++) {
      fields.add(
          PrimitiveNode.of("s" + c, FieldRepetitionType.REQUIRED, PhysicalType.BYTE_ARRAY)
              .withLogicalType(LogicalType.STRING));
    }
    MessageType schema = new MessageType("large", fields);
    Path partial = Path.of("target", "large.parquet.partial");
    WriterOptions options =
        WriterOptions.builder().codec(CompressionCodec.UNCOMPRESSED).dictionary(false).build();
    char[] chars = new char[180];
    try (OutputStream out = Files.newOutputStream(partial);
        ParquetFileWriter writer = new ParquetFileWriter(out, schema, options)) {
      Row row = new Row(schema.root());
      for (long r = 0; r < ROWS; r++) {
        SplittableRandom random = new SplittableRandom(r);
        row.set(0, r);
        for (int c = 0; c < STRING_COLUMNS; c++) {
          int length = 60 + random.nextInt(121);
          for (int i = 0; i < length; i++) {
            chars[i] = (char) ('a' + random.nextInt(26));
          }
          row.set(c + 1, new String(chars, 0, length).getBytes(StandardCharsets.UTF_8));
        }
        writer.write(row);
      }
    }
    Files.move(partial, FILE, StandardCopyOption.REPLACE_EXISTING);
  }

  private static boolean isComplete() {
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(FILE))) {
      return reader.rowCount() == ROWS && Files.size(FILE) >= TARGET_SIZE;
    } catch (Exception notThere) {
      return false;
    }
  }

  @Test
  void aOneGibFileReplaysWithin256MiB() throws Exception {
    assertTrue(Files.size(FILE) >= TARGET_SIZE, "file of " + Files.size(FILE) + " bytes");
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        List.of(
            java,
            "-Xmx256m",
            "-XX:+ExitOnOutOfMemoryError",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-cp",
            classPath,
            LargeFileReplayMain.class.getName(),
            ROOT.toString(),
            Long.toString(ROWS));
    long started = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(15, TimeUnit.MINUTES), "child still running");
    assertEquals(0, process.exitValue(), "child JVM failed:\n" + output);
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
    assertEquals(ROWS, Long.parseLong(line(output, "records")));
    long maxHeap = Long.parseLong(line(output, "maxHeap"));
    assertTrue(maxHeap <= 256L << 20, "child heap " + maxHeap);
    LOG.info(
        "replayed {} bytes, {} rows in {} s; heap pools peaked at {} bytes (garbage "
            + "included) of {}",
        Files.size(FILE),
        ROWS,
        seconds,
        line(output, "peakHeap"),
        maxHeap);
  }

  private static String line(String output, String prefix) throws IOException {
    for (String line : output.split("\n")) {
      if (line.startsWith(prefix + " ")) {
        return line.substring(prefix.length() + 1).trim();
      }
    }
    throw new IOException("no '" + prefix + "' line in:\n" + output);
  }
}
