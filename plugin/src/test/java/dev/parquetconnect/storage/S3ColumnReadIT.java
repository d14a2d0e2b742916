package dev.parquetconnect.storage;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.read.ColumnBatch;
import dev.parquetconnect.format.read.ColumnReader;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.read.RowReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reading one column from S3 fetches that column only: one column of a 200 MB, 16-column file on S3
 * (S3Proxy on 127.0.0.1) is read through a projection, and the bytes the S3 endpoint sends back,
 * counted at a proxy in front of it (HTTP heads and the footer's tail read included), stay under
 * twice that column's compressed size from the footer. The file is written by our writer streaming
 * straight into a multipart upload, with several row groups and data that does not compress away;
 * every value of the column read is checked.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
final class S3ColumnReadIT {
  private static final Logger LOG = LoggerFactory.getLogger(S3ColumnReadIT.class);

  /** Written plus buffered bytes to stop at; the file ends a little under it. */
  private static final long TARGET_SIZE = 200L << 20;

  private static final long MIN_FILE_SIZE = 200_000_000L;
  private static final String KEY = "wide/one-column.parquet";
  private static final String READ_COLUMN = "amount";
  private static final int STRING_COLUMNS = 10;
  private static final int DOUBLE_COLUMNS = 4;

  private static S3ProxyServer server;
  private static FaultProxy proxy;
  private static long rows;
  private static long fileSize;

  @BeforeAll
  static void writeFile() throws Exception {
    server = new S3ProxyServer();
    proxy = new FaultProxy(server.port(), 0, 1); // counting only, no faults
    try (Store direct =
            Stores.open(
                "s3://" + S3ProxyServer.BUCKET + "/lake",
                S3ProxyServer.settings(server.endpoint()));
        StoreOutput out = direct.create(KEY)) {
      rows = write(out, TARGET_SIZE);
      out.commit();
      fileSize = direct.stat(KEY).size();
    }
    assertTrue(fileSize >= MIN_FILE_SIZE, "file of " + fileSize + " bytes");
  }

  @AfterAll
  static void stop() throws Exception {
    if (proxy != null) {
      proxy.close();
    }
    if (server != null) {
      server.close();
    }
  }

  static MessageType schema() {
    List<SchemaNode> fields = new ArrayList<>();
    fields.add(PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64));
    fields.add(PrimitiveNode.of(READ_COLUMN, OPTIONAL, PhysicalType.INT64));
    for (int d = 0; d < DOUBLE_COLUMNS; d++) {
      fields.add(PrimitiveNode.of("measure_" + d, OPTIONAL, PhysicalType.DOUBLE));
    }
    for (int s = 0; s < STRING_COLUMNS; s++) {
      fields.add(
          PrimitiveNode.of("text_" + s, OPTIONAL, PhysicalType.BYTE_ARRAY)
              .withLogicalType(LogicalType.STRING));
    }
    return new MessageType("wide", fields);
  }

  /** The value of the column read in {@code row}: null every 13th row, else 40 random bits. */
  static Long amount(long row) {
    if (row % 13 == 0) {
      return null;
    }
    long z = (row + 1) * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return (z ^ (z >>> 31)) >>> 24;
  }

  /** Writes rows until the file nears {@code targetSize}; returns how many. */
  static long write(StoreOutput out, long targetSize) throws Exception {
    MessageType schema = schema();
    // Row groups of 48 MiB: the file gets several, as a long-running sink's files do.
    WriterOptions options = WriterOptions.builder().rowGroupByteTarget(48L << 20).build();
    SplittableRandom random = new SplittableRandom(42);
    byte[] text = new byte[64];
    long n = 0;
    // The writer closes its stream when done; closing a StoreOutput uncommitted aborts it.
    OutputStream keepOpen =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            out.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
          }
        };
    try (ParquetFileWriter writer = new ParquetFileWriter(keepOpen, schema, options)) {
      ColumnChunkWriter id = writer.column("id");
      ColumnChunkWriter amount = writer.column(READ_COLUMN);
      ColumnChunkWriter[] measures = new ColumnChunkWriter[DOUBLE_COLUMNS];
      for (int d = 0; d < DOUBLE_COLUMNS; d++) {
        measures[d] = writer.column("measure_" + d);
      }
      ColumnChunkWriter[] texts = new ColumnChunkWriter[STRING_COLUMNS];
      for (int s = 0; s < STRING_COLUMNS; s++) {
        texts[s] = writer.column("text_" + s);
      }
      // Written plus buffered: the open row group counts too, so the file ends near the target.
      while ((n & 255) != 0 || writer.bytesWritten() + writer.bufferedBytes() < targetSize) {
        id.writeLong(n, 0, 0);
        Long a = amount(n);
        if (a == null) {
          amount.writeNull(0, 0);
        } else {
          amount.writeLong(a, 0, 1);
        }
        for (ColumnChunkWriter m : measures) {
          // Prices with two decimals: realistic, and not all distinct.
          m.writeDouble(random.nextInt(10_000_000) / 100.0, 0, 1);
        }
        for (ColumnChunkWriter t : texts) {
          if (random.nextInt(20) == 0) {
            t.writeNull(0, 0);
            continue;
          }
          int length = 16 + random.nextInt(48);
          for (int i = 0; i < length; i++) {
            text[i] = (byte) ('0' + random.nextInt(64)); // 64 printable characters
          }
          t.writeBinary(text, 0, length, 0, 1);
        }
        writer.endRecord();
        n++;
      }
    }
    return n;
  }

  private static Store throughProxy() throws Exception {
    return Stores.open(
        "s3://" + S3ProxyServer.BUCKET + "/lake", S3ProxyServer.settings(proxy.endpoint()));
  }

  static long columnBytes(ParquetFileReader reader, int column) {
    long bytes = 0;
    for (RowGroup g : reader.rowGroups()) {
      bytes += g.columns().get(column).metaData().totalCompressedSize();
    }
    return bytes;
  }

  @Test
  void aProjectedColumnTransfersLessThanTwiceItsCompressedSize() throws Exception {
    proxy.resetCounters();
    long columnBytes;
    long read = 0;
    long nulls = 0;
    int rowGroups;
    try (Store store = throughProxy();
        ParquetFileReader reader = ParquetFileReader.open(store.open(KEY));
        RowReader records = reader.rowReader(reader.projection(List.of(READ_COLUMN)))) {
      rowGroups = reader.rowGroups().size();
      columnBytes = columnBytes(reader, 1);
      while (records.hasNext()) {
        Row row = records.next();
        Long expected = amount(read);
        if (expected == null) {
          assertNull(row.get(0), "row " + read);
          nulls++;
        } else {
          assertEquals(expected, row.get(0), "row " + read);
        }
        read++;
      }
    }
    long transferred = proxy.bytesToClient();
    LOG.info(
        String.format(
            "S3 one-column read: file %d bytes, %d rows, %d row groups; column "
                + "'%s' %d compressed bytes; %d bytes transferred in %d requests (%.3f x the column)",
            fileSize,
            rows,
            rowGroups,
            READ_COLUMN,
            columnBytes,
            transferred,
            proxy.requests(),
            (double) transferred / columnBytes));
    assertEquals(rows, read, "rows read");
    assertEquals((rows + 12) / 13, nulls, "nulls read");
    assertTrue(rowGroups >= 3, rowGroups + " row groups");
    assertTrue(columnBytes > 0 && columnBytes < fileSize / 10, "column of " + columnBytes);
    assertTrue(transferred >= columnBytes, transferred + " < " + columnBytes);
    assertTrue(
        transferred < 2 * columnBytes,
        transferred + " bytes transferred for a column of " + columnBytes);
  }

  @Test
  void columnBatchesOfOneColumnTransferLessThanTwiceItsCompressedSize() throws Exception {
    proxy.resetCounters();
    long columnBytes;
    long read = 0;
    try (Store store = throughProxy();
        ParquetFileReader reader = ParquetFileReader.open(store.open(KEY))) {
      columnBytes = columnBytes(reader, 1);
      ColumnDescriptor column = reader.schema().column(1);
      assertEquals(List.of(READ_COLUMN), column.path());
      for (int g = 0; g < reader.rowGroups().size(); g++) {
        try (ColumnReader columnReader = reader.columnReader(g, column)) {
          ColumnBatch batch = columnReader.newBatch(4096);
          int n;
          while ((n = columnReader.readBatch(batch)) > 0) {
            int value = 0;
            for (int i = 0; i < n; i++) {
              Long expected = amount(read + i);
              if (expected == null) {
                assertEquals(0, batch.definitionLevels()[i], "row " + (read + i));
              } else {
                assertEquals(expected, batch.longs()[value++], "row " + (read + i));
              }
            }
            read += n;
          }
        }
      }
    }
    long transferred = proxy.bytesToClient();
    LOG.info(
        String.format(
            "S3 one-column batches: %d bytes transferred in %d requests for a "
                + "column of %d (%.3f x)",
            transferred, proxy.requests(), columnBytes, (double) transferred / columnBytes));
    assertEquals(rows, read, "rows read");
    assertTrue(
        transferred < 2 * columnBytes,
        transferred + " bytes transferred for a column of " + columnBytes);
  }
}
