package dev.parquetconnect.format.schema;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import java.util.List;

/**
 * LIST and MAP layouts: the standard three-level form a writer produces, and how a reader finds the
 * elements, keys and values in any layout that LogicalTypes.md's backward-compatibility rules
 * accept (two-level lists, {@code array} and {@code _tuple} names, legacy MAP_KEY_VALUE).
 */
public final class NestedTypes {
  private NestedTypes() {}

  /**
   * Where a list keeps its elements.
   *
   * @param repeated the repeated field inside the LIST group: one entry per element
   * @param element the element's node: {@code repeated} itself (two-level, elements required) or
   *     its single child (three-level)
   */
  public record ListShape(SchemaNode repeated, SchemaNode element) {
    /** Whether the repeated field is the element (legacy two-level layout). */
    public boolean twoLevel() {
      return repeated == element;
    }
  }

  /**
   * Where a map keeps its entries.
   *
   * @param keyValue the repeated group: one entry per map entry
   * @param key the key field (first child)
   * @param value the value field (second child), or null for a key-only map (a set)
   */
  public record MapShape(GroupNode keyValue, SchemaNode key, SchemaNode value) {}

  /**
   * The shape of a LIST-annotated group, or null when the group does not follow any accepted layout
   * (readers then treat it as a plain group, ignoring the annotation).
   */
  public static ListShape listShape(GroupNode list) {
    if (list.fieldCount() != 1 || !list.field(0).isRepeated()) {
      return null;
    }
    SchemaNode repeated = list.field(0);
    if (repeated instanceof PrimitiveNode) {
      return new ListShape(repeated, repeated); // rule 1: repeated primitive is the element
    }
    GroupNode group = (GroupNode) repeated;
    if (group.fieldCount() != 1) {
      return new ListShape(repeated, repeated); // rule 2: a repeated struct is the element
    }
    if (group.name().equals("array") || group.name().equals(list.name() + "_tuple")) {
      return new ListShape(repeated, repeated); // rule 3: legacy names of one-field structs
    }
    return new ListShape(repeated, group.field(0)); // three-level list
  }

  /** The shape of a MAP (or MAP_KEY_VALUE) group, or null when it follows no accepted layout. */
  public static MapShape mapShape(GroupNode map) {
    if (map.fieldCount() != 1
        || !map.field(0).isRepeated()
        || !(map.field(0) instanceof GroupNode keyValue)) {
      return null;
    }
    if (keyValue.fieldCount() == 1) {
      return new MapShape(keyValue, keyValue.field(0), null);
    }
    if (keyValue.fieldCount() == 2) {
      return new MapShape(keyValue, keyValue.field(0), keyValue.field(1));
    }
    return null;
  }

  /**
   * A standard three-level list: {@code <rep> group name (LIST) { repeated group list { <element> }
   * }}, the element renamed {@code element}.
   */
  public static GroupNode list(String name, FieldRepetitionType repetition, SchemaNode element) {
    if (element.isRepeated()) {
      throw new IllegalArgumentException("list " + name + ": the element must not be repeated");
    }
    GroupNode repeated =
        GroupNode.of("list", FieldRepetitionType.REPEATED, List.of(element.withName("element")));
    return GroupNode.of(name, repetition, List.of(repeated)).withLogicalType(LogicalType.LIST);
  }

  /**
   * A standard map: {@code <rep> group name (MAP) { repeated group key_value { required key;
   * <value> } }}.
   */
  public static GroupNode map(
      String name, FieldRepetitionType repetition, SchemaNode key, SchemaNode value) {
    if (value.isRepeated()) {
      throw new IllegalArgumentException("map " + name + ": the value must not be repeated");
    }
    GroupNode keyValue =
        GroupNode.of(
            "key_value",
            FieldRepetitionType.REPEATED,
            List.of(
                key.withName("key").withRepetition(FieldRepetitionType.REQUIRED),
                value.withName("value")));
    return GroupNode.of(name, repetition, List.of(keyValue)).withLogicalType(LogicalType.MAP);
  }
}
