package dev.parquetconnect.it;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A record for a test to produce: key and value as JSON text (either may be null, a null value
 * being a tombstone), and optionally a partition, a timestamp and headers (which may repeat a name,
 * as Kafka allows). Build with {@link #of} and the {@code with...} copies.
 */
public record JsonRecord(
    String key,
    String value,
    Integer partition,
    Long timestamp,
    List<Map.Entry<String, String>> headers) {

  public JsonRecord {
    headers = List.copyOf(headers);
  }

  /** Key and value as JSON text; no partition (the producer's choice), timestamp or header. */
  public static JsonRecord of(String key, String value) {
    return new JsonRecord(key, value, null, null, List.of());
  }

  /** Key and value written as JSON from maps, lists, strings or numbers. */
  public static JsonRecord ofValues(Object key, Object value) {
    return of(key == null ? null : Json.write(key), value == null ? null : Json.write(value));
  }

  public JsonRecord withPartition(int newPartition) {
    return new JsonRecord(key, value, newPartition, timestamp, headers);
  }

  public JsonRecord withTimestamp(long newTimestamp) {
    return new JsonRecord(key, value, partition, newTimestamp, headers);
  }

  /** A copy with one more header; its value (null allowed) is sent as UTF-8 bytes. */
  public JsonRecord withHeader(String name, String headerValue) {
    List<Map.Entry<String, String>> more = new ArrayList<>(headers);
    more.add(new AbstractMap.SimpleImmutableEntry<>(name, headerValue));
    return new JsonRecord(key, value, partition, timestamp, more);
  }
}
