package dev.parquetconnect.bench.sink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Where a single-shot benchmark stands in its whole run of {@code batches} calls of {@link
 * SinkPaths#BATCH} records: the next batch's index and the run's temporary directory, made before
 * the first call and deleted after the last, so that one measured iteration is one whole run from
 * an empty directory. The benchmarks' {@code @Setup}/{@code @TearDown} methods call it.
 */
final class BatchRun {
  private final String prefix;
  private final int batches;
  private int next;
  private Path root;

  BatchRun(String prefix, int batches) {
    this.prefix = prefix;
    this.batches = batches;
  }

  /** Whether the next call starts the run. */
  boolean first() {
    return next == 0;
  }

  /** Whether the next call ends the run. */
  boolean last() {
    return next == batches - 1;
  }

  /** The run's directory; null between runs. */
  Path root() {
    return root;
  }

  /** Fails unless an iteration starts a run: JMH's batchSize must be the run's calls. */
  void checkIterationStartsARun() {
    if (next != 0) {
      throw new IllegalStateException(
          "an iteration must be one whole run: run with batchSize "
              + batches
              + ", got an iteration starting at batch "
              + next);
    }
  }

  /**
   * Before a call: the next batch's slice of {@code all}, the run's directory made if it starts.
   */
  List<SinkRecord> nextSlice(List<SinkRecord> all) throws IOException {
    if (next == 0) {
      root = Files.createTempDirectory(prefix);
    }
    return all.subList(next * SinkPaths.BATCH, (next + 1) * SinkPaths.BATCH);
  }

  /** After a call: on to the next batch; after the last, the run's directory is deleted. */
  void advance() throws IOException {
    if (++next == batches) {
      next = 0;
      SinkPaths.delete(root);
      root = null;
    }
  }

  /** At the end of a trial: the directory of a run left unfinished is deleted. */
  void deleteUnfinished() throws IOException {
    SinkPaths.delete(root);
    root = null;
  }
}
