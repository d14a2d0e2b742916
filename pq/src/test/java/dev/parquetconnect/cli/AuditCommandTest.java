package dev.parquetconnect.cli;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pq audit}: a clean archive (with what the sink leaves besides its committed files: a
 * superseded attempt, a rolled-back attempt with its aborted outcome marker, a temporary file, dead
 * letters inside a commit) exits 0; a deleted, a duplicated and a truncated file each exit 1 with
 * the problem named by file and offsets.
 */
final class AuditCommandTest {
  private static final long T0 = 1_764_000_000_000L;

  @TempDir Path lake;

  private static MessageType schema() {
    return new MessageType(
        "kafka_record",
        List.of(
            PrimitiveNode.of("name", OPTIONAL, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.of("__kafka_topic", REQUIRED, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.of("__kafka_partition", REQUIRED, PhysicalType.INT32),
            PrimitiveNode.of("__kafka_offset", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("__kafka_timestamp", OPTIONAL, PhysicalType.INT64)));
  }

  static String name(String topic, int partition, long first, long last, int attempt) {
    return String.format(Locale.ROOT, "%s+%d+%020d+%020d", topic, partition, first, last)
        + (attempt == 0 ? "" : "-" + attempt)
        + ".parquet";
  }

  /** Writes a sink file of {@code topic}-{@code partition} holding {@code offsets}. */
  private Path write(
      String dir, String topic, int partition, long first, long last, int attempt, long... offsets)
      throws Exception {
    Path file = lake.resolve(dir).resolve(name(topic, partition, first, last, attempt));
    Files.createDirectories(file.getParent());
    WriterOptions options = WriterOptions.builder().rowGroupRowLimit(40).build();
    try (OutputStream out = Files.newOutputStream(file);
        ParquetFileWriter writer = new ParquetFileWriter(out, schema(), options)) {
      ColumnChunkWriter name = writer.column("name");
      ColumnChunkWriter t = writer.column("__kafka_topic");
      ColumnChunkWriter p = writer.column("__kafka_partition");
      ColumnChunkWriter o = writer.column("__kafka_offset");
      ColumnChunkWriter ts = writer.column("__kafka_timestamp");
      for (long offset : offsets) {
        name.writeBinary(("row-" + offset).getBytes(StandardCharsets.UTF_8), 0, 1);
        t.writeBinary(topic.getBytes(StandardCharsets.UTF_8), 0, 0);
        p.writeInt(partition, 0, 0);
        o.writeLong(offset, 0, 0);
        ts.writeLong(T0 + offset * 1000, 0, 1);
        writer.endRecord();
      }
    }
    return file;
  }

  private static long[] range(long from, long to) {
    long[] offsets = new long[(int) (to - from + 1)];
    for (int i = 0; i < offsets.length; i++) {
      offsets[i] = from + i;
    }
    return offsets;
  }

  /**
   * Two partitions of {@code orders}, commits of 100 offsets (partition 0 spread over two
   * directories, as a field partitioner does), and one partition of {@code audit}.
   */
  private void cleanArchive() throws Exception {
    for (int c = 0; c < 3; c++) {
      long first = c * 100L;
      long[] all = range(first, first + 99);
      long[] even = java.util.Arrays.stream(all).filter(o -> o % 2 == 0).toArray();
      long[] odd = java.util.Arrays.stream(all).filter(o -> o % 2 == 1).toArray();
      write("orders/region=eu", "orders", 0, first, first + 99, 0, even);
      write("orders/region=us", "orders", 0, first, first + 99, 0, odd);
      write(
          "orders/partition=1",
          "orders",
          1,
          1000 + first,
          1000 + first + 99,
          0,
          range(1000 + first, 1000 + first + 99));
    }
    write("audit", "audit", 0, 5, 9, 0, 5, 6, 8, 9); // offset 7 dead-lettered by the sink
  }

  @Test
  void aCleanArchiveWithWhatTheSinkLeavesBesidesExitsZero() throws Exception {
    cleanArchive();
    // A rolled-back attempt rewritten as attempt 1: the file of attempt 0 is not yet deleted.
    write("orders/partition=1", "orders", 1, 1300, 1349, 0, range(1300, 1349));
    write("orders/partition=1", "orders", 1, 1300, 1399, 1, range(1300, 1399));
    // A zombie's file of an attempt the outcome marker says aborted.
    write("orders/partition=1", "orders", 1, 1400, 1420, 0, range(1400, 1420));
    Path marker = lake.resolve("_markers/sink/orders/1/00000000000000001400-0.outcome");
    Files.createDirectories(marker.getParent());
    Files.writeString(marker, "outcome=aborted\n");
    Files.writeString(lake.resolve("orders/partition=1/.tmp-pqc-1234-x.parquet"), "partial");

    PqRun run = PqRun.run("audit", lake.toString());
    assertEquals(0, run.exit(), run.out() + run.describe());
    List<String> lines = run.outLines();
    assertTrue(
        lines.stream()
            .anyMatch(
                l ->
                    l.matches(
                        "orders partition 1: offsets 1000-1399, 4 files, 400 rows, \\d+ bytes,"
                            + " 1 schema version, timestamps "
                            + java.time.Instant.ofEpochMilli(T0 + 1_000_000)
                            + " to "
                            + java.time.Instant.ofEpochMilli(T0 + 1_399_000)
                            + ": complete")),
        run.out());
    assertTrue(run.out().contains("audit partition 0: offsets 5-9, 1 files, 4 rows"), run.out());
    assertTrue(run.out().contains("1 offsets read but not written"), run.out());
    assertTrue(run.out().contains("1 files rolled back"), run.out());
    assertTrue(run.out().contains("1 files superseded by a later attempt"), run.out());
    assertTrue(run.out().contains("1 files temporary (uncommitted)"), run.out());
    assertTrue(lines.get(lines.size() - 1).startsWith("OK "), run.out());
  }

  @Test
  void aDeletedFileIsAGapNamingTheFilesAroundIt() throws Exception {
    cleanArchive();
    Files.delete(lake.resolve("orders/partition=1/" + name("orders", 1, 1100, 1199, 0)));
    PqRun run = PqRun.run("audit", lake.toString());
    assertEquals(1, run.exit(), run.out());
    assertTrue(
        run.out()
            .contains(
                "  GAP offsets 1100-1199 missing after orders/partition=1/"
                    + name("orders", 1, 1000, 1099, 0)
                    + ", before orders/partition=1/"
                    + name("orders", 1, 1200, 1299, 0)),
        run.out());
    assertTrue(run.out().contains("orders partition 1: offsets 1000-1299"), run.out());
    assertTrue(run.out().contains("FAILED " + lake + ": 3 partitions, 1 problem"), run.out());
  }

  @Test
  void aDuplicatedFileIsNamedWithItsCopy() throws Exception {
    cleanArchive();
    String original = "orders/region=eu/" + name("orders", 0, 100, 199, 0);
    Files.createDirectories(lake.resolve("orders/region=apac"));
    Files.copy(
        lake.resolve(original),
        lake.resolve("orders/region=apac/" + name("orders", 0, 100, 199, 0)));
    PqRun run = PqRun.run("audit", lake.toString(), "--json");
    assertEquals(1, run.exit(), run.out());
    JsonNode report = new ObjectMapper().readTree(run.out());
    assertFalse(report.get("complete").asBoolean());
    JsonNode p0 = report.get("partitions").get(1);
    assertEquals("orders", p0.get("topic").asText());
    assertEquals(0, p0.get("partition").asInt());
    assertEquals(50, p0.get("duplicates").size(), "each even offset 100-198 once");
    JsonNode first = p0.get("duplicates").get(0);
    assertEquals(100, first.get("from").asLong());
    assertEquals(100, first.get("to").asLong());
    assertEquals(
        List.of("orders/region=apac/" + name("orders", 0, 100, 199, 0), original),
        List.of(first.get("files").get(0).asText(), first.get("files").get(1).asText()));
    assertEquals(0, p0.get("gaps").size());
    assertTrue(report.get("partitions").get(2).get("complete").asBoolean());
  }

  @Test
  void aTruncatedFileIsUnreadableAndItsOffsetsMissing() throws Exception {
    cleanArchive();
    Path file = lake.resolve("orders/partition=1/" + name("orders", 1, 1200, 1299, 0));
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
    PqRun run = PqRun.run("audit", lake.toString(), "--topic", "orders");
    assertEquals(1, run.exit(), run.out());
    assertTrue(
        run.out()
            .contains(
                "  GAP offsets 1200-1299: orders/partition=1/"
                    + name("orders", 1, 1200, 1299, 0)
                    + " cannot be read: "),
        run.out());
    assertFalse(run.out().contains("audit partition"), "--topic orders only: " + run.out());
  }

  @Test
  void aFileUrlIsALocalDirectoryAndAStoreUrlNeedsThePluginsStores() throws Exception {
    cleanArchive();
    assertEquals(0, PqRun.run("audit", lake.toUri().toString()).exit());
    PqRun s3 = PqRun.run("audit", "s3://lake/archive");
    assertEquals(1, s3.exit(), s3.describe());
    assertTrue(s3.err().contains("no store for s3:// URLs on the class path"), s3.err());
    PqRun config = PqRun.run("audit", lake.toString(), "--store-config", "/no/such.properties");
    assertEquals(1, config.exit(), config.describe());
    assertTrue(config.err().contains("no such file: /no/such.properties"), config.err());
  }

  @Test
  void fromSaysWhereAnArchiveStartsAfterRetention() throws Exception {
    cleanArchive();
    assertEquals(0, PqRun.run("audit", lake.toString(), "--from", "orders:1:1000").exit());
    PqRun run = PqRun.run("audit", lake.toString(), "--from", "orders:1:900,orders:0:0");
    assertEquals(1, run.exit(), run.out());
    assertTrue(
        run.out()
            .contains(
                "  GAP offsets 900-999 missing before the first file, before orders/partition=1/"
                    + name("orders", 1, 1000, 1099, 0)),
        run.out());
    assertEquals(2, PqRun.run("audit", lake.toString(), "--from", "orders:x").exit());
  }
}
