package dev.parquetconnect.sink.partition;

import java.util.Objects;

/**
 * One level of a record's partition directory: the Hive partition column {@code name} and the
 * record's {@code value} for it ({@code null} for none). Both are raw text; the sink encodes them
 * ({@link HivePaths}), so no partitioner can place a file outside the configured prefix.
 */
public record PartitionColumn(String name, String value) {
  public PartitionColumn {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a partition column name must not be empty");
    }
  }
}
