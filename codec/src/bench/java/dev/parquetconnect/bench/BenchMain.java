package dev.parquetconnect.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs one suite of paired JMH benchmarks and prints a line per kernel: {@code KERNEL ours=<ops/s>
 * parquet-java=<ops/s> ratio=<x>}.
 *
 * <p>A kernel is a benchmark class in {@code dev.parquetconnect.bench.<suite>} with two
 * {@code @Benchmark} methods, {@code ours} and {@code parquetJava}, that do the same work on the
 * same data prepared in the same {@code @Setup}; its {@code @Param} values become part of the
 * kernel name. Each kernel gets its own JMH run in which {@code ours} and then {@code parquetJava}
 * run back to back (each in a fresh JVM fork), so the ratio compares like with like on whatever
 * machine runs it, even while the load on a shared machine drifts.
 *
 * <p>Usage: {@code BenchMain SUITE [--full] [--include REGEX]}. The default is a short run (one
 * fork, 2 warm-up and 5 measured iterations of one second); {@code --full} measures longer (5
 * warm-up, 10 measured of two seconds). The sink suite, whose operation takes seconds, runs 4
 * warm-up and 10 measured iterations (6 and 20 with {@code --full}). A class annotated
 * {@code @Warmup(iterations = n)} gets at least n warm-up iterations of one second on both sides
 * (see {@link #declaredWarmups}). A side's ops/s is its best measured iteration (see {@link
 * #best}).
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws RunnerException, IOException {
    if (args.length == 0) {
      System.err.println(
          "usage: bench SUITE [--full] [--include REGEX]   (suites: codec, files, source, sink)");
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
    String pattern = pattern(suite, include);
    // One JMH run per kernel (class and parameter values), so that ours and parquet-java's
    // benchmark of a kernel run back to back: on a shared machine the load drifts, and
    // JMH's own order (every parameter value of `ours` before any of `parquetJava`) would let
    // that drift into the ratio.
    List<RunResult> results = new ArrayList<>();
    List<Kernel> kernels = kernels(pattern);
    if (kernels.isEmpty()) {
      System.err.println("no benchmark matches " + pattern);
      System.exit(2);
    }
    // The sink suite's operation is a whole task run of several seconds, one per iteration:
    // more of them, so that JIT warm-up is over and the best one is not a lucky outlier.
    boolean wholeRuns = suite.equals("sink");
    int warmups = wholeRuns ? (full ? 6 : 4) : (full ? 5 : 2);
    int measured = wholeRuns ? (full ? 20 : 10) : (full ? 10 : 5);
    for (Kernel kernel : kernels) {
      ChainedOptionsBuilder options =
          new OptionsBuilder()
              .include("^" + Pattern.quote(kernel.className) + "\\.(ours|parquetJava)$")
              .forks(1)
              .jvmArgsAppend("-Xmx2g", "-XX:+UseParallelGC")
              .warmupIterations(Math.max(warmups, declaredWarmups(kernel.className)))
              .warmupTime(TimeValue.seconds(1))
              .measurementIterations(measured)
              .measurementTime(TimeValue.seconds(full ? 2 : 1))
              .timeUnit(TimeUnit.SECONDS)
              .shouldFailOnError(true);
      if (declaresMode(kernel.className)) {
        // The class's own mode (the sink suite times whole files with single shots, each
        // iteration a fixed number of calls), its time per operation logged in nanoseconds.
        options = options.timeUnit(TimeUnit.NANOSECONDS);
      } else {
        options = options.mode(Mode.Throughput);
      }
      kernel.params.forEach(options::param);
      results.addAll(new Runner(options.build()).run());
    }
    List<String> lines = pair(results, peerLabel(suite));
    lines.addAll(suiteReport(suite));
    System.out.println();
    for (String line : lines) {
      System.out.println(line);
    }
    Path out = Path.of("target", "bench", suite + ".txt");
    Files.createDirectories(out.getParent());
    Files.write(out, lines);
  }

  /**
   * The warm-up iterations a benchmark class asks for with {@code @Warmup}, or 0. Whole-file
   * kernels run a few times a second, so two one-second warm-ups leave either side still being
   * compiled while it is measured; such a class declares more, and both of its sides get them.
   */
  static int declaredWarmups(String className) {
    try {
      Warmup warmup = Class.forName(className).getAnnotation(Warmup.class);
      return warmup == null ? 0 : Math.max(0, warmup.iterations());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "benchmark class " + className + " is not on the class path", e);
    }
  }

  /** Whether a benchmark class fixes its own mode with {@code @BenchmarkMode}. */
  static boolean declaresMode(String className) {
    try {
      return Class.forName(className).isAnnotationPresent(BenchmarkMode.class);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "benchmark class " + className + " is not on the class path", e);
    }
  }

  /** Ops/s: whole numbers for fast kernels, two decimals for whole-file operations. */
  private static String score(double opsPerSecond) {
    return String.format(Locale.ROOT, opsPerSecond >= 100 ? "%.0f" : "%.2f", opsPerSecond);
  }

  /**
   * Extra lines a suite reports after its timings (the files suite: file sizes), from the static
   * {@code lines()} of the class {@code dev.parquetconnect.bench.<suite>.SuiteReport} if the suite
   * has one.
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

  /** The JMH include pattern of a suite's benchmarks, optionally narrowed by a regex. */
  static String pattern(String suite, String include) {
    return "dev\\.parquetconnect\\.bench\\."
        + suite
        + "\\."
        + (include == null ? ".*" : ".*(" + include + ").*");
  }

  /** A benchmark class and one combination of its parameter values. */
  record Kernel(String className, Map<String, String> params) {}

  /** The kernels of the benchmarks matching {@code pattern}, in name order. */
  static List<Kernel> kernels(String pattern) {
    OutputFormat quiet = OutputFormatFactory.createFormatInstance(System.err, VerboseMode.SILENT);
    Map<String, Map<String, String[]>> classes = new TreeMap<>();
    for (BenchmarkListEntry entry :
        BenchmarkList.defaultList().find(quiet, List.of(pattern), List.of())) {
      Map<String, String[]> space = new TreeMap<>();
      if (entry.getParams().hasValue()) {
        space.putAll(entry.getParams().get());
      }
      classes.merge(entry.getUserClassQName(), space, (a, b) -> a);
    }
    List<Kernel> kernels = new ArrayList<>();
    classes.forEach(
        (cls, space) -> {
          List<Map<String, String>> combos = new ArrayList<>();
          combos.add(new LinkedHashMap<>());
          for (Map.Entry<String, String[]> param : space.entrySet()) {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> combo : combos) {
              for (String value : param.getValue()) {
                Map<String, String> extended = new LinkedHashMap<>(combo);
                extended.put(param.getKey(), value);
                next.add(extended);
              }
            }
            combos = next;
          }
          combos.forEach(combo -> kernels.add(new Kernel(cls, combo)));
        });
    return kernels;
  }

  /** A kernel's printed name: the class's simple name less "Bench", then its parameters. */
  static String kernelName(String className, Map<String, String> params) {
    StringBuilder kernel =
        new StringBuilder(
            className.substring(className.lastIndexOf('.') + 1).replaceFirst("Bench(mark)?$", ""));
    params.forEach((key, value) -> kernel.append('/').append(key).append('=').append(value));
    return kernel.toString();
  }

  /**
   * The best measured iteration's ops/s (for a single-shot kernel, the inverse of its shortest time
   * per operation). Other work on a shared machine only ever slows an iteration down, so the
   * fastest one is the closest to the code's own speed, and taking it on both sides keeps the ratio
   * from tracking the neighbours' load. (JMH's mean and error are in the run's log.)
   */
  static double best(RunResult result) {
    // Single-shot scores are time per operation in the run's time unit: inverted into ops/s.
    boolean timePerOp = result.getParams().getMode() == Mode.SingleShotTime;
    double unitsPerSecond = result.getParams().getTimeUnit().convert(1, TimeUnit.SECONDS);
    double best = -1;
    for (BenchmarkResult run : result.getBenchmarkResults()) {
      for (IterationResult iteration : run.getIterationResults()) {
        double score = iteration.getPrimaryResult().getScore();
        best = Math.max(best, timePerOp ? unitsPerSecond / score : score);
      }
    }
    return best;
  }

  /**
   * How a suite's lines name the other side: parquet-java where it is parquet-java alone, "peer"
   * for the sink suite, whose other side is the peers' whole path (Connect to Avro to
   * parquet-java's AvroParquetWriter).
   */
  static String peerLabel(String suite) {
    return suite.equals("sink") ? "peer" : "parquet-java";
  }

  /**
   * Pairs each kernel's {@code ours} and {@code parquetJava} scores into one line, the other side
   * named {@code peerLabel}.
   */
  static List<String> pair(List<RunResult> results, String peerLabel) {
    Map<String, double[]> byKernel = new TreeMap<>();
    for (RunResult result : results) {
      String label = result.getParams().getBenchmark();
      int dot = label.lastIndexOf('.');
      String method = label.substring(dot + 1);
      Map<String, String> params = new LinkedHashMap<>();
      for (String key : result.getParams().getParamsKeys()) {
        params.put(key, result.getParams().getParam(key));
      }
      String kernel = kernelName(label.substring(0, dot), params);
      double score = best(result);
      double[] pair = byKernel.computeIfAbsent(kernel, k -> new double[] {-1, -1});
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
                    "%s ours=%s %s=%s ratio=%s",
                    kernel,
                    score(pair[0]),
                    peerLabel,
                    score(pair[1]),
                    pair[0] < 0 || pair[1] <= 0
                        ? "n/a"
                        : String.format(Locale.ROOT, "%.2f", pair[0] / pair[1]))));
    return lines;
  }
}
