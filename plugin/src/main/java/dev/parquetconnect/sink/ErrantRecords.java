package dev.parquetconnect.sink;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a record the sink cannot write: with {@code errors.tolerance=all} it goes to the
 * dead letter queue through Connect's {@link ErrantRecordReporter} (or is skipped with a warning on
 * a worker without one); otherwise the task fails with a message naming the topic, partition,
 * offset and the conversion layer's reason (which names the field).
 */
final class ErrantRecords {
  private static final Logger LOG = LoggerFactory.getLogger(ErrantRecords.class);

  private final boolean tolerate;
  private final ErrantRecordReporter reporter;
  private final String logPrefix;

  ErrantRecords(boolean tolerate, SinkTaskContext context, String logPrefix) {
    this.tolerate = tolerate;
    this.reporter = tolerate ? reporterOf(context) : null;
    this.logPrefix = logPrefix;
    if (tolerate && reporter == null) {
      LOG.warn(
          "{} errors.tolerance=all but this worker offers no errant record reporter (Kafka "
              + "Connect before 2.6): bad records are skipped and only logged",
          logPrefix);
    }
  }

  private static ErrantRecordReporter reporterOf(SinkTaskContext context) {
    try {
      return context.errantRecordReporter();
    } catch (NoSuchMethodError | NoClassDefFoundError e) {
      return null;
    }
  }

  /**
   * Handles a bad record.
   *
   * @return the future of its delivery to the dead letter queue (to await before its offset is
   *     committed), or null when there is nothing to wait for
   * @throws ConnectException when errors are not tolerated
   */
  Future<Void> report(SinkRecord record, RuntimeException error) {
    String where =
        "topic "
            + record.topic()
            + " partition "
            + record.kafkaPartition()
            + " offset "
            + record.kafkaOffset();
    // The dead letter queue's message says where, as the failed task's would: its headers are
    // off unless errors.deadletterqueue.context.headers.enable is set.
    DataException named =
        new DataException("Cannot write the record at " + where + ": " + error.getMessage(), error);
    if (!tolerate) {
      throw named;
    }
    if (reporter == null) {
      LOG.warn("{} skipping the record at {}: {}", logPrefix, where, error.getMessage());
      return null;
    }
    LOG.debug(
        "{} sending the record at {} to the dead letter queue: {}",
        logPrefix,
        where,
        error.getMessage());
    return reporter.report(record, named);
  }

  /** Waits until the dead letter queue has every record of {@code futures}. */
  static void await(List<Future<Void>> futures) {
    for (Future<Void> future : new ArrayList<>(futures)) {
      try {
        future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectException("Interrupted while waiting for the dead letter queue", e);
      } catch (ExecutionException e) {
        throw new ConnectException(
            "Sending a record to the dead letter queue failed", e.getCause());
      }
    }
  }
}
