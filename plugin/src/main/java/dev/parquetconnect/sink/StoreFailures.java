package dev.parquetconnect.sink;

import java.util.concurrent.TimeUnit;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failure and back-off bookkeeping of one Kafka partition's writer: how many store or commit
 * failures came in a row, when recovery may be tried again (exponential back-off), and when the
 * task gives up. A done commit, or one another writer completed, resets the count.
 */
final class StoreFailures {
  /** Logged under the writer's name, where operators already look for a partition's failures. */
  private static final Logger LOG = LoggerFactory.getLogger(TopicPartitionWriter.class);

  /** Store failures in a row (each followed by a rewind) before the task gives up. */
  static final int MAX_CONSECUTIVE_FAILURES = 5;

  private static final long MAX_BACKOFF_MS = 30_000;

  private final String log;
  private final SinkClock clock;
  private int consecutiveFailures;
  private long retryNotBeforeNanos;

  StoreFailures(String log, SinkClock clock) {
    this.log = log;
    this.clock = clock;
  }

  /** True while the back-off after the last failure has not passed: do not recover yet. */
  boolean backingOff() {
    return clock.nanos() - retryNotBeforeNanos < 0;
  }

  void reset() {
    consecutiveFailures = 0;
  }

  /**
   * Counts a failure that discards the open commit (writing, flushing, committing). Logged with its
   * stack trace: it is unexpected, and the trace says where it came from.
   */
  void writeFailed(String what, Exception cause) {
    consecutiveFailures++;
    LOG.error(
        "{} {} failed ({} in a row): {}", log, what, consecutiveFailures, cause.toString(), cause);
    giveUpOrBackOff(what, cause);
  }

  /**
   * Counts a failure to read the commit markers while recovering. Logged without the trace: it
   * repeats at every retry while the store is down, and says nothing a first failure did not.
   */
  void recoveryFailed(String what, Exception cause) {
    consecutiveFailures++;
    LOG.error("{} {} failed ({} in a row): {}", log, what, consecutiveFailures, cause.toString());
    giveUpOrBackOff(what, cause);
  }

  private void giveUpOrBackOff(String what, Exception cause) {
    if (consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
      throw new ConnectException(
          log
              + " "
              + what
              + " failed "
              + consecutiveFailures
              + " times in a row; last: "
              + cause.getMessage(),
          cause);
    }
    retryNotBeforeNanos =
        clock.nanos()
            + TimeUnit.MILLISECONDS.toNanos(Math.min(MAX_BACKOFF_MS, 1000L << consecutiveFailures));
  }
}
