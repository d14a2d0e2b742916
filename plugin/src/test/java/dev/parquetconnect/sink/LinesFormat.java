package dev.parquetconnect.sink;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A record format for the sink's own tests, standing in for Parquet: one line per record, {@code
 * <topic> <partition> <offset> <value>}, buffered as a "row group" until {@link #flushRowGroup} or
 * {@link #finish}, then written out. A value whose text is {@code bad} is refused like an
 * unconvertible record; a file accepts only records of its first record's value schema
 * (schema.compatibility=NONE), and a value {@code conflict} is refused by every file that exists
 * (like a schemaless type conflict).
 */
final class LinesFormat implements RecordWriterFactory {
  final AtomicInteger flushes = new AtomicInteger();
  final AtomicInteger created = new AtomicInteger();

  /** Heap each open file claims besides its rows, like a real writer's page buffers. */
  private final long fixedBytesPerFile;

  LinesFormat() {
    this(0);
  }

  LinesFormat(long fixedBytesPerFile) {
    this.fixedBytesPerFile = fixedBytesPerFile;
  }

  @Override
  public RecordFileWriter create(OutputStream out, SinkRecord first, RecordFileWriter predecessor) {
    created.incrementAndGet();
    return new Writer(out, first.valueSchema());
  }

  /** The records of a file written by this format. */
  record Line(String topic, int partition, long offset, String value) {}

  static List<Line> parse(byte[] file) {
    List<Line> lines = new ArrayList<>();
    for (String line : new String(file, StandardCharsets.UTF_8).split("\n")) {
      if (line.isEmpty()) {
        continue;
      }
      String[] parts = line.split(" ", 4);
      lines.add(new Line(parts[0], Integer.parseInt(parts[1]), Long.parseLong(parts[2]), parts[3]));
    }
    return lines;
  }

  private final class Writer implements RecordFileWriter {
    private final OutputStream out;
    private final Schema schema;
    private final ByteArrayOutputStream rowGroup = new ByteArrayOutputStream();
    private long records;
    private long written;
    private boolean finished;

    Writer(OutputStream out, Schema schema) {
      this.out = out;
      this.schema = schema;
    }

    @Override
    public boolean accepts(SinkRecord record) {
      if ("conflict".equals(record.value())) {
        throw new DataException("field 'value' conflicts with the file's type");
      }
      return Objects.equals(schema, record.valueSchema());
    }

    @Override
    public void write(SinkRecord record) {
      if (finished) {
        throw new IllegalStateException("write after finish");
      }
      String value = String.valueOf(record.value());
      if (value.equals("bad")) {
        throw new DataException("field 'value' holds 'bad', which has no Parquet form");
      }
      byte[] line =
          (record.originalTopic()
                  + " "
                  + record.originalKafkaPartition()
                  + " "
                  + record.originalKafkaOffset()
                  + " "
                  + value
                  + "\n")
              .getBytes(StandardCharsets.UTF_8);
      rowGroup.write(line, 0, line.length);
      records++;
    }

    @Override
    public long recordCount() {
      return records;
    }

    @Override
    public long bufferedBytes() {
      return finished ? 0 : rowGroup.size() + fixedBytesPerFile;
    }

    @Override
    public long bytesWritten() {
      return written;
    }

    @Override
    public void flushRowGroup() throws IOException {
      if (rowGroup.size() > 0) {
        flushes.incrementAndGet();
        rowGroup.writeTo(out);
        written += rowGroup.size();
        rowGroup.reset();
      }
    }

    @Override
    public void finish() throws IOException {
      flushRowGroup();
      finished = true;
    }
  }
}
