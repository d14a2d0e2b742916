package dev.parquetconnect.bench.sink;

import java.nio.file.Files;
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
 * Our sink's table mode against the same task in files mode ({@code peer=files}) and against
 * Iceberg's own writer path ({@code peer=iceberg}: its generic records and Parquet appender, each
 * file committed with an append), on the same 200,000 {@code SinkRecord}s ({@link SinkData}),
 * committing every {@link TablePaths#COMMIT_RECORDS} records, codec zstd ({@link TablePaths}).
 *
 * <p>Measured as {@link SinkThroughputBench} measures: one iteration is one whole run from an empty
 * warehouse, 400 calls of 500 records, each batch fresh objects built between calls outside the
 * measured time, as a worker's converter builds them. {@code ours} is always the table mode; the
 * other side ({@code parquetJava}, printed as the peer) is the {@code peer} parameter's path. The
 * suite's report ({@link TableModeReport}) gives each path's bytes, thread CPU and allocation per
 * record, and checks that all three read back equal.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 6, batchSize = TableModeBench.BATCHES)
@Measurement(batchSize = TableModeBench.BATCHES)
public class TableModeBench {
  static final int RECORDS = SinkThroughputBench.RECORDS;
  static final int BATCHES = RECORDS / SinkPaths.BATCH;

  static {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
  }

  @Param({"ZSTD"})
  public String codec;

  @Param({"files", "iceberg"})
  public String peer;

  private List<SinkRecord> all;
  private int next;
  private List<SinkRecord> batch;
  private Path root;
  private TablePaths.TaskRun oursRun;
  private TablePaths.TaskRun filesRun;
  private TablePaths.IcebergAppenderRun icebergRun;

  @Setup(Level.Trial)
  public void buildRecords() {
    all = SinkData.records(RECORDS);
  }

  @Setup(Level.Iteration)
  public void checkIterationStartsARun() {
    if (next != 0) {
      throw new IllegalStateException(
          "an iteration must be one whole run: batchSize " + BATCHES + ", started at " + next);
    }
  }

  @Setup(Level.Invocation)
  public void prepareBatch() throws Exception {
    if (next == 0) {
      root = Files.createTempDirectory("table-bench");
    }
    batch = SinkData.fresh(all.subList(next * SinkPaths.BATCH, (next + 1) * SinkPaths.BATCH));
  }

  @TearDown(Level.Invocation)
  public void afterBatch() throws Exception {
    batch = null;
    if (++next == BATCHES) {
      next = 0;
      SinkPaths.delete(root);
      root = null;
    }
  }

  @TearDown(Level.Trial)
  public void abandonUnfinishedRun() throws Exception {
    if (oursRun != null) {
      oursRun.abandon();
    }
    if (filesRun != null) {
      filesRun.abandon();
    }
    if (icebergRun != null) {
      icebergRun.abandon();
    }
    SinkPaths.delete(root);
  }

  /** Our task in table mode. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object ours() {
    if (next == 0) {
      oursRun = new TablePaths.TaskRun(root, codec, true, RECORDS);
    }
    oursRun.put(batch);
    if (next == BATCHES - 1) {
      oursRun.finish();
      oursRun = null;
    }
    return batch;
  }

  /** The peer parameter's path: our task in files mode, or Iceberg's appender. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object parquetJava() throws Exception {
    boolean last = next == BATCHES - 1;
    switch (peer) {
      case "files" -> {
        if (next == 0) {
          filesRun = new TablePaths.TaskRun(root, codec, false, RECORDS);
        }
        filesRun.put(batch);
        if (last) {
          filesRun.finish();
          filesRun = null;
        }
      }
      case "iceberg" -> {
        if (next == 0) {
          icebergRun = new TablePaths.IcebergAppenderRun(root, codec);
        }
        icebergRun.write(batch);
        if (last) {
          icebergRun.finish();
          icebergRun = null;
        }
      }
      default -> throw new IllegalArgumentException("peer=" + peer);
    }
    return batch;
  }
}
