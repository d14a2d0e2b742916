package dev.parquetconnect.format.write;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Shreds {@link Row}s into column writers (Dremel striping): each leaf value goes to its column
 * with its repetition and definition levels, and a null, empty list or empty map writes a null
 * entry to every column beneath it at the level of its deepest defined ancestor.
 *
 * <p>The schema is compiled once into a plan: per field, its levels, its kind (leaf, struct, LIST,
 * MAP, in whatever layout the schema uses: three-level or legacy two-level lists) and the columns
 * under it. Per row only the walk remains. The value model is {@link Row}'s: a LIST is a {@code
 * List} of elements, a MAP a {@code Map}, any other repeated field a {@code List}, a group a {@code
 * Row}.
 */
final class RowShredder {
  private final ColumnChunkWriter[] columns;
  private final Field[] fields;

  /** True during the first walk of a row, which only checks it: nothing is written. */
  private boolean checking;

  /** A plan for {@code schema}, writing into {@code columns} (one per leaf, in schema order). */
  public RowShredder(MessageType schema, ColumnChunkWriter[] columns) {
    if (columns.length != schema.columns().size()) {
      throw new IllegalArgumentException(
          "the schema has "
              + schema.columns().size()
              + " columns, got "
              + columns.length
              + " writers");
    }
    this.columns = columns.clone();
    int[] nextColumn = {0};
    this.fields = compileFields(schema.root(), 0, 0, nextColumn, "");
  }

  private enum Kind {
    LEAF,
    STRUCT,
    /** Three-level LIST: an inner repeated group holds one element field. */
    LIST,
    /** Two-level LIST: the repeated field is the element. */
    LEGACY_LIST,
    MAP
  }

  /**
   * One schema field compiled: {@code definitionLevel} is the level when the field is present (or,
   * repeated, non-empty); {@code repetitionLevel} is the level a repeated field's later occurrences
   * start with. For LIST and MAP, {@code inner*} are the levels of the repeated group inside, and
   * {@code children} the element, or the key and value.
   */
  private static final class Field {
    final String path;
    final Kind kind;
    final FieldRepetitionType repetition;
    final int definitionLevel;
    final int repetitionLevel;
    final int innerDefinitionLevel;
    final int innerRepetitionLevel;
    final Field[] children;

    /** The columns under this field, for writing nulls. */
    final int[] columns;

    final int column;

    Field(
        String path,
        Kind kind,
        FieldRepetitionType repetition,
        int definitionLevel,
        int repetitionLevel,
        int innerDefinitionLevel,
        int innerRepetitionLevel,
        Field[] children,
        int[] columns,
        int column) {
      this.path = path;
      this.kind = kind;
      this.repetition = repetition;
      this.definitionLevel = definitionLevel;
      this.repetitionLevel = repetitionLevel;
      this.innerDefinitionLevel = innerDefinitionLevel;
      this.innerRepetitionLevel = innerRepetitionLevel;
      this.children = children;
      this.columns = columns;
      this.column = column;
    }
  }

  private static Field[] compileFields(
      GroupNode group, int parentDef, int parentRep, int[] nextColumn, String prefix) {
    Field[] compiled = new Field[group.fieldCount()];
    for (int i = 0; i < compiled.length; i++) {
      compiled[i] = compile(group.field(i), parentDef, parentRep, nextColumn, prefix);
    }
    return compiled;
  }

  private static Field compile(
      SchemaNode node, int parentDef, int parentRep, int[] nextColumn, String prefix) {
    String path = prefix + node.name();
    int def = parentDef + (node.repetition() == FieldRepetitionType.REQUIRED ? 0 : 1);
    int rep = parentRep + (node.isRepeated() ? 1 : 0);
    int firstColumn = nextColumn[0];
    if (node instanceof PrimitiveNode) {
      int column = nextColumn[0]++;
      return new Field(
          path,
          Kind.LEAF,
          node.repetition(),
          def,
          rep,
          0,
          0,
          new Field[0],
          new int[] {column},
          column);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    NestedTypes.MapShape map = list == null && group.isMap() ? NestedTypes.mapShape(group) : null;
    Kind kind;
    Field[] children;
    int innerDef = 0;
    int innerRep = 0;
    if (list != null) {
      SchemaNode repeated = list.repeated();
      innerDef = def + 1;
      innerRep = rep + 1;
      if (list.twoLevel()) {
        kind = Kind.LEGACY_LIST;
        // The repeated node itself is the element; compile it as a required field at the
        // inner levels, since each occurrence is one element.
        children =
            new Field[] {
              compile(
                  repeated.withRepetition(FieldRepetitionType.REQUIRED),
                  innerDef,
                  innerRep,
                  nextColumn,
                  path + ".")
            };
      } else {
        kind = Kind.LIST;
        children =
            new Field[] {
              compile(
                  list.element(),
                  innerDef,
                  innerRep,
                  nextColumn,
                  path + "." + repeated.name() + ".")
            };
      }
    } else if (map != null) {
      kind = Kind.MAP;
      innerDef = def + 1;
      innerRep = rep + 1;
      String inner = path + "." + map.keyValue().name() + ".";
      Field key = compile(map.key(), innerDef, innerRep, nextColumn, inner);
      children =
          map.value() == null
              ? new Field[] {key}
              : new Field[] {key, compile(map.value(), innerDef, innerRep, nextColumn, inner)};
    } else {
      kind = Kind.STRUCT;
      children = compileFields(group, def, rep, nextColumn, path + ".");
    }
    int[] columns = new int[nextColumn[0] - firstColumn];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = firstColumn + i;
    }
    return new Field(
        path, kind, node.repetition(), def, rep, innerDef, innerRep, children, columns, -1);
  }

  /**
   * Writes one record: every column gets its entries. The caller then ends the record.
   *
   * <p>The row is walked twice: first only to check it (types, required values, shapes), then to
   * write it. A row that does not fit the schema is refused with {@link IllegalArgumentException}
   * naming the field, and no column receives any of it, so the file stays consistent.
   */
  public void write(Row row) {
    checking = true;
    try {
      writeGroup(fields, row, 0);
    } finally {
      checking = false;
    }
    writeGroup(fields, row, 0);
  }

  private void writeGroup(Field[] groupFields, Row row, int rep) {
    if (row.size() != groupFields.length) {
      throw new IllegalArgumentException(
          "a row of " + row.size() + " fields for a group of " + groupFields.length);
    }
    for (int i = 0; i < groupFields.length; i++) {
      writeField(groupFields[i], row.get(i), rep);
    }
  }

  /** Writes one field's value, starting with repetition level {@code rep}. */
  private void writeField(Field field, Object value, int rep) {
    switch (field.repetition) {
      case REQUIRED -> {
        if (value == null) {
          throw new IllegalArgumentException("required field " + field.path + " is null");
        }
        writeValue(field, value, rep);
      }
      case OPTIONAL -> {
        if (value == null) {
          writeNulls(field, rep, field.definitionLevel - 1);
        } else {
          writeValue(field, value, rep);
        }
      }
      case REPEATED -> {
        List<?> list = asList(field, value);
        if (list == null || list.isEmpty()) {
          writeNulls(field, rep, field.definitionLevel - 1);
          return;
        }
        int r = rep;
        for (Object element : list) {
          if (element == null) {
            throw new IllegalArgumentException(
                "repeated field " + field.path + " holds a null: its occurrences are values");
          }
          writeValue(field, element, r);
          r = field.repetitionLevel;
        }
      }
    }
  }

  /** Writes a present value of {@code field} (at its definition level). */
  private void writeValue(Field field, Object value, int rep) {
    switch (field.kind) {
      case LEAF -> writeLeaf(field, value, rep);
      case STRUCT -> {
        if (!(value instanceof Row row)) {
          throw mismatch(field, "a Row", value);
        }
        writeGroup(field.children, row, rep);
      }
      case LIST, LEGACY_LIST -> {
        List<?> list = asList(field, value);
        if (list.isEmpty()) {
          writeNulls(field, rep, field.definitionLevel);
          return;
        }
        Field element = field.children[0];
        int r = rep;
        for (Object e : list) {
          if (field.kind == Kind.LEGACY_LIST) {
            if (e == null) {
              throw new IllegalArgumentException(
                  "list "
                      + field.path
                      + " has the two-level layout: its elements cannot be"
                      + " null");
            }
            writeValue(element, e, r);
          } else {
            writeField(element, e, r);
          }
          r = field.innerRepetitionLevel;
        }
      }
      case MAP -> {
        if (!(value instanceof Map<?, ?> map)) {
          throw mismatch(field, "a Map", value);
        }
        if (map.isEmpty()) {
          writeNulls(field, rep, field.definitionLevel);
          return;
        }
        int r = rep;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          writeField(field.children[0], entry.getKey(), r);
          if (field.children.length > 1) {
            writeField(field.children[1], entry.getValue(), r);
          } else if (entry.getValue() != null) {
            throw new IllegalArgumentException(
                "map " + field.path + " has keys only, got a value for a key");
          }
          r = field.innerRepetitionLevel;
        }
      }
    }
  }

  private void writeLeaf(Field field, Object value, int rep) {
    ColumnChunkWriter writer = columns[field.column];
    if (checking) {
      checkLeaf(field, writer, value);
      return;
    }
    int def = field.definitionLevel;
    try {
      switch (writer.descriptor().primitive().type()) {
        case BOOLEAN -> writer.writeBoolean((Boolean) value, rep, def);
        case INT32 -> writer.writeInt((Integer) value, rep, def);
        case INT64 -> writer.writeLong((Long) value, rep, def);
        case FLOAT -> writer.writeFloat((Float) value, rep, def);
        case DOUBLE -> writer.writeDouble((Double) value, rep, def);
        case BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY, INT96 ->
            writer.writeBinary((byte[]) value, rep, def);
      }
    } catch (ClassCastException e) {
      throw mismatch(field, writer.descriptor().primitive().type() + " value", value);
    }
  }

  /** The value a leaf column takes: the Java type of its physical type, fixed lengths right. */
  private static void checkLeaf(Field field, ColumnChunkWriter writer, Object value) {
    PrimitiveNode leaf = writer.descriptor().primitive();
    boolean fits =
        switch (leaf.type()) {
          case BOOLEAN -> value instanceof Boolean;
          case INT32 -> value instanceof Integer;
          case INT64 -> value instanceof Long;
          case FLOAT -> value instanceof Float;
          case DOUBLE -> value instanceof Double;
          case BYTE_ARRAY -> value instanceof byte[];
          case FIXED_LEN_BYTE_ARRAY -> value instanceof byte[] b && b.length == leaf.typeLength();
          case INT96 -> value instanceof byte[] b && b.length == 12;
        };
    if (!fits) {
      String expected =
          switch (leaf.type()) {
            case FIXED_LEN_BYTE_ARRAY -> "a byte[" + leaf.typeLength() + "]";
            case INT96 -> "a byte[12]";
            default -> leaf.type() + " value";
          };
      throw mismatch(field, expected, value);
    }
  }

  private void writeNulls(Field field, int rep, int def) {
    if (checking) {
      return;
    }
    for (int column : field.columns) {
      columns[column].writeNull(rep, def);
    }
  }

  private static List<?> asList(Field field, Object value) {
    if (value == null || value instanceof List<?>) {
      return (List<?>) value;
    }
    throw mismatch(field, "a List", value);
  }

  private static IllegalArgumentException mismatch(Field field, String expected, Object value) {
    return new IllegalArgumentException(
        "field "
            + field.path
            + " expects "
            + expected
            + ", got "
            + (value == null ? "null" : value.getClass().getSimpleName()));
  }

  /** The dotted paths of the plan's leaves, in column order (for tests and messages). */
  List<String> leafPaths() {
    List<String> out = new ArrayList<>();
    collect(fields, out);
    return out;
  }

  private static void collect(Field[] fs, List<String> out) {
    for (Field f : fs) {
      if (f.kind == Kind.LEAF) {
        out.add(f.path);
      } else {
        collect(f.children, out);
      }
    }
  }
}
