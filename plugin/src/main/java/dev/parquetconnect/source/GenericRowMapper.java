package dev.parquetconnect.source;

import dev.parquetconnect.connect.ConnectRecordReader;
import dev.parquetconnect.connect.ParquetToConnect;
import dev.parquetconnect.format.schema.MessageType;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.source.SourceRecord;

/**
 * Rows of any Parquet file as records of one topic: the value is the row as a Struct of every
 * top-level column ({@link ParquetToConnect}'s mapping of other writers' files, read by {@link
 * ConnectRecordReader}); the key the value of the {@code key.fields} column (one) or a Struct of
 * them (several), or null; the timestamp from {@code timestamp.field} or the file's modification
 * time.
 */
final class GenericRowMapper {
  private final String topic;
  private final PartitionChooser partitions;
  private final ParquetToConnect value;
  private final Field[] keyFields;
  private final Schema keySchema;
  private final Field timestampField;
  private final long fileTimeMillis;

  private GenericRowMapper(
      MessageType schema,
      String topic,
      List<String> keyFieldNames,
      String timestampFieldName,
      long fileTimeMillis,
      PartitionChooser partitions) {
    this.topic = topic;
    this.partitions = partitions;
    this.fileTimeMillis = fileTimeMillis;
    // Empty metadata: every column is a field, even in a file our sink wrote.
    this.value = ParquetToConnect.of(schema, Map.of());
    Schema valueSchema = value.valueSchema();
    this.keyFields = new Field[keyFieldNames.size()];
    for (int i = 0; i < keyFields.length; i++) {
      keyFields[i] =
          requireField(valueSchema, keyFieldNames.get(i), ParquetSourceConfig.KEY_FIELDS_CONFIG);
    }
    if (keyFields.length == 0) {
      this.keySchema = null;
    } else if (keyFields.length == 1) {
      this.keySchema = keyFields[0].schema();
    } else {
      SchemaBuilder key = SchemaBuilder.struct();
      for (Field f : keyFields) {
        key.field(f.name(), f.schema());
      }
      this.keySchema = key.build();
    }
    if (timestampFieldName.isEmpty()) {
      this.timestampField = null;
    } else {
      this.timestampField =
          requireField(valueSchema, timestampFieldName, ParquetSourceConfig.TIMESTAMP_FIELD_CONFIG);
      Schema.Type type = timestampField.schema().type();
      if (type != Schema.Type.INT64 && type != Schema.Type.INT32) {
        throw new DataException(
            ParquetSourceConfig.TIMESTAMP_FIELD_CONFIG
                + " "
                + timestampFieldName
                + " is a "
                + type
                + " column, not a timestamp, date or INT64");
      }
    }
  }

  static GenericRowMapper of(
      MessageType schema,
      String topic,
      List<String> keyFields,
      String timestampField,
      long fileTimeMillis,
      PartitionChooser partitions) {
    return new GenericRowMapper(
        schema, topic, keyFields, timestampField, fileTimeMillis, partitions);
  }

  private static Field requireField(Schema struct, String name, String config) {
    Field f = struct.field(name);
    if (f == null) {
      throw new DataException(config + " names column " + name + ", which the file does not have");
    }
    return f;
  }

  /** The mapping the file's rows are read with. */
  ParquetToConnect mapping() {
    return value;
  }

  /** The row read last as a record. */
  SourceRecord toRecord(
      ConnectRecordReader row, Map<String, ?> sourcePartition, Map<String, ?> sourceOffset) {
    Struct struct = (Struct) row.value();
    Object key = null;
    if (keyFields.length == 1) {
      key = struct.get(keyFields[0]);
    } else if (keyFields.length > 1) {
      Struct k = new Struct(keySchema);
      for (Field f : keyFields) {
        k.put(f.name(), struct.get(f));
      }
      key = k;
    }
    Long timestamp = fileTimeMillis;
    if (timestampField != null) {
      Object t = struct.get(timestampField);
      timestamp =
          t instanceof Date d
              ? Long.valueOf(d.getTime())
              : t instanceof Number n ? Long.valueOf(n.longValue()) : null;
    }
    return new SourceRecord(
        sourcePartition,
        sourceOffset,
        topic,
        partitions.choose(null, key),
        keySchema,
        key,
        value.valueSchema(),
        struct,
        timestamp);
  }
}
