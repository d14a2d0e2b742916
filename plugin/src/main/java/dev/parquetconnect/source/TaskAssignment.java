package dev.parquetconnect.source;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Utils;

/**
 * Which task owns a piece of work: a pure function of its identity and the number of tasks, so
 * every task decides alone, the same way on every worker and after every restart, and no original
 * partition (replay mode) or file (generic mode) is ever read by two tasks of one generation. When
 * {@code tasks.max} changes, the new owner resumes from the committed offsets.
 */
final class TaskAssignment {
  private final int taskIndex;
  private final int taskCount;

  TaskAssignment(int taskIndex, int taskCount) {
    this.taskIndex = taskIndex;
    this.taskCount = taskCount;
  }

  /** The task that owns an original topic-partition. */
  static int ownerOf(String topic, int partition, int taskCount) {
    return ownerOf(topic + "+" + partition, taskCount);
  }

  /** The task that owns a piece of work identified by {@code identity}. */
  static int ownerOf(String identity, int taskCount) {
    return Utils.toPositive(Utils.murmur2(identity.getBytes(StandardCharsets.UTF_8))) % taskCount;
  }

  boolean ownsPartition(String topic, int partition) {
    return ownerOf(topic, partition, taskCount) == taskIndex;
  }

  boolean ownsFile(String key) {
    return ownerOf(key, taskCount) == taskIndex;
  }
}
