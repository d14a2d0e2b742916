package dev.parquetconnect.sink;

import dev.parquetconnect.sink.commit.MarkerKeys;
import dev.parquetconnect.storage.Store;
import dev.parquetconnect.storage.StoreFile;
import dev.parquetconnect.storage.StoreInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Kafka Connect's side of a sink task, simulated in the test's thread: a fixed log of records per
 * partition, a consumer position per partition that honours the task's seeks and pauses, the
 * consumer group's committed offsets (from {@code preCommit}), and crashes (a task instance
 * abandoned without {@code close} or {@code stop}, its temporary files left behind).
 */
final class SimulatedConnect {
  private final Map<TopicPartition, TreeMap<Long, SinkRecord>> log = new HashMap<>();
  private final Map<TopicPartition, Long> committed = new HashMap<>();
  private final Map<TopicPartition, Long> position = new HashMap<>();
  private ParquetSinkTask task;
  private TestContext context;

  void append(SinkRecord record) {
    TopicPartition tp = new TopicPartition(record.topic(), record.kafkaPartition());
    log.computeIfAbsent(tp, k -> new TreeMap<>()).put(record.kafkaOffset(), record);
  }

  List<TopicPartition> partitions() {
    return new ArrayList<>(log.keySet());
  }

  ParquetSinkTask task() {
    return task;
  }

  TestContext context() {
    return context;
  }

  /** Starts a new task instance that gets every partition (after a crash or at first). */
  ParquetSinkTask start(
      Supplier<ParquetSinkTask> newTask, Map<String, String> props, boolean withReporter) {
    task = newTask.get();
    context = new TestContext(withReporter);
    context.assignment.addAll(log.keySet());
    task.initialize(context);
    task.start(props);
    position.clear();
    for (TopicPartition tp : log.keySet()) {
      position.put(tp, committed.getOrDefault(tp, 0L));
    }
    task.open(log.keySet());
    applySeeks();
    return task;
  }

  /** Forgets the task instance without telling it: a crash. */
  void crash() {
    task = null;
    context = null;
  }

  /** Stops the task cleanly. */
  void stop() {
    task.close(new ArrayList<>(log.keySet()));
    task.stop();
    task = null;
  }

  /** One poll and put of at most {@code max} records; false when nothing was left to deliver. */
  boolean step(int max) {
    List<SinkRecord> batch = new ArrayList<>();
    boolean more = true;
    while (batch.size() < max && more) {
      more = false;
      for (Map.Entry<TopicPartition, TreeMap<Long, SinkRecord>> e : log.entrySet()) {
        TopicPartition tp = e.getKey();
        if (context.paused.contains(tp)) {
          continue;
        }
        Map.Entry<Long, SinkRecord> next = e.getValue().ceilingEntry(position.get(tp));
        if (next != null && batch.size() < max) {
          batch.add(next.getValue());
          position.put(tp, next.getKey() + 1);
          more = true;
        }
      }
    }
    task.put(batch);
    applySeeks();
    return !batch.isEmpty() || !context.paused.isEmpty();
  }

  /** Connect's offset commit: asks the task and stores what it returns. */
  void commitOffsets() {
    Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
    position.forEach((tp, offset) -> current.put(tp, new OffsetAndMetadata(offset)));
    task.preCommit(current).forEach((tp, offset) -> committed.put(tp, offset.offset()));
    applySeeks();
  }

  Map<TopicPartition, Long> committed() {
    return committed;
  }

  private void applySeeks() {
    if (context != null) {
      position.putAll(context.takeSeeks());
    }
  }

  /** Every committed data file's records, by file key. */
  static Map<String, List<LinesFormat.Line>> committedFiles(Store store, String topicsDir)
      throws IOException {
    Map<String, List<LinesFormat.Line>> files = new TreeMap<>();
    for (StoreFile file : store.list(topicsDir, true)) {
      if (file.key().startsWith(topicsDir + "/" + MarkerKeys.MARKERS_DIR + "/")) {
        continue;
      }
      try (StoreInput in = store.open(file.key())) {
        byte[] bytes = new byte[(int) in.length()];
        in.readFully(0, bytes, 0, bytes.length);
        files.put(file.key(), LinesFormat.parse(bytes));
      }
    }
    return files;
  }

  /** How often each (partition, offset) appears in committed files. */
  static Map<String, Integer> offsetCounts(Store store, String topicsDir) throws IOException {
    Map<String, Integer> counts = new TreeMap<>();
    for (List<LinesFormat.Line> lines : committedFiles(store, topicsDir).values()) {
      for (LinesFormat.Line line : lines) {
        counts.merge(line.topic() + "-" + line.partition() + "@" + line.offset(), 1, Integer::sum);
      }
    }
    return counts;
  }

  /** Temporary files left anywhere under a local directory. */
  static List<Path> temporaryFiles(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(p -> p.getFileName().toString().startsWith(".tmp-pqc-")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
