package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import dev.parquetconnect.format.write.ParquetFileWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Shreds Connect records straight into a file's column writers (Dremel striping), with no
 * intermediate row: a plan compiled once per {@link FileLayout} walks each record's Struct, lists
 * and maps and hands every leaf to its {@link ColumnChunkWriter} with its repetition and definition
 * levels.
 *
 * <p>A record is shredded in one pass that checks each value as it writes it (a value of the wrong
 * class, a null in a required field, a Struct of another schema, a decimal that does not fit, a
 * Date that is not midnight, a timestamp that overflows in microseconds); the record-level checks
 * (the value's Struct and schema, topic and partition, the headers, which are encoded first) come
 * before any column sees the record. When a value turns out bad part way through, the columns
 * already written drop that record ({@link ParquetFileWriter#discardPartialRecord}), and a separate
 * check pass over the record, which writes nothing, finds what is wrong and where for the {@link
 * DataException}. So a bad record leaves the file as if it had never been offered and the sink can
 * send it to the dead letter queue and go on with the same file, while a good record's objects are
 * walked once (a second walk was about 15% of the sink's CPU time).
 *
 * <p>Per value, the hot path allocates nothing: numbers are unboxed from Connect's own boxes,
 * strings are encoded into a reused buffer, byte arrays are passed through. The exceptions are
 * decimals (Connect's BigDecimal gives its unscaled digits only as a new BigInteger) and header
 * values that are neither text nor bytes (encoded as JSON). Iterating a Connect map or a
 * non-RandomAccess list allocates its iterator. Not thread-safe.
 */
public final class ConnectRecordShredder {
  /** Header schemas encoded as JSON, by identity (converters reuse schema instances). */
  private static final int MAX_CACHED_HEADER_SCHEMAS = 1024;

  private final FileLayout layout;
  private final ParquetFileWriter fileWriter;
  private final Utf8Scratch utf8 = new Utf8Scratch();

  /** The value: the root struct's fields, or the one {@code value} column; null if none. */
  private final FieldShredder[] valueFields;

  private final Field[] valueConnectFields;
  private final FieldShredder valueColumn;
  private Schema lastEqualValueSchema;

  private final ColumnChunkWriter topic;
  private final ColumnChunkWriter partition;
  private final ColumnChunkWriter offset;
  private final ColumnChunkWriter timestamp;
  private final boolean kafkaTimestampMicros;
  private final FieldShredder key;
  private final ColumnChunkWriter headerKey;
  private final ColumnChunkWriter headerSchema;
  private final ColumnChunkWriter headerValue;
  private final ColumnChunkWriter tombstone;

  /** Every value column, for a tombstone's nulls. */
  private final ColumnChunkWriter[] valueColumns;

  /** Rows read straight from raw JSON ({@link #shredStaged}); null: the value cannot be staged. */
  private final StagedValueWriter staged;

  private final StagedHeaders headers = new StagedHeaders();
  private final Map<Schema, byte[]> headerSchemaJson = new IdentityHashMap<>();

  /** Compiles the plan of {@code layout} over {@code writer}'s columns. */
  public ConnectRecordShredder(FileLayout layout, ParquetFileWriter writer) {
    this.layout = layout;
    this.fileWriter = writer;
    MessageType schema = layout.parquetSchema();
    if (!schema.equals(withoutFieldIds(writer.schema()))) {
      throw new IllegalArgumentException("the writer's schema is not the layout's");
    }
    ShredderCompiler compiler =
        new ShredderCompiler(writer, layout.options().timestampUnit() == TimeUnit.MICROS);
    GroupNode root = schema.root();
    int next = 0;
    Schema valueSchema = layout.valueSchema();
    if (valueSchema != null && layout.isStructValue()) {
      List<Field> fields = ConnectToParquet.storedFields(valueSchema);
      this.valueConnectFields = fields.toArray(new Field[0]);
      if (fields.isEmpty()) {
        // The placeholder column of a struct without fields: written null.
        this.valueFields = new FieldShredder[] {compiler.placeholder(root.field(next++), 0)};
      } else {
        this.valueFields = new FieldShredder[fields.size()];
        for (int i = 0; i < valueFields.length; i++) {
          valueFields[i] =
              compiler.compile(
                  root.field(next++),
                  fields.get(i).schema(),
                  0,
                  0,
                  fields.get(i).schema().isOptional());
        }
      }
      this.valueColumn = null;
    } else if (valueSchema != null) {
      this.valueFields = null;
      this.valueConnectFields = null;
      this.valueColumn =
          compiler.compile(root.field(next++), valueSchema, 0, 0, valueSchema.isOptional());
    } else {
      this.valueFields = null;
      this.valueConnectFields = null;
      this.valueColumn = null;
    }
    this.valueColumns = compiler.columnsFrom(0); // the value's columns lead
    MappingOptions options = layout.options();
    this.kafkaTimestampMicros = options.kafkaTimestampMicros();
    if (options.kafkaMetadata()) {
      next += 4;
      this.topic = compiler.leaf();
      this.partition = compiler.leaf();
      this.offset = compiler.leaf();
      this.timestamp = compiler.leaf();
    } else {
      this.topic = this.partition = this.offset = this.timestamp = null;
    }
    if (layout.keySchema() != null) {
      this.key = compiler.compile(root.field(next++), layout.keySchema(), 0, 0, true);
    } else {
      this.key = null;
    }
    if (options.kafkaHeaders()) {
      next++;
      this.headerKey = compiler.leaf();
      this.headerSchema = compiler.leaf();
      this.headerValue = compiler.leaf();
    } else {
      this.headerKey = this.headerSchema = this.headerValue = null;
    }
    if (layout.hasTombstoneColumn()) {
      next++;
      this.tombstone = compiler.leaf();
    } else {
      this.tombstone = null;
    }
    if (next != root.fieldCount() || compiler.columnsUsed() != writer.columnCount()) {
      throw new IllegalStateException("the plan does not cover the layout's columns");
    }
    this.staged =
        valueFields != null && valueConnectFields.length > 0
            ? StagedValueWriter.compile(
                valueSchema,
                root,
                valueColumns,
                layout.options().timestampUnit() == TimeUnit.MICROS)
            : null;
  }

  public FileLayout layout() {
    return layout;
  }

  /**
   * Writes one record whose key and value are already of the layout's schemas (schemaless ones
   * conformed), checking it on the way. The caller ends the record on the file writer.
   *
   * @throws DataException naming topic, partition, offset and field when the record cannot be
   *     written; nothing of it is left in the file writer then
   */
  public void shred(SinkRecord record, Object keyValue, Object value) {
    try {
      checkRecord(record, value);
    } catch (BadValue e) {
      throw new DataException(where(record) + ": " + e.describe(), e.getCause());
    }
    try {
      write(record, keyValue, value);
    } catch (RuntimeException e) {
      fileWriter.discardPartialRecord();
      throw explain(record, keyValue, value, e);
    }
  }

  /**
   * Writes one record whose value is {@code row}, read from the record's raw JSON, as {@link
   * #shred} writes the Struct JsonConverter would make of it; false, with nothing written, when
   * this file's value is not the row's schema or a value of the row needs the Struct path's checks.
   * The caller ends the record on the file writer.
   *
   * @throws DataException naming topic, partition, offset and column when the record's other parts
   *     (key, headers, metadata) cannot be written; nothing of it is left in the file writer then
   */
  public boolean shredStaged(SinkRecord record, Object keyValue, StagedRow row) {
    if (staged == null || !staged.fits(row) || !staged.writable(row)) {
      return false;
    }
    try {
      checkRecordParts(record);
    } catch (BadValue e) {
      throw new DataException(where(record) + ": " + e.describe(), e.getCause());
    }
    try {
      staged.write(row);
      writeRecordParts(record, keyValue, false);
    } catch (RuntimeException e) {
      fileWriter.discardPartialRecord();
      if (key != null && keyValue != null) {
        try {
          key.check(keyValue);
        } catch (BadValue bad) {
          BadValue named = bad.under(FileLayout.KEY_COLUMN);
          throw new DataException(where(record) + ": " + named.describe(), bad.getCause());
        }
      }
      if (e instanceof BadValue bad) {
        throw new DataException(where(record) + ": " + bad.describe(), bad.getCause());
      }
      throw e;
    }
    return true;
  }

  /**
   * What to throw for a record whose writing failed with {@code failure} (and was discarded): the
   * check pass names the bad value and its field; a failure it does not explain is not the data's
   * and goes on as it is.
   */
  private RuntimeException explain(
      SinkRecord record, Object keyValue, Object value, RuntimeException failure) {
    try {
      check(record, keyValue, value);
    } catch (BadValue e) {
      return new DataException(where(record) + ": " + e.describe(), e.getCause());
    }
    if (failure instanceof BadValue bad) {
      return new DataException(where(record) + ": " + bad.describe(), bad.getCause());
    }
    return failure;
  }

  static String where(SinkRecord record) {
    return "topic "
        + record.originalTopic()
        + " partition "
        + record.originalKafkaPartition()
        + " offset "
        + record.originalKafkaOffset();
  }

  // ---- checks: of the record before writing it; of every value after a failed write

  /**
   * What must hold before any column sees the record: a value where the file needs one, a value
   * Struct of the file's schema, topic and partition; stages the headers (whose values are encoded,
   * and so checked, here).
   */
  private void checkRecord(SinkRecord record, Object value) {
    if (value == null) {
      boolean allowed =
          layout.valueSchema() == null
              || layout.options().tombstones()
              || valueColumn != null && layout.valueSchema().isOptional();
      if (!allowed) {
        throw new BadValue(
            "the value is null (a tombstone) and the file does not store"
                + " tombstones (behavior.on.null.values)");
      }
    } else if (layout.valueSchema() == null) {
      throw new BadValue("the file has no value columns (all its values are null), got a value");
    } else if (valueFields != null) {
      checkValueSchema(asStruct(value, layout.valueSchema()).schema());
    }
    checkRecordParts(record);
  }

  /** The checks of the record's parts besides its value: topic, partition, headers (staged). */
  private void checkRecordParts(SinkRecord record) {
    if (topic != null && record.originalTopic() == null) {
      throw new BadValue("the record has no topic").under(FileLayout.TOPIC_COLUMN);
    }
    if (partition != null && record.originalKafkaPartition() == null) {
      throw new BadValue("the record has no partition").under(FileLayout.PARTITION_COLUMN);
    }
    if (headerKey != null) {
      stageHeaders(record);
    }
  }

  /** The whole record, every value: throws the first {@link BadValue}, writes nothing. */
  private void check(SinkRecord record, Object keyValue, Object value) {
    checkRecord(record, value);
    if (value != null && valueFields != null) {
      Struct struct = (Struct) value;
      for (int i = 0; i < valueConnectFields.length; i++) {
        FieldShredder field = valueFields[i];
        try {
          field.checkField(struct.get(valueConnectFields[i]));
        } catch (BadValue e) {
          throw e.under(field.name);
        }
      }
    } else if (value != null) {
      try {
        valueColumn.check(value);
      } catch (BadValue e) {
        throw e.under(FileLayout.VALUE_COLUMN);
      }
    }
    if (key != null && keyValue != null) {
      try {
        key.check(keyValue);
      } catch (BadValue e) {
        throw e.under(FileLayout.KEY_COLUMN);
      }
    }
  }

  private static Struct asStruct(Object value, Schema schema) {
    if (!(value instanceof Struct struct)) {
      throw BadValue.wrongClass(value, schema);
    }
    return struct;
  }

  private void checkValueSchema(Schema actual) {
    Schema expected = layout.valueSchema();
    if (actual == expected || actual == lastEqualValueSchema) {
      return;
    }
    if (!actual.equals(expected)) {
      throw new BadValue(
          "a Struct of schema "
              + ConnectTypes.describe(actual)
              + (actual.version() == null ? "" : " version " + actual.version())
              + " where the file has "
              + ConnectTypes.describe(expected)
              + (expected.version() == null ? "" : " version " + expected.version())
              + " (schema evolution decides before writing)");
    }
    lastEqualValueSchema = actual;
  }

  private void stageHeaders(SinkRecord record) {
    headers.clear();
    int i = 0;
    for (Header h : record.headers()) {
      try {
        headers.add(h, encodedSchema(h.schema()), utf8);
      } catch (RuntimeException e) {
        BadValue bad = new BadValue("header " + h.key() + ": " + e.getMessage());
        throw bad.under(FileLayout.HEADERS_COLUMN + "[" + i + "]");
      }
      i++;
    }
  }

  private byte[] encodedSchema(Schema schema) {
    if (schema == null) {
      return null;
    }
    byte[] json = headerSchemaJson.get(schema);
    if (json == null) {
      if (headerSchemaJson.size() >= MAX_CACHED_HEADER_SCHEMAS) {
        headerSchemaJson.clear();
      }
      json = ConnectSchemaJson.write(schema).getBytes(StandardCharsets.UTF_8);
      headerSchemaJson.put(schema, json);
    }
    return json;
  }

  // ---- the write, checking each value as it goes (see checkRecord for what comes first)

  private void write(SinkRecord record, Object keyValue, Object value) {
    if (value == null) {
      for (ColumnChunkWriter c : valueColumns) {
        c.writeNull(0, 0);
      }
    } else if (valueFields != null) {
      Struct struct = (Struct) value;
      for (int i = 0; i < valueConnectFields.length; i++) {
        valueFields[i].writeField(struct.get(valueConnectFields[i]), 0);
      }
      if (valueConnectFields.length == 0) {
        valueFields[0].write(struct, 0);
      }
    } else {
      valueColumn.writeField(value, 0);
    }
    writeRecordParts(record, keyValue, value == null);
  }

  /** The columns besides the value's: metadata, key, headers, tombstone. */
  private void writeRecordParts(SinkRecord record, Object keyValue, boolean nullValue) {
    if (topic != null) {
      int n = utf8.encode(record.originalTopic());
      topic.writeBinary(utf8.buffer(), 0, n, 0, 0);
      partition.writeInt(record.originalKafkaPartition(), 0, 0);
      offset.writeLong(record.originalKafkaOffset(), 0, 0);
      Long ts = record.timestamp();
      if (ts == null) {
        timestamp.writeNull(0, 0);
      } else {
        timestamp.writeLong(kafkaTimestampMicros ? kafkaMicros(ts) : ts, 0, 1);
      }
    }
    if (key != null) {
      if (keyValue == null) {
        key.writeNulls(0, 0); // a null key stays null, whatever default its schema has
      } else {
        key.write(keyValue, 0);
      }
    }
    if (headerKey != null) {
      headers.writeTo(headerKey, headerSchema, headerValue, utf8);
    }
    if (tombstone != null) {
      tombstone.writeBoolean(nullValue, 0, 0);
    }
  }

  private static long kafkaMicros(long millis) {
    if (millis > Long.MAX_VALUE / 1000 || millis < Long.MIN_VALUE / 1000) {
      throw new DataException(
          "the record timestamp " + millis + " ms does not fit __kafka_timestamp in microseconds");
    }
    return millis * 1000;
  }

  /**
   * {@code schema} without field ids: a table's files carry the ids of its columns, on the schema
   * the layout gives, and a layout's schema has none.
   */
  static MessageType withoutFieldIds(MessageType schema) {
    List<SchemaNode> fields = new ArrayList<>(schema.fields().size());
    for (SchemaNode field : schema.fields()) {
      fields.add(withoutFieldIds(field));
    }
    return new MessageType(schema.name(), fields);
  }

  private static SchemaNode withoutFieldIds(SchemaNode node) {
    if (node instanceof PrimitiveNode leaf) {
      return leaf.fieldId() == null ? leaf : leaf.withFieldId(null);
    }
    GroupNode group = (GroupNode) node;
    List<SchemaNode> fields = new ArrayList<>(group.fieldCount());
    for (SchemaNode field : group.fields()) {
      fields.add(withoutFieldIds(field));
    }
    return new GroupNode(
        group.name(), group.repetition(), fields, group.logicalType(), group.convertedType(), null);
  }
}
