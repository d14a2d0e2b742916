package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * Compiles the tree of {@link FieldReader}s that {@link ConnectRecordReader} reads a file's records
 * with, from the file's Parquet schema and the Connect schemas of its {@link ParquetToConnect}
 * mapping: once per file, so that reading a row only follows the tree.
 *
 * <p>Each reader is handed its levels and the {@link ColumnCursor}s of its columns (the cursors are
 * the record reader's, bound to a row group's columns later). A Parquet field that cannot hold the
 * mapping's schema is a {@link DataException} here, before any row is read, except a LIST or MAP
 * group where the metadata says struct, which fails only where such a value is present ({@link
 * MismatchReader}), as the {@code Row} path does when it converts one.
 *
 * <p>The top-level parts are compiled in the order of the record reader's constructor ({@link
 * #metadataLeaf}, {@link #headers}, {@link #key}, {@link #value}); the root fields none of them
 * reads are then consumed unread by {@link #unusedSkipper}. Not thread-safe; one per file.
 */
final class FieldReaderCompiler {
  private final GroupNode root;
  private final ParquetToConnect mapping;
  private final RecordScope scope;

  /** The record reader's cursors, one per leaf column in schema order. */
  private final ColumnCursor[] columns;

  /** {@code rootFirstColumn[i]}: the first column of the root's field i (and the end, last). */
  private final int[] rootFirstColumn;

  /** The root's fields some top-level reader compiled so far reads. */
  private final boolean[] rootUsed;

  /** The columns of the value: what a tombstone row leaves unread. */
  private final List<ColumnCursor> valueColumns = new ArrayList<>();

  /**
   * While compiling: whether the reader being compiled produces a value that goes into a Struct
   * (directly or inside lists and maps), where Connect's validating put would refuse a null in a
   * collection whose element schema is required, so the reader must refuse it too.
   */
  private boolean compilingStructField;

  FieldReaderCompiler(
      GroupNode root, ParquetToConnect mapping, RecordScope scope, ColumnCursor[] columns) {
    this.root = root;
    this.mapping = mapping;
    this.scope = scope;
    this.columns = columns;
    this.rootFirstColumn = new int[root.fieldCount() + 1];
    for (int i = 0; i < root.fieldCount(); i++) {
      rootFirstColumn[i + 1] = rootFirstColumn[i] + leafCount(root.field(i));
    }
    this.rootUsed = new boolean[root.fieldCount()];
  }

  /**
   * The {@code __kafka_headers} reader, or null where the mapping has no headers column. Throws
   * {@link DataException} where the column is not the LIST our sink writes.
   */
  HeadersReader headers() {
    int headersIndex = mapping.headersIndex();
    if (headersIndex < 0) {
      return null;
    }
    rootUsed[headersIndex] = true;
    return headersReader(root.field(headersIndex), rootFirstColumn[headersIndex]);
  }

  /** The reader of the key as the mapping converts it, or null where it does not. */
  FieldReader key() {
    if (!mapping.keyConverted()) {
      return null;
    }
    int keyIndex = mapping.keyIndex();
    rootUsed[keyIndex] = true;
    return field(
        root.field(keyIndex),
        mapping.storedKeySchema(),
        FileLayout.KEY_COLUMN,
        0,
        0,
        rootFirstColumn[keyIndex]);
  }

  /**
   * The reader of the value, or null where the mapping has no value schema: a struct over the
   * root's fields the schema names, or the value column's field.
   */
  FieldReader value() {
    Schema valueSchema = mapping.storedValueSchema();
    if (valueSchema == null) {
      return null;
    }
    if (mapping.valueIndex() < 0) {
      // A struct value: the root's fields the schema names.
      StructReader struct = structReader(root, valueSchema, "", 0, 0, rootFirstColumn, rootUsed);
      for (FieldReader f : struct.readers) {
        valueColumns.addAll(Arrays.asList(f.columns));
      }
      return struct;
    }
    int index = mapping.valueIndex();
    rootUsed[index] = true;
    FieldReader reader =
        field(
            root.field(index), valueSchema, FileLayout.VALUE_COLUMN, 0, 0, rootFirstColumn[index]);
    valueColumns.addAll(Arrays.asList(reader.columns));
    return reader;
  }

  /** Consumes the columns of {@link #value()} unread, for a tombstone row. */
  SkipReader valueSkipper() {
    return new SkipReader(scope, valueColumns.toArray(new ColumnCursor[0]), 0);
  }

  /** Consumes the root's fields no reader compiled so far reads: call it last. */
  SkipReader unusedSkipper() {
    List<ColumnCursor> unused = new ArrayList<>();
    for (int i = 0; i < rootUsed.length; i++) {
      if (!rootUsed[i]) {
        unused.addAll(Arrays.asList(columns).subList(rootFirstColumn[i], rootFirstColumn[i + 1]));
      }
    }
    return new SkipReader(scope, unused.toArray(new ColumnCursor[0]), 0);
  }

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

  /**
   * The root's field {@code index}, a {@code __kafka_*} column, as its raw Java value (String,
   * Integer, Long or Boolean), or null where {@code index} is -1 (the mapping has no such column).
   */
  Leaf metadataLeaf(int index, PhysicalType type, int conversion) {
    if (index < 0) {
      return null;
    }
    SchemaNode node = root.field(index);
    if (!(node instanceof PrimitiveNode leaf) || leaf.isRepeated() || leaf.type() != type) {
      throw new DataException(
          "the file's column "
              + node.name()
              + " is not a "
              + type
              + " column, as our sink writes it");
    }
    rootUsed[index] = true;
    return newLeaf(
        leaf,
        node.isOptional() ? 1 : 0,
        0,
        columns[rootFirstColumn[index]],
        conversion,
        node.name());
  }

  /**
   * The reader of one field of a present parent, {@code parentDef} and {@code parentRep} being the
   * parent's levels and {@code first} the index of the field's first column.
   */
  private FieldReader field(
      SchemaNode node, Schema schema, String path, int parentDef, int parentRep, int first) {
    int def = parentDef + (node.isOptional() || node.isRepeated() ? 1 : 0);
    int rep = parentRep + (node.isRepeated() ? 1 : 0);
    FieldReader reader;
    if (node.isRepeated()) {
      if (ConnectTypes.kind(schema) != ConnectTypes.Kind.ARRAY) {
        throw ParquetToConnect.mismatch(path, node, schema);
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
  private FieldReader instance(
      SchemaNode node, Schema schema, String path, int def, int rep, int first) {
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
          throw ParquetToConnect.mismatch(path, node, schema);
        }
        break;
      case MAP:
        if (map != null && map.value() != null) {
          reader = mapReader(group, map, schema, path, def, rep, first);
        } else if (list != null
            && listElementNode(list) instanceof GroupNode entry
            && entry.fieldCount() == 2) {
          reader = entryListReader(group, list, schema, path, def, rep, first);
        } else {
          throw ParquetToConnect.mismatch(path, node, schema);
        }
        break;
      case STRUCT:
        if (list != null || map != null) {
          // The Row model holds a list or map here, which no struct converts from.
          reader = new MismatchReader(ParquetToConnect.mismatch(path, node, schema));
        } else {
          int[] firstColumn = new int[group.fieldCount() + 1];
          firstColumn[0] = first;
          for (int i = 0; i < group.fieldCount(); i++) {
            firstColumn[i + 1] = firstColumn[i] + leafCount(group.field(i));
          }
          reader =
              structReader(
                  group, schema, path, def, rep, firstColumn, new boolean[group.fieldCount()]);
          return reader;
        }
        break;
      default:
        throw ParquetToConnect.mismatch(path, node, schema);
    }
    reader.init(scope, def, rep, rep, columnRange(first, node));
    return reader;
  }

  private static SchemaNode listElementNode(NestedTypes.ListShape list) {
    SchemaNode element = list.element();
    return list.twoLevel() ? element.withRepetition(FieldRepetitionType.REQUIRED) : element;
  }

  /** The element reader of a LIST whose repeated field has levels {@code repDef, repRep}. */
  private FieldReader listElement(
      NestedTypes.ListShape list,
      Schema elementSchema,
      String path,
      int repDef,
      int repRep,
      int repFirst) {
    if (list.twoLevel()) {
      return instance(list.repeated(), elementSchema, path, repDef, repRep, repFirst);
    }
    return field(list.element(), elementSchema, path, repDef, repRep, repFirst);
  }

  private FieldReader listReader(
      GroupNode group,
      NestedTypes.ListShape list,
      Schema elementSchema,
      String path,
      int def,
      int rep,
      int first) {
    int repDef = def + 1;
    int repRep = rep + 1;
    FieldReader element = listElement(list, elementSchema, path, repDef, repRep, first);
    return new ListReader(
        columns[first],
        columnRange(first, list.repeated()),
        repDef,
        repRep,
        element,
        list.repeated().name(),
        nullProblem(elementSchema, path));
  }

  private FieldReader entryListReader(
      GroupNode group,
      NestedTypes.ListShape list,
      Schema schema,
      String path,
      int def,
      int rep,
      int first) {
    int repDef = def + 1;
    int repRep = rep + 1;
    GroupNode entry = (GroupNode) listElementNode(list);
    // The entry's own levels: the repeated field itself (two-level) or its child.
    int entryDef = list.twoLevel() ? repDef : repDef + (entry.isOptional() ? 1 : 0);
    FieldReader k =
        field(entry.field(0), schema.keySchema(), path + "{key}", entryDef, repRep, first);
    FieldReader v =
        field(
            entry.field(1),
            schema.valueSchema(),
            path + "{value}",
            entryDef,
            repRep,
            first + leafCount(entry.field(0)));
    boolean entryOptional = !list.twoLevel() && entry.isOptional();
    return new EntryListReader(
        columns[first],
        columnRange(first, list.repeated()),
        repDef,
        repRep,
        entryDef,
        entryOptional,
        k,
        v,
        list.repeated().name(),
        nullProblem(schema.keySchema(), path),
        nullProblem(schema.valueSchema(), path));
  }

  private FieldReader mapReader(
      GroupNode group,
      NestedTypes.MapShape map,
      Schema schema,
      String path,
      int def,
      int rep,
      int first) {
    int kvDef = def + 1;
    int kvRep = rep + 1;
    GroupNode kv = map.keyValue();
    FieldReader k = field(map.key(), schema.keySchema(), path + "{key}", kvDef, kvRep, first);
    FieldReader v =
        field(
            map.value(),
            schema.valueSchema(),
            path + "{value}",
            kvDef,
            kvRep,
            first + leafCount(map.key()));
    return new MapReader(
        columns[first],
        columnRange(first, kv),
        kvDef,
        kvRep,
        k,
        v,
        kv.name(),
        nullProblem(schema.keySchema(), path),
        nullProblem(schema.valueSchema(), path));
  }

  private FieldReader keySetReader(
      GroupNode group,
      NestedTypes.MapShape map,
      Schema keySchema,
      String path,
      int def,
      int rep,
      int first) {
    int kvDef = def + 1;
    int kvRep = rep + 1;
    GroupNode kv = map.keyValue();
    FieldReader k = field(map.key(), keySchema, path, kvDef, kvRep, first);
    boolean binaryKey =
        map.key() instanceof PrimitiveNode p
            && (p.type() == PhysicalType.BYTE_ARRAY
                || p.type() == PhysicalType.FIXED_LEN_BYTE_ARRAY
                || p.type() == PhysicalType.INT96);
    return new KeySetReader(
        columns[first],
        columnRange(first, kv),
        kvDef,
        kvRep,
        k,
        !binaryKey,
        kv.name(),
        nullProblem(keySchema, path));
  }

  /**
   * The reader of a struct over {@code group}'s fields that {@code schema} names; {@code
   * firstColumn[i]} is the first column of field i. Marks the fields read in {@code used}; the
   * others are consumed unread.
   */
  private StructReader structReader(
      GroupNode group,
      Schema schema,
      String path,
      int def,
      int rep,
      int[] firstColumn,
      boolean[] used) {
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
    if (group != root) {
      for (int i = 0; i < group.fieldCount(); i++) {
        if (!used[i]) {
          skipped.addAll(Arrays.asList(columns).subList(firstColumn[i], firstColumn[i + 1]));
        }
      }
    }
    ColumnCursor[] all =
        Arrays.copyOfRange(columns, firstColumn[0], firstColumn[group.fieldCount()]);
    StructReader reader =
        new StructReader(
            schema,
            fields,
            readers,
            new SkipReader(scope, skipped.toArray(new ColumnCursor[0]), rep));
    reader.init(scope, def, rep, rep, all);
    return reader;
  }

  private HeadersReader headersReader(SchemaNode node, int first) {
    String problem =
        "the file's column "
            + FileLayout.HEADERS_COLUMN
            + " is not the LIST of {key, schema, value} our sink writes";
    if (!(node instanceof GroupNode group)
        || node.isRepeated()
        || !group.isList()
        || NestedTypes.listShape(group) == null) {
      throw new DataException(problem);
    }
    NestedTypes.ListShape list = NestedTypes.listShape(group);
    int def = node.isOptional() ? 1 : 0;
    int repDef = def + 1;
    int repRep = 1;
    SchemaNode element = list.element();
    if (!(element instanceof GroupNode entry)
        || entry.fieldCount() != 3
        || element.isRepeated() && !list.twoLevel()) {
      throw new DataException(problem);
    }
    boolean entryOptional = !list.twoLevel() && entry.isOptional();
    int entryDef = repDef + (entryOptional ? 1 : 0);
    Leaf[] parts = new Leaf[3];
    for (int i = 0; i < 3; i++) {
      SchemaNode part = entry.field(i);
      if (!(part instanceof PrimitiveNode leaf)
          || leaf.isRepeated()
          || leaf.type() != PhysicalType.BYTE_ARRAY) {
        throw new DataException(problem);
      }
      parts[i] =
          new Leaf(
              scope,
              leaf,
              entryDef + (leaf.isOptional() ? 1 : 0),
              repRep,
              columns[first + i],
              Leaf.STRING,
              FileLayout.HEADERS_COLUMN + "." + leaf.name());
    }
    HeadersReader reader =
        new HeadersReader(
            mapping, node.isOptional(), repDef, repRep, entryOptional, entryDef, parts);
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
    return "Invalid value: null used for required field: \""
        + path
        + "\", schema type: "
        + elementSchema.type();
  }

  private Leaf leaf(
      PrimitiveNode leaf,
      Schema schema,
      String path,
      int def,
      int rep,
      int first,
      boolean optional) {
    ConnectTypes.Kind kind = ConnectTypes.kind(schema);
    Leaf reader =
        newLeaf(leaf, def, rep, columns[first], Leaf.conversion(leaf, schema, kind, path), path);
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
  private Leaf newLeaf(
      PrimitiveNode leaf, int def, int rep, ColumnCursor column, int conversion, String path) {
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
