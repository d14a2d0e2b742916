package dev.parquetconnect.sink.commit.iceberg;

import dev.parquetconnect.connect.StagedRow;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.iceberg.TablePartitioner;
import dev.parquetconnect.sink.partition.PartitionColumn;
import dev.parquetconnect.sink.partition.Partitioner;
import dev.parquetconnect.sink.partition.StagedRouting;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.iceberg.Table;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The partitioner of {@code table.format=iceberg}: each record goes to the Iceberg partition of its
 * values under its table's spec ({@link TablePartitioner}), so every data file holds one partition
 * of the table and its directory is Iceberg's partition path. The table of a topic is loaded, or
 * created for the first record's schema, when the topic's first record comes.
 *
 * <p>A record of raw JSON read straight into a row ({@code input.format=json}) is routed from the
 * row's leaves once its topic's table is known; its topic's first record goes the Struct way, which
 * loads or creates the table.
 */
public final class TableRouting implements Partitioner, StagedRouting {
  private final IcebergTables tables;
  private final Function<SinkRecord, MessageType> schemaOf;
  private final Map<String, TablePartitioner> byTopic = new HashMap<>();

  /**
   * @param schemaOf the Parquet schema a file opened for a record would have (a new table's schema)
   */
  public TableRouting(IcebergTables tables, Function<SinkRecord, MessageType> schemaOf) {
    this.tables = tables;
    this.schemaOf = schemaOf;
  }

  @Override
  public void configure(Map<String, String> config) {}

  /**
   * @throws RetriableException when the catalog cannot be reached: Connect hands the batch over
   *     again, and the records already written are dropped as read
   */
  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    String topic = record.originalTopic();
    TablePartitioner partitioner = byTopic.get(topic);
    if (partitioner == null) {
      Table table;
      try {
        table = tables.loadOrCreate(topic, schemaOf.apply(record));
      } catch (IOException e) {
        throw new RetriableException(
            "cannot load or create table " + tables.identifier(topic) + ": " + e.getMessage(), e);
      }
      partitioner = new TablePartitioner(table.spec());
      byTopic.put(topic, partitioner);
    }
    return partitioner.partition(record);
  }

  /** Null until the topic's table is loaded by a decoded record, or when the row cannot tell. */
  @Override
  public List<PartitionColumn> partition(SinkRecord record, StagedRow row) {
    TablePartitioner partitioner = byTopic.get(record.originalTopic());
    return partitioner == null ? null : partitioner.partition(record, row);
  }
}
