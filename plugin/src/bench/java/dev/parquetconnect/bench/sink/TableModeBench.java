package dev.parquetconnect.bench.sink;

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
  private final BatchRun run = new BatchRun("table-bench", BATCHES);
  private List<SinkRecord> batch;
  private TablePaths.TaskRun oursRun;
  private TablePaths.TaskRun filesRun;
  private TablePaths.IcebergAppenderRun icebergRun;

  @Setup(Level.Trial)
  public void buildRecords() {
    all = SinkData.records(RECORDS);
  }

  @Setup(Level.Iteration)
  public void checkIterationStartsARun() {
    run.checkIterationStartsARun();
  }

  @Setup(Level.Invocation)
  public void prepareBatch() throws Exception {
    batch = SinkData.fresh(run.nextSlice(all));
  }

  @TearDown(Level.Invocation)
  public void afterBatch() throws Exception {
    batch = null;
    run.advance();
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
    run.deleteUnfinished();
  }

  /** Our task in table mode. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object ours() {
    if (run.first()) {
      oursRun = new TablePaths.TaskRun(run.root(), codec, true, RECORDS);
    }
    oursRun.put(batch);
    if (run.last()) {
      oursRun.finish();
      oursRun = null;
    }
    return batch;
  }

  /** The peer parameter's path: our task in files mode, or Iceberg's appender. */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public Object parquetJava() throws Exception {
    boolean last = run.last();
    switch (peer) {
      case "files" -> {
        if (run.first()) {
          filesRun = new TablePaths.TaskRun(run.root(), codec, false, RECORDS);
        }
        filesRun.put(batch);
        if (last) {
          filesRun.finish();
          filesRun = null;
        }
      }
      case "iceberg" -> {
        if (run.first()) {
          icebergRun = new TablePaths.IcebergAppenderRun(run.root(), codec);
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
