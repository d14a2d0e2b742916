package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.format.schema.MessageType;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;

/**
 * What the table commit needs to know about our files in Iceberg's terms: the schema of a new
 * table, the schema changes a file needs, and the partition spec of a new table. Implemented over
 * package {@code dev.parquetconnect.iceberg} in production.
 */
public interface TableBindings {

  /** The schema of a table created for files of {@code written}, with fresh field ids. */
  Schema newTableSchema(MessageType written);

  /**
   * Stages on {@code update} what lets {@code table} hold files of {@code written}; the reason when
   * it cannot (nothing is staged then).
   */
  Optional<String> evolve(UpdateSchema update, Schema table, MessageType written);

  /** The partition spec of a new table of {@code schema} ({@code spec} as configured, or ""). */
  PartitionSpec newTableSpec(String spec, Schema schema);
}
