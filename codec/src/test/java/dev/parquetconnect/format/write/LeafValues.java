package dev.parquetconnect.format.write;

import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The values and null entries one column gets from some rows, found by walking the rows along the
 * column's path: an independent statement of what the column must hold, for checking statistics and
 * indexes without trusting the shredder. A null entry is every place where the path stops early: a
 * null, an empty list or map, an absent struct.
 */
final class LeafValues {
  final List<Object> values = new ArrayList<>();
  long nulls;

  static LeafValues of(List<Row> rows, MessageType schema, ColumnDescriptor column) {
    LeafValues acc = new LeafValues();
    List<String> path = column.path();
    int field = schema.root().fieldIndex(path.get(0));
    for (Row row : rows) {
      acc.field(row.get(field), schema.root().field(field), path, 0);
    }
    return acc;
  }

  private void field(Object value, SchemaNode node, List<String> path, int depth) {
    if (node.isRepeated()) {
      List<?> list = (List<?>) value;
      if (list == null || list.isEmpty()) {
        nulls++;
        return;
      }
      for (Object e : list) {
        occurrence(e, node, path, depth);
      }
    } else if (value == null) {
      nulls++;
    } else {
      occurrence(value, node, path, depth);
    }
  }

  /** One present occurrence of {@code node}, named {@code path.get(depth)}. */
  private void occurrence(Object value, SchemaNode node, List<String> path, int depth) {
    if (depth == path.size() - 1) {
      values.add(value);
      return;
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      List<?> elements = (List<?>) value;
      if (elements.isEmpty()) {
        nulls++;
        return;
      }
      for (Object e : elements) {
        if (list.twoLevel()) {
          occurrence(e, list.element(), path, depth + 1);
        } else {
          field(e, list.element(), path, depth + 2);
        }
      }
      return;
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      Map<?, ?> entries = (Map<?, ?>) value;
      if (entries.isEmpty()) {
        nulls++;
        return;
      }
      boolean key = path.get(depth + 2).equals(map.key().name());
      for (Map.Entry<?, ?> e : entries.entrySet()) {
        field(key ? e.getKey() : e.getValue(), key ? map.key() : map.value(), path, depth + 2);
      }
      return;
    }
    int child = group.fieldIndex(path.get(depth + 1));
    field(((Row) value).get(child), group.field(child), path, depth + 1);
  }
}
