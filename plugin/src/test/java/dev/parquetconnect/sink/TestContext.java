package dev.parquetconnect.sink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** A {@link SinkTaskContext} that records what the task asks of Connect. */
final class TestContext implements SinkTaskContext {
  final Map<TopicPartition, Long> seeks = new HashMap<>();
  final Set<TopicPartition> paused = new HashSet<>();
  final Set<TopicPartition> assignment = new HashSet<>();
  final List<SinkRecord> deadLettered = Collections.synchronizedList(new ArrayList<>());
  final List<Throwable> deadLetterErrors = Collections.synchronizedList(new ArrayList<>());
  private final boolean withReporter;

  TestContext(boolean withReporter) {
    this.withReporter = withReporter;
  }

  /** The seeks asked for since the last call, cleared. */
  Map<TopicPartition, Long> takeSeeks() {
    Map<TopicPartition, Long> taken = new HashMap<>(seeks);
    seeks.clear();
    return taken;
  }

  @Override
  public Map<String, String> configs() {
    return Map.of();
  }

  @Override
  public void offset(Map<TopicPartition, Long> offsets) {
    seeks.putAll(offsets);
  }

  @Override
  public void offset(TopicPartition tp, long offset) {
    seeks.put(tp, offset);
  }

  /** The last poll timeout the task asked for, -1 for none. */
  long timeout = -1;

  @Override
  public void timeout(long timeoutMs) {
    timeout = timeoutMs;
  }

  @Override
  public Set<TopicPartition> assignment() {
    return assignment;
  }

  @Override
  public void pause(TopicPartition... partitions) {
    Collections.addAll(paused, partitions);
  }

  @Override
  public void resume(TopicPartition... partitions) {
    for (TopicPartition p : partitions) {
      paused.remove(p);
    }
  }

  @Override
  public void requestCommit() {}

  @Override
  public ErrantRecordReporter errantRecordReporter() {
    if (!withReporter) {
      return null;
    }
    return (record, error) -> {
      deadLettered.add(record);
      deadLetterErrors.add(error);
      Future<Void> done = CompletableFuture.completedFuture(null);
      return done;
    };
  }
}
