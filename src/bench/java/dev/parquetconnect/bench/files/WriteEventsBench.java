package dev.parquetconnect.bench.files;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.CompressionCodec;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.write.ParquetFileWriter;
import dev.parquetconnect.format.write.WriterOptions;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageTypeParser;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Writing a file of event records (id, time, two low-cardinality strings, two measurements, a
 * list of tags, a list of scores) to a sink that discards the bytes: ours through {@code
 * ParquetFileWriter.write(Row)}, parquet-java through its example Group API, each from records
 * prepared in its own model, same codec, v1 pages, default page and row group sizes. One
 * operation is one whole file.
 */
@State(Scope.Benchmark)
public class WriteEventsBench {
  private static final int ROWS = 100_000;

  @Param({"ZSTD", "SNAPPY"})
  public String codec;

  private MessageType schema;
  private List<Row> rows;
  private org.apache.parquet.schema.MessageType groupSchema;
  private List<Group> groups;

  @Setup(Level.Trial)
  public void prepare() {
    PrimitiveNode text = PrimitiveNode.of("x", OPTIONAL, PhysicalType.BYTE_ARRAY)
        .withLogicalType(LogicalType.STRING);
    schema =
        new MessageType(
            "events",
            List.of(
                PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
                PrimitiveNode.of("ts", REQUIRED, PhysicalType.INT64)
                    .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MICROS)),
                text.withName("status"),
                text.withName("country"),
                PrimitiveNode.of("price", OPTIONAL, PhysicalType.DOUBLE),
                PrimitiveNode.of("temperature", OPTIONAL, PhysicalType.FLOAT),
                NestedTypes.list("tags", OPTIONAL, text),
                NestedTypes.list("scores", OPTIONAL,
                    PrimitiveNode.of("s", REQUIRED, PhysicalType.INT32))));
    groupSchema = MessageTypeParser.parseMessageType(schema.toString());
    SimpleGroupFactory factory = new SimpleGroupFactory(groupSchema);
    Random random = new Random(1);
    String[] statuses = {"ok", "ok", "ok", "retry", "failed", "pending", "timeout"};
    rows = new ArrayList<>(ROWS);
    groups = new ArrayList<>(ROWS);
    long id = 0;
    long ts = 1_700_000_000_000_000L;
    double price = 100;
    for (int r = 0; r < ROWS; r++) {
      id += 1 + random.nextInt(3);
      ts += 800 + random.nextInt(400);
      price = Math.max(1, price + random.nextGaussian() * 0.05);
      String status = statuses[random.nextInt(statuses.length)];
      String country = String.format(Locale.ROOT, "C%03d", (int) Math.abs(random.nextGaussian() * 40));
      double roundedPrice = Math.round(price * 100) / 100.0;
      float temperature = (float) (20 + random.nextGaussian() * 3);
      List<Object> tags = new ArrayList<>();
      List<Object> scores = new ArrayList<>();
      for (int i = random.nextInt(4); i > 0; i--) {
        tags.add(("tag" + random.nextInt(30)).getBytes(StandardCharsets.UTF_8));
      }
      for (int i = random.nextInt(6); i > 0; i--) {
        scores.add(random.nextInt(101));
      }
      rows.add(Row.of(schema.root(), id, ts, status.getBytes(StandardCharsets.UTF_8),
          country.getBytes(StandardCharsets.UTF_8), roundedPrice, temperature, tags, scores));
      Group g = factory.newGroup();
      g.add("id", id);
      g.add("ts", ts);
      g.add("status", status);
      g.add("country", country);
      g.add("price", roundedPrice);
      g.add("temperature", temperature);
      Group tagList = g.addGroup("tags");
      for (Object t : tags) {
        tagList.addGroup("list").add("element", Binary.fromConstantByteArray((byte[]) t));
      }
      Group scoreList = g.addGroup("scores");
      for (Object s : scores) {
        scoreList.addGroup("list").add("element", (Integer) s);
      }
      groups.add(g);
    }
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
