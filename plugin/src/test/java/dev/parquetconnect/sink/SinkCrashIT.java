package dev.parquetconnect.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.cli.PqInProcess;
import dev.parquetconnect.it.Await;
import dev.parquetconnect.it.ConnectWorker;
import dev.parquetconnect.it.ItPaths;
import dev.parquetconnect.it.JsonRecord;
import dev.parquetconnect.it.KafkaBroker;
import dev.parquetconnect.it.KafkaRecords;
import dev.parquetconnect.it.KafkaRuntime;
import dev.parquetconnect.sink.commit.FaultInjector;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly once through crashes: while records flow through a field partitioner, the sink is crashed
 * again and again at random points: the worker JVM halted at a named point of the commit protocol
 * (like a SIGKILL there: {@link FaultInjector}), the task failed there, or the worker killed with
 * SIGKILL at a random moment; each time the worker or the task is restarted. Afterwards DuckDB
 * finds every offset exactly once, each row in the directory of its field value, and no temporary
 * file or upload is left. On local disk 200,000 records and 10 crashes (every point of the protocol
 * halted or failed at least once); on HDFS (with a datanode stopped and restarted mid-write) and
 * S3, 3 crashes each in 60,000 records, to keep the build short: a commit there costs seconds (20
 * files, each through a datanode pipeline or several requests), and the records past the third
 * crash's would only repeat the commits before it.
 */
final class SinkCrashIT {
  private static final Logger LOG = LoggerFactory.getLogger(SinkCrashIT.class);
  private static final int PARTITIONS = 3;
  private static final int REGIONS = 20;
  private static final List<String> POINTS =
      List.of("put", "before-intent", "after-intent", "mid-commit", "before-done", "after-done");

  private static Path workDir;
  private static KafkaBroker broker;
  private static KafkaRuntime runtime;

  @BeforeAll
  static void startBroker() {
    workDir = ItPaths.freshWorkDir("SinkCrashIT");
    runtime = KafkaRuntime.defaultVersion();
    broker = KafkaBroker.start(runtime, workDir.resolve("broker"));
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  @ParameterizedTest(name = "{0}, {1} crashes in {2} records")
  @CsvSource({"local, 10, 200000", "hdfs, 3, 60000", "s3, 3, 60000"})
  @Timeout(value = 10, unit = TimeUnit.MINUTES)
  void everyOffsetOnceAfterRepeatedCrashes(String storeName, int crashes, int records)
      throws Exception {
    Path dir = workDir.resolve(storeName);
    Path faultFile = dir.resolve("faults");
    Files.createDirectories(dir);
    String topic = "crash-" + storeName;
    String connector = "crash-" + storeName;
    Random random = new Random(storeName.hashCode());
    // The halts and failures visit the protocol's points in a random order, each once before any
    // twice.
    List<String> points = new ArrayList<>(POINTS);
    Collections.shuffle(points, random);
    broker.createTopic(topic, PARTITIONS);
    try (ItStores.Running store = startStore(storeName, dir);
        ConnectWorker worker =
            ConnectWorker.builder(runtime, broker.bootstrapServers())
                .workDir(dir.resolve("worker"))
                .groupId("connect-" + storeName)
                .jvmOption("-D" + FaultInjector.PROPERTY + "=" + faultFile)
                .start();
        Store check = store.open("lake")) {
      worker.putConnectorConfig(
          connector,
          SinkIts.connectorConfig(
              store,
              "lake",
              topic,
              Map.of(
                  ParquetSinkConfig.PARTITIONER_CONFIG, "field",
                  ParquetSinkConfig.PARTITION_FIELDS_CONFIG, SinkIts.REGIONS_FIELD,
                  ParquetSinkConfig.FLUSH_SIZE_CONFIG, "4000",
                  // A single task: the orphans of a crashed instance are removed at once on
                  // restart.
                  ParquetSinkConfig.ORPHAN_MIN_AGE_MS_CONFIG, "0")));
      worker.awaitConnectorRunning(connector, 1, Duration.ofMinutes(2));
      int chunk = records / (crashes + 1);
      int produced = 0;
      List<String> log = new ArrayList<>();
      for (int round = 0; round < crashes; round++) {
        produced = produce(topic, produced, chunk);
        if (store instanceof ItStores.Hdfs hdfs && round == 1) {
          hdfs.stopDatanode(random.nextInt(3));
          log.add("datanode stopped");
        }
        String crash =
            crash(
                worker,
                connector,
                faultFile,
                round,
                points.get((round - round / 3) % points.size()),
                random);
        log.add(crash);
        LOG.info("{} round {}: {}", storeName, round, crash);
        if (store instanceof ItStores.Hdfs hdfs && round == 2) {
          hdfs.restartDatanode();
          log.add("datanode restarted");
        }
      }
      produce(topic, produced, records - produced);
      Map<TopicPartition, Long> ends = new HashMap<>();
      for (int p = 0; p < PARTITIONS; p++) {
        ends.put(new TopicPartition(topic, p), (long) perPartition(records, p));
      }
      SinkIts.awaitCommitted(check, connector, ends, Duration.ofMinutes(4), () -> {});
      worker.deleteConnector(connector);
      worker.awaitConnectorDeleted(connector, Duration.ofMinutes(1));
      Files.deleteIfExists(faultFile);

      Path files =
          storeName.equals("local")
              ? dir.resolve("lake/" + SinkIts.TOPICS_DIR + "/" + topic)
              : SinkIts.localCopy(check, topic, dir.resolve("copy"));
      SinkIts.Found found =
          SinkIts.duckDb(
              files,
              "SELECT count(*) FROM $RAW WHERE filename NOT LIKE '%/region=' || region || '/%'");
      String rounds = storeName + ": " + log;
      assertEquals(records, found.rows(), rounds);
      assertEquals(records, found.distinctOffsets(), rounds);
      assertEquals(0, found.duplicated(), rounds);
      // pq audit, as a scheduled check would run it, finds the archive complete and exact from
      // offset 0 of each partition.
      List<String> starts = new ArrayList<>();
      for (int p = 0; p < PARTITIONS; p++) {
        starts.add(topic + ":" + p + ":0");
      }
      PqInProcess.runOrFail("audit", files.toString(), "--from", String.join(",", starts));
      assertEquals(0, check.cleanupOrphans("", Instant.MAX), "temporary files left: " + rounds);
      assertTrue(log.stream().filter(s -> !s.startsWith("datanode")).count() >= crashes);
      SinkIts.sparkReadsAsDuckDb(files);
    }
  }

  /** One crash of a random kind at a random point; returns what happened. */
  private static String crash(
      ConnectWorker worker,
      String connector,
      Path faultFile,
      int round,
      String point,
      Random random)
      throws IOException, InterruptedException {
    int kind = round % 3;
    if (kind == 2) {
      Thread.sleep(500 + random.nextInt(2500));
      worker.kill();
      worker.restart();
      worker.awaitConnectorRunning(connector, 1, Duration.ofMinutes(2));
      return "SIGKILL at a random moment";
    }
    int hits = point.equals("put") ? 1 + random.nextInt(5000) : 1 + random.nextInt(2);
    String action = kind == 0 ? "halt" : "fail";
    Files.writeString(faultFile, point + " " + action + " " + hits);
    String what = action + " at " + point + " (hit " + hits + ")";
    if (action.equals("halt")) {
      try {
        Await.until(
            "the worker to halt at " + point, Duration.ofSeconds(90), () -> !worker.isRunning());
      } catch (IllegalStateException notReached) {
        Files.deleteIfExists(faultFile);
        worker.kill();
        what += " not reached in 90 s: SIGKILL instead";
      }
      worker.restart();
    } else {
      try {
        worker.awaitConnectorStatus(
            connector,
            "the task to fail at " + point,
            Duration.ofSeconds(90),
            s -> s.tasks().stream().anyMatch(t -> "FAILED".equals(t.state())));
      } catch (IllegalStateException notReached) {
        Files.deleteIfExists(faultFile);
        what += " not reached in 90 s: restart instead";
      }
      worker.restartTask(connector, 0);
    }
    worker.awaitConnectorRunning(connector, 1, Duration.ofMinutes(2));
    return what;
  }

  private static ItStores.Running startStore(String name, Path dir) throws Exception {
    switch (name) {
      case "local":
        return ItStores.local(dir);
      case "hdfs":
        return ItStores.hdfs(dir.resolve("hdfs"));
      default:
        return ItStores.s3(0, 0);
    }
  }

  private static int produce(String topic, int from, int count) {
    List<JsonRecord> batch = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      batch.add(SinkIts.order(i, i % PARTITIONS, REGIONS));
    }
    KafkaRecords.produce(broker.bootstrapServers(), topic, batch, Duration.ofMinutes(2));
    return from + count;
  }

  private static int perPartition(int records, int partition) {
    return records / PARTITIONS + (partition < records % PARTITIONS ? 1 : 0);
  }
}
