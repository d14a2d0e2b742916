package dev.parquetconnect.bench.sink;

import java.nio.file.Path;
import java.util.List;
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
 * Sink throughput against the peers' path: the same 200,000 {@code SinkRecord}s (built once per
 * fork from a fixed seed, so both sides get identical records) written into one committed Parquet
 * file in a local directory by our {@code ParquetSinkTask} and by the peers' path, Connect to Avro
 * to parquet-java's {@code AvroParquetWriter} ({@link SinkPaths}). Same codec, row group, page and
 * dictionary sizes.
 *
 * <p>One measured iteration is one whole file, handed over in 400 batches of 500 records as Connect
 * hands them to a task: each call is one batch (the first starts the file, the last commits it),
 * and JMH's single-shot mode times the 400 calls of an iteration and nothing between them. Between
 * calls, outside the measured time, the next batch is prepared:
 *
 * <ul>
 *   <li>{@code records=fresh}: new objects equal to the batch's records ({@link SinkData#fresh}),
 *       as a worker's converter builds them from the consumer's bytes just before it calls {@code
 *       put}. This is what a task sees in a worker.
 *   <li>{@code records=cold}: the records built at the start of the fork, 550 MB of objects long
 *       evicted from every cache, so every first touch of a record's objects waits for main memory.
 *       A worker never hands a task such records; the kernel is kept because it is how this
 *       benchmark measured until 2026-11-21 and it shows what cache misses cost each side.
 * </ul>
 *
 * <p>The score is time per record ({@code OperationsPerInvocation} is the file's records, per
 * single-shot iteration); the suite prints its inverse, records per second. {@code metadata=off} is
 * the like-for-like comparison (both files hold the value's columns only); {@code metadata=on} is
 * our default, four {@code __kafka_*} columns more than the peer writes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 6, batchSize = SinkThroughputBench.BATCHES)
@Measurement(batchSize = SinkThroughputBench.BATCHES)
public class SinkThroughputBench {
  static final int RECORDS = 200_000;

  /** Calls per file: Connect's default max.poll.records per put. */
  static final int BATCHES = RECORDS / SinkPaths.BATCH;

  static {
    // The task's INFO lines (start, recovery, each commit) would interleave with JMH's output.
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
  }

  @Param({"ZSTD", "SNAPPY"})
  public String codec;

  @Param({"off", "on"})
  public String metadata;

  @Param({"fresh", "cold"})
  public String records;

  private List<SinkRecord> all;

  /** The batch the next call hands over, and the file's directory. */
  private final BatchRun run = new BatchRun("sink-bench", BATCHES);

  private List<SinkRecord> batch;
  private SinkPaths.OursRun oursRun;
  private SinkPaths.PeerRun peerRun;

  @Setup(Level.Trial)
  public void buildRecords() {
    all = SinkData.records(RECORDS);
  }

  @Setup(Level.Iteration)
  public void checkIterationStartsAFile() {
    run.checkIterationStartsARun();
  }

  @Setup(Level.Invocation)
  public void prepareBatch() throws Exception {
    List<SinkRecord> slice = run.nextSlice(all);
    batch =
        switch (records) {
          case "fresh" -> SinkData.fresh(slice);
          case "cold" -> slice;
          default -> throw new IllegalArgumentException("records=" + records);
        };
  }

  @TearDown(Level.Invocation)
  public void afterBatch() throws Exception {
    batch = null;
    run.advance();
  }

  @TearDown(Level.Trial)
  public void abandonUnfinishedFile() throws Exception {
    if (oursRun != null) {
      oursRun.abandon();
    }
    if (peerRun != null) {
      peerRun.abandon();
    }
    run.deleteUnfinished();
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object ours() throws Exception {
    if (run.first()) {
      oursRun = new SinkPaths.OursRun(run.root(), codec, metadata.equals("on"), RECORDS);
    }
    oursRun.put(batch);
    if (run.last()) {
      Path file = oursRun.finish();
      oursRun = null;
      return file;
    }
    return batch;
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object parquetJava() throws Exception {
    if (run.first()) {
      peerRun = new SinkPaths.PeerRun(run.root(), codec, RECORDS);
    }
    peerRun.write(batch);
    if (run.last()) {
      Path file = peerRun.finish();
      peerRun = null;
      return file;
    }
    return batch;
  }
}
