package dev.parquetconnect.format.read;

import dev.parquetconnect.format.schema.SchemaNode;

/**
 * How record assembly reads one field of the projected schema: its kind (a leaf, a struct, or a
 * LIST or MAP recognised by the backward-compatibility rules on the file's schema), its levels, and
 * the range of projected columns (leaves) beneath it, which depth-first order keeps contiguous.
 * Built once per projection; immutable.
 */
final class FieldPlan {
  enum Kind {
    PRIMITIVE,
    STRUCT,
    LIST,
    MAP
  }

  final Kind kind;

  /** The projected node: a Row's type for a struct. */
  final SchemaNode node;

  final boolean repeated;
  final boolean optional;

  /** Definition level at which this field is present, and repetition level of its repeats. */
  final int definitionLevel;

  final int repetitionLevel;

  /** STRUCT: its fields; LIST: the repeated field; MAP: the repeated key-value group. */
  final FieldPlan[] children;

  /** LIST: whether the repeated field is the element itself (two-level layouts). */
  final boolean twoLevel;

  /** MAP: positions of the key and the value among the key-value group's children (-1: none). */
  final int keyIndex;

  final int valueIndex;

  /** PRIMITIVE: the projected column. Any kind: projected columns [firstColumn, endColumn). */
  final int column;

  final int firstColumn;
  final int endColumn;

  private FieldPlan(
      Kind kind,
      SchemaNode node,
      int definitionLevel,
      int repetitionLevel,
      FieldPlan[] children,
      boolean twoLevel,
      int keyIndex,
      int valueIndex,
      int column,
      int firstColumn,
      int endColumn) {
    this.kind = kind;
    this.node = node;
    this.repeated = node.isRepeated();
    this.optional = node.isOptional();
    this.definitionLevel = definitionLevel;
    this.repetitionLevel = repetitionLevel;
    this.children = children;
    this.twoLevel = twoLevel;
    this.keyIndex = keyIndex;
    this.valueIndex = valueIndex;
    this.column = column;
    this.firstColumn = firstColumn;
    this.endColumn = endColumn;
  }

  static FieldPlan leaf(SchemaNode node, int definitionLevel, int repetitionLevel, int column) {
    return new FieldPlan(
        Kind.PRIMITIVE,
        node,
        definitionLevel,
        repetitionLevel,
        new FieldPlan[0],
        false,
        -1,
        -1,
        column,
        column,
        column + 1);
  }

  static FieldPlan struct(
      SchemaNode node, int definitionLevel, int repetitionLevel, FieldPlan[] fields) {
    return group(Kind.STRUCT, node, definitionLevel, repetitionLevel, fields, false, -1, -1);
  }

  static FieldPlan list(
      SchemaNode node,
      int definitionLevel,
      int repetitionLevel,
      FieldPlan repeatedField,
      boolean twoLevel) {
    return group(
        Kind.LIST,
        node,
        definitionLevel,
        repetitionLevel,
        new FieldPlan[] {repeatedField},
        twoLevel,
        -1,
        -1);
  }

  static FieldPlan map(
      SchemaNode node,
      int definitionLevel,
      int repetitionLevel,
      FieldPlan keyValue,
      int keyIndex,
      int valueIndex) {
    return group(
        Kind.MAP,
        node,
        definitionLevel,
        repetitionLevel,
        new FieldPlan[] {keyValue},
        false,
        keyIndex,
        valueIndex);
  }

  private static FieldPlan group(
      Kind kind,
      SchemaNode node,
      int definitionLevel,
      int repetitionLevel,
      FieldPlan[] children,
      boolean twoLevel,
      int keyIndex,
      int valueIndex) {
    int first = children[0].firstColumn;
    int end = children[children.length - 1].endColumn;
    return new FieldPlan(
        kind,
        node,
        definitionLevel,
        repetitionLevel,
        children,
        twoLevel,
        keyIndex,
        valueIndex,
        -1,
        first,
        end);
  }
}
