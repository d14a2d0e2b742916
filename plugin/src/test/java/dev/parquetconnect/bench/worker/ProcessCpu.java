package dev.parquetconnect.bench.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time a process has used, from Linux's {@code /proc/<pid>/stat} (user plus system time,
 * fields 14 and 15, in clock ticks), in total and per thread ({@code /proc/<pid>/task/<tid>/stat}),
 * so that a leg's cost is the difference of two snapshots whatever the load of the machine: time
 * the process waits for a core is not counted.
 */
final class ProcessCpu {

  /** Clock ticks per second ({@code getconf CLK_TCK}); 100 on every Linux we run on. */
  private static final double TICKS_PER_SECOND = clockTicks();

  private ProcessCpu() {}

  /** CPU seconds of the whole process, every thread included (GC and JIT compilers too). */
  static double processSeconds(long pid) throws IOException {
    return ticks(Path.of("/proc", Long.toString(pid), "stat")) / TICKS_PER_SECOND;
  }

  /** A snapshot of each live thread's CPU seconds, by thread id, with the thread's name. */
  static Map<Long, ThreadCpu> threads(long pid) throws IOException {
    Map<Long, ThreadCpu> threads = new HashMap<>();
    try (DirectoryStream<Path> tasks =
        Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
      for (Path task : tasks) {
        try {
          String stat = read(task.resolve("stat"));
          threads.put(
              Long.parseLong(task.getFileName().toString()),
              new ThreadCpu(name(stat), ticks(stat) / TICKS_PER_SECOND));
        } catch (NoSuchFileException e) {
          // The thread ended between the listing and the read: it has nothing more to count.
        }
      }
    }
    return threads;
  }

  /**
   * The CPU seconds each group of threads used between two snapshots; a thread that ended in
   * between is not counted (its last ticks are in the process total all the same).
   */
  static Map<String, Double> byGroup(Map<Long, ThreadCpu> before, Map<Long, ThreadCpu> after) {
    Map<String, Double> groups = new TreeMap<>();
    after.forEach(
        (tid, cpu) -> {
          ThreadCpu start = before.get(tid);
          double used = cpu.seconds() - (start == null ? 0 : start.seconds());
          groups.merge(group(cpu.name()), used, Double::sum);
        });
    return groups;
  }

  /** The kind of a worker thread, from the (15 character) name the kernel keeps of it. */
  static String group(String threadName) {
    if (threadName.startsWith("task-thread-")) {
      return "connector task thread";
    }
    if (threadName.startsWith("GC Thread")
        || threadName.startsWith("G1 ")
        || threadName.startsWith("VM Thread")) {
      return "garbage collector";
    }
    if (threadName.startsWith("C1 Compiler") || threadName.startsWith("C2 Compiler")) {
      return "JIT compiler";
    }
    return "other worker threads";
  }

  /** One thread's name and CPU seconds. */
  record ThreadCpu(String name, double seconds) {}

  private static long ticks(Path statFile) throws IOException {
    return ticks(read(statFile));
  }

  /** utime + stime: fields 14 and 15, counted after the name, which may hold spaces. */
  private static long ticks(String stat) {
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    // fields[0] is field 3 (the state), so field n is fields[n - 3].
    return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
  }

  private static String name(String stat) {
    return stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
  }

  private static String read(Path file) throws IOException {
    // procfs reports a size of 0, so read as a stream rather than trusting the size.
    try (InputStream in = Files.newInputStream(file)) {
      return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
  }

  private static double clockTicks() {
    try {
      Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
      String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
      getconf.waitFor();
      return Double.parseDouble(out.trim());
    } catch (IOException | RuntimeException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
