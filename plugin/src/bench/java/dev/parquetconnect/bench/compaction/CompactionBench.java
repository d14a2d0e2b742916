package dev.parquetconnect.bench.compaction;

import org.apache.iceberg.Table;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One compaction of the same table ({@link CompactionTable}: 40 small zstd files of our sink's
 * table mode) by our {@code TableCompactor} and by Iceberg's generic reader and Parquet appender
 * ({@link CompactionPaths}). One operation is one whole compaction, planning to commit, from the
 * table restored before each call outside the measured time. The suite's report ({@link
 * SuiteReport}) turns the CPU time into seconds per compacted GB and checks the rows.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@Warmup(iterations = 4)
public class CompactionBench {
  static {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
  }

  private CompactionTable source;
  private Table table;

  @Setup(Level.Trial)
  public void buildTable() throws Exception {
    source = CompactionTable.build();
  }

  @Setup(Level.Invocation)
  public void restoreTable() throws Exception {
    table = source.restore();
  }

  @TearDown(Level.Trial)
  public void deleteTable() throws Exception {
    source.close();
  }

  @Benchmark
  public Object ours() throws Exception {
    return check(CompactionPaths.ours(source.root(), table));
  }

  @Benchmark
  public Object parquetJava() throws Exception {
    return check(CompactionPaths.iceberg(table));
  }

  private static CompactionPaths.Done check(CompactionPaths.Done done) {
    if (done.filesIn() != CompactionTable.FILES) {
      throw new IllegalStateException(
          "compacted " + done + ", expected all " + CompactionTable.FILES + " files");
    }
    return done;
  }
}
