package dev.parquetconnect.source;

import dev.parquetconnect.source.ParquetSourceConfig.PartitionMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.utils.Utils;

/** The partition a record is sent to, as {@code partition.mode} says. */
final class PartitionChooser {
  private final PartitionMode mode;
  private final int partitionCount;

  PartitionChooser(PartitionMode mode, int partitionCount) {
    this.mode = mode;
    this.partitionCount = partitionCount;
  }

  /**
   * @param original the record's original partition (null in generic mode)
   * @param key the record's key as a Connect value (null for none)
   * @return the partition, or null to let the producer's partitioner choose
   */
  Integer choose(Integer original, Object key) {
    return switch (mode) {
      case ORIGINAL -> original;
      case DEFAULT -> null;
      case KEY_HASH ->
          key == null ? null : Utils.toPositive(Utils.murmur2(keyBytes(key))) % partitionCount;
    };
  }

  /** A stable byte form of a Connect key: the bytes of BYTES, else the UTF-8 of its text. */
  private static byte[] keyBytes(Object key) {
    if (key instanceof byte[] bytes) {
      return bytes;
    }
    if (key instanceof java.nio.ByteBuffer buffer) {
      return Arrays.copyOfRange(
          buffer.array(),
          buffer.arrayOffset() + buffer.position(),
          buffer.arrayOffset() + buffer.limit());
    }
    return String.valueOf(key).getBytes(StandardCharsets.UTF_8);
  }
}
