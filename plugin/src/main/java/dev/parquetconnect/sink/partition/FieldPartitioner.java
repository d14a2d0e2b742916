package dev.parquetconnect.sink.partition;

import dev.parquetconnect.sink.partition.RecordFields.FieldPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One directory level per configured value field ({@code partition.field.name}), named after the
 * field's last path element: {@code region=eu/country=fr/}. Works on structs and on schemaless
 * maps; a null field value (and a record without value, with {@code behavior.on.null.values=write})
 * goes to {@link HivePaths#DEFAULT_PARTITION}.
 */
final class FieldPartitioner implements Partitioner {
  private final List<FieldPath> fields;

  FieldPartitioner(List<String> fieldNames) {
    if (fieldNames.isEmpty()) {
      throw new IllegalArgumentException("the field partitioner needs at least one field");
    }
    List<FieldPath> parsed = new ArrayList<>();
    for (String name : fieldNames) {
      parsed.add(FieldPath.parse(name));
    }
    this.fields = List.copyOf(parsed);
  }

  @Override
  public void configure(Map<String, String> config) {}

  @Override
  public List<PartitionColumn> partition(SinkRecord record) {
    List<PartitionColumn> columns = new ArrayList<>(fields.size());
    for (FieldPath field : fields) {
      String what = "partition field '" + field.dotted() + "'";
      columns.add(
          new PartitionColumn(
              field.leaf(), RecordFields.text(RecordFields.find(record.value(), field), what)));
    }
    return columns;
  }
}
