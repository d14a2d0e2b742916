package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.iceberg.IcebergSchemas;
import dev.parquetconnect.iceberg.SchemaUpdates;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;

/** {@link TableBindings} over package {@code dev.parquetconnect.iceberg}. */
public final class IcebergBindings implements TableBindings {

  @Override
  public Schema newTableSchema(MessageType written) {
    return IcebergSchemas.forNewTable(written);
  }

  @Override
  public Optional<String> evolve(UpdateSchema update, Schema table, MessageType written) {
    return SchemaUpdates.apply(update, table, written);
  }

  @Override
  public PartitionSpec newTableSpec(String spec, Schema schema) {
    if (!spec.isBlank()) {
      throw new IllegalArgumentException(
          IcebergConfig.PARTITION_SPEC_CONFIG + " '" + spec + "' cannot be applied yet");
    }
    return PartitionSpec.unpartitioned();
  }
}
