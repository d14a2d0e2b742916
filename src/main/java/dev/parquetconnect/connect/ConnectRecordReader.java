package dev.parquetconnect.connect;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.ParquetException;
import dev.parquetconnect.format.UnsupportedFeatureException;
import dev.parquetconnect.format.encoding.Dictionary;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.read.ParquetFileReader;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.Closeable;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;

/**
 * Reads the records of a Parquet file straight from its column batches into Connect values, the
 * way {@link ParquetToConnect} maps them, without the generic {@code Row} in between: the source's
 * fast path (the {@code Row} reader plus {@link ParquetToConnect#convert} give the same values).
 *
 * <p>The mapping is compiled once per file into a tree of field readers, one per Parquet field
 * that a Connect value needs (structs, LIST and MAP groups with the backward-compatibility rules
 * of {@link NestedTypes}, repeated fields, leaves with their logical type), each reading its
 * columns' repetition and definition levels and dense values directly from the batches of its
 * {@link ColumnReader}s: strings are decoded from the batch's bytes once, integers, decimals and
 * timestamps are built from the primitive arrays without boxing the Parquet value first, and
 * Structs are filled with {@link Field}s resolved once. Columns no Connect value needs are
 * consumed level by level and never converted.
 *
 * <p>Levels that contradict the schema or each other are {@link CorruptDataException}s naming
 * file, column and row, as in the {@code Row} reader; a record holding more than {@code
 * ReadOptions.maxRecordValues} list or map elements is refused before it can exhaust the heap.
 *
 * <p>Usage: {@link #hasNext()}, {@link #next()}, then the parts of the record just read ({@link
 * #topic()}, {@link #offset()}, {@link #key()}, {@link #value()}, {@link #headers()}, ...). One
 * row group's columns are open at a time, each holding one page and one batch. Not thread-safe.
 */
public final class ConnectRecordReader implements Closeable {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final ParquetFileReader file;
  private final ParquetToConnect mapping;
  private final String fileName;
  private final int maxRecordValues;
  private final int batchSize;
  private final ColumnCursor[] columns;
  /** The columns with repetition levels: a row must start at level 0 in each. */
  private final ColumnCursor[] repeatedColumns;
  private final int rowGroupCount;

  // The compiled tree; null readers are absent parts.
  private final FieldReader topicReader;
  private final FieldReader partitionReader;
  private final Leaf offsetReader;
  private final FieldReader timestampReader;
  private final FieldReader tombstoneReader;
  private final FieldReader keyReader;
  private final HeadersReader headersReader;
  private final FieldReader valueReader;
  /** Consumes the value's columns of a tombstone row without converting them. */
  private final SkipReader valueSkipper;
  /** Consumes the top-level fields nothing above needs. */
  private final SkipReader unusedSkipper;

  /**
   * While compiling: whether the reader being compiled produces a value that goes into a Struct
   * (directly or inside lists and maps), where Connect's validating put would refuse a null in a
   * collection whose element schema is required, so the reader must refuse it too.
   */
  private boolean compilingStructField;

  private int nextRowGroup;
  private boolean groupOpen;
  private long rowsInGroup;
  private long rowInGroup;
  private long row;
  private int recordValues;
  private boolean closed;

  // The record read last.
  private String topic;
  private Integer partition;
  /** {@code __kafka_offset} unboxed: the replay orders by it, nothing else reads it. */
  private long offset;
  private boolean hasOffset;
  private Long timestamp;
  private Object key;
  private Object value;
  private ConnectHeaders headers;

  /**
   * A reader of {@code file}'s records with {@code mapping} (made for the same file's schema and
   * metadata). Throws {@link DataException} where the file's metadata columns do not have the
   * shape our sink writes.
   */
  public ConnectRecordReader(ParquetFileReader file, ParquetToConnect mapping) {
    this.file = file;
    this.mapping = mapping;
    this.fileName = file.name();
    this.maxRecordValues = file.options().maxRecordValues();
    this.batchSize = file.options().batchSize();
    this.rowGroupCount = file.rowGroups().size();
    List<ColumnDescriptor> descriptors = file.schema().columns();
    this.columns = new ColumnCursor[descriptors.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = new ColumnCursor(descriptors.get(i));
    }
    this.repeatedColumns = Arrays.stream(columns).filter(c -> c.maxRepetition > 0)
        .toArray(ColumnCursor[]::new);
    GroupNode root = file.schema().root();
    int[] firstColumn = new int[root.fieldCount() + 1];
    for (int i = 0; i < root.fieldCount(); i++) {
      firstColumn[i + 1] = firstColumn[i] + leafCount(root.field(i));
    }
    boolean[] used = new boolean[root.fieldCount()];
    this.topicReader = metadataLeaf(root, mapping.topicIndex(), firstColumn, used,
        PhysicalType.BYTE_ARRAY, Leaf.STRING);
    this.partitionReader = metadataLeaf(root, mapping.partitionIndex(), firstColumn, used,
        PhysicalType.INT32, Leaf.INT32);
    this.offsetReader = metadataLeaf(root, mapping.offsetIndex(), firstColumn, used,
        PhysicalType.INT64, Leaf.INT64);
    this.timestampReader = metadataLeaf(root, mapping.timestampIndex(), firstColumn, used,
        PhysicalType.INT64, Leaf.INT64);
    this.tombstoneReader = metadataLeaf(root, mapping.tombstoneIndex(), firstColumn, used,
        PhysicalType.BOOLEAN, Leaf.BOOLEAN);
    int headersIndex = mapping.headersIndex();
    if (headersIndex >= 0) {
      used[headersIndex] = true;
      this.headersReader = headersReader(root.field(headersIndex), firstColumn[headersIndex]);
    } else {
      this.headersReader = null;
    }
    int keyIndex = mapping.keyIndex();
    if (mapping.keyConverted()) {
      used[keyIndex] = true;
      this.keyReader = field(root.field(keyIndex), mapping.storedKeySchema(),
          FileLayout.KEY_COLUMN, 0, 0, firstColumn[keyIndex]);
    } else {
      this.keyReader = null;
    }
    Schema valueSchema = mapping.storedValueSchema();
    List<ColumnCursor> valueColumns = new ArrayList<>();
    if (valueSchema == null) {
      this.valueReader = null;
    } else if (mapping.valueIndex() < 0) {
      // A struct value: the root's fields the schema names.
      StructReader struct = structReader(root, valueSchema, "", 0, 0, firstColumn, used);
      this.valueReader = struct;
      for (FieldReader f : struct.readers) {
        valueColumns.addAll(Arrays.asList(f.columns));
      }
    } else {
      int index = mapping.valueIndex();
      used[index] = true;
      this.valueReader = field(root.field(index), valueSchema, FileLayout.VALUE_COLUMN, 0, 0,
          firstColumn[index]);
      valueColumns.addAll(Arrays.asList(valueReader.columns));
    }
    this.valueSkipper = new SkipReader(valueColumns.toArray(new ColumnCursor[0]), 0);
    List<ColumnCursor> unused = new ArrayList<>();
    for (int i = 0; i < used.length; i++) {
      if (!used[i]) {
        unused.addAll(Arrays.asList(columns).subList(firstColumn[i], firstColumn[i + 1]));
      }
    }
    this.unusedSkipper = new SkipReader(unused.toArray(new ColumnCursor[0]), 0);
  }

  // ---- iteration

  /**
   * Starts at row group {@code index} instead of the first, without reading the ones before.
   * Only before the first row is read; the row group count leaves nothing to read.
   */
  public void startAtRowGroup(int index) {
    if (groupOpen || nextRowGroup != 0) {
      throw new IllegalStateException("startAtRowGroup after rows were read from " + fileName);
    }
    if (index < 0 || index > rowGroupCount) {
      throw new IllegalArgumentException(
          "row group " + index + " of " + rowGroupCount + " in " + fileName);
    }
    nextRowGroup = index;
  }

  public boolean hasNext() throws IOException, ParquetException {
    if (closed) {
      return false;
    }
    while (!groupOpen || rowInGroup == rowsInGroup) {
      if (groupOpen) {
        finishRowGroup();
      }
      if (nextRowGroup == rowGroupCount) {
        return false;
      }
      openRowGroup(nextRowGroup++);
    }
    return true;
  }

  /**
   * Reads the next record into {@link #topic()}, {@link #value()} and the other parts. Throws
   * {@link DataException} (or another runtime exception of Connect's) for a value the mapping's
   * schema cannot hold.
   */
  public void next() throws IOException, ParquetException {
    if (!hasNext()) {
      throw new NoSuchElementException("no more rows in " + fileName);
    }
    row = rowInGroup++;
    recordValues = 0;
    // A column without repetition has a row per entry (one ending early fails where it is read).
    for (ColumnCursor c : repeatedColumns) {
      int rep = c.rep();
      if (rep != 0) {
        throw corrupt(c, rep < 0
            ? "the column ends before the row"
            : "the row starts at repetition level " + rep + ", not 0");
      }
    }
    boolean tombstone = tombstoneReader != null && tombstoneReader.read() == Boolean.TRUE;
    topic = topicReader == null ? null : (String) topicReader.read();
    partition = partitionReader == null ? null : (Integer) partitionReader.read();
    hasOffset = false;
    if (offsetReader != null) {
      if (offsetReader.present()) {
        ColumnCursor c = offsetReader.column;
        offset = c.longs[c.valueIndex];
        hasOffset = true;
      }
      offsetReader.consume();
    }
    timestamp = timestampReader == null ? null : (Long) timestampReader.read();
    Object k = keyReader == null ? null : keyReader.read();
    key = mapping.keySchemaless() ? ParquetToConnect.toSchemaless(k) : k;
    headers = headersReader == null ? new ConnectHeaders() : headersReader.readHeaders();
    if (valueReader == null) {
      value = null;
    } else if (tombstone) {
      valueSkipper.skip();
      value = null;
    } else {
      Object v = valueReader.read();
      value = mapping.valueSchemaless() ? ParquetToConnect.toSchemaless(v) : v;
    }
    unusedSkipper.skip();
  }

  /** The row group of the record read last (-1 before anything was read). */
  public int rowGroup() {
    return nextRowGroup - 1;
  }

  /** Records of {@link #rowGroup()} read so far: the index of the next one in it. */
  public long rowInGroup() {
    return rowInGroup;
  }

  /** {@code __kafka_topic} of the record read last, or null. */
  public String topic() {
    return topic;
  }

  /** {@code __kafka_partition}, or null. */
  public Integer partition() {
    return partition;
  }

  /** {@code __kafka_offset}, or null. */
  public Long offset() {
    return hasOffset ? offset : null;
  }

  /** Whether the record read last has an {@code __kafka_offset}. */
  public boolean hasOffset() {
    return hasOffset;
  }

  /** {@code __kafka_offset} of the record read last, when {@link #hasOffset()}. */
  public long offsetValue() {
    return offset;
  }

  /** {@code __kafka_timestamp} in epoch milliseconds, or null. */
  public Long timestamp() {
    return timestamp;
  }

  /** The key (of {@link ParquetToConnect#keySchema()}), or null. */
  public Object key() {
    return key;
  }

  /** The value (of {@link ParquetToConnect#valueSchema()}), or null for a tombstone. */
  public Object value() {
    return value;
  }

  /** The headers in their original order; a new object per record, empty when none. */
  public ConnectHeaders headers() {
    return headers;
  }

  public ParquetToConnect mapping() {
    return mapping;
  }

  private void openRowGroup(int index) {
    List<ColumnDescriptor> descriptors = file.schema().columns();
    for (int i = 0; i < columns.length; i++) {
      columns[i].bind(file.columnReader(index, descriptors.get(i)), batchSize);
    }
    rowsInGroup = file.rowGroups().get(index).numRows();
    rowInGroup = 0;
    groupOpen = true;
  }

  /** Checks that every column is used up once the row group's rows are read. */
  private void finishRowGroup() throws IOException, ParquetException {
    groupOpen = false;
    for (ColumnCursor c : columns) {
      if (c.hasEntry()) {
        closeColumns();
        throw corrupt(c, "the column holds entries after the row group's last row");
      }
    }
    closeColumns();
  }

  private void closeColumns() {
    for (ColumnCursor c : columns) {
      c.unbind();
    }
  }

  /** Frees the open columns; the file stays open. */
  @Override
  public void close() {
    closeColumns();
    groupOpen = false;
    closed = true;
  }

  private ParquetException corrupt(ColumnCursor c, String message) {
    return new CorruptDataException("row " + row + ": " + message).at(fileName, c.name, -1);
  }

  /** Counts one more list or map element of the record against the configured bound. */
  private void countElement(ColumnCursor c) throws ParquetException {
    if (++recordValues > maxRecordValues) {
      throw new UnsupportedFeatureException("row " + row + " holds more than " + maxRecordValues
          + " values (ReadOptions.maxRecordValues); read it with the column batch API")
          .at(fileName, c.name, -1);
    }
  }

  // ---- compiling the tree

  private static int leafCount(SchemaNode node) {
    if (node instanceof GroupNode group) {
      int n = 0;
      for (SchemaNode f : group.fields()) {
        n += leafCount(f);
      }
      return n;
    }
    return 1;
  }

  private ColumnCursor[] columnRange(int first, SchemaNode node) {
    return Arrays.copyOfRange(columns, first, first + leafCount(node));
  }

  /** A {@code __kafka_*} column as its raw Java value (String, Integer, Long or Boolean). */
  private Leaf metadataLeaf(GroupNode root, int index, int[] firstColumn, boolean[] used,
      PhysicalType type, int conversion) {
    if (index < 0) {
      return null;
    }
    SchemaNode node = root.field(index);
    if (!(node instanceof PrimitiveNode leaf) || leaf.isRepeated() || leaf.type() != type) {
      throw new DataException("the file's column " + node.name() + " is not a " + type
          + " column, as our sink writes it");
    }
    used[index] = true;
    return newLeaf(leaf, node.isOptional() ? 1 : 0, 0, columns[firstColumn[index]],
        conversion, node.name());
  }

  /**
   * The reader of one field of a present parent, {@code parentDef} and {@code parentRep} being
   * the parent's levels and {@code first} the index of the field's first column.
   */
  private FieldReader field(SchemaNode node, Schema schema, String path, int parentDef,
      int parentRep, int first) {
    int def = parentDef + (node.isOptional() || node.isRepeated() ? 1 : 0);
    int rep = parentRep + (node.isRepeated() ? 1 : 0);
    FieldReader reader;
    if (node.isRepeated()) {
      if (ConnectTypes.kind(schema) != ConnectTypes.Kind.ARRAY) {
        throw mismatch(path, node, schema);
      }
      FieldReader element = instance(node, schema.valueSchema(), path + "[]", def, rep, first);
      reader = new RepeatedReader(element, node.name(), nullProblem(schema.valueSchema(), path));
    } else if (node instanceof PrimitiveNode leaf) {
      return leaf(leaf, schema, path, def, rep, first, node.isOptional());
    } else {
      reader = instance(node, schema, path, def, rep, first);
      if (node.isOptional()) {
        reader = new OptionalReader(reader);
      }
    }
    reader.init(def, rep, parentRep, columnRange(first, node));
    return reader;
  }

  /**
   * The reader of one present instance of {@code node} (whose levels are {@code def} and {@code
   * rep}): for a repeated node, of one element.
   */
  private FieldReader instance(SchemaNode node, Schema schema, String path, int def, int rep,
      int first) {
    ConnectTypes.Kind kind = ConnectTypes.kind(schema);
    FieldReader reader;
    if (node instanceof PrimitiveNode leaf) {
      return leaf(leaf, schema, path, def, rep, first, false);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    NestedTypes.MapShape map = list == null && group.isMap() ? NestedTypes.mapShape(group) : null;
    switch (kind) {
      case ARRAY:
        if (list != null) {
          reader = listReader(group, list, schema.valueSchema(), path + "[]", def, rep, first);
        } else if (map != null && map.value() == null) {
          reader = keySetReader(group, map, schema.valueSchema(), path + "{}", def, rep, first);
        } else {
          throw mismatch(path, node, schema);
        }
        break;
      case MAP:
        if (map != null && map.value() != null) {
          reader = mapReader(group, map, schema, path, def, rep, first);
        } else if (list != null && listElementNode(list) instanceof GroupNode entry
            && entry.fieldCount() == 2) {
          reader = entryListReader(group, list, schema, path, def, rep, first);
        } else {
          throw mismatch(path, node, schema);
        }
        break;
      case STRUCT:
        if (list != null || map != null) {
          // The Row model holds a list or map here, which no struct converts from.
          reader = new MismatchReader(mismatch(path, node, schema));
        } else {
          int[] firstColumn = new int[group.fieldCount() + 1];
          firstColumn[0] = first;
          for (int i = 0; i < group.fieldCount(); i++) {
            firstColumn[i + 1] = firstColumn[i] + leafCount(group.field(i));
          }
          reader = structReader(group, schema, path, def, rep, firstColumn,
              new boolean[group.fieldCount()]);
          return reader;
        }
        break;
      default:
        throw mismatch(path, node, schema);
    }
    reader.init(def, rep, rep, columnRange(first, node));
    return reader;
  }

  private static SchemaNode listElementNode(NestedTypes.ListShape list) {
    SchemaNode element = list.element();
    return list.twoLevel() ? element.withRepetition(FieldRepetitionType.REQUIRED) : element;
  }

  /** The element reader of a LIST whose repeated field has levels {@code repDef, repRep}. */
  private FieldReader listElement(NestedTypes.ListShape list, Schema elementSchema, String path,
      int repDef, int repRep, int repFirst) {
    if (list.twoLevel()) {
      return instance(list.repeated(), elementSchema, path, repDef, repRep, repFirst);
    }
    return field(list.element(), elementSchema, path, repDef, repRep, repFirst);
  }

  private FieldReader listReader(GroupNode group, NestedTypes.ListShape list,
      Schema elementSchema, String path, int def, int rep, int first) {
    int repDef = def + 1;
    int repRep = rep + 1;
    FieldReader element = listElement(list, elementSchema, path, repDef, repRep, first);
    return new ListReader(columns[first], columnRange(first, list.repeated()), repDef, repRep,
        element, list.repeated().name(), nullProblem(elementSchema, path));
  }

  private FieldReader entryListReader(GroupNode group, NestedTypes.ListShape list,
      Schema schema, String path, int def, int rep, int first) {
    int repDef = def + 1;
    int repRep = rep + 1;
    GroupNode entry = (GroupNode) listElementNode(list);
    // The entry's own levels: the repeated field itself (two-level) or its child.
    int entryDef = list.twoLevel() ? repDef : repDef + (entry.isOptional() ? 1 : 0);
    FieldReader k = field(entry.field(0), schema.keySchema(), path + "{key}", entryDef, repRep,
        first);
    FieldReader v = field(entry.field(1), schema.valueSchema(), path + "{value}", entryDef,
        repRep, first + leafCount(entry.field(0)));
    boolean entryOptional = !list.twoLevel() && entry.isOptional();
    return new EntryListReader(columns[first], columnRange(first, list.repeated()), repDef,
        repRep, entryDef, entryOptional, k, v, list.repeated().name(),
        nullProblem(schema.keySchema(), path), nullProblem(schema.valueSchema(), path));
  }

  private FieldReader mapReader(GroupNode group, NestedTypes.MapShape map, Schema schema,
      String path, int def, int rep, int first) {
    int kvDef = def + 1;
    int kvRep = rep + 1;
    GroupNode kv = map.keyValue();
    FieldReader k = field(map.key(), schema.keySchema(), path + "{key}", kvDef, kvRep, first);
    FieldReader v = field(map.value(), schema.valueSchema(), path + "{value}", kvDef, kvRep,
        first + leafCount(map.key()));
    return new MapReader(columns[first], columnRange(first, kv), kvDef, kvRep, k, v, kv.name(),
        nullProblem(schema.keySchema(), path), nullProblem(schema.valueSchema(), path));
  }

  private FieldReader keySetReader(GroupNode group, NestedTypes.MapShape map, Schema keySchema,
      String path, int def, int rep, int first) {
    int kvDef = def + 1;
    int kvRep = rep + 1;
    GroupNode kv = map.keyValue();
    FieldReader k = field(map.key(), keySchema, path, kvDef, kvRep, first);
    boolean binaryKey = map.key() instanceof PrimitiveNode p
        && (p.type() == PhysicalType.BYTE_ARRAY || p.type() == PhysicalType.FIXED_LEN_BYTE_ARRAY
        || p.type() == PhysicalType.INT96);
    return new KeySetReader(columns[first], columnRange(first, kv), kvDef, kvRep, k, !binaryKey,
        kv.name(), nullProblem(keySchema, path));
  }

  /**
   * The reader of a struct over {@code group}'s fields that {@code schema} names; {@code
   * firstColumn[i]} is the first column of field i. Marks the fields read in {@code used}; the
   * others are consumed unread.
   */
  private StructReader structReader(GroupNode group, Schema schema, String path, int def,
      int rep, int[] firstColumn, boolean[] used) {
    List<Field> connectFields = schema.fields();
    Field[] fields = connectFields.toArray(new Field[0]);
    FieldReader[] readers = new FieldReader[fields.length];
    for (int i = 0; i < fields.length; i++) {
      Field f = fields[i];
      String at = path.isEmpty() ? f.name() : path + "." + f.name();
      int index = group.fieldIndex(f.name());
      if (index < 0) {
        throw new DataException("field " + at + " of the metadata schema has no Parquet column");
      }
      used[index] = true;
      boolean outer = compilingStructField;
      compilingStructField = true;
      readers[i] = field(group.field(index), f.schema(), at, def, rep, firstColumn[index]);
      compilingStructField = outer;
    }
    List<ColumnCursor> skipped = new ArrayList<>();
    boolean root = group == file.schema().root();
    if (!root) {
      for (int i = 0; i < group.fieldCount(); i++) {
        if (!used[i]) {
          skipped.addAll(Arrays.asList(columns).subList(firstColumn[i], firstColumn[i + 1]));
        }
      }
    }
    ColumnCursor[] all = Arrays.copyOfRange(columns, firstColumn[0], firstColumn[group.fieldCount()]);
    StructReader reader = new StructReader(schema, fields, readers,
        new SkipReader(skipped.toArray(new ColumnCursor[0]), rep));
    reader.init(def, rep, rep, all);
    return reader;
  }

  private HeadersReader headersReader(SchemaNode node, int first) {
    String problem = "the file's column " + FileLayout.HEADERS_COLUMN
        + " is not the LIST of {key, schema, value} our sink writes";
    if (!(node instanceof GroupNode group) || node.isRepeated() || !group.isList()
        || NestedTypes.listShape(group) == null) {
      throw new DataException(problem);
    }
    NestedTypes.ListShape list = NestedTypes.listShape(group);
    int def = node.isOptional() ? 1 : 0;
    int repDef = def + 1;
    int repRep = 1;
    SchemaNode element = list.element();
    if (!(element instanceof GroupNode entry) || entry.fieldCount() != 3
        || element.isRepeated() && !list.twoLevel()) {
      throw new DataException(problem);
    }
    boolean entryOptional = !list.twoLevel() && entry.isOptional();
    int entryDef = repDef + (entryOptional ? 1 : 0);
    Leaf[] parts = new Leaf[3];
    for (int i = 0; i < 3; i++) {
      SchemaNode part = entry.field(i);
      if (!(part instanceof PrimitiveNode leaf) || leaf.isRepeated()
          || leaf.type() != PhysicalType.BYTE_ARRAY) {
        throw new DataException(problem);
      }
      parts[i] = new Leaf(leaf, entryDef + (leaf.isOptional() ? 1 : 0), repRep,
          columns[first + i], Leaf.STRING, FileLayout.HEADERS_COLUMN + "." + leaf.name());
    }
    HeadersReader reader = new HeadersReader(node.isOptional(), repDef, repRep, entryOptional,
        entryDef, parts);
    reader.init(def, 0, 0, columnRange(first, node));
    return reader;
  }

  /**
   * The message of the DataException Connect's validating put raises for a null element of a
   * collection with these elements, or null where nulls are allowed.
   */
  private String nullProblem(Schema elementSchema, String path) {
    if (!compilingStructField || elementSchema.isOptional()) {
      return null;
    }
    return "Invalid value: null used for required field: \"" + path + "\", schema type: "
        + elementSchema.type();
  }

  private static void refuseNull(Object element, String nullProblem) {
    if (element == null && nullProblem != null) {
      throw new DataException(nullProblem);
    }
  }

  private static DataException mismatch(String path, SchemaNode node, Schema schema) {
    return new DataException(
        "field " + (path.isEmpty() ? "(the value)" : path) + ": the Parquet field "
            + node.name() + " cannot hold the metadata's " + ConnectTypes.describe(schema));
  }

  private Leaf leaf(PrimitiveNode leaf, Schema schema, String path, int def, int rep, int first,
      boolean optional) {
    ConnectTypes.Kind kind = ConnectTypes.kind(schema);
    Leaf reader = newLeaf(leaf, def, rep, columns[first], Leaf.conversion(leaf, schema, kind,
        path), path);
    reader.optional = optional;
    if (kind == ConnectTypes.Kind.DECIMAL) {
      reader.connectScale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD).trim());
    }
    return reader;
  }

  // ---- the readers

  /**
   * Reads one field of a present parent instance (or, for the readers of an instance, one
   * present instance) into its Connect value; knows its levels and columns to consume it
   * unread.
   */
  private abstract class FieldReader {
    /** Definition level at which the field is present; repetition level of its repeats. */
    int def;
    int rep;
    /** The repetition level of the parent instance: entries above it belong to this field. */
    int parentRep;
    ColumnCursor[] columns;
    ColumnCursor lead;

    void init(int def, int rep, int parentRep, ColumnCursor[] columns) {
      this.def = def;
      this.rep = rep;
      this.parentRep = parentRep;
      this.columns = columns;
      this.lead = columns[0];
    }

    /** The Connect value, or null for an absent optional field. */
    abstract Object read() throws IOException, ParquetException;

    /**
     * How many elements the repeated field starting at {@code leadColumn}'s current entry has,
     * as far as the current batch shows (the entries repeating at {@code repLevel} before one
     * above it): lists are allocated at their size, not grown.
     */
    final int elementsAhead(ColumnCursor leadColumn, int repLevel) {
      int[] r = leadColumn.repetition;
      int n = 1;
      for (int i = leadColumn.pos + 1, end = leadColumn.size; i < end; i++) {
        int level = r[i];
        if (level < repLevel) {
          break;
        }
        if (level == repLevel) {
          n++;
        }
      }
      return n;
    }

    /** Takes the one entry an absent field leaves in each column beneath it. */
    final void skipAbsent(ColumnCursor leadColumn, ColumnCursor[] under, String name)
        throws IOException, ParquetException {
      int d = leadColumn.def();
      int r = leadColumn.rep();
      if (d < 0) {
        throw corrupt(leadColumn, "the column ends inside the row");
      }
      for (ColumnCursor c : under) {
        if (c.def() != d || c.rep() != r) {
          throw corrupt(c, "levels (r" + c.rep() + ", d" + c.def() + ") disagree with those of "
              + "column " + leadColumn.name + " (r" + r + ", d" + d + ") on where " + name
              + " is absent");
        }
        c.advance();
      }
    }

    /**
     * Whether the repeated field led by {@code leadColumn} has another element: the next entry
     * repeats at the field's level {@code repLevel}.
     */
    final boolean repeats(ColumnCursor leadColumn, int repLevel, int defLevel, String name)
        throws IOException, ParquetException {
      int r = leadColumn.rep();
      if (r < repLevel) {
        return false;
      }
      if (r > repLevel) {
        throw corrupt(leadColumn, "repetition level " + r + " after a complete element of "
            + name + " (level " + repLevel + ")");
      }
      if (leadColumn.def() < defLevel) {
        throw corrupt(leadColumn, "an element of " + name + " repeats with definition level "
            + leadColumn.def() + ", below the field's " + defLevel);
      }
      countElement(leadColumn);
      return true;
    }
  }

  /** An optional group: null where its first column says it is absent. */
  private final class OptionalReader extends FieldReader {
    private final FieldReader instance;

    OptionalReader(FieldReader instance) {
      this.instance = instance;
    }

    @Override
    Object read() throws IOException, ParquetException {
      if (lead.def() < def) {
        skipAbsent(lead, columns, lead.name);
        return null;
      }
      return instance.read();
    }
  }

  /** A repeated field outside a LIST: a list of its instances, empty where it has none. */
  private final class RepeatedReader extends FieldReader {
    private final FieldReader element;
    private final String name;
    private final String elementNulls;

    RepeatedReader(FieldReader element, String name, String elementNulls) {
      this.element = element;
      this.name = name;
      this.elementNulls = elementNulls;
    }

    @Override
    Object read() throws IOException, ParquetException {
      if (lead.def() < def) {
        skipAbsent(lead, columns, name);
        return new ArrayList<>(0);
      }
      List<Object> list = new ArrayList<>(elementsAhead(lead, rep));
      do {
        Object e = element.read();
        refuseNull(e, elementNulls);
        list.add(e);
      } while (repeats(lead, rep, def, name));
      return list;
    }
  }

  /** A LIST group's elements (the group itself is present). */
  private final class ListReader extends FieldReader {
    private final ColumnCursor repeatedLead;
    private final ColumnCursor[] repeatedColumns;
    private final int repDef;
    private final int repRep;
    private final FieldReader element;
    private final String name;
    private final String elementNulls;

    ListReader(ColumnCursor repeatedLead, ColumnCursor[] repeatedColumns, int repDef, int repRep,
        FieldReader element, String name, String elementNulls) {
      this.repeatedLead = repeatedLead;
      this.repeatedColumns = repeatedColumns;
      this.repDef = repDef;
      this.repRep = repRep;
      this.element = element;
      this.name = name;
      this.elementNulls = elementNulls;
    }

    @Override
    Object read() throws IOException, ParquetException {
      return readList();
    }

    List<Object> readList() throws IOException, ParquetException {
      if (repeatedLead.def() < repDef) {
        skipAbsent(repeatedLead, repeatedColumns, name); // present but empty
        return new ArrayList<>();
      }
      List<Object> elements = new ArrayList<>(elementsAhead(repeatedLead, repRep));
      do {
        Object e = element.read();
        refuseNull(e, elementNulls);
        elements.add(e);
      } while (repeats(repeatedLead, repRep, repDef, name));
      return elements;
    }
  }

  /** A MAP group's entries, in file order; a later duplicate key replaces the value. */
  private final class MapReader extends FieldReader {
    private final ColumnCursor kvLead;
    private final ColumnCursor[] kvColumns;
    private final int kvDef;
    private final int kvRep;
    private final FieldReader keyReader;
    private final FieldReader valueReader;
    private final String name;
    private final String keyNulls;
    private final String valueNulls;

    MapReader(ColumnCursor kvLead, ColumnCursor[] kvColumns, int kvDef, int kvRep, FieldReader keyReader,
        FieldReader valueReader, String name, String keyNulls, String valueNulls) {
      this.kvLead = kvLead;
      this.kvColumns = kvColumns;
      this.kvDef = kvDef;
      this.kvRep = kvRep;
      this.keyReader = keyReader;
      this.valueReader = valueReader;
      this.name = name;
      this.keyNulls = keyNulls;
      this.valueNulls = valueNulls;
    }

    @Override
    Object read() throws IOException, ParquetException {
      Map<Object, Object> entries = new LinkedHashMap<>();
      if (kvLead.def() < kvDef) {
        skipAbsent(kvLead, kvColumns, name);
        return entries;
      }
      do {
        Object k = keyReader.read();
        Object v = valueReader.read();
        refuseNull(k, keyNulls);
        refuseNull(v, valueNulls);
        entries.put(k, v);
      } while (repeats(kvLead, kvRep, kvDef, name));
      return entries;
    }
  }

  /**
   * A MAP without values, as the list of its keys. The Row model holds such a map's keys as a
   * map's key set, so keys equal as Parquet values count once: a primitive key is compared by
   * its physical value (byte strings, compared by identity there, never merge), a group key by
   * its Connect value.
   */
  private final class KeySetReader extends FieldReader {
    private final ColumnCursor kvLead;
    private final ColumnCursor[] kvColumns;
    private final int kvDef;
    private final int kvRep;
    private final FieldReader keyReader;
    private final boolean distinct;
    private final String name;
    private final String keyNulls;

    KeySetReader(ColumnCursor kvLead, ColumnCursor[] kvColumns, int kvDef, int kvRep, FieldReader keyReader,
        boolean distinct, String name, String keyNulls) {
      this.keyNulls = keyNulls;
      this.kvLead = kvLead;
      this.kvColumns = kvColumns;
      this.kvDef = kvDef;
      this.kvRep = kvRep;
      this.keyReader = keyReader;
      this.distinct = distinct;
      this.name = name;
    }

    @Override
    Object read() throws IOException, ParquetException {
      List<Object> keys = new ArrayList<>();
      if (kvLead.def() < kvDef) {
        skipAbsent(kvLead, kvColumns, name);
        return keys;
      }
      List<Object> physical = keyReader instanceof Leaf ? new ArrayList<>() : null;
      do {
        Object raw = physical != null ? ((Leaf) keyReader).physicalValue() : null;
        Object k = keyReader.read();
        refuseNull(k, keyNulls);
        if (!distinct) {
          keys.add(k);
        } else if (physical != null) {
          if (!physical.contains(raw)) {
            physical.add(raw);
            keys.add(k);
          }
        } else if (!keys.contains(k)) {
          keys.add(k);
        }
      } while (repeats(kvLead, kvRep, kvDef, name));
      return keys;
    }
  }

  /** A LIST of two-field entry groups as a map (maps whose keys are not primitive). */
  private final class EntryListReader extends FieldReader {
    private final ColumnCursor repeatedLead;
    private final ColumnCursor[] repeatedColumns;
    private final int repDef;
    private final int repRep;
    private final int entryDef;
    private final boolean entryOptional;
    private final FieldReader keyReader;
    private final FieldReader valueReader;
    private final String name;
    private final String keyNulls;
    private final String valueNulls;

    EntryListReader(ColumnCursor repeatedLead, ColumnCursor[] repeatedColumns, int repDef, int repRep,
        int entryDef, boolean entryOptional, FieldReader keyReader, FieldReader valueReader,
        String name, String keyNulls, String valueNulls) {
      this.keyNulls = keyNulls;
      this.valueNulls = valueNulls;
      this.repeatedLead = repeatedLead;
      this.repeatedColumns = repeatedColumns;
      this.repDef = repDef;
      this.repRep = repRep;
      this.entryDef = entryDef;
      this.entryOptional = entryOptional;
      this.keyReader = keyReader;
      this.valueReader = valueReader;
      this.name = name;
    }

    @Override
    Object read() throws IOException, ParquetException {
      Map<Object, Object> entries = new LinkedHashMap<>();
      if (repeatedLead.def() < repDef) {
        skipAbsent(repeatedLead, repeatedColumns, name);
        return entries;
      }
      do {
        if (entryOptional && repeatedLead.def() < entryDef) {
          throw new DataException("a null entry in the map " + name);
        }
        Object k = keyReader.read();
        Object v = valueReader.read();
        refuseNull(k, keyNulls);
        refuseNull(v, valueNulls);
        entries.put(k, v);
      } while (repeats(repeatedLead, repRep, repDef, name));
      return entries;
    }
  }

  /** A group as a Struct of the fields its Connect schema names. */
  private final class StructReader extends FieldReader {
    private final Schema schema;
    private final Field[] fields;
    final FieldReader[] readers;
    private final SkipReader unused;

    StructReader(Schema schema, Field[] fields, FieldReader[] readers, SkipReader unused) {
      this.schema = schema;
      this.fields = fields;
      this.readers = readers;
      this.unused = unused;
    }

    @Override
    Object read() throws IOException, ParquetException {
      Struct struct = new Struct(schema);
      FieldReader[] r = readers;
      for (int i = 0; i < r.length; i++) {
        Object v = r[i].read();
        if (v != null) {
          StructValues.put(struct, fields[i], v);
        }
      }
      unused.skip();
      return struct;
    }
  }

  /** A Parquet shape no value of the Connect schema converts from: fails where one is present. */
  private final class MismatchReader extends FieldReader {
    private final DataException problem;

    MismatchReader(DataException problem) {
      this.problem = problem;
    }

    @Override
    Object read() {
      throw new DataException(problem.getMessage());
    }
  }

  /**
   * Consumes fields without converting them: in each column, the first entry and those after it
   * that repeat deeper than the parent instance.
   */
  private final class SkipReader {
    private final ColumnCursor[] skipped;
    private final int parentRep;

    SkipReader(ColumnCursor[] skipped, int parentRep) {
      this.skipped = skipped;
      this.parentRep = parentRep;
    }

    void skip() throws IOException, ParquetException {
      for (ColumnCursor c : skipped) {
        if (!c.hasEntry()) {
          throw corrupt(c, "the column ends inside the row");
        }
        c.advance();
        while (c.rep() > parentRep) {
          c.advance();
        }
      }
    }
  }

  /**
   * {@code __kafka_headers}, a LIST of {@code {key, schema, value}}, as ConnectHeaders: the
   * schema's and value's bytes are read in place, not copied.
   */
  private final class HeadersReader extends FieldReader {
    private final boolean listOptional;
    private final int repDef;
    private final int repRep;
    private final boolean entryOptional;
    private final int entryDef;
    private final Leaf keyPart;
    private final Leaf schemaPart;
    private final Leaf valuePart;
    /**
     * The values of STRING headers by the header's position (the first few): a header that
     * carries the same value on every record is decoded once.
     */
    private final Utf8Strings[] valueStrings = new Utf8Strings[8];
    /** The keys by position, for the same reason. */
    private final Utf8Strings[] keyStrings = new Utf8Strings[8];
    /** The header added last at each position, which the next record's often repeats. */
    private final Header[] previous = new Header[8];

    HeadersReader(boolean listOptional, int repDef, int repRep, boolean entryOptional,
        int entryDef, Leaf[] parts) {
      this.listOptional = listOptional;
      this.repDef = repDef;
      this.repRep = repRep;
      this.entryOptional = entryOptional;
      this.entryDef = entryDef;
      this.keyPart = parts[0];
      this.schemaPart = parts[1];
      this.valuePart = parts[2];
    }

    @Override
    Object read() throws IOException, ParquetException {
      return readHeaders();
    }

    ConnectHeaders readHeaders() throws IOException, ParquetException {
      ConnectHeaders out = new ConnectHeaders();
      int d = lead.def();
      if (listOptional && d < def || d < repDef) {
        skipAbsent(lead, columns, FileLayout.HEADERS_COLUMN);
        return out;
      }
      int position = 0;
      do {
        if (entryOptional && lead.def() < entryDef) {
          throw new DataException("a null entry in " + FileLayout.HEADERS_COLUMN);
        }
        readEntry(out, position++);
      } while (repeats(lead, repRep, repDef, FileLayout.HEADERS_COLUMN));
      return out;
    }

    private void readEntry(ConnectHeaders out, int position)
        throws IOException, ParquetException {
      Utf8Strings keys = null;
      Utf8Strings values = null;
      if (position < keyStrings.length) {
        if (keyStrings[position] == null) {
          keyStrings[position] = new Utf8Strings();
          valueStrings[position] = new Utf8Strings();
        }
        keys = keyStrings[position];
        values = valueStrings[position];
      }
      String headerKey = null;
      ColumnCursor k = keyPart.column;
      if (keyPart.present()) {
        int e = k.entry(k.valueIndex);
        int off = k.offsets[e];
        int len = k.offsets[e + 1] - off;
        headerKey = k.dictionary != null ? k.dictionary.stringAt(e)
            : keys != null ? keys.decode(k.data, off, len)
            : new String(k.data, off, len, StandardCharsets.UTF_8);
      }
      keyPart.consume();
      // Each column's bytes stay in its batch until that column moves on, which is at the
      // next entry at the earliest.
      ColumnCursor s = schemaPart.column;
      boolean hasSchema = schemaPart.present();
      byte[] schemaData = s.data;
      int schemaEntry = hasSchema ? s.entry(s.valueIndex) : 0;
      int schemaOff = hasSchema ? s.offsets[schemaEntry] : 0;
      int schemaLen = hasSchema ? s.offsets[schemaEntry + 1] - schemaOff : -1;
      schemaPart.consume();
      ColumnCursor v = valuePart.column;
      boolean hasValue = valuePart.present();
      byte[] valueData = v.data;
      int valueEntry = hasValue ? v.entry(v.valueIndex) : 0;
      int valueOff = hasValue ? v.offsets[valueEntry] : 0;
      int valueLen = hasValue ? v.offsets[valueEntry + 1] - valueOff : -1;
      // A dictionary-encoded value's text, should the header be a STRING, is the dictionary's.
      Dictionary valueDictionary = hasValue ? v.dictionary : null;
      valuePart.consume();
      Header added = mapping.addHeader(out, headerKey, schemaData, schemaOff, schemaLen,
          valueData, valueOff, valueLen, valueDictionary, valueEntry, values,
          position < previous.length ? previous[position] : null);
      if (position < previous.length) {
        previous[position] = added;
      }
    }
  }

  /**
   * A leaf reader, specialised for the commonest conversions so that reading one is a single
   * virtual call without a switch.
   */
  private Leaf newLeaf(PrimitiveNode leaf, int def, int rep, ColumnCursor column, int conversion,
      String path) {
    boolean signed = !(leaf.logicalType() instanceof LogicalType.IntType i && !i.signed());
    PhysicalType type = leaf.type();
    if (conversion == Leaf.STRING && type == PhysicalType.BYTE_ARRAY) {
      return new StringLeaf(leaf, def, rep, column, path);
    }
    if (conversion == Leaf.INT64 && type == PhysicalType.INT64) {
      return new LongLeaf(leaf, def, rep, column, path);
    }
    if (conversion == Leaf.INT32 && type == PhysicalType.INT32 && signed) {
      return new IntLeaf(leaf, def, rep, column, path);
    }
    if (conversion == Leaf.DOUBLE && type == PhysicalType.DOUBLE) {
      return new DoubleLeaf(leaf, def, rep, column, path);
    }
    return new Leaf(leaf, def, rep, column, conversion, path);
  }

  /** BYTE_ARRAY to String. */
  private final class StringLeaf extends Leaf {
    StringLeaf(PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
      super(leaf, def, rep, column, STRING, path);
    }

    @Override
    Object read() throws IOException, ParquetException {
      ColumnCursor c = column;
      int d = c.def();
      if (d == def) {
        String v = c.string(c.valueIndex, strings);
        c.advance();
        return v;
      }
      return absent(c, d);
    }
  }

  /** INT64 to Long. */
  private final class LongLeaf extends Leaf {
    LongLeaf(PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
      super(leaf, def, rep, column, INT64, path);
    }

    @Override
    Object read() throws IOException, ParquetException {
      ColumnCursor c = column;
      int d = c.def();
      if (d == def) {
        Long v = c.longs[c.valueIndex];
        c.advance();
        return v;
      }
      return absent(c, d);
    }
  }

  /** Signed INT32 to Integer. */
  private final class IntLeaf extends Leaf {
    IntLeaf(PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
      super(leaf, def, rep, column, INT32, path);
    }

    @Override
    Object read() throws IOException, ParquetException {
      ColumnCursor c = column;
      int d = c.def();
      if (d == def) {
        Integer v = c.ints[c.valueIndex];
        c.advance();
        return v;
      }
      return absent(c, d);
    }
  }

  /** DOUBLE to Double. */
  private final class DoubleLeaf extends Leaf {
    DoubleLeaf(PrimitiveNode leaf, int def, int rep, ColumnCursor column, String path) {
      super(leaf, def, rep, column, DOUBLE, path);
    }

    @Override
    Object read() throws IOException, ParquetException {
      ColumnCursor c = column;
      int d = c.def();
      if (d == def) {
        Double v = c.doubles[c.valueIndex];
        c.advance();
        return v;
      }
      return absent(c, d);
    }
  }

  /**
   * A leaf: the column's physical value as the Connect class of the schema (any conversion; the
   * commonest have the subclasses above).
   */
  private class Leaf extends FieldReader {
    static final int BOOLEAN = 0;
    static final int INT8 = 1;
    static final int INT16 = 2;
    static final int INT32 = 3;
    static final int INT64 = 4;
    static final int FLOAT = 5;
    static final int HALF_FLOAT = 6;
    static final int DOUBLE = 7;
    static final int STRING = 8;
    static final int UUID = 9;
    static final int BYTES = 10;
    static final int DECIMAL = 11;
    static final int DATE = 12;
    static final int TIME = 13;
    static final int TIMESTAMP = 14;
    static final int INT96_TIMESTAMP = 15;
    /** A value whose Parquet type the Connect kind cannot take (fails where present). */
    static final int MISMATCH = 16;

    final ColumnCursor column;
    private final int conversion;
    private final String path;
    private final PhysicalType physical;
    private final boolean unsigned;
    private final long unitsPerMilli;
    private final int parquetScale;
    int connectScale;
    boolean optional;
    final Utf8Strings strings = new Utf8Strings();
    /** Values converted per entry of {@link #sharedDictionary} (see {@link #shared}). */
    private Dictionary sharedDictionary;
    private Object[] sharedValues;

    Leaf(PrimitiveNode leaf, int def, int rep, ColumnCursor column, int conversion, String path) {
      this.column = column;
      this.conversion = conversion;
      this.path = path;
      this.physical = leaf.type();
      LogicalType t = leaf.logicalType();
      this.unsigned = t instanceof LogicalType.IntType i && !i.signed();
      TimeUnit unit =
          t instanceof LogicalType.TimestampType ts ? ts.unit()
              : t instanceof LogicalType.TimeType tt ? tt.unit()
              : TimeUnit.MILLIS;
      this.unitsPerMilli =
          unit == TimeUnit.MICROS ? 1_000L : unit == TimeUnit.NANOS ? 1_000_000L : 1L;
      this.parquetScale = t instanceof LogicalType.DecimalType d ? d.scale() : 0;
      this.connectScale = parquetScale;
      this.optional = leaf.isOptional();
      init(def, rep, rep - (leaf.isRepeated() ? 1 : 0), new ColumnCursor[] {column});
    }

    /** The conversion of a leaf to a Connect kind, as ParquetToConnect's leaf converter does. */
    static int conversion(PrimitiveNode leaf, Schema schema, ConnectTypes.Kind kind,
        String path) {
      PhysicalType physical = leaf.type();
      LogicalType t = leaf.logicalType();
      return switch (kind) {
        case BOOLEAN -> BOOLEAN;
        case INT8 -> INT8;
        case INT16 -> INT16;
        case INT32 -> INT32;
        case INT64 -> INT64;
        case FLOAT32 -> physical == PhysicalType.FLOAT ? FLOAT
            : t instanceof LogicalType.Float16Type ? HALF_FLOAT : MISMATCH;
        case FLOAT64 -> DOUBLE;
        case STRING -> t instanceof LogicalType.UuidType ? UUID : STRING;
        case BYTES -> BYTES;
        case DECIMAL -> DECIMAL;
        case DATE -> DATE;
        case TIME -> TIME;
        case TIMESTAMP -> physical == PhysicalType.INT96 ? INT96_TIMESTAMP : TIMESTAMP;
        default -> throw mismatch(path, leaf, schema);
      };
    }

    /** Whether the current entry holds this leaf's value (else it is absent, or corrupt). */
    boolean present() throws IOException, ParquetException {
      int d = column.def();
      if (d == def) {
        return true;
      }
      if (optional && d >= 0 && d < def) {
        return false;
      }
      throw corrupt(column, d < 0
          ? "the column ends inside the row"
          : "definition level " + d + " where the schema requires a value (level " + def + ")");
    }

    void consume() {
      column.advance();
    }

    /** The current entry's value as the Row model boxes it (null when absent or binary). */
    Object physicalValue() throws IOException, ParquetException {
      ColumnCursor c = column;
      if (c.def() != def) {
        return null;
      }
      int i = c.valueIndex;
      return switch (physical) {
        case BOOLEAN -> c.booleans[i];
        case INT32 -> c.ints[i];
        case INT64 -> c.longs[i];
        case FLOAT -> c.floats[i];
        case DOUBLE -> c.doubles[i];
        default -> null;
      };
    }

    @Override
    Object read() throws IOException, ParquetException {
      ColumnCursor c = column;
      int d = c.def();
      if (d == def) {
        Object v = convert(c);
        c.advance();
        return v;
      }
      return absent(c, d);
    }

    /** An entry without this leaf's value: null for an optional leaf, else corrupt. */
    final Object absent(ColumnCursor c, int d) throws ParquetException {
      if (optional && d >= 0 && d < def) {
        c.advance();
        return null;
      }
      throw corrupt(c, d < 0
          ? "the column ends inside the row"
          : "definition level " + d + " where the schema requires a value (level " + def + ")");
    }

    private Object convert(ColumnCursor c) {
      int i = c.valueIndex;
      switch (conversion) {
        case BOOLEAN:
          return c.booleans != null ? Boolean.valueOf(c.booleans[i]) : mismatchValue();
        case INT8:
          return (byte) integer(c, i);
        case INT16:
          return (short) integer(c, i);
        case INT32:
          return (int) integer(c, i);
        case INT64:
          return integer(c, i);
        case FLOAT:
          return c.floats[i];
        case HALF_FLOAT: {
          int e = c.entry(i);
          int off = c.offsets[e];
          if (c.offsets[e + 1] - off < 2) {
            throw new DataException("field " + path + ": a FLOAT16 value of fewer than 2 bytes");
          }
          return ParquetToConnect.halfToFloat(c.data, off);
        }
        case DOUBLE:
          return c.doubles != null ? c.doubles[i] : (double) c.floats[i];
        case STRING:
          return string(c, i);
        case UUID:
          return c.dictionary != null ? shared(c, i) : uuid(c, i);
        case BYTES: {
          // Always a fresh copy, dictionary-encoded or not: Connect lets its users mutate it.
          int e = c.entry(i);
          return Arrays.copyOfRange(c.data, c.offsets[e], c.offsets[e + 1]);
        }
        case DECIMAL:
          return c.dictionary != null ? shared(c, i) : decimal(c, i);
        case DATE:
          return new java.util.Date(integer(c, i) * MILLIS_PER_DAY);
        case TIME:
          return new java.util.Date(Math.floorDiv(integer(c, i), unitsPerMilli));
        case TIMESTAMP:
          return new java.util.Date(Math.floorDiv(c.longs[i], unitsPerMilli));
        case INT96_TIMESTAMP:
          return new java.util.Date(ParquetToConnect.int96Millis(c.data, c.offsets[c.entry(i)]));
        default:
          return mismatchValue();
      }
    }

    /**
     * The UUID text or decimal of dictionary-encoded value {@code i}, converted once per
     * dictionary entry: both are immutable, so records may share them.
     */
    private Object shared(ColumnCursor c, int i) {
      Dictionary d = c.dictionary;
      if (d != sharedDictionary) {
        sharedValues = new Object[d.size()];
        sharedDictionary = d;
      }
      int e = c.indices[i];
      Object v = sharedValues[e];
      if (v == null) {
        v = conversion == UUID ? uuid(c, e) : decimal(c, i);
        sharedValues[e] = v;
      }
      return v;
    }

    private String uuid(ColumnCursor c, int e) {
      int off = c.offsets[e];
      if (c.offsets[e + 1] - off < 16) {
        throw new DataException("field " + path + ": a UUID of fewer than 16 bytes");
      }
      return ParquetToConnect.uuidText(c.data, off);
    }

    private Object mismatchValue() {
      throw new DataException("field " + path + ": a " + physical
          + " value cannot become the metadata schema's type");
    }

    private long integer(ColumnCursor c, int i) {
      if (c.ints != null) {
        int v = c.ints[i];
        return unsigned ? Integer.toUnsignedLong(v) : v;
      }
      return c.longs[i];
    }

    private String string(ColumnCursor c, int i) {
      return c.string(i, strings);
    }

    /**
     * Whether big-endian two's complement {@code data[off, off + len)} fits a long: 8 bytes or
     * fewer, or only sign bytes before the last 8 (a wide FIXED decimal holding a small value).
     */
    private static boolean fitsLong(byte[] data, int off, int len) {
      if (len <= 8) {
        return true;
      }
      int low = off + len - 8;
      byte sign = (byte) (data[low] >> 7);
      for (int b = off; b < low; b++) {
        if (data[b] != sign) {
          return false;
        }
      }
      return true;
    }

    private BigDecimal decimal(ColumnCursor c, int i) {
      BigDecimal value;
      if (c.ints != null) {
        value = BigDecimal.valueOf(c.ints[i], parquetScale);
      } else if (c.longs != null) {
        long l = c.longs[i];
        value = unsigned && l < 0
            ? new BigDecimal(new BigInteger(Long.toUnsignedString(l)), parquetScale)
            : BigDecimal.valueOf(l, parquetScale);
      } else {
        int e = c.entry(i);
        int off = c.offsets[e];
        int len = c.offsets[e + 1] - off;
        if (fitsLong(c.data, off, len)) {
          // Big-endian two's complement that fits a long: no BigInteger needed.
          long unscaled = len == 0 ? 0 : c.data[off];
          for (int b = 1; b < len; b++) {
            unscaled = unscaled << 8 | (c.data[off + b] & 0xFF);
          }
          value = BigDecimal.valueOf(unscaled, parquetScale);
        } else {
          value = new BigDecimal(new BigInteger(c.data, off, len), parquetScale);
        }
      }
      if (connectScale == parquetScale) {
        return value;
      }
      try {
        return value.setScale(connectScale, RoundingMode.UNNECESSARY);
      } catch (ArithmeticException e) {
        throw new DataException("field " + path + ": decimal " + value + " does not have scale "
            + connectScale, e);
      }
    }
  }
}
