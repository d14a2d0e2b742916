package dev.parquetconnect.bench.worker;

import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRuntime;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code bin/bench worker}: the cost of a record end to end on a real worker. Starts a KRaft broker
 * and one distributed Connect worker from the jars the integration tests use, with our plugin and
 * Apache Iceberg's Kafka Connect sink on the worker's plugin path, produces each dataset once, and
 * runs every leg over it, the legs' order alternating between rounds. Per leg it prints the
 * worker's CPU seconds per million records (from {@code /proc/<pid>/stat}, connector creation to
 * the last commit), the wall time, the bytes written and whether every record is there exactly once
 * (read back with DuckDB); lines also go to {@code <work dir>/results.txt}.
 *
 * <p>The printed lines are the program's output, so they go to standard output; the harness's own
 * progress is logged.
 */
public final class WorkerBenchMain {

  private static final PrintStream OUT = System.out;
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration STATUS_EVERY = Duration.ofSeconds(2);

  /** The round number of the untimed warm-up before round 1 (rounds count from 0). */
  private static final int WARMUP = -1;

  private final WorkerBenchOptions options;
  private final Path workDir;
  private final Path results;
  private final List<LegResult> done = new ArrayList<>();
  private final List<LegResult> warmups = new ArrayList<>();

  private WorkerBenchMain(WorkerBenchOptions options) {
    this.options = options;
    this.workDir = options.workDir().toAbsolutePath().normalize();
    this.results = workDir.resolve("results.txt");
  }

  public static void main(String[] args) throws Exception {
    if (List.of(args).contains("--help")) {
      OUT.println(WorkerBenchOptions.USAGE);
      return;
    }
    WorkerBenchOptions options;
    try {
      options = WorkerBenchOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(WorkerBenchOptions.USAGE);
      System.exit(2);
      return;
    }
    new WorkerBenchMain(options).run();
  }

  private void run() throws Exception {
    deleteRecursively(workDir);
    Files.createDirectories(workDir);
    Path icebergPlugins = Path.of(System.getProperty("bench.iceberg.plugins"));
    print(
        "# bin/bench worker "
            + Instant.now()
            + " records="
            + options.records()
            + " repeat="
            + options.repeat()
            + " warmup="
            + options.warmup()
            + " partitions="
            + options.partitions()
            + " commit-interval-ms="
            + options.commitIntervalMs()
            + " cpus="
            + Runtime.getRuntime().availableProcessors()
            + " load="
            + loadAverage()
            + (consumerOverrides().isEmpty() ? "" : " consumer=" + consumerOverrides()));
    KafkaRuntime runtime = KafkaRuntime.defaultVersion();
    try (KafkaBroker broker =
            KafkaBroker.builder(runtime, workDir.resolve("broker")).heap("1g").start();
        ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(workDir.resolve("worker"))
                .groupId("bench")
                .heap("2g")
                .workerProperty("plugin.path", ItPaths.pluginDir() + "," + icebergPlugins)
                // The framework's offset commits at the sinks' commit interval: a sink task's
                // poll waits up to the next offset commit when no record comes, so with Connect's
                // default of 60 s our sink's clock-driven commit of the last records would wait
                // for it; the harness's 1 s would call preCommit ten times as often as needed.
                .workerProperty(
                    "offset.flush.interval.ms", Long.toString(options.commitIntervalMs()))
                .start()) {
      print("# worker pid " + worker.pid() + ", " + runtime + ", log " + worker.logFile());
      // Each dataset's first records come first, so that the warm-up reads the same records the
      // rounds begin with; the rest follow once it is done, continuing the same random sequence.
      Map<BenchDataset, Producing> producing = new LinkedHashMap<>();
      int warmup = options.warmup();
      for (BenchDataset dataset : options.datasets()) {
        broker.createTopic(dataset.topic(), options.partitions());
        producing.put(dataset, new Producing(dataset));
        if (warmup > 0) {
          produce(broker, producing.get(dataset), warmup);
        }
      }
      if (warmup > 0) {
        Map<BenchDataset, Map<Integer, Long>> warmupOffsets = new LinkedHashMap<>();
        for (BenchDataset dataset : options.datasets()) {
          warmupOffsets.put(dataset, endOffsets(broker, dataset, warmup));
        }
        for (BenchDataset dataset : options.datasets()) {
          for (LegKind kind : options.legs()) {
            runLegReportingFailure(
                broker, worker, dataset, kind, WARMUP, warmup, warmupOffsets.get(dataset));
          }
        }
      }
      Map<BenchDataset, Map<Integer, Long>> endOffsets = new LinkedHashMap<>();
      for (BenchDataset dataset : options.datasets()) {
        if (warmup < options.records()) {
          produce(broker, producing.get(dataset), options.records());
        }
        endOffsets.put(dataset, endOffsets(broker, dataset, options.records()));
      }
      for (BenchDataset dataset : options.datasets()) {
        for (int round = 0; round < options.repeat(); round++) {
          for (LegKind kind : options.legsOfRound(round)) {
            runLegReportingFailure(
                broker, worker, dataset, kind, round, options.records(), endOffsets.get(dataset));
          }
        }
      }
    }
    summarise();
  }

  /** One leg; its failure (a task that fails, a commit that never comes) is printed, not thrown. */
  private void runLegReportingFailure(
      KafkaBroker broker,
      ConnectWorker worker,
      BenchDataset dataset,
      LegKind kind,
      int round,
      int records,
      Map<Integer, Long> endOffsets)
      throws Exception {
    try {
      runLeg(broker, worker, dataset, kind.leg(), round, records, endOffsets);
    } catch (IllegalStateException e) {
      // One leg's failure says nothing about the others: report it and go on.
      print("FAIL " + kind.cliName() + " dataset=" + dataset.cliName() + ": " + e.getMessage());
      removeConnector(worker, connectorName(kind, dataset, round));
    }
  }

  /** A fresh name per leg and round: a new consumer group, which reads the topic from the start. */
  private static String connectorName(LegKind kind, BenchDataset dataset, int round) {
    return kind.cliName()
        + "-"
        + dataset.cliName()
        + "-"
        + (round == WARMUP ? "warmup" : Integer.toString(round + 1));
  }

  private static void removeConnector(ConnectWorker worker, String name) {
    try {
      worker.deleteConnector(name);
      worker.awaitConnectorDeleted(name, Duration.ofSeconds(60));
    } catch (RuntimeException e) {
      // Not there (it failed before it was created) or the worker is gone: the next leg says so.
    }
  }

  /** A dataset's records as produced so far: the next id and the random sequence they come from. */
  private static final class Producing {
    final BenchDataset dataset;
    final Random random;
    final StringBuilder scratch = new StringBuilder(8192);
    long nextId;

    Producing(BenchDataset dataset) {
      this.dataset = dataset;
      this.random = new Random(20261126L + dataset.ordinal());
    }
  }

  /** Produces the dataset's records up to id {@code until - 1}, round robin over the partitions. */
  private void produce(KafkaBroker broker, Producing producing, long until) throws Exception {
    BenchDataset dataset = producing.dataset;
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    config.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
    config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    long started = System.nanoTime();
    long from = producing.nextId;
    long bytes = 0;
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      for (long id = from; id < until; id++) {
        byte[] value = dataset.value(id, producing.random, producing.scratch);
        bytes += value.length;
        int partition = (int) (id % options.partitions());
        producer.send(new ProducerRecord<>(dataset.topic(), partition, null, value));
      }
      producer.flush();
    }
    producing.nextId = Math.max(from, until);
    print(
        String.format(
            Locale.ROOT,
            "# produced %,d records of %s to %s, ids %,d to %,d (%,d bytes of JSON, %.1f s)",
            until - from,
            dataset.cliName(),
            dataset.topic(),
            from,
            until - 1,
            bytes,
            (System.nanoTime() - started) / 1e9));
  }

  /** The end offset of each partition of the dataset's topic, which must hold {@code records}. */
  private Map<Integer, Long> endOffsets(KafkaBroker broker, BenchDataset dataset, long records)
      throws Exception {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int p = 0; p < options.partitions(); p++) {
      latest.put(new TopicPartition(dataset.topic(), p), OffsetSpec.latest());
    }
    Map<Integer, Long> ends = new LinkedHashMap<>();
    broker
        .admin()
        .listOffsets(latest)
        .all()
        .get()
        .forEach((partition, info) -> ends.put(partition.partition(), info.offset()));
    long total = ends.values().stream().mapToLong(Long::longValue).sum();
    if (total != records) {
      throw new IllegalStateException(
          dataset.topic() + " holds " + total + " records, not " + records);
    }
    return ends;
  }

  private void runLeg(
      KafkaBroker broker,
      ConnectWorker worker,
      BenchDataset dataset,
      Leg leg,
      int round,
      int records,
      Map<Integer, Long> endOffsets)
      throws Exception {
    String name = connectorName(leg.kind(), dataset, round);
    Path output = workDir.resolve("out").resolve(name);
    Files.createDirectories(output);
    Optional<String> skip = leg.skipReason(worker, dataset, output);
    if (skip.isPresent()) {
      print("SKIP " + leg.kind().cliName() + " dataset=" + dataset.cliName() + ": " + skip.get());
      return;
    }
    leg.prepare(broker, name);
    Map<String, String> config =
        new java.util.LinkedHashMap<>(
            leg.connectorConfig(name, dataset, output, records, options.commitIntervalMs()));
    config.putAll(consumerOverrides());
    long pid = worker.pid();
    boolean profile = options.profile() && leg.kind() != LegKind.ICEBERG_JSON_CONVERTER;
    JfrProfile recording = profile ? JfrProfile.start(pid, workDir.resolve(name + ".jfr")) : null;
    Map<Long, ProcessCpu.ThreadCpu> threadsBefore = ProcessCpu.threads(pid);
    double cpuBefore = ProcessCpu.processSeconds(pid);
    long createdMillis = System.currentTimeMillis();
    worker.putConnectorConfig(name, config);
    Leg.Commit commit;
    try {
      commit = awaitLastCommit(worker, dataset, leg, name, output, records, endOffsets);
    } catch (IllegalStateException e) {
      if (recording != null) {
        // The next leg starts a recording of the same name: this one must end first.
        recording.stopAndSummarise();
      }
      throw e;
    }
    double cpu = ProcessCpu.processSeconds(pid) - cpuBefore;
    Map<String, Double> threadCpu = ProcessCpu.byGroup(threadsBefore, ProcessCpu.threads(pid));
    long detectedMillis = System.currentTimeMillis();
    String profileSummary = recording == null ? null : recording.stopAndSummarise();
    removeConnector(worker, name);
    ParquetReadBack readBack = ParquetReadBack.of(commit.dataFiles());
    long bytes = 0;
    for (Path file : commit.dataFiles()) {
      bytes += Files.size(file);
    }
    double wall = (commit.commitTimeMillis() - createdMillis) / 1000.0;
    LegResult result =
        new LegResult(
            dataset,
            leg.kind(),
            round + 1,
            cpu,
            cpu * 1_000_000.0 / records,
            wall,
            bytes,
            commit.dataFiles().size(),
            readBack.exactlyOnce(records));
    if (round == WARMUP) {
      warmups.add(result);
    } else {
      done.add(result);
    }
    print(
        String.format(
            Locale.ROOT,
            "%s dataset=%s leg=%s round=%s records=%d cpu_s=%.2f cpu_s_per_million=%.2f"
                + " wall_s=%.1f bytes=%d files=%d exactly_once=%s",
            round == WARMUP ? "WARMUP" : "LEG",
            dataset.cliName(),
            leg.kind().cliName(),
            round == WARMUP ? "warmup (cold, untimed)" : Integer.toString(round + 1),
            records,
            cpu,
            result.cpuPerMillion(),
            wall,
            bytes,
            result.files(),
            readBack.describe(records)));
    print(
        String.format(
            Locale.ROOT,
            "    last commit: %s; seen %.1f s after it; worker CPU by thread: %s; load %s",
            commit.detail(),
            (detectedMillis - commit.commitTimeMillis()) / 1000.0,
            threadCpu.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.2f s", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", ")),
            loadAverage()));
    if (profileSummary != null) {
      print(profileSummary.stripTrailing());
    }
  }

  /**
   * Polls for the leg's last commit every 200 ms (and the connector's status every 2 s, so that a
   * failed task ends the wait with its stack trace instead of a timeout).
   */
  private Leg.Commit awaitLastCommit(
      ConnectWorker worker,
      BenchDataset dataset,
      Leg leg,
      String name,
      Path output,
      int records,
      Map<Integer, Long> endOffsets)
      throws IOException, InterruptedException {
    // Generous: a loaded 2-core machine writes a few thousand records a second at worst.
    long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos() + records * 500_000L;
    long nextStatus = System.nanoTime() + STATUS_EVERY.toNanos();
    while (true) {
      Optional<Leg.Commit> commit = leg.lastCommit(name, dataset, output, endOffsets);
      if (commit.isPresent()) {
        return commit.get();
      }
      long now = System.nanoTime();
      if (now > nextStatus) {
        nextStatus = now + STATUS_EVERY.toNanos();
        ConnectWorker.ConnectorStatus status = worker.connectorStatus(name);
        boolean failed =
            "FAILED".equals(status.connectorState())
                || status.tasks().stream().anyMatch(task -> "FAILED".equals(task.state()));
        if (failed) {
          throw new IllegalStateException(
              "Leg " + name + " failed: " + status.json().toPrettyString());
        }
      }
      if (now > deadline) {
        throw new IllegalStateException(
            "Leg " + name + " did not commit every record in time; worker log " + worker.logFile());
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  /**
   * Per dataset and leg: the min, median and max CPU per million records of the timed rounds, the
   * cold figure of the warm-up, and each leg's ratio to Iceberg's sink in the same round.
   */
  private void summarise() throws IOException {
    print(
        "# summary: worker CPU s per million records (min / median / max of the timed rounds;"
            + " cold: the warm-up on the fresh worker), bytes of the last round");
    Map<BenchDataset, Map<LegKind, List<LegResult>>> byDataset =
        done.stream()
            .collect(
                Collectors.groupingBy(
                    LegResult::dataset,
                    LinkedHashMap::new,
                    Collectors.groupingBy(
                        LegResult::leg, LinkedHashMap::new, Collectors.toList())));
    for (Map.Entry<BenchDataset, Map<LegKind, List<LegResult>>> dataset : byDataset.entrySet()) {
      Map<LegKind, List<LegResult>> legs = dataset.getValue();
      for (Map.Entry<LegKind, List<LegResult>> leg : legs.entrySet()) {
        List<Double> cpu = leg.getValue().stream().map(LegResult::cpuPerMillion).sorted().toList();
        long bytes = leg.getValue().get(leg.getValue().size() - 1).bytes();
        boolean allExact = leg.getValue().stream().allMatch(LegResult::exactlyOnce);
        String cold =
            warmups.stream()
                .filter(w -> w.dataset() == dataset.getKey() && w.leg() == leg.getKey())
                .findFirst()
                .map(w -> String.format(Locale.ROOT, "%.2f", w.cpuPerMillion()))
                .orElse("-");
        print(
            String.format(
                Locale.ROOT,
                "SUMMARY dataset=%s leg=%s min=%.2f median=%.2f max=%.2f cold=%s bytes=%d"
                    + " exactly_once=%s",
                dataset.getKey().cliName(),
                leg.getKey().cliName(),
                cpu.get(0),
                median(cpu),
                cpu.get(cpu.size() - 1),
                cold,
                bytes,
                allExact ? "yes" : "NO"));
      }
      List<LegResult> iceberg = legs.get(LegKind.ICEBERG_JSON_CONVERTER);
      for (Map.Entry<LegKind, List<LegResult>> leg : legs.entrySet()) {
        if (iceberg != null && leg.getKey() != LegKind.ICEBERG_JSON_CONVERTER) {
          printRatios(dataset.getKey(), iceberg, leg.getValue());
        }
      }
      // What committing into a table costs our sink over committing files, same input path.
      printMedianRatio(
          dataset.getKey(), legs, LegKind.OURS_TABLE_JSON_CONVERTER, LegKind.OURS_JSON_CONVERTER);
      printMedianRatio(
          dataset.getKey(), legs, LegKind.OURS_TABLE_INPUT_JSON, LegKind.OURS_INPUT_JSON);
    }
  }

  private void printMedianRatio(
      BenchDataset dataset,
      Map<LegKind, List<LegResult>> legs,
      LegKind numerator,
      LegKind denominator)
      throws IOException {
    if (legs.containsKey(numerator) && legs.containsKey(denominator)) {
      print(
          String.format(
              Locale.ROOT,
              "RATIO dataset=%s %s/%s=%.2f (median CPU per million)",
              dataset.cliName(),
              numerator.cliName(),
              denominator.cliName(),
              medianCpu(legs.get(numerator)) / medianCpu(legs.get(denominator))));
    }
  }

  private static double medianCpu(List<LegResult> results) {
    return median(results.stream().map(LegResult::cpuPerMillion).sorted().toList());
  }

  /** Iceberg's CPU per million over the leg's, round by round: both ran on the same worker then. */
  private void printRatios(BenchDataset dataset, List<LegResult> iceberg, List<LegResult> leg)
      throws IOException {
    List<Double> ratios = new ArrayList<>();
    StringBuilder rounds = new StringBuilder();
    for (LegResult ours : leg) {
      for (LegResult theirs : iceberg) {
        if (theirs.round() == ours.round()) {
          double ratio = theirs.cpuPerMillion() / ours.cpuPerMillion();
          ratios.add(ratio);
          rounds.append(rounds.length() == 0 ? "" : " ");
          rounds.append(String.format(Locale.ROOT, "%d:%.2f", ours.round(), ratio));
        }
      }
    }
    if (ratios.isEmpty()) {
      return;
    }
    List<Double> sorted = ratios.stream().sorted().toList();
    print(
        String.format(
            Locale.ROOT,
            "RATIO dataset=%s %s/%s by round %s; min=%.2f median=%.2f max=%.2f",
            dataset.cliName(),
            LegKind.ICEBERG_JSON_CONVERTER.cliName(),
            leg.get(0).leg().cliName(),
            rounds,
            sorted.get(0),
            median(sorted),
            sorted.get(sorted.size() - 1)));
  }

  private static double median(List<Double> sorted) {
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private void print(String line) throws IOException {
    OUT.println(line);
    OUT.flush();
    Files.writeString(
        results,
        line + System.lineSeparator(),
        StandardCharsets.UTF_8,
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }

  /**
   * {@code -Dbench.consumer.overrides=fetch.min.bytes=1048576,fetch.max.wait.ms=500}: consumer
   * settings given to every leg's connector alike ({@code consumer.override.*}, which the worker's
   * default client override policy allows), to see what they change in the consumer's share.
   */
  static Map<String, String> consumerOverrides() {
    String spec = System.getProperty("bench.consumer.overrides", "").trim();
    Map<String, String> out = new java.util.LinkedHashMap<>();
    if (spec.isEmpty()) {
      return out;
    }
    for (String pair : spec.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("bench.consumer.overrides: KEY=VALUE expected: " + pair);
      }
      out.put("consumer.override." + pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return out;
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0];
    } catch (IOException e) {
      return "?";
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** One leg's measurement. */
  record LegResult(
      BenchDataset dataset,
      LegKind leg,
      int round,
      double cpuSeconds,
      double cpuPerMillion,
      double wallSeconds,
      long bytes,
      int files,
      boolean exactlyOnce) {}
}
