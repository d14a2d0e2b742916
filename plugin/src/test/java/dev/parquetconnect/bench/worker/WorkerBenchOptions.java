package dev.parquetconnect.bench.worker;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The command line of {@code bin/bench worker}: how many records, which datasets and legs, how
 * often, and the knobs that shape a leg's commits. Every option has a default, so {@code bin/bench
 * worker} alone runs the whole comparison.
 */
public final class WorkerBenchOptions {

  static final String USAGE =
      String.join(
          "\n",
          "usage: bin/bench worker [--records N] [--repeat R] [--warmup W] [--datasets LIST]",
          "                        [--legs LIST] [--partitions P] [--commit-interval-ms MS]",
          "                        [--profile] [--work-dir DIR]",
          "  --records N             records produced once per dataset (default 1000000)",
          "  --warmup W              before round 1, every leg over the dataset's first W records"
              + " (at most N),",
          "                          untimed but printed as the cold figure; 0: none, round 1"
              + " is cold (default 200000)",
          "  --repeat R              rounds of every leg; the order of the legs alternates"
              + " (default 2)",
          "  --datasets LIST         comma-separated: "
              + String.join(",", names(BenchDataset.values()))
              + " (default all)",
          "  --legs LIST             comma-separated: "
              + String.join(",", names(LegKind.values()))
              + " (default all)",
          "  --partitions P          partitions of each dataset's topic (default 2)",
          "  --commit-interval-ms MS how often both sinks commit on the wall clock (default 10000)",
          "  --profile               a JFR recording of the worker during our sink's legs, with"
              + " a summary",
          "  --work-dir DIR          broker, worker and output files (default"
              + " plugin/target/bench/worker)");

  private final int records;
  private final int repeat;
  private final int warmup;
  private final List<BenchDataset> datasets;
  private final List<LegKind> legs;
  private final int partitions;
  private final long commitIntervalMs;
  private final boolean profile;
  private final Path workDir;

  private WorkerBenchOptions(
      int records,
      int repeat,
      int warmup,
      List<BenchDataset> datasets,
      List<LegKind> legs,
      int partitions,
      long commitIntervalMs,
      boolean profile,
      Path workDir) {
    this.records = records;
    this.repeat = repeat;
    this.warmup = warmup;
    this.datasets = List.copyOf(datasets);
    this.legs = List.copyOf(legs);
    this.partitions = partitions;
    this.commitIntervalMs = commitIntervalMs;
    this.profile = profile;
    this.workDir = workDir;
  }

  /**
   * @throws IllegalArgumentException naming the option and what is wrong with it
   */
  public static WorkerBenchOptions parse(String... args) {
    int records = 1_000_000;
    int repeat = 2;
    // Enough for the JIT compilers to settle on the staged path and JsonConverter's: a worker
    // that runs for days pays their compilation once, not per million records.
    int warmup = 200_000;
    List<BenchDataset> datasets = List.of(BenchDataset.values());
    List<LegKind> legs = List.of(LegKind.values());
    int partitions = 2;
    long commitIntervalMs = 10_000;
    boolean profile = false;
    Path workDir = Path.of("plugin", "target", "bench", "worker");
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--records" -> records = (int) positive(option, value(args, ++i, option), 1);
        case "--repeat" -> repeat = (int) positive(option, value(args, ++i, option), 1);
        case "--warmup" -> warmup = (int) positive(option, value(args, ++i, option), 0);
        case "--datasets" ->
            datasets = parseList(option, value(args, ++i, option), BenchDataset.class);
        case "--legs" -> legs = parseList(option, value(args, ++i, option), LegKind.class);
        case "--partitions" -> partitions = (int) positive(option, value(args, ++i, option), 1);
        case "--commit-interval-ms" ->
            commitIntervalMs = positive(option, value(args, ++i, option), 100);
        case "--profile" -> profile = true;
        case "--work-dir" -> workDir = Path.of(value(args, ++i, option));
        default -> throw new IllegalArgumentException("unknown option " + option);
      }
    }
    return new WorkerBenchOptions(
        records, repeat, warmup, datasets, legs, partitions, commitIntervalMs, profile, workDir);
  }

  private static String value(String[] args, int index, String option) {
    if (index >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[index];
  }

  private static long positive(String option, String text, long min) {
    long value;
    try {
      value = Long.parseLong(text.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a whole number, not '" + text + "'");
    }
    if (value < min || value > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          option + " must be between " + min + " and " + Integer.MAX_VALUE + ", not " + text);
    }
    return value;
  }

  private static <E extends Enum<E> & Named> List<E> parseList(
      String option, String text, Class<E> type) {
    Set<E> chosen = new LinkedHashSet<>();
    for (String name : text.split(",")) {
      String wanted = name.trim().toLowerCase(Locale.ROOT);
      E match =
          Arrays.stream(type.getEnumConstants())
              .filter(constant -> constant.cliName().equals(wanted))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          option
                              + ": unknown name '"
                              + name.trim()
                              + "'; known: "
                              + String.join(",", names(type.getEnumConstants()))));
      chosen.add(match);
    }
    return new ArrayList<>(chosen);
  }

  private static List<String> names(Named[] values) {
    return Arrays.stream(values).map(Named::cliName).toList();
  }

  /** A dataset or leg as the command line names it. */
  interface Named {
    String cliName();
  }

  public int records() {
    return records;
  }

  public int repeat() {
    return repeat;
  }

  /**
   * Records of each dataset every leg reads once, untimed, before round 1: the first {@code warmup}
   * of the dataset, at most all of them; 0 for none.
   */
  public int warmup() {
    return Math.min(warmup, records);
  }

  public List<BenchDataset> datasets() {
    return datasets;
  }

  public List<LegKind> legs() {
    return legs;
  }

  public int partitions() {
    return partitions;
  }

  public long commitIntervalMs() {
    return commitIntervalMs;
  }

  public boolean profile() {
    return profile;
  }

  public Path workDir() {
    return workDir;
  }

  /**
   * The legs of round {@code round} (0-based): as given in even rounds, reversed in odd ones, so
   * that no leg always runs first on a cold worker or last on a hot one.
   */
  List<LegKind> legsOfRound(int round) {
    List<LegKind> order = new ArrayList<>(legs);
    if (round % 2 == 1) {
      java.util.Collections.reverse(order);
    }
    return order;
  }
}
