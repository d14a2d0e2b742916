package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.FileMetaData;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.MetadataCodec;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.RowGroup;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writes a large file through the column API into a sink that keeps nothing but a count and the
 * last bytes, then checks the footer those bytes end with. Run by {@link StreamingWriteIT} in a JVM
 * with a small heap: if the writer held more than its row group, it would fail with
 * OutOfMemoryError. Prints {@code bytes=<n> rows=<n> rowGroups=<n> maxBuffered=<n>}.
 */
public final class StreamingWriteMain {
  private StreamingWriteMain() {}

  /** Counts what passes and keeps the last {@code tail} bytes: enough to read the footer. */
  static final class TailSink extends OutputStream {
    private final byte[] tail;
    private long count;
    private boolean closed;

    TailSink(int tail) {
      this.tail = new byte[tail];
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (closed) {
        throw new IllegalStateException("write after close");
      }
      int keep = Math.min(len, tail.length);
      System.arraycopy(tail, keep, tail, 0, tail.length - keep);
      System.arraycopy(b, off + len - keep, tail, tail.length - keep, keep);
      count += len;
    }

    @Override
    public void close() {
      closed = true;
    }

    long count() {
      return count;
    }

    byte[] tail() {
      return Arrays.copyOfRange(tail, (int) Math.max(0, tail.length - count), tail.length);
    }
  }

  static MessageType schema() {
    return new MessageType(
        "stream",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("reading", OPTIONAL, PhysicalType.DOUBLE),
            PrimitiveNode.of("payload", OPTIONAL, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            NestedTypes.list(
                "samples", OPTIONAL, PrimitiveNode.of("s", REQUIRED, PhysicalType.INT32))));
  }

  public static void main(String[] args) throws Exception {
    long targetBytes = Long.parseLong(args[0]);
    long rowGroupTarget = Long.parseLong(args[1]);
    MessageType schema = schema();
    TailSink sink = new TailSink(4 << 20);
    SplittableRandom random = new SplittableRandom(1);
    byte[] payload = new byte[48];
    long rows = 0;
    long maxBuffered = 0;
    WriterOptions options = WriterOptions.builder().rowGroupByteTarget(rowGroupTarget).build();
    try (ParquetFileWriter writer = new ParquetFileWriter(sink, schema, options)) {
      ColumnChunkWriter id = writer.column("id");
      ColumnChunkWriter reading = writer.column("reading");
      ColumnChunkWriter text = writer.column("payload");
      ColumnChunkWriter samples = writer.column("samples.list.element");
      while (writer.bytesWritten() < targetBytes) {
        id.writeLong(rows, 0, 0);
        if (rows % 17 == 0) {
          reading.writeNull(0, 0);
        } else {
          reading.writeDouble(random.nextDouble(), 0, 1);
        }
        for (int i = 0; i < payload.length; i++) {
          payload[i] = (byte) ('a' + random.nextInt(26));
        }
        text.writeBinary(payload, 0, 16 + random.nextInt(32), 0, 1);
        int n = random.nextInt(4);
        if (n == 0) {
          samples.writeNull(0, 1);
        }
        for (int i = 0; i < n; i++) {
          samples.writeInt(random.nextInt(), i == 0 ? 0 : 1, 2);
        }
        writer.endRecord();
        rows++;
        if ((rows & 0xFFF) == 0) {
          maxBuffered = Math.max(maxBuffered, writer.bufferedBytes());
        }
      }
      if (sink.count() == 0) {
        throw new IllegalStateException("no row group reached the sink before close");
      }
    }
    byte[] tail = sink.tail();
    int footerLength = MetadataCodec.footerLength(tail, tail.length - 8, sink.count());
    FileMetaData footer =
        MetadataCodec.readFileMetaData(tail, tail.length - 8 - footerLength, footerLength);
    long footerRows = 0;
    long previousOffset = 0;
    for (RowGroup group : footer.rowGroups()) {
      footerRows += group.numRows();
      if (group.fileOffset() <= previousOffset || group.fileOffset() >= sink.count()) {
        throw new IllegalStateException("row group offset " + group.fileOffset() + " out of order");
      }
      previousOffset = group.fileOffset();
    }
    if (footerRows != rows || footer.numRows() != rows) {
      throw new IllegalStateException("footer says " + footerRows + " rows, wrote " + rows);
    }
    System.out.println(
        "bytes="
            + sink.count()
            + " rows="
            + rows
            + " rowGroups="
            + footer.rowGroups().size()
            + " maxBuffered="
            + maxBuffered);
  }
}
