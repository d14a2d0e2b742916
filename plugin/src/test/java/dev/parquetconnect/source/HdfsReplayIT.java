package dev.parquetconnect.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.cli.PqInProcess;
import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.ParquetSinkTask;
import dev.parquetconnect.source.SinkArchive.Original;
import dev.parquetconnect.storage.ItStores;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreOutput;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source with HDFS as its store (a MiniDFSCluster on 127.0.0.1). The archive is written by the
 * production sink task itself (commit markers, atomic renames, several commits per partition), then
 * replayed by the source task: every record comes back once, in offset order per partition, with
 * its key, value, headers, timestamp and partition; the replay survives a restart part-way,
 * replayed files are moved (a rename on HDFS), and a corrupt file is quarantined.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
final class HdfsReplayIT {
  private static final String TOPIC = "orders";
  private static final int PARTITIONS = 3;
  private static final int RECORDS_PER_PARTITION = 750;

  @TempDir static Path dir;
  private static ItStores.Hdfs hdfs;

  @BeforeAll
  static void startCluster() throws Exception {
    hdfs = ItStores.hdfs(dir.resolve("hdfs"));
  }

  @AfterAll
  static void stopCluster() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  private static Map<String, String> storeProps(String prefix) {
    Map<String, String> p = new HashMap<>(hdfs.settings());
    p.put("store.url", hdfs.url(prefix));
    return p;
  }

  /** Runs the sink task over the records, committing every {@code flushSize} per partition. */
  private static void sink(String prefix, List<Original> records, int flushSize) {
    Map<String, String> props = storeProps(prefix);
    props.put("name", "hdfs-archive");
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, Integer.toString(flushSize));
    props.put(ParquetSinkConfig.STORE_KAFKA_KEY_CONFIG, "true");
    props.put(ParquetSinkConfig.STORE_KAFKA_HEADERS_CONFIG, "true");
    List<TopicPartition> partitions = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      partitions.add(new TopicPartition(TOPIC, p));
    }
    ParquetSinkTask task = new ParquetSinkTask();
    task.initialize(new SinkContext(partitions));
    task.start(props);
    task.open(partitions);
    try {
      // Batches of 50 records interleaving the partitions, as a consumer poll delivers them.
      List<SinkRecord> batch = new ArrayList<>();
      for (Original o : records) {
        batch.add(o.asSinkRecord());
        if (batch.size() == 50) {
          task.put(batch);
          batch = new ArrayList<>();
        }
      }
      task.put(batch);
      Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of());
      for (TopicPartition tp : partitions) {
        assertEquals(RECORDS_PER_PARTITION, committed.get(tp).offset(), "sink committed " + tp);
      }
    } finally {
      task.close(partitions);
      task.stop();
    }
  }

  /** The records of every partition, interleaved in put order. */
  private static List<Original> originals() {
    List<List<Original>> perPartition = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      perPartition.add(SinkArchive.records(TOPIC, p, 0, RECORDS_PER_PARTITION));
    }
    List<Original> all = new ArrayList<>();
    for (int i = 0; i < RECORDS_PER_PARTITION; i++) {
      for (List<Original> partition : perPartition) {
        all.add(partition.get(i));
      }
    }
    return all;
  }

  /** Checks every original came back once, in offset order within its partition. */
  private static void assertEachOnce(List<Original> originals, List<SourceRecord> replayed) {
    Map<Integer, List<SourceRecord>> byPartition = new TreeMap<>();
    for (SourceRecord r : replayed) {
      byPartition.computeIfAbsent(r.kafkaPartition(), k -> new ArrayList<>()).add(r);
    }
    Map<Integer, List<Original>> expected = new TreeMap<>();
    for (Original o : originals) {
      expected.computeIfAbsent(o.partition(), k -> new ArrayList<>()).add(o);
    }
    assertEquals(expected.keySet(), byPartition.keySet(), "partitions replayed");
    for (Map.Entry<Integer, List<Original>> e : expected.entrySet()) {
      List<Original> want = e.getValue();
      List<SourceRecord> got = byPartition.get(e.getKey());
      assertEquals(want.size(), got.size(), "records of partition " + e.getKey());
      for (int i = 0; i < want.size(); i++) {
        ReplayAssertions.assertReplayed(want.get(i), got.get(i));
        assertEquals(
            want.get(i).offset(),
            ((Number) got.get(i).sourceOffset().get("offset")).longValue(),
            "source offset");
      }
    }
  }

  @Test
  void recordsTheSinkArchivedOnHdfsReplayOnceAcrossARestart() throws Exception {
    String prefix = "replay-" + System.nanoTime();
    List<Original> originals = originals();
    sink(prefix, originals, 250);
    try (Store store = hdfs.open(prefix)) {
      List<StoreFile> files = new ArrayList<>();
      for (StoreFile f : store.list("topics/" + TOPIC, true)) {
        if (f.key().endsWith(".parquet")) {
          files.add(f);
        }
      }
      // 750 records per partition at flush.size 250: commits at 0, 250, 500.
      assertEquals(PARTITIONS * 3, files.size(), "files the sink committed: " + files);
    }
    // pq audit reads the archive on HDFS itself (the plugin's stores on its class path): every
    // offset from 0 once, the sink's markers read and not counted.
    Path storeConfig = dir.resolve(prefix + ".properties");
    Properties settings = new Properties();
    settings.putAll(hdfs.settings());
    try (Writer out = Files.newBufferedWriter(storeConfig)) {
      settings.store(out, null);
    }
    List<String> starts = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      starts.add(TOPIC + ":" + p + ":0");
    }
    PqInProcess.runOrFail(
        "audit",
        hdfs.url(prefix),
        "--store-config",
        storeConfig.toString(),
        "--from",
        String.join(",", starts));

    Map<String, String> props = storeProps(prefix);
    props.put("name", "hdfs-replay");
    props.put("discovery.interval.ms", "100");
    props.put("batch.size", "120");
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> replayed = new ArrayList<>();
    // Part of the archive, committed, then a restart: the new task resumes from the offsets.
    for (int poll = 0; poll < 5; poll++) {
      replayed.addAll(driver.poll(true));
    }
    assertTrue(
        replayed.size() > 0 && replayed.size() < originals.size(),
        replayed.size() + " records before the restart");
    driver.poll(false); // polled, never acknowledged: sent again after the restart
    driver.restart();
    replayed.addAll(driver.drain(3));
    driver.stop();
    assertEachOnce(originals, replayed);
  }

  @Test
  void replayedFilesMoveAndACorruptFileIsQuarantinedOnHdfs() throws Exception {
    String prefix = "move-" + System.nanoTime();
    List<Original> originals = originals();
    sink(prefix, originals, 375);
    Set<String> archived = new HashSet<>();
    try (Store store = hdfs.open(prefix)) {
      for (StoreFile f : store.list("topics/" + TOPIC, true)) {
        if (f.key().endsWith(".parquet")) {
          archived.add(f.key().substring("topics/".length()));
        }
      }
      assertEquals(PARTITIONS * 2, archived.size(), "files the sink committed: " + archived);
      // A file named like the sink's, after the last commit of partition 0, that is not Parquet.
      String corrupt =
          "topics/"
              + TOPIC
              + "/partition=0/"
              + SinkArchive.fileName(TOPIC, 0, RECORDS_PER_PARTITION, 0);
      try (StoreOutput out = store.create(corrupt)) {
        out.write(new byte[] {'P', 'A', 'R', '1', 1, 2, 3});
        out.commit();
      }
    }
    Map<String, String> props = storeProps(prefix);
    props.put("name", "hdfs-replay-move");
    props.put("discovery.interval.ms", "100");
    props.put("batch.size", "200");
    props.put("after.replay", "move");
    props.put("after.replay.move.prefix", "done");
    props.put("errors.on.corrupt.file", "skip");
    props.put("errors.quarantine.prefix", "quarantine");
    TaskDriver driver = new TaskDriver(props).start();
    List<SourceRecord> replayed = driver.drain(3);
    driver.stop();
    assertEachOnce(originals, replayed);
    try (Store store = hdfs.open(prefix)) {
      assertEquals(List.of(), parquetFiles(store, "topics"), "every file moved away");
      Set<String> moved = new HashSet<>();
      for (String key : parquetFiles(store, "done")) {
        moved.add(key.substring("done/".length()));
      }
      assertEquals(archived, moved, "replayed files under done/, their paths kept");
      List<String> quarantined = parquetFiles(store, "quarantine");
      assertEquals(1, quarantined.size(), "quarantined: " + quarantined);
      assertFalse(
          store.exists(
              "topics/"
                  + TOPIC
                  + "/partition=0/"
                  + SinkArchive.fileName(TOPIC, 0, RECORDS_PER_PARTITION, 0)));
    }
  }

  private static List<String> parquetFiles(Store store, String prefix) throws Exception {
    List<String> keys = new ArrayList<>();
    for (StoreFile f : store.list(prefix, true)) {
      if (f.key().endsWith(".parquet")) {
        keys.add(f.key());
      }
    }
    return keys;
  }

  /** What the sink task asks of Connect: the assignment; seeks and pauses are not needed. */
  private static final class SinkContext implements SinkTaskContext {
    private final Set<TopicPartition> assignment;

    SinkContext(Collection<TopicPartition> assignment) {
      this.assignment = new HashSet<>(assignment);
    }

    @Override
    public Map<String, String> configs() {
      return Map.of();
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {}

    @Override
    public void offset(TopicPartition tp, long offset) {}

    @Override
    public void timeout(long timeoutMs) {}

    @Override
    public Set<TopicPartition> assignment() {
      return assignment;
    }

    @Override
    public void pause(TopicPartition... partitions) {
      // A pause would mean recovery could not settle on a fresh archive: the commit count
      // checked after the run would then fall short.
    }

    @Override
    public void resume(TopicPartition... partitions) {}

    @Override
    public void requestCommit() {}

    @Override
    public ErrantRecordReporter errantRecordReporter() {
      return null;
    }
  }
}
