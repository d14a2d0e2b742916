package dev.parquetconnect.bench.files;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Writing a file of event records (id, time, two low-cardinality strings, two measurements, a list
 * of tags, a list of scores) to a sink that discards the bytes: ours through {@code
 * ParquetFileWriter.write(Row)}, parquet-java through its example Group API, each from records
 * prepared in its own model, same codec, v1 pages, default page and row group sizes. One operation
 * is one whole file.
 */
// A whole file takes a tenth of a second or more, so two one-second warm-ups leave the reader's
// and writer's loops still being compiled while measured (ours went 3.7 -> 29.9 ops/s over the
// measured iterations); eight give both sides the same, adequate warm-up.
@Warmup(iterations = 8)
@State(Scope.Benchmark)
public class WriteEventsBench {
  static final int ROWS = 100_000;

  @Param({"ZSTD", "SNAPPY"})
  public String codec;

  private MessageType schema;
  private List<Row> rows;
  private org.apache.parquet.schema.MessageType groupSchema;
  private List<Group> groups;

  @Setup(Level.Trial)
  public void prepare() {
    EventsData data = EventsData.generate(ROWS);
    schema = data.schema();
    rows = data.rows();
    groupSchema = data.groupSchema();
    groups = data.groups();
  }

  @Benchmark
  public long ours() throws Exception {
    Discard sink = new Discard();
    try (ParquetFileWriter writer =
        new ParquetFileWriter(
            sink, schema, WriterOptions.builder().codec(CompressionCodec.valueOf(codec)).build())) {
      for (Row row : rows) {
        writer.write(row);
      }
    }
    return sink.count;
  }

  @Benchmark
  public long parquetJava() throws Exception {
    Discard sink = new Discard();
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new DiscardFile(sink))
            .withConf(new Configuration(false))
            .withType(groupSchema)
            .withCompressionCodec(CompressionCodecName.valueOf(codec))
            .build()) {
      for (Group g : groups) {
        writer.write(g);
      }
    }
    return sink.count;
  }

  /** Counts and drops the bytes. */
  static final class Discard extends OutputStream {
    long count;

    @Override
    public void write(int b) {
      count++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      count += len;
    }
  }

  /** parquet-java's view of {@link Discard}. */
  static final class DiscardFile implements OutputFile {
    private final Discard sink;

    DiscardFile(Discard sink) {
      this.sink = sink;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
      return stream();
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
      return stream();
    }

    private PositionOutputStream stream() {
      return new PositionOutputStream() {
        @Override
        public long getPos() {
          return sink.count;
        }

        @Override
        public void write(int b) {
          sink.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
          sink.write(b, off, len);
        }
      };
    }

    @Override
    public boolean supportsBlockSize() {
      return false;
    }

    @Override
    public long defaultBlockSize() {
      return 0;
    }

    @Override
    public String getPath() {
      return "discard";
    }
  }
}
