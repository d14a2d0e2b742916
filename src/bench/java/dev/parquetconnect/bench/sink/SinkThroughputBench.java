package dev.parquetconnect.bench.sink;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.connect.sink.SinkRecord;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Sink throughput (issue 4, item 7): the same 200,000 {@code SinkRecord}s (built once per fork
 * from a fixed seed, so both sides get identical records) written into one committed Parquet
 * file in a local directory by our {@code ParquetSinkTask} and by the peers' path, Connect to
 * Avro to parquet-java's {@code AvroParquetWriter} ({@link SinkPaths}). Same codec, row group,
 * page and dictionary sizes. The score is records per second ({@code
 * OperationsPerInvocation}); a fresh directory per operation, deleted outside the measured time.
 *
 * <p>{@code metadata=off} is the like-for-like comparison (both files hold the value's columns
 * only); {@code metadata=on} is our default, four {@code __kafka_*} columns more than the peer
 * writes.
 */
@State(Scope.Benchmark)
public class SinkThroughputBench {
  static final int RECORDS = 200_000;

  static {
    // The task's INFO lines (start, recovery, each commit) would interleave with JMH's output.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
  }

  @Param({"ZSTD", "SNAPPY"})
  public String codec;

  @Param({"off", "on"})
  public String metadata;

  private List<SinkRecord> records;
  private Path root;

  @Setup(Level.Trial)
  public void buildRecords() {
    records = SinkData.records(RECORDS);
  }

  @Setup(Level.Invocation)
  public void freshDirectory() throws Exception {
    root = Files.createTempDirectory("sink-bench");
  }

  @TearDown(Level.Invocation)
  public void deleteDirectory() throws Exception {
    SinkPaths.delete(root);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Path ours() throws Exception {
    return SinkPaths.ours(records, root, codec, metadata.equals("on"));
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Path parquetJava() throws Exception {
    return SinkPaths.peer(records, root, codec);
  }
}
