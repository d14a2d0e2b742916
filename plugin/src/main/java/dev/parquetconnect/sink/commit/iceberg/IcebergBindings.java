package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.iceberg.IcebergSchemas;
import dev.parquetconnect.iceberg.PartitionSpecs;
import dev.parquetconnect.iceberg.SchemaUpdates;
import dev.parquetconnect.sink.ParquetSinkConfig;
import java.util.Optional;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;

/** {@link TableBindings} over package {@code dev.parquetconnect.iceberg}. */
public final class IcebergBindings implements TableBindings {
  private final ParquetSinkConfig config;

  /** The bindings of a sink: a new table without a configured spec gets the partitioner's. */
  public IcebergBindings(ParquetSinkConfig config) {
    this.config = config;
  }

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
    return spec.isBlank()
        ? PartitionSpecs.derive(schema, config)
        : PartitionSpecs.parse(spec, schema);
  }
}
