package dev.parquetconnect.connect.json;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.sink.ParquetSinkConfig;
import dev.parquetconnect.sink.SinkTaskHarness;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed JSON under {@code input.format=json} has the outcome a converter failure has on the
 * connect path: the task fails naming topic, partition, offset and byte, or, with {@code
 * errors.tolerance=all}, the record goes to the dead letter queue as consumed (its raw bytes) and
 * its offset is committed with the others.
 */
final class JsonInputTaskTest {
  @TempDir Path dir;

  private Map<String, String> props(boolean tolerate) {
    Map<String, String> props = new HashMap<>();
    props.put("name", "json-task");
    props.put(ParquetSinkConfig.STORE_URL_CONFIG, dir.toUri().toString());
    props.put(ParquetSinkConfig.FLUSH_SIZE_CONFIG, "3");
    props.put(ParquetSinkConfig.ROTATE_SCHEDULE_INTERVAL_MS_CONFIG, "60000");
    props.put(JsonInputConfig.INPUT_FORMAT_CONFIG, "json");
    if (tolerate) {
      props.put(ParquetSinkConfig.ERRORS_TOLERANCE_CONFIG, "all");
    }
    return props;
  }

  private static SinkRecord raw(long offset, String json) {
    return new SinkRecord(
        "t",
        0,
        null,
        null,
        Schema.OPTIONAL_BYTES_SCHEMA,
        json.getBytes(StandardCharsets.UTF_8),
        offset,
        0L,
        TimestampType.CREATE_TIME);
  }

  @Test
  void malformedJsonFailsTheTaskNamingWhereWithoutTolerance() {
    TopicPartition tp = new TopicPartition("t", 0);
    try (SinkTaskHarness sink = new SinkTaskHarness(props(false), List.of(tp))) {
      RuntimeException e =
          assertThrows(
              RuntimeException.class,
              () -> sink.put(List.of(raw(0, "{\"a\":1}"), raw(1, "{\"a\":1,}"))));
      assertTrue(e.getMessage().contains("topic t partition 0 offset 1"), e.getMessage());
      assertTrue(e.getMessage().contains("at byte 7"), e.getMessage());
    }
  }

  @Test
  void malformedJsonGoesToTheDeadLetterQueueAsConsumed() {
    TopicPartition tp = new TopicPartition("t", 0);
    try (SinkTaskHarness sink = new SinkTaskHarness(props(true), List.of(tp), true)) {
      sink.put(List.of(raw(0, "{\"a\":1}"), raw(1, "{\"a\":"), raw(2, "{\"a\":2}")));
      assertEquals(Map.of(tp, 3L), sink.committed(), "the bad offset is committed with the rest");
      assertEquals(1, sink.deadLettered().size());
      SinkRecord dead = sink.deadLettered().get(0);
      assertEquals(1L, dead.kafkaOffset());
      assertArrayEquals("{\"a\":".getBytes(StandardCharsets.UTF_8), (byte[]) dead.value());
      String message = sink.deadLetterErrors().get(0).getMessage();
      assertTrue(message.contains("not valid JSON") && message.contains("at byte 5"), message);
    }
  }
}
