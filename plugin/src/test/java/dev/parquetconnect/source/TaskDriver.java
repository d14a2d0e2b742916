package dev.parquetconnect.source;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.kafka.connect.source.TransactionContext;
import org.apache.kafka.connect.storage.OffsetStorageReader;

/**
 * Runs a {@link ParquetSourceTask} the way a worker does, in memory: polls, acknowledges every
 * record ({@code commitRecord}) and commits the offset of each source partition's last record,
 * which a restarted task reads back.
 */
public final class TaskDriver {
  final Map<Map<String, Object>, Map<String, Object>> committed = new HashMap<>();
  final List<String> transactionCommits = new ArrayList<>();
  private final Map<String, String> props;
  private final boolean connectorTransactions;
  private ParquetSourceTask task;

  public TaskDriver(Map<String, String> props) {
    this(props, false);
  }

  TaskDriver(Map<String, String> props, boolean connectorTransactions) {
    this.props = props;
    this.connectorTransactions = connectorTransactions;
  }

  public TaskDriver start() {
    task = new ParquetSourceTask();
    task.initialize(new Context());
    task.start(props);
    return this;
  }

  /** One poll; its records are acknowledged and their offsets committed when {@code commit}. */
  List<SourceRecord> poll(boolean commit) throws InterruptedException {
    List<SourceRecord> batch = task.poll();
    if (batch == null) {
      return List.of();
    }
    if (commit) {
      for (SourceRecord r : batch) {
        task.commitRecord(r, null);
        committed.put(new HashMap<>(r.sourcePartition()), new HashMap<>(r.sourceOffset()));
      }
    }
    return batch;
  }

  /** Acknowledges records polled earlier without commit (late producer acknowledgements). */
  void acknowledge(List<SourceRecord> records) {
    for (SourceRecord r : records) {
      task.commitRecord(r, null);
      committed.put(new HashMap<>(r.sourcePartition()), new HashMap<>(r.sourceOffset()));
    }
  }

  /** Polls (committing) until {@code idlePolls} polls in a row return nothing. */
  public List<SourceRecord> drain(int idlePolls) throws InterruptedException {
    List<SourceRecord> all = new ArrayList<>();
    int idle = 0;
    while (idle < idlePolls) {
      List<SourceRecord> batch = poll(true);
      all.addAll(batch);
      idle = batch.isEmpty() ? idle + 1 : 0;
    }
    return all;
  }

  public void stop() {
    task.stop();
  }

  /** Stops the task (dropping what was polled and not committed) and starts a new one. */
  TaskDriver restart() {
    task.stop();
    return start();
  }

  private final class Context implements SourceTaskContext {
    @Override
    public Map<String, String> configs() {
      return props;
    }

    @Override
    public OffsetStorageReader offsetStorageReader() {
      return new OffsetStorageReader() {
        @Override
        public <T> Map<String, Object> offset(Map<String, T> partition) {
          return committed.get(new HashMap<>(partition));
        }

        @Override
        public <T> Map<Map<String, T>, Map<String, Object>> offsets(
            Collection<Map<String, T>> partitions) {
          Map<Map<String, T>, Map<String, Object>> out = new HashMap<>();
          for (Map<String, T> p : partitions) {
            Map<String, Object> o = committed.get(new HashMap<>(p));
            if (o != null) {
              out.put(p, o);
            }
          }
          return out;
        }
      };
    }

    @Override
    public TransactionContext transactionContext() {
      if (!connectorTransactions) {
        return null;
      }
      return new TransactionContext() {
        @Override
        public void commitTransaction() {
          transactionCommits.add("batch");
        }

        @Override
        public void commitTransaction(SourceRecord record) {
          transactionCommits.add("record " + record.sourceOffset());
        }

        @Override
        public void abortTransaction() {
          throw new AssertionError("the task never aborts");
        }

        @Override
        public void abortTransaction(SourceRecord record) {
          throw new AssertionError("the task never aborts");
        }
      };
    }
  }
}
