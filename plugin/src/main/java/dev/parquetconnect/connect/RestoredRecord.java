package dev.parquetconnect.connect;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.header.ConnectHeaders;

/**
 * One row of a Parquet file as the parts of a Connect record, for the source to send.
 *
 * @param topic {@code __kafka_topic}, or null when the file has no such column
 * @param partition {@code __kafka_partition}, or null
 * @param offset {@code __kafka_offset}, or null
 * @param timestamp {@code __kafka_timestamp} in epoch milliseconds, or null
 * @param keySchema the key's schema (null for a schemaless or absent key)
 * @param key the key, or null
 * @param valueSchema the value's schema (null for a schemaless value or a file without value
 *     columns)
 * @param value the value (null for a tombstone)
 * @param headers the headers, in their original order (empty when the file has none)
 */
public record RestoredRecord(
    String topic,
    Integer partition,
    Long offset,
    Long timestamp,
    Schema keySchema,
    Object key,
    Schema valueSchema,
    Object value,
    ConnectHeaders headers) {}
