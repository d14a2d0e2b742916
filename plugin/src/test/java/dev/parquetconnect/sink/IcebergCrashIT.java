package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.parquetconnect.iceberg.maintenance.MaintenanceTableChecks;
import dev.parquetconnect.it.Await;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ContinuousProducer;
import dev.parquetconnect.it.CrashRecords;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.ProcessSignals;
import dev.parquetconnect.it.WorkerFleet;
import dev.parquetconnect.sink.commit.FaultInjector;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once in an Iceberg table through crashes of real workers: two Connect workers (child JVMs
 * of the plugin archive) run a table-mode sink with three tasks on a six-partition topic that is
 * produced to all along, committing into Iceberg's REST catalog (in this JVM, warehouse and data
 * files on local disk), while at least ten crashes drawn from a logged seed hit them: a task failed
 * at each crash point of the table commit ({@link FaultInjector}), a worker halted at a crash point
 * or killed with SIGKILL at a random moment (then restarted), and a worker frozen with SIGSTOP
 * until its partitions moved and were committed by their new owners, then woken with SIGCONT as a
 * zombie, and a staged range withdrawn while its writer goes on (healed in place, no rebalance).
 * Afterwards, and after a recovery of every partition older than {@code commit.timeout.ms} (the
 * orphan clean-up), Iceberg's generic reader finds every produced (partition, offset) in the
 * current snapshot exactly once with its value, no data file is referenced twice, none under the
 * topic's directory is unreferenced, and the snapshots are as designed. Replay a run with {@code
 * -Dicecrash.seed=<seed>} (the seed is logged first).
 */
final class IcebergCrashIT {
  private static final Logger LOG = LoggerFactory.getLogger(IcebergCrashIT.class);
  private static final String TOPIC = "icecrash";
  private static final String CONNECTOR = "icecrash";
  private static final TableIdentifier TABLE = TableIdentifier.of("lake", TOPIC);
  private static final int WORKERS = 2;
  private static final int PARTITIONS = 6;
  private static final int TASKS = 3;
  private static final int REGIONS = 3;
  private static final int RECORDS_PER_SECOND = 150;
  private static final long COMMIT_TIMEOUT_MS = 20_000;

  /**
   * Group memberships of a killed, halted or frozen worker and of its tasks' consumers expire
   * within this: the harness's 6 s were most of such a round.
   */
  private static final int SESSION_TIMEOUT_MS = 3000;

  /** How long after its round a woken zombie may still write files, for the orphan clean-up. */
  private static final long ZOMBIE_WRITES_ON_MS = 3_000;

  private static final String COMMIT_INTERVAL_MS = "2000";

  /**
   * How soon after the last crash the table must hold every produced record: a few intervals to
   * heal a broken chain and catch up, with room for a loaded machine; far below the minutes a
   * partition waited for its next rebalance when its chain stayed broken.
   */
  private static final Duration CATCH_UP = Duration.ofSeconds(90);

  private static final IcebergCrashChecks CHECKS =
      new IcebergCrashChecks(TABLE, CONNECTOR, TOPIC, PARTITIONS);

  private static Path workDir;
  private static Path faultFile;
  private static WorkerFleet fleet;

  /** Task failures that no crash of the plan caused (logged and reported, restarted). */
  private static final List<String> unplanned = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    workDir = ItPaths.freshWorkDir("IcebergCrashIT");
    faultFile = workDir.resolve("faults");
    fleet =
        WorkerFleet.start(
            workDir,
            WORKERS,
            "icecrash-workers",
            "-D" + FaultInjector.PROPERTY + "=" + faultFile,
            WorkerFleet.shortSessions(SESSION_TIMEOUT_MS));
  }

  @AfterAll
  static void stop() throws Exception {
    if (fleet != null) {
      fleet.close();
    }
  }

  @Test
  @Timeout(value = 15, unit = TimeUnit.MINUTES)
  void everyOffsetOnceInTheTableAfterRandomCrashesOfRealWorkers() throws Exception {
    long seed = Long.getLong("icecrash.seed", new SecureRandom().nextLong());
    LOG.info("IcebergCrashIT seed {} (replay with -Dicecrash.seed={})", seed, seed);
    Random random = new Random(seed);
    long started = System.nanoTime();
    List<IcebergCrashPlan.Crash> crashes = IcebergCrashPlan.plan(random);
    LOG.info("Crashes planned: {}", crashes);
    fleet.broker().createTopic(TOPIC, PARTITIONS);
    Catalog catalog = fleet.catalog();
    List<String> done = new ArrayList<>();
    try (ContinuousProducer producer =
        ContinuousProducer.start(
            fleet.broker().bootstrapServers(), TOPIC, RECORDS_PER_SECOND, IcebergCrashIT::record)) {
      fleet.anyRunning().putConnectorConfig(CONNECTOR, connectorConfig());
      awaitRunning();
      CHECKS.awaitCommitted(
          catalog,
          IcebergCrashChecks.plusOne(CHECKS.tableOffsets(catalog)),
          "a first commit of every partition");
      for (int round = 0; round < crashes.size(); round++) {
        String what = crash(crashes.get(round), random, catalog);
        done.add(what);
        LOG.info(
            "Round {} of {} at {} s: {}",
            round + 1,
            crashes.size(),
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
            what);
      }
      long lastCrashEnded = System.currentTimeMillis();
      fleet.awaitRestarts();
      Map<Integer, NavigableMap<Long, Long>> produced = producer.stop();
      Map<Integer, Long> ends = new TreeMap<>();
      produced.forEach((p, offsets) -> ends.put(p, offsets.lastKey()));
      // Every partition's chain heals within about an interval of a withdrawn or refused range,
      // without a rebalance: the table catches up with the producer soon after the last crash.
      long catchUp = System.nanoTime();
      CHECKS.awaitCommitted(catalog, ends, "every produced record", CATCH_UP);
      long crashesDone = System.nanoTime();
      LOG.info(
          "The table held every produced record {} ms after the producer stopped",
          TimeUnit.NANOSECONDS.toMillis(crashesDone - catchUp));

      // The orphan clean-up: a recovery of every partition, later than commit.timeout.ms after
      // any file a crashed, failed or fenced writer left: those of the crashes (a woken zombie
      // writes on for a moment after its round) and any unreferenced data file seen now (a commit
      // given up since), not a fixed wait after the catch-up.
      Files.deleteIfExists(faultFile);
      Path lake = workDir.resolve("lake");
      long newestLeft =
          Math.max(
              lastCrashEnded + ZOMBIE_WRITES_ON_MS,
              CHECKS.newestUnreferenced(catalog.loadTable(TABLE), lake));
      long cleanable = newestLeft + COMMIT_TIMEOUT_MS + 1000;
      Thread.sleep(Math.max(0, cleanable - System.currentTimeMillis()));
      fleet
          .anyRunning()
          .require("POST", "/connectors/" + CONNECTOR + "/restart?includeTasks=true", "");
      awaitRunning();
      Await.until(
          "the recovery to delete every data file no snapshot references and temporary file",
          Duration.ofMinutes(1),
          () ->
              CHECKS.unreferenced(catalog.loadTable(TABLE), lake).isEmpty()
                  && MaintenanceTableChecks.temporaryFiles(lake).isEmpty());
      fleet.anyRunning().deleteConnector(CONNECTOR);
      fleet.anyRunning().awaitConnectorDeleted(CONNECTOR, Duration.ofMinutes(1));

      String rounds = "seed " + seed + ", " + done + ", unplanned task failures " + unplanned;
      Table table = catalog.loadTable(TABLE);
      MaintenanceTableChecks.assertEveryOffsetOnceWithItsValue(
          table, produced, IcebergCrashIT::region, rounds);
      List<String> referenced = IcebergCrashChecks.referencedFiles(table);
      assertEquals(
          referenced.size(),
          new HashSet<>(referenced).size(),
          "a data file referenced twice: " + rounds);
      assertEquals(
          List.of(), CHECKS.unreferenced(table, lake), "unreferenced data files: " + rounds);
      assertEquals(
          List.of(),
          MaintenanceTableChecks.temporaryFiles(lake),
          "temporary files left: " + rounds);
      int snapshots = CHECKS.assertSnapshotsAsDesigned(table, rounds);
      assertTrue(done.size() >= 10, rounds);
      // Commits of several files, so that the crashes between files had some to leave.
      assertTrue(referenced.size() > snapshots, referenced.size() + " files in " + snapshots);
      LOG.info(
          "IcebergCrashIT: {} crashes ({}), {} records, {} data files, {} snapshots; crashes took"
              + " {} s, all {} s",
          done.size(),
          rounds,
          produced.values().stream().mapToInt(Map::size).sum(),
          referenced.size(),
          snapshots,
          TimeUnit.NANOSECONDS.toSeconds(crashesDone - started),
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    } finally {
      if (catalog instanceof Closeable closeable) {
        closeable.close();
      }
    }
  }

  /** Makes one crash happen and the connector run again; returns what happened. */
  private static String crash(IcebergCrashPlan.Crash crash, Random random, Catalog catalog)
      throws Exception {
    if (crash.kind() != IcebergCrashPlan.Kind.FAIL
        && crash.kind() != IcebergCrashPlan.Kind.WITHDRAW) {
      // A halt may hit either worker, a kill and a zombie need both.
      fleet.awaitRestarts();
    }
    switch (crash.kind()) {
      case FAIL:
        return failTask(crash.point(), random);
      case HALT:
        return haltWorker(crash.point(), random);
      case SIGKILL:
        {
          Thread.sleep(500 + random.nextInt(2500));
          int w = random.nextInt(WORKERS);
          fleet.worker(w).kill();
          restartInBackground(w);
          awaitRunning();
          return "SIGKILL of worker " + w;
        }
      case WITHDRAW:
        return withdraw(catalog);
      default:
        return zombie(random, catalog);
    }
  }

  /**
   * Deletes the staged descriptor with the smallest start of a partition whose range the table does
   * not hold yet, while its writer goes on staging later ranges; then waits until the table holds
   * that range's offsets again: its writer notices at its next round and rewinds (no rebalance).
   */
  private static String withdraw(Catalog catalog) throws Exception {
    Path staging = workDir.resolve("lake").resolve(SinkIts.TOPICS_DIR).resolve("_staging");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      Map<Integer, Long> offsets = CHECKS.tableOffsets(catalog);
      Path oldest = null;
      long[] range = null;
      List<Path> staged;
      try (Stream<Path> files = Files.walk(staging)) {
        staged = files.filter(f -> f.toString().endsWith(".json")).toList();
      } catch (java.io.IOException | java.io.UncheckedIOException listing) {
        staged = List.of();
      }
      for (Path f : staged) {
        // topic+partition+start+end-attempt.json
        String[] parts = f.getFileName().toString().split("\\+");
        int partition = Integer.parseInt(parts[1]);
        long start = Long.parseLong(parts[2]);
        long end = Long.parseLong(parts[3].substring(0, parts[3].indexOf('-')));
        if (start > offsets.get(partition) && (range == null || start < range[1])) {
          range = new long[] {partition, start, end};
          oldest = f;
        }
      }
      if (oldest != null && Files.deleteIfExists(oldest)) {
        long withdrawn = System.nanoTime();
        CHECKS.awaitCommitted(
            catalog,
            Map.of((int) range[0], range[2]),
            "the withdrawn range " + range[0] + "/" + range[1] + "-" + range[2] + " again",
            Duration.ofSeconds(60));
        return "staged range "
            + range[0]
            + "/"
            + range[1]
            + "-"
            + range[2]
            + " withdrawn, in the table "
            + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - withdrawn)
            + " ms later";
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no staged range to withdraw within 30 s");
  }

  /** Record {@code i}: a small struct (its converting costs little), in partition i % 6. */
  private static JsonRecord record(long i) {
    return CrashRecords.record(i, PARTITIONS, region(i));
  }

  /**
   * Every Kafka partition holds every region (i / 6, not i, decides it), so a commit has a data
   * file per region and a crash between its files leaves some completed.
   */
  private static String region(long i) {
    return SinkIts.region(i / PARTITIONS, REGIONS);
  }

  private static String failTask(String point, Random random) throws Exception {
    int hits = IcebergCrashPlan.hits(point, random);
    String what = "task failed at " + point + " (hit " + hits + ")";
    ConnectWorker.ConnectorStatus status = null;
    // A task of a woken zombie, still running until its worker learns that its tasks moved, may
    // take the fault: its failure is of a task generation Connect no longer reports. Then the
    // fault is armed again.
    for (int armed = 1; status == null; armed++) {
      Files.writeString(faultFile, point + " fail " + hits);
      Await.until(
          "the fault at " + point + " to be taken",
          Duration.ofSeconds(90),
          () -> !Files.exists(faultFile));
      if (IcebergCrashPlan.ROUND_POINTS.contains(point)) {
        // A round that fails is a failed catalog commit, not a task failure: the task logs it and
        // runs the round again after a back-off (its staged ranges wait in the store).
        return what + ": the round failed and was run again";
      }
      try {
        status =
            fleet
                .anyRunning()
                .awaitConnectorStatus(
                    CONNECTOR,
                    "a task to fail at " + point,
                    Duration.ofSeconds(20),
                    s -> s.tasks().stream().anyMatch(t -> "FAILED".equals(t.state())));
      } catch (IllegalStateException notSeen) {
        if (armed == 3) {
          throw new AssertionError(what + ": taken 3 times, no task reported failed", notSeen);
        }
        LOG.info("The fault at {} was taken by a task no longer reported: armed again", point);
      }
    }
    // Another task may pass the point before the fault file's deletion is seen: all restart.
    List<Integer> failed = new ArrayList<>();
    for (ConnectWorker.TaskStatus task : status.tasks()) {
      if ("FAILED".equals(task.state())) {
        failed.add(task.id());
        fleet.anyRunning().restartTask(CONNECTOR, task.id());
      }
    }
    awaitRunning();
    return what + ": task " + failed;
  }

  private static String haltWorker(String point, Random random) throws Exception {
    int hits = IcebergCrashPlan.hits(point, random);
    Files.writeString(faultFile, point + " halt " + hits);
    String what = "worker halted at " + point + " (hit " + hits + ")";
    try {
      Await.until(
          "a worker to halt at " + point,
          Duration.ofSeconds(90),
          () -> !Files.exists(faultFile) && fleet.workers().stream().anyMatch(w -> !w.isRunning()));
    } catch (IllegalStateException notReached) {
      Files.deleteIfExists(faultFile);
      throw new AssertionError(what + ": not reached in 90 s", notReached);
    }
    List<Integer> halted = new ArrayList<>();
    for (int w = 0; w < WORKERS; w++) {
      if (!fleet.worker(w).isRunning()) {
        halted.add(w);
        restartInBackground(w);
      }
    }
    if (halted.size() == WORKERS) {
      fleet.awaitRestarts();
    }
    awaitRunning();
    return what + ": worker " + halted;
  }

  /**
   * Freezes a worker that runs a task until the other worker runs all the tasks and every partition
   * committed past where it was, then wakes it: its tasks still hold open commits of partitions
   * that moved, which their condition on the table must refuse.
   */
  private static String zombie(Random random, Catalog catalog) throws Exception {
    int w = random.nextInt(WORKERS);
    JsonNode tasks = fleet.anyRunning().connectorStatus(CONNECTOR).json().path("tasks");
    if (!runsATask(tasks, fleet.worker(w))) {
      w = 1 - w;
    }
    ConnectWorker zombie = fleet.worker(w);
    ConnectWorker other = fleet.worker(1 - w);
    Map<Integer, Long> before = CHECKS.tableOffsets(catalog);
    long pid = zombie.pid();
    ProcessSignals.pause(pid);
    long frozen = System.nanoTime();
    try {
      other.awaitConnectorStatus(
          CONNECTOR,
          "the tasks of the frozen worker to move",
          Duration.ofMinutes(1),
          s ->
              s.isRunning(TASKS)
                  && !runsATask(s.json().path("tasks"), zombie)
                  && s.json().path("tasks").size() == TASKS);
      CHECKS.awaitCommitted(
          catalog, IcebergCrashChecks.plusOne(before), "every partition committed after the move");
    } finally {
      ProcessSignals.resume(pid);
    }
    long frozenSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - frozen);
    // The zombie runs on, finds its commits refused and rejoins the group.
    awaitRunning();
    return "worker " + w + " frozen " + frozenSeconds + " s, woken as a zombie";
  }

  private static boolean runsATask(JsonNode tasks, ConnectWorker worker) {
    String id = worker.restUri().getHost() + ":" + worker.restUri().getPort();
    for (JsonNode task : tasks) {
      if (id.equals(task.path("worker_id").asText())) {
        return true;
      }
    }
    return false;
  }

  private static void restartInBackground(int w) {
    fleet.restartInBackground(w, WorkerFleet::restartPatiently);
  }

  /**
   * Waits until the connector runs all its tasks. A task that failed by itself is restarted, as an
   * operator would, and noted: after five commits in a row given up (slower than half of {@code
   * commit.timeout.ms}, as on an overloaded machine) a task fails by design.
   */
  private static void awaitRunning() {
    Await.until(
        "the connector to run " + TASKS + " tasks",
        Duration.ofMinutes(3),
        () -> {
          Thread.sleep(300);
          ConnectWorker worker = fleet.anyRunning();
          ConnectWorker.ConnectorStatus status = worker.connectorStatus(CONNECTOR);
          for (ConnectWorker.TaskStatus task : status.tasks()) {
            if ("FAILED".equals(task.state())) {
              String trace = task.trace() == null ? "" : task.trace();
              // The status of a task restarted a moment ago may still say its injected failure.
              if (!trace.contains(FaultInjector.InjectedFault.class.getSimpleName())) {
                String first = trace.lines().findFirst().orElse("");
                LOG.warn("Task {} failed outside the planned crashes: {}", task.id(), first);
                unplanned.add("task " + task.id() + ": " + first);
              }
              worker.restartTask(CONNECTOR, task.id());
            }
          }
          return status.isRunning(TASKS);
        });
  }

  private static Map<String, String> connectorConfig() {
    Map<String, String> config = new LinkedHashMap<>();
    config.put("connector.class", ParquetSinkConnector.class.getName());
    config.put("tasks.max", Integer.toString(TASKS));
    config.put("topics", TOPIC);
    config.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    config.put("value.converter.schemas.enable", "true");
    config.put("consumer.override.max.poll.records", "500");
    config.put(ParquetSinkConfig.STORE_URL_CONFIG, workDir.resolve("lake").toUri().toString());
    config.put(ParquetSinkConfig.TOPICS_DIR_CONFIG, SinkIts.TOPICS_DIR);
    // Short, so that the run is: a commit gives up after 10 s, files a crashed writer left are
    // deleted by a recovery 20 s later, temporary files too (a file is open for 2 s at most).
    config.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, Long.toString(COMMIT_TIMEOUT_MS));
    config.put(ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG, Long.toString(COMMIT_TIMEOUT_MS));
    config.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    config.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    config.put(IcebergConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL_MS);
    // Six partitions commit into one table, each as a snapshot of its own: their catalog commits
    // conflict often. Iceberg retries a refused commit after 100 ms to 60 s by default; retrying
    // sooner keeps a commit well within half of commit.timeout.ms on a loaded machine.
    config.put(IcebergConfig.TABLE_PROPERTIES_PREFIX + "commit.retry.min-wait-ms", "10");
    config.put(IcebergConfig.TABLE_PROPERTIES_PREFIX + "commit.retry.max-wait-ms", "500");
    config.put(IcebergConfig.TABLE_PROPERTIES_PREFIX + "commit.retry.num-retries", "10");
    config.put(IcebergConfig.CATALOG_TYPE_CONFIG, "rest");
    config.put(IcebergConfig.CATALOG_URI_CONFIG, fleet.rest().uri());
    // Several data files per commit, so that a crash between files leaves some published.
    config.put(IcebergConfig.PARTITION_SPEC_CONFIG, "identity(region)");
    return config;
  }
}
