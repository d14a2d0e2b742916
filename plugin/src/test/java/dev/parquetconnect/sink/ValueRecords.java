package dev.parquetconnect.sink;

import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;

/** Sink records the way most tests need them: no key, a value, a create time. */
public final class ValueRecords {
  private ValueRecords() {}

  /** The record at {@code offset} of {@code topic}'s {@code partition}, without key. */
  public static SinkRecord of(
      String topic, int partition, Schema valueSchema, Object value, long offset, long timestamp) {
    return new SinkRecord(
        topic,
        partition,
        null,
        null,
        valueSchema,
        value,
        offset,
        timestamp,
        TimestampType.CREATE_TIME);
  }
}
