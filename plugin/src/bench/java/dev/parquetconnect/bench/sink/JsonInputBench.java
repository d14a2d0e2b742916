package dev.parquetconnect.bench.sink;

import dev.parquetconnect.connect.SchemaInference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of a JSON record from its bytes to the committed file, both input formats on the same
 * records in the same run: {@code ours} is {@code input.format=json} (the task gets the raw bytes,
 * as from ByteArrayConverter, and reads them itself); {@code parquetJava} (the suite's name for the
 * other side; here it is no parquet-java at all) is Kafka's JsonConverter, called per record as the
 * worker calls it before {@code put}, then our task with {@code input.format=connect}. Both write
 * the same file (JsonInputDifferentialTest). 100,000 records of a ten-field nested record (ids,
 * text with escapes and non-ASCII, doubles, a long, a boolean, a nullable text, a nested object, a
 * list), schemaless or with JsonConverter's envelope; ZSTD; batches of 500 as in {@link
 * SinkThroughputBench}, one whole file per single-shot iteration.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 4, batchSize = JsonInputBench.BATCHES)
@Measurement(batchSize = JsonInputBench.BATCHES)
public class JsonInputBench {
  static final int RECORDS = 100_000;
  static final int BATCHES = RECORDS / SinkPaths.BATCH;

  static {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
  }

  @Param({"schemaless", "envelope"})
  public String json;

  private List<byte[]> documents;
  private JsonConverter converter;
  private int next;
  private Path root;
  private SinkPaths.OursRun run;

  @Setup(Level.Trial)
  public void buildDocuments() {
    boolean envelope = json.equals("envelope");
    converter = new JsonConverter();
    converter.configure(Map.of("schemas.enable", Boolean.toString(envelope)), false);
    JsonConverter plain = new JsonConverter();
    plain.configure(Map.of("schemas.enable", "false"), false);
    documents = new ArrayList<>(RECORDS);
    Random random = new Random(42);
    for (int i = 0; i < RECORDS; i++) {
      documents.add(bytes(document(i, random)));
    }
    if (envelope) {
      // One schema for all, the merge of every document's, as a producer with a schema has.
      SchemaInference inference = new SchemaInference(SchemaInference.ConflictPolicy.STRING);
      List<Object> values = new ArrayList<>(RECORDS);
      Schema schema = null;
      for (byte[] doc : documents) {
        Object value = plain.toConnectData("t", doc).value();
        values.add(value);
        schema = inference.merge(schema, inference.infer(value));
      }
      for (int i = 0; i < RECORDS; i++) {
        documents.set(
            i, converter.fromConnectData("t", schema, inference.conform(schema, values.get(i))));
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** One record of the ten fields, as a producer writes it. */
  static String document(int id, Random random) {
    int tags = random.nextInt(4);
    StringBuilder list = new StringBuilder("[");
    for (int t = 0; t < tags; t++) {
      list.append(t == 0 ? "" : ",").append("\"tag").append(random.nextInt(20)).append('"');
    }
    list.append(']');
    return "{\"id\":"
        + id
        + ",\"customer\":\"c\\u00e9"
        + random.nextInt(5000)
        + "\",\"amount\":"
        + (random.nextInt(100_000) / 100.0)
        + ",\"quantity\":"
        + random.nextInt(50)
        + ",\"paid\":"
        + random.nextBoolean()
        + ",\"note\":"
        + (random.nextInt(4) == 0 ? "null" : "\"deliver \\\"asap\\\" " + random.nextInt(99) + "\"")
        + ",\"created\":"
        + (1_700_000_000_000L + id * 1000L)
        + ",\"address\":{\"city\":\"city"
        + random.nextInt(100)
        + "\",\"zip\":\""
        + (10000 + random.nextInt(89999))
        + "\",\"country\":\"DE\"},\"tags\":"
        + list
        + ",\"rating\":"
        + (random.nextInt(50) / 10.0)
        + "}";
  }

  @Setup(Level.Invocation)
  public void startFile() throws Exception {
    if (next == 0) {
      root = Files.createTempDirectory("json-bench");
    }
  }

  @TearDown(Level.Invocation)
  public void afterBatch() throws Exception {
    if (++next == BATCHES) {
      next = 0;
      SinkPaths.delete(root);
      root = null;
    }
  }

  @TearDown(Level.Trial)
  public void abandon() throws Exception {
    if (run != null) {
      run.abandon();
    }
    SinkPaths.delete(root);
  }

  private List<SinkRecord> rawBatch() {
    List<SinkRecord> batch = new ArrayList<>(SinkPaths.BATCH);
    int from = next * SinkPaths.BATCH;
    for (int i = from; i < from + SinkPaths.BATCH; i++) {
      batch.add(record(i, Schema.OPTIONAL_BYTES_SCHEMA, documents.get(i).clone()));
    }
    return batch;
  }

  private static SinkRecord record(long offset, Schema schema, Object value) {
    return new SinkRecord(
        SinkData.TOPIC,
        0,
        null,
        null,
        schema,
        value,
        offset,
        1_700_000_000_000L + offset,
        TimestampType.CREATE_TIME);
  }

  private Object step(String format, List<SinkRecord> batch) throws Exception {
    if (next == 0) {
      boolean envelope = json.equals("envelope");
      run =
          new SinkPaths.OursRun(
              root,
              "ZSTD",
              true,
              RECORDS,
              Map.of(
                  "input.format", format, "input.json.schemas.enable", Boolean.toString(envelope)));
    }
    run.put(batch);
    if (next == BATCHES - 1) {
      Path file = run.finish();
      run = null;
      return file;
    }
    return batch;
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object ours() throws Exception {
    return step("json", rawBatch());
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object parquetJava() throws Exception {
    List<SinkRecord> raw = rawBatch();
    List<SinkRecord> batch = new ArrayList<>(raw.size());
    for (SinkRecord r : raw) {
      SchemaAndValue v = converter.toConnectData(SinkData.TOPIC, (byte[]) r.value());
      batch.add(record(r.kafkaOffset(), v.schema(), v.value()));
    }
    return step("connect", batch);
  }
}
