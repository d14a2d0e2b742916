package dev.parquetconnect.bench.sink;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * What the sink suite reports about the table mode after its timings ({@link TableModeBench}): per
 * path (ours in table mode, ours in files mode, Iceberg's appender), the benchmark thread's CPU
 * time and allocated bytes per record over whole runs (the best of {@link #MEASURED} runs after
 * {@link #WARMUPS}, the paths alternating, each batch fresh objects built outside the counts), the
 * bytes of the data files, the snapshots of the table, and whether DuckDB reads the same rows from
 * the three (row count and an order-independent hash of every value column, {@link
 * SuiteReport#digest}) as Iceberg's snapshot counts them.
 */
final class TableModeReport {
  static final int WARMUPS = 3;
  static final int MEASURED = 5;

  private static final List<String> PATHS = List.of("table", "files", "iceberg");

  private TableModeReport() {}

  /** Per path: thread CPU nanoseconds and allocated bytes of the best run. */
  private record Cost(long cpuNanos, long allocatedBytes) {}

  static List<String> lines(List<SinkRecord> records) throws Exception {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    Map<String, Cost> best = new LinkedHashMap<>();
    Map<String, TablePaths.Written> written = new LinkedHashMap<>();
    Map<String, String> digests = new LinkedHashMap<>();
    for (int round = 0; round < WARMUPS + MEASURED; round++) {
      List<String> order = new ArrayList<>(PATHS);
      if (round % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      for (String path : order) {
        Path root = Files.createTempDirectory("table-report-" + path);
        try {
          Cost cost = run(threads, path, root, records);
          if (round >= WARMUPS) {
            best.merge(
                path,
                cost,
                (a, b) ->
                    new Cost(
                        Math.min(a.cpuNanos(), b.cpuNanos()),
                        Math.min(a.allocatedBytes(), b.allocatedBytes())));
          }
          if (round == WARMUPS + MEASURED - 1) {
            TablePaths.Written files =
                path.equals("files") ? TablePaths.files(root) : TablePaths.table(root);
            written.put(path, files);
            digests.put(path, SuiteReport.digest(files.files()));
          }
        } finally {
          SinkPaths.delete(root);
        }
      }
    }
    List<String> lines = new ArrayList<>();
    int n = records.size();
    for (String path : PATHS) {
      Cost cost = best.get(path);
      TablePaths.Written files = written.get(path);
      lines.add(
          String.format(
              Locale.ROOT,
              "TableMode/path=%s records=%d rec_per_cpu_s=%.0f alloc_bytes_per_rec=%.0f"
                  + " bytes=%d files=%d snapshots=%d table_records=%d duckdb=%s",
              path,
              n,
              n / (cost.cpuNanos() / 1e9),
              (double) cost.allocatedBytes() / n,
              files.bytes(),
              files.files().size(),
              files.snapshots(),
              files.tableRecords(),
              digests.get(path)));
    }
    Cost table = best.get("table");
    for (String peer : List.of("files", "iceberg")) {
      Cost other = best.get(peer);
      lines.add(
          String.format(
              Locale.ROOT,
              "TableMode/ratio table/%s: cpu %.2f (peer CPU / ours) alloc %.2f bytes %.3f"
                  + " (peer / ours)",
              peer,
              (double) other.cpuNanos() / table.cpuNanos(),
              (double) other.allocatedBytes() / table.allocatedBytes(),
              (double) written.get(peer).bytes() / written.get("table").bytes()));
    }
    String tableDigest = digests.get("table");
    boolean same =
        digests.values().stream().allMatch(tableDigest::equals)
            && written.get("table").tableRecords() == n
            && written.get("iceberg").tableRecords() == n;
    lines.add(
        "TableMode same rows in all three (DuckDB digest, snapshot total-records): "
            + (same ? "yes" : "no: " + digests + ", table records " + written));
    return lines;
  }

  /** One whole run of a path from an empty root; its CPU and allocation in this thread. */
  private static Cost run(ThreadMXBean threads, String path, Path root, List<SinkRecord> records)
      throws Exception {
    long id = Thread.currentThread().getId();
    long cpu = 0;
    long allocated = 0;
    TablePaths.TaskRun task = null;
    TablePaths.IcebergAppenderRun iceberg = null;
    for (int from = 0; from < records.size(); from += SinkPaths.BATCH) {
      List<SinkRecord> batch =
          SinkData.fresh(records.subList(from, Math.min(records.size(), from + SinkPaths.BATCH)));
      boolean first = from == 0;
      boolean last = from + SinkPaths.BATCH >= records.size();
      long cpuBefore = threads.getThreadCpuTime(id);
      long allocatedBefore = threads.getThreadAllocatedBytes(id);
      switch (path) {
        case "table", "files" -> {
          if (first) {
            task = new TablePaths.TaskRun(root, "ZSTD", path.equals("table"), records.size());
          }
          task.put(batch);
          if (last) {
            task.finish();
          }
        }
        case "iceberg" -> {
          if (first) {
            iceberg = new TablePaths.IcebergAppenderRun(root, "ZSTD");
          }
          iceberg.write(batch);
          if (last) {
            iceberg.finish();
          }
        }
        default -> throw new IllegalArgumentException(path);
      }
      cpu += threads.getThreadCpuTime(id) - cpuBefore;
      allocated += threads.getThreadAllocatedBytes(id) - allocatedBefore;
    }
    return new Cost(cpu, allocated);
  }
}
