package dev.parquetconnect.iceberg.maintenance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.it.Await;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ContinuousProducer;
import dev.parquetconnect.it.CrashRecords;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.WorkerFleet;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.ParquetSinkConnector;
import dev.parquetconnect.sink.commit.FaultInjector;
import dev.parquetconnect.sink.commit.iceberg.IcebergConfig;
import dev.parquetconnect.sink.commit.iceberg.OffsetSummary;
import java.io.Closeable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Table maintenance through crashes of real workers: three Connect workers (child JVMs of the
 * plugin archive) run a table-mode sink with two tasks on a four-partition topic produced to all
 * along, committing into Iceberg's REST catalog (in this JVM, warehouse and data files on local
 * disk), with compaction of tiny files every second, snapshot expiry at a 3 s maximum age and
 * orphan clean-up every 1.5 s. Ten times, in an order drawn from a logged seed, the worker that
 * runs the maintenance is halted ({@code Runtime.halt}, as SIGKILL: no shutdown, no clean-up)
 * inside a run, at each {@link MaintenanceCrashPoints} point at least twice ({@link FaultInjector}
 * in the workers: merged files written before the rewrite commit, right after the rewrite commit,
 * during the expiry's file deletion, during the orphan clean-up's deletion, for which the test
 * plants old orphans); each halt waits until a compaction committed since the previous one, and
 * until two workers serve, so that ingestion never stops while the halted worker restarts in the
 * background (the third worker keeps the cluster at two). Afterwards Iceberg's generic reader finds
 * every produced (partition, offset) once with its value in the current snapshot, no data file is
 * referenced twice, every file each retained snapshot references (manifest list, manifests, data
 * files) exists, and after the maintenance's final orphan clean-up nothing unreferenced is older
 * than the orphan age: no data file, no manifest or manifest list (of the snapshots the test saw
 * expire, or any other), no temporary file of a compacted file ({@link MaintenanceTableChecks}).
 * Replay a run with {@code -Dmaintcrash.seed=<seed>} (the seed is logged first).
 */
final class MaintenanceCrashIT {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceCrashIT.class);
  private static final String TOPIC = "maintcrash";
  private static final String CONNECTOR = "maintcrash";
  private static final TableIdentifier TABLE = TableIdentifier.of("lake", TOPIC);
  private static final String TOPICS_DIR = "topics";
  private static final int WORKERS = 3;
  private static final int PARTITIONS = 4;
  private static final int TASKS = 2;
  private static final int REGIONS = 2;
  private static final int RECORDS_PER_SECOND = 100;
  private static final int HALTS = 10;

  /**
   * Group memberships of a halted worker and of its tasks' consumers expire within this (the
   * harness's 6 s was a third of each round): the broker allows 1 s, a loaded machine's pauses need
   * more.
   */
  private static final int SESSION_TIMEOUT_MS = 3000;

  private static final long COMMIT_TIMEOUT_MS = 20_000;
  private static final long ORPHAN_AGE_MS = COMMIT_TIMEOUT_MS;
  private static final long CLEANUP_INTERVAL_MS = 1_500;

  private static final List<String> POINTS =
      List.of(
          MaintenanceCrashPoints.BEFORE_REWRITE_COMMIT,
          MaintenanceCrashPoints.AFTER_REWRITE_COMMIT,
          MaintenanceCrashPoints.EXPIRY_DELETE,
          MaintenanceCrashPoints.ORPHAN_DELETE);

  private static Path workDir;
  private static Path faultFile;
  private static WorkerFleet fleet;

  /** Task failures that no crash of the plan caused (logged and reported, restarted). */
  private static final List<String> unplanned = Collections.synchronizedList(new ArrayList<>());

  /** Every compaction snapshot seen, with the data files it rewrote. */
  private static final Map<Long, Integer> compactions = new ConcurrentHashMap<>();

  /** Every snapshot seen, with its manifest list: those expired since must be gone at the end. */
  private static final Map<Long, String> manifestLists = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    workDir = ItPaths.freshWorkDir("MaintenanceCrashIT");
    faultFile = workDir.resolve("faults");
    fleet =
        WorkerFleet.start(
            workDir,
            WORKERS,
            "maintcrash-workers",
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
  void noRowLostOrTwiceAndNoReferencedFileDeletedWhenMaintenanceCrashes() throws Exception {
    long seed = Long.getLong("maintcrash.seed", new SecureRandom().nextLong());
    LOG.info("MaintenanceCrashIT seed {} (replay with -Dmaintcrash.seed={})", seed, seed);
    Random random = new Random(seed);
    long started = System.nanoTime();
    List<String> crashes = plan(random);
    LOG.info("Crashes planned: {}", crashes);
    fleet.broker().createTopic(TOPIC, PARTITIONS);
    Catalog catalog = fleet.catalog();
    Catalog watcherCatalog = fleet.catalog();
    ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
    List<String> done = new ArrayList<>();
    try (ContinuousProducer producer =
        ContinuousProducer.start(
            fleet.broker().bootstrapServers(),
            TOPIC,
            RECORDS_PER_SECOND,
            MaintenanceCrashIT::record)) {
      fleet.anyRunning().putConnectorConfig(CONNECTOR, connectorConfig());
      awaitRunning();
      // Compaction snapshots live a few seconds (expiry): the watcher notes each while it does.
      watcher.scheduleWithFixedDelay(
          () -> noteCompactions(watcherCatalog), 0, 300, TimeUnit.MILLISECONDS);
      for (int round = 0; round < crashes.size(); round++) {
        int before = compactions.size();
        awaitCompaction(before, "a compaction before crash " + (round + 1));
        String what = halt(crashes.get(round), random, round, catalog);
        done.add(what);
        LOG.info(
            "Round {} of {} at {} s: {} ({} compactions seen so far)",
            round + 1,
            crashes.size(),
            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started),
            what,
            compactions.size());
      }
      long lastHalt = System.nanoTime();
      awaitCompaction(compactions.size(), "a compaction after the last crash");
      long compacted = System.nanoTime();
      awaitRunning();
      Map<Integer, NavigableMap<Long, Long>> produced = producer.stop();
      long stopped = System.nanoTime();
      Map<Integer, Long> ends = new TreeMap<>();
      produced.forEach((p, offsets) -> ends.put(p, offsets.lastKey()));
      awaitCommitted(catalog, ends, "every produced record");
      long crashesDone = System.nanoTime();
      LOG.info(
          "After the last halt: {} ms until a compaction, {} ms until both tasks ran and the"
              + " producer stopped, {} ms until the table committed every record",
          TimeUnit.NANOSECONDS.toMillis(compacted - lastHalt),
          TimeUnit.NANOSECONDS.toMillis(stopped - compacted),
          TimeUnit.NANOSECONDS.toMillis(crashesDone - stopped));

      // The final orphan clean-up: the maintenance deletes every orphan once older than its age,
      // the manifests and manifest lists an expiry halted between its deletes left among them.
      Path topicDir = workDir.resolve("lake").resolve(TOPICS_DIR).resolve(TOPIC);
      long slackMs = ORPHAN_AGE_MS + 2 * CLEANUP_INTERVAL_MS + 3_000;
      List<String> orphans =
          MaintenanceTableChecks.awaitOrphansCleaned(catalog, TABLE, topicDir, slackMs);
      List<String> expiredLists =
          expiredManifestListsLeft(catalog.loadTable(TABLE), System.currentTimeMillis() - slackMs);
      // The last halted worker restarted meanwhile, in the background; it must be up to close.
      fleet.awaitRestarts();
      fleet.anyRunning().deleteConnector(CONNECTOR);
      fleet.anyRunning().awaitConnectorDeleted(CONNECTOR, Duration.ofMinutes(1));
      watcher.shutdownNow();

      String rounds =
          "seed " + seed + ", " + done + ", unplanned task failures " + List.copyOf(unplanned);
      Table table = catalog.loadTable(TABLE);
      MaintenanceTableChecks.assertEveryOffsetOnceWithItsValue(
          table, produced, MaintenanceCrashIT::region, rounds);
      List<String> current = MaintenanceTableChecks.currentFiles(table);
      assertEquals(
          current.size(), new HashSet<>(current).size(), "a data file referenced twice: " + rounds);
      int[] checked = MaintenanceTableChecks.assertEveryRetainedSnapshotComplete(table, rounds);
      // Checked while the maintenance ran: stopping it may interrupt an expiry between its files.
      assertEquals(
          List.of(),
          orphans,
          "unreferenced data and metadata files and temporary compacted files older than the"
              + " orphan age: "
              + rounds);
      assertEquals(
          List.of(),
          expiredLists,
          "manifest lists of expired snapshots older than the orphan age: " + rounds);
      long expired =
          manifestLists.keySet().stream().filter(id -> table.snapshot(id) == null).count();
      assertTrue(expired > 0, "snapshots expired: " + rounds);
      long halts = done.stream().filter(d -> d.startsWith("halted")).count();
      assertTrue(halts >= HALTS, "halts at maintenance points: " + rounds);
      int rewritten = compactions.values().stream().mapToInt(Integer::intValue).sum();
      assertTrue(compactions.size() > crashes.size() && rewritten > 0, "compactions: " + rounds);
      LOG.info(
          "MaintenanceCrashIT: {} crashes ({}), {} records, {} compactions seen rewriting {} files,"
              + " {} files in the current snapshot, {} retained snapshots with {} manifests and {}"
              + " data file entries all present, {} of {} snapshots seen expired and their"
              + " manifest lists gone, temporary files left {}; crashes took {} s, all {} s",
          done.size(),
          rounds,
          produced.values().stream().mapToInt(Map::size).sum(),
          compactions.size(),
          rewritten,
          current.size(),
          checked[0],
          checked[1],
          checked[2],
          expired,
          manifestLists.size(),
          MaintenanceTableChecks.temporaryFiles(workDir.resolve("lake")),
          TimeUnit.NANOSECONDS.toSeconds(crashesDone - started),
          TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
    } finally {
      watcher.shutdownNow();
      for (Catalog c : List.of(catalog, watcherCatalog)) {
        if (c instanceof Closeable closeable) {
          closeable.close();
        }
      }
    }
  }

  /** Each maintenance point twice and the rest at random points, in a random order. */
  private static List<String> plan(Random random) {
    List<String> crashes = new ArrayList<>();
    for (String point : POINTS) {
      crashes.add(point);
      crashes.add(point);
    }
    while (crashes.size() < HALTS) {
      crashes.add(POINTS.get(random.nextInt(POINTS.size())));
    }
    Collections.shuffle(crashes, random);
    return crashes;
  }

  /**
   * Arms the fault at {@code point} once two workers serve and waits until the worker that runs the
   * maintenance halted there; its restart goes on in the background.
   */
  private static String halt(String point, Random random, int round, Catalog catalog)
      throws Exception {
    int hits =
        switch (point) {
          // Each expired snapshot's manifest list, manifests and data files: many deletes a run.
          case MaintenanceCrashPoints.EXPIRY_DELETE -> 1 + random.nextInt(8);
          // One rewrite a table partition (two regions), one deletion an orphan.
          default -> 1 + random.nextInt(2);
        };
    if (point.equals(MaintenanceCrashPoints.ORPHAN_DELETE)) {
      plantOrphans(catalog.loadTable(TABLE), round, 2);
    }
    long armed = System.nanoTime();
    Await.until(
        "two workers to serve before the halt at " + point,
        Duration.ofMinutes(3),
        () -> {
          Thread.sleep(100);
          return Stream.iterate(0, w -> w + 1).limit(WORKERS).filter(fleet::isUp).count() >= 2;
        });
    long twoUp = System.nanoTime();
    Map<Integer, Long> pids = new HashMap<>();
    for (int w = 0; w < WORKERS; w++) {
      if (fleet.worker(w).isRunning()) {
        pids.put(w, fleet.worker(w).pid());
      }
    }
    Files.writeString(faultFile, point + " halt " + hits);
    String what = "halted at " + point + " (hit " + hits + ")";
    try {
      Await.until(
          "a worker to halt at " + point,
          Duration.ofMinutes(2),
          () -> {
            restartFailedTasks();
            return !Files.exists(faultFile);
          });
    } catch (IllegalStateException notReached) {
      Files.deleteIfExists(faultFile);
      throw new AssertionError(what + ": not reached in 2 minutes", notReached);
    }
    List<Integer> halted = new ArrayList<>();
    Await.until(
        "the worker that took the fault at " + point + " to exit",
        Duration.ofSeconds(20),
        () -> {
          for (Map.Entry<Integer, Long> e : pids.entrySet()) {
            if (ProcessHandle.of(e.getValue()).map(ProcessHandle::isAlive).orElse(false)) {
              continue;
            }
            halted.add(e.getKey());
          }
          return !halted.isEmpty();
        });
    for (int w : halted) {
      CompletableFuture<Void> restart = fleet.restarting(w);
      if (restart == null || restart.isDone()) {
        restartInBackground(w);
      }
      // Else the fault was taken while the worker was starting: its restart starts it again.
    }
    LOG.info(
        "Halt at {}: {} ms waiting for two workers, {} ms until a worker halted",
        point,
        TimeUnit.NANOSECONDS.toMillis(twoUp - armed),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - twoUp));
    return what + ": worker " + halted;
  }

  /**
   * Copies of a data file under the table's directory with a compaction's name, last modified an
   * hour ago: orphans as a compaction crashed long before its commit would leave.
   */
  private static void plantOrphans(Table table, int round, int count) throws Exception {
    Path like = MaintenanceTableChecks.path(MaintenanceTableChecks.currentFiles(table).get(0));
    for (int k = 0; k < count; k++) {
      Path orphan =
          like.resolveSibling(
              TableCompactor.FILE_PREFIX + "planted-" + round + "-" + k + "-00000.parquet");
      Files.copy(like, orphan);
      Files.setLastModifiedTime(
          orphan, FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1)));
    }
  }

  /** Record {@code i}: a small struct, in partition i % 4, its region from i / 4. */
  private static JsonRecord record(long i) {
    return CrashRecords.record(i, PARTITIONS, region(i));
  }

  private static String region(long i) {
    return "r" + (i / PARTITIONS) % REGIONS;
  }

  private static void restartInBackground(int w) {
    fleet.restartInBackground(w, WorkerFleet::restartPatiently);
  }

  private static void awaitRunning() {
    Await.until(
        "the connector to run " + TASKS + " tasks",
        Duration.ofMinutes(3),
        () -> {
          Thread.sleep(300);
          return restartFailedTasks().isRunning(TASKS);
        });
  }

  /**
   * Restarts failed tasks, as an operator would, and notes them: no planned crash fails a task
   * (after five commits in a row given up, as on an overloaded machine, a task fails by design).
   */
  private static ConnectWorker.ConnectorStatus restartFailedTasks() {
    ConnectWorker worker = fleet.anyRunning();
    ConnectWorker.ConnectorStatus status = worker.connectorStatus(CONNECTOR);
    for (ConnectWorker.TaskStatus task : status.tasks()) {
      if ("FAILED".equals(task.state())) {
        String first = task.trace() == null ? "" : task.trace().lines().findFirst().orElse("");
        LOG.warn("Task {} failed outside the planned crashes: {}", task.id(), first);
        unplanned.add("task " + task.id() + ": " + first);
        worker.restartTask(CONNECTOR, task.id());
      }
    }
    return status;
  }

  /**
   * Waits until more than {@code seen} compaction snapshots were seen, restarting failed tasks
   * meanwhile (a compaction needs the owner of partition 0 up).
   */
  private static void awaitCompaction(int seen, String what) {
    Await.until(
        what,
        Duration.ofMinutes(3),
        () -> {
          Thread.sleep(300);
          if (Stream.iterate(0, w -> w + 1).limit(WORKERS).anyMatch(fleet::isUp)) {
            restartFailedTasks();
          }
          return compactions.size() > seen;
        });
  }

  private static void noteCompactions(Catalog catalog) {
    try {
      Table table = catalog.loadTable(TABLE);
      for (Snapshot s : table.snapshots()) {
        if (s.manifestListLocation() != null) {
          manifestLists.putIfAbsent(s.snapshotId(), s.manifestListLocation());
        }
        if (s.summary().containsKey(TableCompactor.COMPACTION_PROPERTY)
            && !compactions.containsKey(s.snapshotId())) {
          int rewritten = Integer.parseInt(s.summary().getOrDefault("deleted-data-files", "0"));
          compactions.put(s.snapshotId(), rewritten);
          LOG.info("Compaction snapshot {} rewrote {} data files", s.snapshotId(), rewritten);
        }
      }
    } catch (NoSuchTableException notYet) {
      // The first commit creates the table.
    } catch (RuntimeException e) {
      LOG.info("Cannot look at the table's snapshots: {}", e.toString());
    }
  }

  /**
   * The manifest lists of snapshots seen and expired since that are still in the warehouse, last
   * modified before {@code cutoff}.
   */
  private static List<String> expiredManifestListsLeft(Table table, long cutoff) throws Exception {
    Set<Long> retained = new HashSet<>();
    table.snapshots().forEach(s -> retained.add(s.snapshotId()));
    List<String> left = new ArrayList<>();
    for (Map.Entry<Long, String> seen : new TreeMap<>(manifestLists).entrySet()) {
      Path list = MaintenanceTableChecks.path(seen.getValue());
      if (!retained.contains(seen.getKey())
          && Files.exists(list)
          && Files.getLastModifiedTime(list).toMillis() < cutoff) {
        left.add(seen.getKey() + ": " + list);
      }
    }
    return left;
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
    config.put(ParquetSinkConfig.TOPICS_DIR_CONFIG, TOPICS_DIR);
    config.put(ParquetSinkConfig.COMMIT_TIMEOUT_MS_CONFIG, Long.toString(COMMIT_TIMEOUT_MS));
    config.put(ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG, Long.toString(COMMIT_TIMEOUT_MS));
    config.put(IcebergConfig.TABLE_FORMAT_CONFIG, "iceberg");
    config.put(IcebergConfig.TABLE_CONFIG, "lake.${topic}");
    config.put(IcebergConfig.COMMIT_INTERVAL_MS_CONFIG, "1000");
    // Partition commits, rewrites and expiries all commit into one table: retry conflicts soon.
    config.put(IcebergConfig.TABLE_PROPERTIES_PREFIX + "commit.retry.min-wait-ms", "10");
    config.put(IcebergConfig.TABLE_PROPERTIES_PREFIX + "commit.retry.max-wait-ms", "500");
    config.put(IcebergConfig.TABLE_PROPERTIES_PREFIX + "commit.retry.num-retries", "10");
    config.put(IcebergConfig.CATALOG_TYPE_CONFIG, "rest");
    config.put(IcebergConfig.CATALOG_URI_CONFIG, fleet.rest().uri());
    // Two table partitions: a compaction run makes two rewrite commits.
    config.put(IcebergConfig.PARTITION_SPEC_CONFIG, "identity(region)");
    // Maintenance every second or two: the commits make files of ~30 rows, merged from 3 on.
    config.put(MaintenanceConfig.COMPACTION_ENABLED_CONFIG, "true");
    config.put(MaintenanceConfig.COMPACTION_INTERVAL_MS_CONFIG, "1000");
    config.put(MaintenanceConfig.COMPACTION_TARGET_FILE_BYTES_CONFIG, Long.toString(64 << 10));
    config.put(MaintenanceConfig.COMPACTION_MIN_INPUT_FILES_CONFIG, "3");
    config.put(MaintenanceConfig.COMPACTION_MIN_AGE_MS_CONFIG, "0");
    config.put(MaintenanceConfig.COMPACTION_MAX_RUN_TIME_MS_CONFIG, "5000");
    config.put(MaintenanceConfig.SNAPSHOTS_EXPIRE_ENABLED_CONFIG, "true");
    config.put(MaintenanceConfig.SNAPSHOTS_MAX_AGE_MS_CONFIG, "3000");
    config.put(MaintenanceConfig.SNAPSHOTS_MIN_TO_KEEP_CONFIG, "2");
    config.put(MaintenanceConfig.SNAPSHOTS_INTERVAL_MS_CONFIG, Long.toString(CLEANUP_INTERVAL_MS));
    config.put(MaintenanceConfig.ORPHANS_ENABLED_CONFIG, "true");
    config.put(MaintenanceConfig.ORPHANS_MIN_AGE_MS_CONFIG, Long.toString(ORPHAN_AGE_MS));
    return config;
  }

  /**
   * Each partition's committed offset: that of the newest snapshot with sink offsets (a rewrite's
   * snapshot carries none), -1 when none yet.
   */
  private static Map<Integer, Long> tableOffsets(Catalog catalog) {
    Map<Integer, Long> offsets = new TreeMap<>();
    Snapshot withOffsets;
    try {
      withOffsets = OffsetSummary.newestWithOffsets(catalog.loadTable(TABLE));
    } catch (NoSuchTableException notYet) {
      withOffsets = null;
    }
    String prefix = OffsetSummary.OFFSET_PREFIX + CONNECTOR + "/" + TOPIC + "/";
    for (int p = 0; p < PARTITIONS; p++) {
      String value = withOffsets == null ? null : withOffsets.summary().get(prefix + p);
      offsets.put(p, value == null ? -1 : Long.parseLong(value));
    }
    return offsets;
  }

  private static void awaitCommitted(Catalog catalog, Map<Integer, Long> ends, String what) {
    Await.until(
        "the table to commit " + what + " (up to " + ends + ")",
        Duration.ofMinutes(3),
        () -> {
          Thread.sleep(800);
          restartFailedTasks();
          Map<Integer, Long> offsets = tableOffsets(catalog);
          return ends.entrySet().stream().allMatch(e -> offsets.get(e.getKey()) >= e.getValue());
        });
  }
}
