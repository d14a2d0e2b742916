package dev.parquetconnect.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs one suite of paired JMH benchmarks and prints a line per kernel:
 * {@code KERNEL ours=<ops/s> parquet-java=<ops/s> ratio=<x>}.
 *
 * <p>A kernel is a benchmark class in {@code dev.parquetconnect.bench.<suite>} with two
 * {@code @Benchmark} methods, {@code ours} and {@code parquetJava}, that do the same work on the
 * same data prepared in the same {@code @Setup}; its {@code @Param} values become part of the
 * kernel name. Both run in the same JVM fork, one after the other, so the ratio compares like
 * with like on whatever machine runs it.
 *
 * <p>Usage: {@code BenchMain SUITE [--full] [--include REGEX]}. The default is a short run
 * (one fork, 2 warm-up and 3 measured iterations of one second); {@code --full} measures longer.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws RunnerException, IOException {
    if (args.length == 0) {
      System.err.println("usage: bench SUITE [--full] [--include REGEX]   (suites: codec, files, source)");
      System.exit(2);
    }
    String suite = args[0];
    boolean full = false;
    String include = null;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--full" -> full = true;
        case "--include" -> include = args[++i];
        default -> {
          System.err.println("unknown option " + args[i]);
          System.exit(2);
        }
      }
    }
    String pattern = "dev\\.parquetconnect\\.bench\\." + suite + "\\."
        + (include == null ? ".*" : ".*(" + include + ").*");
    ChainedOptionsBuilder options =
        new OptionsBuilder()
            .include(pattern)
            .forks(1)
            .jvmArgsAppend("-Xmx2g", "-XX:+UseParallelGC")
            .warmupIterations(full ? 5 : 2)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(full ? 10 : 3)
            .measurementTime(TimeValue.seconds(full ? 2 : 1))
            .timeUnit(TimeUnit.SECONDS)
            .shouldFailOnError(true);
    Collection<RunResult> results = new Runner(options.build()).run();
    List<String> lines = pair(results);
    lines.addAll(suiteReport(suite));
    System.out.println();
    for (String line : lines) {
      System.out.println(line);
    }
    Path out = Path.of("target", "bench", suite + ".txt");
    Files.createDirectories(out.getParent());
    Files.write(out, lines);
  }

  /** Ops/s: whole numbers for fast kernels, two decimals for whole-file operations. */
  private static String score(double opsPerSecond) {
    return String.format(Locale.ROOT, opsPerSecond >= 100 ? "%.0f" : "%.2f", opsPerSecond);
  }

  /**
   * Extra lines a suite reports after its timings (the files suite: file sizes), from the
   * static {@code lines()} of the class {@code dev.parquetconnect.bench.<suite>.SuiteReport} if
   * the suite has one.
   */
  @SuppressWarnings("unchecked")
  static List<String> suiteReport(String suite) {
    Class<?> report;
    try {
      report = Class.forName("dev.parquetconnect.bench." + suite + ".SuiteReport");
    } catch (ClassNotFoundException e) {
      return List.of();
    }
    try {
      return (List<String>) report.getMethod("lines").invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the " + suite + " suite's report failed", e);
    }
  }

  /** Pairs each kernel's {@code ours} and {@code parquetJava} scores into one line. */
  static List<String> pair(Collection<RunResult> results) {
    Map<String, double[]> byKernel = new TreeMap<>();
    for (RunResult result : results) {
      String label = result.getParams().getBenchmark();
      int dot = label.lastIndexOf('.');
      String method = label.substring(dot + 1);
      String cls = label.substring(label.lastIndexOf('.', dot - 1) + 1, dot);
      StringBuilder kernel = new StringBuilder(cls.replaceFirst("Bench(mark)?$", ""));
      for (String key : result.getParams().getParamsKeys()) {
        kernel.append('/').append(key).append('=').append(result.getParams().getParam(key));
      }
      double score = result.getPrimaryResult().getScore();
      double[] pair = byKernel.computeIfAbsent(kernel.toString(), k -> new double[] {-1, -1});
      if (method.equals("ours")) {
        pair[0] = score;
      } else if (method.equals("parquetJava")) {
        pair[1] = score;
      }
    }
    List<String> lines = new ArrayList<>();
    byKernel.forEach(
        (kernel, pair) ->
            lines.add(
                String.format(
                    Locale.ROOT,
                    "%s ours=%s parquet-java=%s ratio=%s",
                    kernel,
                    score(pair[0]),
                    score(pair[1]),
                    pair[0] < 0 || pair[1] <= 0
                        ? "n/a"
                        : String.format(Locale.ROOT, "%.2f", pair[0] / pair[1]))));
    return lines;
  }
}
