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
  static final long MILLIS_PER_DAY = 86_400_000L;

  private final ParquetFileReader file;
  private final ParquetToConnect mapping;
  private final String fileName;
  private final int maxRecordValues;
  private final int batchSize;
  private final ColumnCursor[] columns;
  /** The columns with repetition levels: a row must start at level 0 in each. */
  private final ColumnCursor[] repeatedColumns;
  private final int rowGroupCount;
  /** The row being read, shared with the readers for their errors and bounds. */
  private final RecordScope scope;

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
    this.scope = new RecordScope(fileName, maxRecordValues);
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
    this.valueSkipper = new SkipReader(scope, valueColumns.toArray(new ColumnCursor[0]), 0);
    List<ColumnCursor> unused = new ArrayList<>();
    for (int i = 0; i < used.length; i++) {
      if (!used[i]) {
        unused.addAll(Arrays.asList(columns).subList(firstColumn[i], firstColumn[i + 1]));
      }
    }
    this.unusedSkipper = new SkipReader(scope, unused.toArray(new ColumnCursor[0]), 0);
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
    scope.row = rowInGroup++;
    scope.recordValues = 0;
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
    return scope.corrupt(c, message);
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
    reader.init(scope, def, rep, parentRep, columnRange(first, node));
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
    reader.init(scope, def, rep, rep, columnRange(first, node));
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
    List<Field> read = new ArrayList<>(schema.fields().size());
    List<FieldReader> fieldReaders = new ArrayList<>(schema.fields().size());
    for (Field f : schema.fields()) {
      if (!ConnectToParquet.hasColumns(f.schema())) {
        continue; // null in every record (see ParquetToConnect.checkShape): not read
      }
      String at = path.isEmpty() ? f.name() : path + "." + f.name();
      int index = group.fieldIndex(f.name());
      if (index < 0) {
        throw new DataException("field " + at + " of the metadata schema has no Parquet column");
      }
      used[index] = true;
      boolean outer = compilingStructField;
      compilingStructField = true;
      read.add(f);
      fieldReaders.add(field(group.field(index), f.schema(), at, def, rep, firstColumn[index]));
      compilingStructField = outer;
    }
    Field[] fields = read.toArray(new Field[0]);
    FieldReader[] readers = fieldReaders.toArray(new FieldReader[0]);
    List<ColumnCursor> skipped = new ArrayList<>();
    boolean root = group == file.schema().root();
    if (!root) {
      for (int i = 0; i < group.fieldCount(); i++) {
        if (!used[i]) {
          skipped.addAll(Arrays.asList(columns).subList(firstColumn[i], firstColumn[i + 1]));
        }
      }
    }
    ColumnCursor[] all = Arrays.copyOfRange(columns, firstColumn[0],
        firstColumn[group.fieldCount()]);
    StructReader reader = new StructReader(schema, fields, readers,
        new SkipReader(scope, skipped.toArray(new ColumnCursor[0]), rep));
    reader.init(scope, def, rep, rep, all);
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
      parts[i] = new Leaf(scope, leaf, entryDef + (leaf.isOptional() ? 1 : 0), repRep,
          columns[first + i], Leaf.STRING, FileLayout.HEADERS_COLUMN + "." + leaf.name());
    }
    HeadersReader reader = new HeadersReader(mapping, node.isOptional(), repDef, repRep,
        entryOptional,
        entryDef, parts);
    reader.init(scope, def, 0, 0, columnRange(first, node));
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

  static void refuseNull(Object element, String nullProblem) {
    if (element == null && nullProblem != null) {
      throw new DataException(nullProblem);
    }
  }

  static DataException mismatch(String path, SchemaNode node, Schema schema) {
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
      reader.connectScale = DecimalLayout.connectScale(schema); // the file's metadata: checked
    }
    return reader;
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
      return new StringLeaf(scope, leaf, def, rep, column, path);
    }
    if (conversion == Leaf.INT64 && type == PhysicalType.INT64) {
      return new LongLeaf(scope, leaf, def, rep, column, path);
    }
    if (conversion == Leaf.INT32 && type == PhysicalType.INT32 && signed) {
      return new IntLeaf(scope, leaf, def, rep, column, path);
    }
    if (conversion == Leaf.DOUBLE && type == PhysicalType.DOUBLE) {
      return new DoubleLeaf(scope, leaf, def, rep, column, path);
    }
    return new Leaf(scope, leaf, def, rep, column, conversion, path);
  }
}
