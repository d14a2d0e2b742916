package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import dev.parquetconnect.format.write.ParquetFileWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Shreds Connect records straight into a file's column writers (Dremel striping), with no
 * intermediate row: a plan compiled once per {@link FileLayout} walks each record's Struct,
 * lists and maps and hands every leaf to its {@link ColumnChunkWriter} with its repetition and
 * definition levels.
 *
 * <p>A record is shredded in one pass that checks each value as it writes it (a value of the
 * wrong class, a null in a required field, a Struct of another schema, a decimal that does not
 * fit, a Date that is not midnight, a timestamp that overflows in microseconds); the record-level
 * checks (the value's Struct and schema, topic and partition, the headers, which are encoded
 * first) come before any column sees the record. When a value turns out bad part way through,
 * the columns already written drop that record ({@link ParquetFileWriter#discardPartialRecord}),
 * and a separate check pass over the record, which writes nothing, finds what is wrong and where
 * for the {@link DataException}. So a bad record leaves the file as if it had never been offered
 * and the sink can send it to the dead letter queue and go on with the same file, while a good
 * record's objects are walked once (a second walk was about 15% of the sink's CPU time).
 *
 * <p>Per value, the hot path allocates nothing: numbers are unboxed from Connect's own boxes,
 * strings are encoded into a reused buffer, byte arrays are passed through. The exceptions are
 * decimals (Connect's BigDecimal gives its unscaled digits only as a new BigInteger) and header
 * values that are neither text nor bytes (encoded as JSON). Iterating a Connect map or a
 * non-RandomAccess list allocates its iterator. Not thread-safe.
 */
public final class ConnectRecordShredder {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  /** Header schemas encoded as JSON, by identity (converters reuse schema instances). */
  private static final int MAX_CACHED_HEADER_SCHEMAS = 1024;

  private final FileLayout layout;
  private final ParquetFileWriter fileWriter;
  private final Utf8Scratch utf8 = new Utf8Scratch();
  private final boolean microsTimestamps;

  /** The value: the root struct's fields, or the one {@code value} column; null if none. */
  private final Node[] valueFields;
  private final Field[] valueConnectFields;
  private final Node valueColumn;
  private Schema lastEqualValueSchema;

  private final ColumnChunkWriter topic;
  private final ColumnChunkWriter partition;
  private final ColumnChunkWriter offset;
  private final ColumnChunkWriter timestamp;
  private final Node key;
  private final ColumnChunkWriter headerKey;
  private final ColumnChunkWriter headerSchema;
  private final ColumnChunkWriter headerValue;
  private final ColumnChunkWriter tombstone;
  /** Every value column, for a tombstone's nulls. */
  private final ColumnChunkWriter[] valueColumns;

  private final StagedHeaders headers = new StagedHeaders();
  private final Map<Schema, byte[]> headerSchemaJson = new IdentityHashMap<>();

  /** Compiles the plan of {@code layout} over {@code writer}'s columns. */
  public ConnectRecordShredder(FileLayout layout, ParquetFileWriter writer) {
    this.layout = layout;
    this.fileWriter = writer;
    MessageType schema = layout.parquetSchema();
    if (!schema.equals(writer.schema())) {
      throw new IllegalArgumentException("the writer's schema is not the layout's");
    }
    this.microsTimestamps = layout.options().timestampUnit() == TimeUnit.MICROS;
    Compiler compiler = new Compiler(writer);
    GroupNode root = schema.root();
    int next = 0;
    Schema valueSchema = layout.valueSchema();
    if (valueSchema != null && layout.isStructValue()) {
      List<Field> fields = valueSchema.fields();
      this.valueConnectFields = fields.toArray(new Field[0]);
      if (fields.isEmpty()) {
        // The placeholder column of a struct without fields: written null.
        this.valueFields = new Node[] {compiler.placeholder(root.field(next++), 0)};
      } else {
        this.valueFields = new Node[fields.size()];
        for (int i = 0; i < valueFields.length; i++) {
          valueFields[i] =
              compiler.compile(root.field(next++), fields.get(i).schema(), 0, 0,
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
    if (next != root.fieldCount() || compiler.nextColumn != writer.columnCount()) {
      throw new IllegalStateException("the plan does not cover the layout's columns");
    }
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
   * What to throw for a record whose writing failed with {@code failure} (and was discarded):
   * the check pass names the bad value and its field; a failure it does not explain is not the
   * data's and goes on as it is.
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
    return "topic " + record.originalTopic() + " partition " + record.originalKafkaPartition()
        + " offset " + record.originalKafkaOffset();
  }

  // ---- checks: of the record before writing it; of every value after a failed write

  /**
   * What must hold before any column sees the record: a value where the file needs one, a
   * value Struct of the file's schema, topic and partition; stages the headers (whose values
   * are encoded, and so checked, here).
   */
  private void checkRecord(SinkRecord record, Object value) {
    if (value == null) {
      boolean allowed = layout.valueSchema() == null || layout.options().tombstones()
          || valueColumn != null && layout.valueSchema().isOptional();
      if (!allowed) {
        throw new BadValue("the value is null (a tombstone) and the file does not store"
            + " tombstones (behavior.on.null.values)");
      }
    } else if (layout.valueSchema() == null) {
      throw new BadValue("the file has no value columns (all its values are null), got a value");
    } else if (valueFields != null) {
      checkValueSchema(asStruct(value, layout.valueSchema()).schema());
    }
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
        Node field = valueFields[i];
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
      throw new BadValue("a Struct of schema " + ConnectTypes.describe(actual)
          + (actual.version() == null ? "" : " version " + actual.version())
          + " where the file has " + ConnectTypes.describe(expected)
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
    if (topic != null) {
      int n = utf8.encode(record.originalTopic());
      topic.writeBinary(utf8.buffer(), 0, n, 0, 0);
      partition.writeInt(record.originalKafkaPartition(), 0, 0);
      offset.writeLong(record.originalKafkaOffset(), 0, 0);
      Long ts = record.timestamp();
      if (ts == null) {
        timestamp.writeNull(0, 0);
      } else {
        timestamp.writeLong(ts, 0, 1);
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
      tombstone.writeBoolean(value == null, 0, 0);
    }
  }

  // ---- the plan

  /** Builds nodes in column order, handing out the file writer's column writers. */
  private final class Compiler {
    private final ParquetFileWriter writer;
    private int nextColumn;

    Compiler(ParquetFileWriter writer) {
      this.writer = writer;
    }

    ColumnChunkWriter leaf() {
      return writer.column(nextColumn++);
    }

    ColumnChunkWriter[] columnsFrom(int first) {
      ColumnChunkWriter[] out = new ColumnChunkWriter[nextColumn - first];
      for (int i = 0; i < out.length; i++) {
        out[i] = writer.column(first + i);
      }
      return out;
    }

    /**
     * The node of Parquet field {@code p} holding values of {@code s}, under a parent whose
     * values have definition level {@code parentDef} and repetition level {@code parentRep};
     * {@code nullable}: whether Connect allows a null here.
     */
    Node compile(SchemaNode p, Schema s, int parentDef, int parentRep, boolean nullable) {
      int def = parentDef + (p.repetition() == FieldRepetitionType.REQUIRED ? 0 : 1);
      int first = nextColumn;
      ConnectTypes.Kind kind = ConnectTypes.kind(s);
      Node node;
      switch (kind) {
        case STRUCT: {
          GroupNode group = (GroupNode) p;
          List<Field> fields = s.fields();
          Node[] children;
          if (fields.isEmpty()) {
            children = new Node[] {placeholder(group.field(0), def)};
          } else {
            children = new Node[fields.size()];
            for (int i = 0; i < children.length; i++) {
              SchemaNode child = group.field(i);
              if (!child.name().equals(fields.get(i).name())) {
                throw new IllegalStateException("the layout's fields are out of order");
              }
              Schema cs = fields.get(i).schema();
              children[i] = compile(child, cs, def, parentRep, cs.isOptional());
            }
          }
          node = new StructNode(s, fields.toArray(new Field[0]), children);
          break;
        }
        case ARRAY: {
          NestedTypes.ListShape shape = NestedTypes.listShape((GroupNode) p);
          int innerRep = parentRep + 1;
          Schema es = s.valueSchema();
          Node element = compile(shape.element(), es, def + 1, innerRep, es.isOptional());
          node = new ListNode(element, innerRep);
          break;
        }
        case MAP: {
          GroupNode group = (GroupNode) p;
          int innerRep = parentRep + 1;
          Schema ks = s.keySchema();
          Schema vs = s.valueSchema();
          if (group.isMap()) {
            NestedTypes.MapShape shape = NestedTypes.mapShape(group);
            Node k = compile(shape.key(), ks, def + 1, innerRep, false);
            Node v = compile(shape.value(), vs, def + 1, innerRep, vs.isOptional());
            node = new MapNode(k, v, innerRep);
          } else {
            // A LIST of REQUIRED {key, value} entries: the entry adds no definition level.
            GroupNode entry = (GroupNode) NestedTypes.listShape(group).element();
            Node k = compile(entry.field(0), ks, def + 1, innerRep, ks.isOptional());
            Node v = compile(entry.field(1), vs, def + 1, innerRep, vs.isOptional());
            node = new MapNode(k, v, innerRep);
          }
          break;
        }
        default: {
          PrimitiveNode leaf = (PrimitiveNode) p;
          ColumnChunkWriter column = leaf();
          node = switch (kind) {
            case STRING -> new StringLeafNode(leaf, s, column);
            case INT32 -> new Int32LeafNode(leaf, s, column);
            case INT64 -> new Int64LeafNode(leaf, s, column);
            case FLOAT64 -> new Float64LeafNode(leaf, s, column);
            case BOOLEAN -> new BooleanLeafNode(leaf, s, column);
            default -> new LeafNode(kind, leaf, s, column);
          };
          break;
        }
      }
      node.init(p.name(), s, nullable, def, columnsFrom(first));
      return node;
    }

    /** The always-null field of a struct without fields. */
    Node placeholder(SchemaNode p, int parentDef) {
      int first = nextColumn;
      leaf();
      Node node = new PlaceholderNode();
      node.init(p.name(), null, true, parentDef + 1, columnsFrom(first));
      return node;
    }
  }

  /**
   * One field of the plan. {@code def} is the definition level of a present value; a null is
   * written at {@code def - 1} to every column beneath ({@code columns}).
   */
  private abstract static class Node {
    // Set once by the compiler (init) when the node's columns are known, then only read.
    String name;
    boolean nullable;
    int def;
    Object defaultValue;
    /**
     * The one class a value of this node may have when that settles its check (a String, a
     * boxed number or a Boolean: final classes), else null; the check then needs no call.
     */
    Class<?> exactClass;
    ColumnChunkWriter[] columns;

    final void init(
        String name, Schema schema, boolean nullable, int def, ColumnChunkWriter[] columns) {
      this.name = name;
      this.nullable = nullable;
      this.def = def;
      this.defaultValue = schema == null ? null : schema.defaultValue();
      this.columns = columns;
    }

    /** Checks a non-null value. */
    abstract void check(Object value);

    /**
     * Writes a non-null value, {@code rep} the repetition level of its first entry; throws (a
     * {@link BadValue} or a {@link ClassCastException}) at a value that cannot be written, with
     * what it has written of the record left for the caller to discard.
     */
    abstract void write(Object value, int rep);

    /** Checks a field's value, which may be null (then its default applies, if any). */
    final void checkField(Object value) {
      Object v = value != null ? value : defaultValue;
      if (v == null) {
        if (!nullable) {
          throw new BadValue("null in a required field");
        }
      } else if (v.getClass() != exactClass) {
        check(v); // a value of any other class gets the node's check and its message
      }
    }

    final void writeField(Object value, int rep) {
      Object v = value != null ? value : defaultValue;
      if (v == null) {
        if (!nullable) {
          throw new BadValue("null in a required field");
        }
        writeNulls(rep, def - 1);
      } else {
        write(v, rep);
      }
    }

    final void writeNulls(int rep, int level) {
      for (ColumnChunkWriter c : columns) {
        c.writeNull(rep, level);
      }
    }
  }

  private static final class PlaceholderNode extends Node {
    @Override
    void check(Object value) {}

    @Override
    void write(Object value, int rep) {
      // The struct is present; its placeholder field never is.
      writeNulls(rep, def - 1);
    }
  }

  private static final class StructNode extends Node {
    private final Schema schema;
    private final Field[] fields;
    private final Node[] children;
    private Schema lastEqualSchema;

    StructNode(Schema schema, Field[] fields, Node[] children) {
      this.schema = schema;
      this.fields = fields;
      this.children = children;
    }

    /** Struct.get(Field) reads by position: only a Struct of an equal schema is safe. */
    private void checkSchema(Schema actual) {
      if (actual != schema && actual != lastEqualSchema) {
        if (!actual.equals(schema)) {
          throw new BadValue("a Struct of schema " + ConnectTypes.describe(actual)
              + " where the file has " + ConnectTypes.describe(schema));
        }
        lastEqualSchema = actual;
      }
    }

    @Override
    void check(Object value) {
      if (!(value instanceof Struct struct)) {
        throw BadValue.wrongClass(value, schema);
      }
      checkSchema(struct.schema());
      for (int i = 0; i < fields.length; i++) {
        Node child = children[i];
        try {
          child.checkField(struct.get(fields[i]));
        } catch (BadValue e) {
          throw e.under(child.name);
        }
      }
    }

    @Override
    void write(Object value, int rep) {
      if (!(value instanceof Struct struct)) {
        throw BadValue.wrongClass(value, schema);
      }
      checkSchema(struct.schema());
      if (fields.length == 0) {
        children[0].write(struct, rep);
        return;
      }
      for (int i = 0; i < fields.length; i++) {
        children[i].writeField(struct.get(fields[i]), rep);
      }
    }
  }

  private static final class ListNode extends Node {
    private final Node element;
    private final int elementRep;

    ListNode(Node element, int elementRep) {
      this.element = element;
      this.elementRep = elementRep;
    }

    @Override
    void check(Object value) {
      if (!(value instanceof List<?> list)) {
        throw BadValue.wrongClass(value, "a List");
      }
      if (list instanceof RandomAccess) {
        // By index, as the write pass: no iterator per list.
        for (int i = 0, n = list.size(); i < n; i++) {
          checkElement(list.get(i), i);
        }
        return;
      }
      int i = 0;
      for (Object e : list) {
        checkElement(e, i++);
      }
    }

    private void checkElement(Object e, int i) {
      try {
        element.checkField(e);
      } catch (BadValue bad) {
        throw bad.under("[" + i + "]");
      }
    }

    @Override
    void write(Object value, int rep) {
      List<?> list = (List<?>) value;
      if (list.isEmpty()) {
        writeNulls(rep, def);
        return;
      }
      int r = rep;
      if (list instanceof RandomAccess) {
        for (int i = 0, n = list.size(); i < n; i++) {
          element.writeField(list.get(i), r);
          r = elementRep;
        }
      } else {
        for (Object e : list) {
          element.writeField(e, r);
          r = elementRep;
        }
      }
    }
  }

  /** A MAP, or a map stored as a LIST of {key, value} entries: the walk is the same. */
  private static final class MapNode extends Node {
    private final Node key;
    private final Node value;
    private final int entryRep;

    MapNode(Node key, Node value, int entryRep) {
      this.key = key;
      this.value = value;
      this.entryRep = entryRep;
    }

    @Override
    void check(Object v) {
      if (!(v instanceof Map<?, ?> map)) {
        throw BadValue.wrongClass(v, "a Map");
      }
      for (Map.Entry<?, ?> e : map.entrySet()) {
        try {
          key.checkField(e.getKey());
        } catch (BadValue bad) {
          throw bad.under("{key " + e.getKey() + "}");
        }
        try {
          value.checkField(e.getValue());
        } catch (BadValue bad) {
          throw bad.under("{" + e.getKey() + "}");
        }
      }
    }

    @Override
    void write(Object v, int rep) {
      Map<?, ?> map = (Map<?, ?>) v;
      if (map.isEmpty()) {
        writeNulls(rep, def);
        return;
      }
      int r = rep;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        key.writeField(e.getKey(), r);
        value.writeField(e.getValue(), r);
        r = entryRep;
      }
    }
  }

  /**
   * A leaf: one column, converted by Connect kind. The common kinds have subclasses of their
   * own, so that the virtual call that reaches a leaf already picks its code: a record passes
   * dozens of leaves of changing kinds, and a switch on the kind behind that call was a second
   * hard-to-predict jump per value in each pass.
   */
  private class LeafNode extends Node {
    private final ConnectTypes.Kind kind;
    final ColumnChunkWriter column;
    final Schema schema;
    private final DecimalLayout decimal;
    private final byte[] fixed;

    LeafNode(ConnectTypes.Kind kind, PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
      this.kind = kind;
      this.column = column;
      this.schema = schema;
      this.decimal = kind == ConnectTypes.Kind.DECIMAL ? DecimalLayout.of(schema) : null;
      this.fixed =
          leaf.type() == PhysicalType.FIXED_LEN_BYTE_ARRAY ? new byte[leaf.typeLength()] : null;
    }

    @Override
    void check(Object v) {
      switch (kind) {
        case INT8 -> expect(v instanceof Byte, v);
        case INT16 -> expect(v instanceof Short, v);
        case INT32 -> expect(v instanceof Integer, v);
        case INT64 -> expect(v instanceof Long, v);
        case FLOAT32 -> expect(v instanceof Float, v);
        case FLOAT64 -> expect(v instanceof Double, v);
        case BOOLEAN -> expect(v instanceof Boolean, v);
        case STRING -> expect(v instanceof String, v);
        case BYTES -> expect(v instanceof byte[] || v instanceof ByteBuffer, v);
        case DECIMAL -> {
          expect(v instanceof BigDecimal, v);
          BigDecimal d = (BigDecimal) v;
          // The common case, the column's scale and not too many digits, allocates nothing.
          if (d.scale() != decimal.scale() || d.precision() > decimal.precision()) {
            StringBuilder problem = new StringBuilder();
            if (decimal.fit(d, problem) == null) {
              throw new BadValue(problem.toString());
            }
          }
        }
        case DATE -> {
          expect(v instanceof Date, v);
          long millis = ((Date) v).getTime();
          if (millis % MILLIS_PER_DAY != 0) {
            throw new BadValue("a Date must be midnight UTC, got epoch millisecond " + millis);
          }
          long days = millis / MILLIS_PER_DAY;
          if (days != (int) days) {
            throw new BadValue("the Date " + millis + " is out of the INT32 day range");
          }
        }
        case TIME -> {
          expect(v instanceof Date, v);
          long millis = ((Date) v).getTime();
          if (millis < 0 || millis >= MILLIS_PER_DAY) {
            throw new BadValue("a Time must be within one day, got millisecond " + millis);
          }
        }
        case TIMESTAMP -> {
          expect(v instanceof Date, v);
          long millis = ((Date) v).getTime();
          if (microsTimestamps && (millis > Long.MAX_VALUE / 1000 || millis < Long.MIN_VALUE
              / 1000)) {
            throw new BadValue("the Timestamp " + millis + " overflows in microseconds");
          }
        }
        default -> throw new IllegalStateException("no leaf kind " + kind);
      }
    }

    private void expect(boolean ok, Object v) {
      if (!ok) {
        throw BadValue.wrongClass(v, schema);
      }
    }

    @Override
    void write(Object v, int rep) {
      check(v); // the less common kinds: decimals, dates, times, timestamps, bytes, small ints
      switch (kind) {
        case INT8 -> column.writeInt((Byte) v, rep, def);
        case INT16 -> column.writeInt((Short) v, rep, def);
        case INT32 -> column.writeInt((Integer) v, rep, def);
        case INT64 -> column.writeLong((Long) v, rep, def);
        case FLOAT32 -> column.writeFloat((Float) v, rep, def);
        case FLOAT64 -> column.writeDouble((Double) v, rep, def);
        case BOOLEAN -> column.writeBoolean((Boolean) v, rep, def);
        case STRING -> column.writeString((String) v, rep, def);
        case BYTES -> writeBytes(v, rep);
        case DECIMAL -> writeDecimal((BigDecimal) v, rep);
        case DATE -> column.writeInt(
            (int) (((Date) v).getTime() / MILLIS_PER_DAY), rep, def);
        case TIME -> column.writeInt((int) ((Date) v).getTime(), rep, def);
        case TIMESTAMP -> {
          long millis = ((Date) v).getTime();
          column.writeLong(microsTimestamps ? millis * 1000 : millis, rep, def);
        }
        default -> throw new IllegalStateException("no leaf kind " + kind);
      }
    }

    private void writeBytes(Object v, int rep) {
      if (v instanceof byte[] b) {
        column.writeBinary(b, 0, b.length, rep, def);
        return;
      }
      ByteBuffer buffer = (ByteBuffer) v;
      if (buffer.hasArray()) {
        column.writeBinary(buffer.array(), buffer.arrayOffset() + buffer.position(),
            buffer.remaining(), rep, def);
      } else {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        column.writeBinary(copy, 0, copy.length, rep, def);
      }
    }

    private void writeDecimal(BigDecimal v, int rep) {
      BigDecimal scaled = v.scale() == decimal.scale() ? v : decimal.fit(v, new StringBuilder());
      BigInteger unscaled = scaled.unscaledValue();
      switch (decimal.type()) {
        case INT32 -> column.writeInt(unscaled.intValue(), rep, def);
        case INT64 -> column.writeLong(unscaled.longValue(), rep, def);
        default -> {
          // Two's complement, big-endian, sign-extended to the column's fixed length.
          byte[] digits = unscaled.toByteArray();
          int pad = fixed.length - digits.length;
          byte sign = (byte) (unscaled.signum() < 0 ? -1 : 0);
          for (int i = 0; i < pad; i++) {
            fixed[i] = sign;
          }
          System.arraycopy(digits, 0, fixed, pad, digits.length);
          column.writeBinary(fixed, 0, fixed.length, rep, def);
        }
      }
    }
  }

  private final class StringLeafNode extends LeafNode {
    StringLeafNode(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
      super(ConnectTypes.Kind.STRING, leaf, schema, column);
      exactClass = String.class;
    }

    @Override
    void check(Object v) {
      if (!(v instanceof String)) {
        throw BadValue.wrongClass(v, schema);
      }
    }

    @Override
    void write(Object v, int rep) {
      column.writeString((String) v, rep, def);
    }
  }

  private final class Int32LeafNode extends LeafNode {
    Int32LeafNode(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
      super(ConnectTypes.Kind.INT32, leaf, schema, column);
      exactClass = Integer.class;
    }

    @Override
    void check(Object v) {
      if (!(v instanceof Integer)) {
        throw BadValue.wrongClass(v, schema);
      }
    }

    @Override
    void write(Object v, int rep) {
      column.writeInt((Integer) v, rep, def);
    }
  }

  private final class Int64LeafNode extends LeafNode {
    Int64LeafNode(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
      super(ConnectTypes.Kind.INT64, leaf, schema, column);
      exactClass = Long.class;
    }

    @Override
    void check(Object v) {
      if (!(v instanceof Long)) {
        throw BadValue.wrongClass(v, schema);
      }
    }

    @Override
    void write(Object v, int rep) {
      column.writeLong((Long) v, rep, def);
    }
  }

  private final class Float64LeafNode extends LeafNode {
    Float64LeafNode(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
      super(ConnectTypes.Kind.FLOAT64, leaf, schema, column);
      exactClass = Double.class;
    }

    @Override
    void check(Object v) {
      if (!(v instanceof Double)) {
        throw BadValue.wrongClass(v, schema);
      }
    }

    @Override
    void write(Object v, int rep) {
      column.writeDouble((Double) v, rep, def);
    }
  }

  private final class BooleanLeafNode extends LeafNode {
    BooleanLeafNode(PrimitiveNode leaf, Schema schema, ColumnChunkWriter column) {
      super(ConnectTypes.Kind.BOOLEAN, leaf, schema, column);
      exactClass = Boolean.class;
    }

    @Override
    void check(Object v) {
      if (!(v instanceof Boolean)) {
        throw BadValue.wrongClass(v, schema);
      }
    }

    @Override
    void write(Object v, int rep) {
      column.writeBoolean((Boolean) v, rep, def);
    }
  }

  /**
   * The headers of the record being shredded, encoded during the check pass (where a header
   * value that does not match its schema is found) and written from here in the write pass.
   */
  private static final class StagedHeaders {
    private int count;
    private String[] keys = new String[8];
    private byte[][] schemas = new byte[8][];
    private int[] valueStart = new int[8];
    /** -1 for a null value. */
    private int[] valueLength = new int[8];
    private byte[] values = new byte[256];
    private int used;

    void clear() {
      count = 0;
      used = 0;
    }

    void add(Header h, byte[] schemaJson, Utf8Scratch utf8) {
      if (count == keys.length) {
        int n = count * 2;
        keys = Arrays.copyOf(keys, n);
        schemas = Arrays.copyOf(schemas, n);
        valueStart = Arrays.copyOf(valueStart, n);
        valueLength = Arrays.copyOf(valueLength, n);
      }
      if (h.key() == null) {
        throw new IllegalArgumentException("a header without a key");
      }
      keys[count] = h.key();
      schemas[count] = schemaJson;
      Object value = h.value();
      Schema schema = h.schema();
      valueStart[count] = used;
      if (value == null) {
        valueLength[count] = -1;
      } else {
        ConnectTypes.Kind kind = schema == null ? null : ConnectTypes.kind(schema);
        if (kind == ConnectTypes.Kind.STRING && value instanceof String s) {
          int n = utf8.encode(s);
          append(utf8.buffer(), 0, n);
        } else if (kind == ConnectTypes.Kind.BYTES && value instanceof byte[] b) {
          append(b, 0, b.length);
        } else if (kind == ConnectTypes.Kind.BYTES && value instanceof ByteBuffer buffer) {
          byte[] b = ConnectValueJson.bytes(buffer, schema);
          append(b, 0, b.length);
        } else {
          String json = Json.write(ConnectValueJson.toJson(schema, value));
          int n = utf8.encode(json);
          append(utf8.buffer(), 0, n);
        }
        valueLength[count] = used - valueStart[count];
      }
      count++;
    }

    private void append(byte[] b, int off, int len) {
      if (values.length - used < len) {
        values = Arrays.copyOf(values, Math.max(values.length * 2, used + len));
      }
      System.arraycopy(b, off, values, used, len);
      used += len;
    }

    /** Levels: the list is REQUIRED (0), an entry 1, key REQUIRED (1), schema/value 2. */
    void writeTo(
        ColumnChunkWriter key, ColumnChunkWriter schema, ColumnChunkWriter value,
        Utf8Scratch utf8) {
      if (count == 0) {
        key.writeNull(0, 0);
        schema.writeNull(0, 0);
        value.writeNull(0, 0);
        return;
      }
      for (int i = 0; i < count; i++) {
        int rep = i == 0 ? 0 : 1;
        int n = utf8.encode(keys[i]);
        key.writeBinary(utf8.buffer(), 0, n, rep, 1);
        if (schemas[i] == null) {
          schema.writeNull(rep, 1);
        } else {
          schema.writeBinary(schemas[i], 0, schemas[i].length, rep, 2);
        }
        if (valueLength[i] < 0) {
          value.writeNull(rep, 1);
        } else {
          value.writeBinary(values, valueStart[i], valueLength[i], rep, 2);
        }
        keys[i] = null;
      }
    }
  }

  /**
   * What is wrong with a value, and where: the path is built on the way out of the plan (each
   * node adds its name), so a good record pays nothing for it. No stack trace: it is control
   * flow, turned into a {@link DataException} at the top.
   */
  private static final class BadValue extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final ArrayList<String> path = new ArrayList<>();

    BadValue(String message) {
      super(message, null, false, false);
    }

    static BadValue wrongClass(Object value, Schema schema) {
      return new BadValue("expected " + ConnectTypes.describe(schema) + ", got a "
          + value.getClass().getName());
    }

    static BadValue wrongClass(Object value, String expected) {
      return new BadValue("expected " + expected + ", got a " + value.getClass().getName());
    }

    BadValue under(String segment) {
      path.add(segment);
      return this;
    }

    String describe() {
      if (path.isEmpty()) {
        return "the value: " + getMessage();
      }
      StringBuilder out = new StringBuilder("field ");
      for (int i = path.size() - 1; i >= 0; i--) {
        String s = path.get(i);
        if (i < path.size() - 1 && !s.startsWith("[") && !s.startsWith("{")) {
          out.append('.');
        }
        out.append(s);
      }
      return out.append(": ").append(getMessage()).toString();
    }
  }
}
