package dev.parquetconnect.bench.compaction;

import com.sun.management.ThreadMXBean;
import dev.parquetconnect.bench.sink.TablePaths;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.Table;

/**
 * What the compaction suite reports after its timings: per side, the benchmark thread's CPU seconds
 * per compacted GB (input bytes; the best of {@link #MEASURED} compactions after {@link #WARMUPS},
 * the sides alternating, each from the restored table) and allocated bytes per input byte, the
 * files and bytes before and after, and whether DuckDB reads the same rows from the table's current
 * data files before and after each side's compaction ({@code sink.SuiteReport#digest}).
 */
public final class SuiteReport {
  static final int WARMUPS = 3;
  static final int MEASURED = 5;

  private SuiteReport() {}

  public static List<String> lines() throws Exception {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long id = Thread.currentThread().getId();
    List<String> lines = new ArrayList<>();
    try (CompactionTable source = CompactionTable.build()) {
      source.restore();
      String before =
          dev.parquetconnect.bench.sink.SuiteReport.digest(TablePaths.table(source.root()).files());
      long[] bestCpu = {Long.MAX_VALUE, Long.MAX_VALUE};
      long[] bestAllocated = {Long.MAX_VALUE, Long.MAX_VALUE};
      CompactionPaths.Done[] done = new CompactionPaths.Done[2];
      String[] after = new String[2];
      for (int round = 0; round < WARMUPS + MEASURED; round++) {
        for (int turn = 0; turn < 2; turn++) {
          int side = (round + turn) % 2;
          Table table = source.restore();
          long cpu = threads.getThreadCpuTime(id);
          long allocated = threads.getThreadAllocatedBytes(id);
          CompactionPaths.Done result =
              side == 0
                  ? CompactionPaths.ours(source.root(), table)
                  : CompactionPaths.iceberg(table);
          cpu = threads.getThreadCpuTime(id) - cpu;
          allocated = threads.getThreadAllocatedBytes(id) - allocated;
          if (round >= WARMUPS) {
            bestCpu[side] = Math.min(bestCpu[side], cpu);
            bestAllocated[side] = Math.min(bestAllocated[side], allocated);
          }
          if (round == WARMUPS + MEASURED - 1) {
            done[side] = result;
            after[side] =
                dev.parquetconnect.bench.sink.SuiteReport.digest(
                    TablePaths.table(source.root()).files());
          }
        }
      }
      String[] names = {"ours", "iceberg"};
      for (int side = 0; side < 2; side++) {
        CompactionPaths.Done d = done[side];
        lines.add(
            String.format(
                Locale.ROOT,
                "Compaction/side=%s cpu_s_per_gb=%.2f alloc_bytes_per_input_byte=%.2f files=%d->%d"
                    + " bytes=%d->%d same_rows=%s",
                names[side],
                bestCpu[side] / 1e9 / (d.bytesIn() / 1e9),
                (double) bestAllocated[side] / d.bytesIn(),
                d.filesIn(),
                d.filesOut(),
                d.bytesIn(),
                d.bytesOut(),
                before.equals(after[side]) ? "yes" : "no: " + before + " -> " + after[side]));
      }
      lines.add(
          String.format(
              Locale.ROOT,
              "Compaction ratio iceberg/ours: cpu %.2f alloc %.2f output bytes %.3f",
              (double) bestCpu[1] / bestCpu[0],
              (double) bestAllocated[1] / bestAllocated[0],
              (double) done[1].bytesOut() / done[0].bytesOut()));
    }
    return lines;
  }
}
