package dev.parquetconnect.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * A cross-check of {@link BenchMain} that measures the same kernels by the CPU time of the
 * measuring thread instead of wall-clock time: on a machine shared with other work, a thread that
 * is descheduled or waits for a core accrues no CPU time, so these ratios move far less with the
 * neighbours' load than JMH's. It is not JMH (no JMH-managed dead-code protection beyond the
 * benchmarks' own {@link Blackhole}, reflective calls), so it is a second opinion, not the
 * measurement of record.
 *
 * <p>For each kernel (same discovery and naming as {@link BenchMain}), in a JVM of its own: the
 * class is built, its {@code @Param} fields set, its {@code @Setup} run; then {@code ours} and
 * {@code parquetJava} alternate in rounds of about 0.3 s of CPU time each, the first three rounds
 * of each being warm-up, and the best round's rate counts. Set-ups and tear-downs at {@code
 * Level.Invocation} run around every call, outside the measured time, and a call counts its
 * {@code @OperationsPerInvocation}. Prints {@code KERNEL ours=<ops/cpu-s> parquet-java=<ops/cpu-s>
 * ratio=<x>} ({@code peer=} for the sink suite) and writes target/bench/SUITE-cpu.txt.
 *
 * <p>Usage: {@code CpuTimeMain SUITE [--include REGEX] [--rounds N]} (default 10 rounds).
 */
public final class CpuTimeMain {
  private static final long ROUND_NANOS = 300_000_000L;
  private static final int WARMUP_ROUNDS = 3;

  private CpuTimeMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: CpuTimeMain SUITE [--include REGEX] [--rounds N]");
      System.exit(2);
    }
    String suite = args[0];
    String include = null;
    int rounds = 10;
    int only = -1;
    for (int i = 1; i < args.length; i++) {
      switch (args[i]) {
        case "--include" -> include = args[++i];
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--only" -> only = Integer.parseInt(args[++i]);
        default -> {
          System.err.println("unknown option " + args[i]);
          System.exit(2);
        }
      }
    }
    String pattern = BenchMain.pattern(suite, include);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    if (!threads.isCurrentThreadCpuTimeSupported()) {
      System.err.println("this JVM cannot measure thread CPU time");
      System.exit(2);
    }
    Blackhole blackhole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
    List<BenchMain.Kernel> kernels = BenchMain.kernels(pattern);
    if (only < 0) {
      // Each kernel in a JVM of its own (as JMH forks), so that no kernel runs on code that
      // the JIT compiled for another kernel's types and widths.
      List<String> lines = new ArrayList<>();
      for (int k = 0; k < kernels.size(); k++) {
        String line = fork(args, k);
        System.out.println(line);
        lines.add(line);
      }
      Path out = Path.of("target", "bench", suite + "-cpu.txt");
      Files.createDirectories(out.getParent());
      Files.write(out, lines);
      return;
    }
    for (BenchMain.Kernel kernel : List.of(kernels.get(only))) {
      Class<?> cls = Class.forName(kernel.className());
      Object state = cls.getDeclaredConstructor().newInstance();
      for (Map.Entry<String, String> param : kernel.params().entrySet()) {
        setParam(state, param.getKey(), param.getValue());
      }
      // Trial and iteration set-ups once; invocation ones (and tear-downs) around every
      // operation, outside the measured CPU time, as JMH does.
      List<Method> beforeEach = new ArrayList<>();
      List<Method> afterEach = new ArrayList<>();
      for (Method method : cls.getMethods()) {
        Setup setup = method.getAnnotation(Setup.class);
        TearDown tearDown = method.getAnnotation(TearDown.class);
        if (setup != null && setup.value() == Level.Invocation) {
          beforeEach.add(method);
        } else if (setup != null) {
          method.invoke(state);
        } else if (tearDown != null && tearDown.value() == Level.Invocation) {
          afterEach.add(method);
        }
      }
      Operation ours =
          new Operation(cls.getMethod("ours", parameters(cls, "ours")), beforeEach, afterEach);
      Operation theirs =
          new Operation(
              cls.getMethod("parquetJava", parameters(cls, "parquetJava")), beforeEach, afterEach);
      // A class that measures fixed batches of calls (@Measurement(batchSize), the sink suite's
      // whole files) gets rounds of exactly that many calls, counted as one operation set, and
      // its declared warm-up rounds.
      Measurement fixed = cls.getAnnotation(Measurement.class);
      int callsPerRound = fixed != null && fixed.batchSize() > 1 ? fixed.batchSize() : 0;
      Warmup warmup = cls.getAnnotation(Warmup.class);
      int warmupRounds = Math.max(WARMUP_ROUNDS, warmup == null ? 0 : warmup.iterations());
      ours = ours.withCallsPerRound(callsPerRound);
      theirs = theirs.withCallsPerRound(callsPerRound);
      double bestOurs = 0;
      double bestTheirs = 0;
      for (int round = 0; round < rounds + warmupRounds; round++) {
        double o = rate(threads, state, ours, blackhole);
        double t = rate(threads, state, theirs, blackhole);
        if (round >= warmupRounds) {
          bestOurs = Math.max(bestOurs, o);
          bestTheirs = Math.max(bestTheirs, t);
        }
      }
      String name = BenchMain.kernelName(cls.getName(), kernel.params());
      String line =
          String.format(
              Locale.ROOT,
              "%s ours=%.0f %s=%.0f ratio=%.2f",
              name,
              bestOurs,
              BenchMain.peerLabel(suite),
              bestTheirs,
              bestOurs / bestTheirs);
      System.out.println(line);
    }
  }

  /** Runs kernel {@code index} in a new JVM with this one's options; returns its line. */
  private static String fork(String[] args, int index) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(CpuTimeMain.class.getName());
    command.addAll(List.of(args));
    command.add("--only");
    command.add(Integer.toString(index));
    Process process =
        new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String output = new String(process.getInputStream().readAllBytes()).trim();
    if (process.waitFor() != 0 || output.isEmpty()) {
      throw new IOException("kernel " + index + " failed: " + output);
    }
    return output.substring(output.lastIndexOf('\n') + 1);
  }

  private static Class<?>[] parameters(Class<?> cls, String name) {
    for (Method method : cls.getMethods()) {
      if (method.getName().equals(name)) {
        return method.getParameterTypes();
      }
    }
    throw new IllegalArgumentException(cls.getName() + " has no method " + name);
  }

  private static void setParam(Object state, String name, String value)
      throws ReflectiveOperationException {
    Field field = state.getClass().getField(name);
    Class<?> type = field.getType();
    if (type == int.class) {
      field.setInt(state, Integer.parseInt(value));
    } else if (type == long.class) {
      field.setLong(state, Long.parseLong(value));
    } else if (type == String.class) {
      field.set(state, value);
    } else {
      throw new IllegalArgumentException("unsupported @Param type " + type + " of " + name);
    }
  }

  /**
   * A benchmark method, the invocation-level set-ups and tear-downs around each call, and the
   * operations one call counts for ({@code @OperationsPerInvocation}).
   */
  private record Operation(
      Method method, List<Method> beforeEach, List<Method> afterEach, int callsPerRound) {
    Operation(Method method, List<Method> beforeEach, List<Method> afterEach) {
      this(method, beforeEach, afterEach, 0);
    }

    Operation withCallsPerRound(int calls) {
      return new Operation(method, beforeEach, afterEach, calls);
    }

    long opsPerCall() {
      OperationsPerInvocation per = method.getAnnotation(OperationsPerInvocation.class);
      return per == null ? 1 : per.value();
    }
  }

  /**
   * Operations per CPU-second of one round of about {@link #ROUND_NANOS} of CPU time (set-ups and
   * tear-downs of each invocation not counted).
   */
  private static double rate(ThreadMXBean threads, Object state, Operation op, Blackhole bh)
      throws IllegalAccessException, IOException {
    Method method = op.method();
    boolean takesBlackhole = method.getParameterCount() == 1;
    long ops = 0;
    long spent = 0;
    int calls = 0;
    try {
      do {
        for (Method before : op.beforeEach()) {
          before.invoke(state);
        }
        long start = threads.getCurrentThreadCpuTime();
        if (takesBlackhole) {
          method.invoke(state, bh);
        } else {
          bh.consume(method.invoke(state));
        }
        spent += threads.getCurrentThreadCpuTime() - start;
        calls++;
        // With fixed rounds, the operations count once per round (as JMH's single shot counts
        // them per batch of calls).
        ops +=
            op.callsPerRound() > 0
                ? (calls == op.callsPerRound() ? op.opsPerCall() : 0)
                : op.opsPerCall();
        for (Method after : op.afterEach()) {
          after.invoke(state);
        }
      } while (op.callsPerRound() > 0 ? calls < op.callsPerRound() : spent < ROUND_NANOS);
    } catch (InvocationTargetException e) {
      throw new IOException(method + " failed", e.getCause());
    }
    return ops * 1e9 / spent;
  }
}
