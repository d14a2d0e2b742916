package dev.parquetconnect.cli;

import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.List;
import java.util.Map;

/**
 * Renders the {@link Row}s of a schema as JSON objects, one field per member in schema order. The
 * schema is compiled once into a tree of renderers, so per value only the walk is left. Following
 * the Row model, a LIST is an array, a MAP an object (keys as their JSON text: a string key as is,
 * another key as its JSON, e.g. {@code "1"}), a struct an object and any other repeated field an
 * array; an absent optional value is {@code null}.
 */
final class RowRenderer {
  private final JsonRenderer root;

  RowRenderer(MessageType schema) {
    this.root = struct(schema.root());
  }

  /** Appends {@code row} as one JSON object. */
  void render(Row row, StringBuilder out) {
    root.render(row, out);
  }

  /** The renderer of one present instance of {@code node}, whatever its repetition. */
  private static JsonRenderer instance(SchemaNode node) {
    if (node instanceof PrimitiveNode leaf) {
      return LeafRenderers.forLeaf(leaf);
    }
    GroupNode group = (GroupNode) node;
    NestedTypes.ListShape list = group.isList() ? NestedTypes.listShape(group) : null;
    if (list != null) {
      return array(instance(list.element()));
    }
    NestedTypes.MapShape map = group.isMap() ? NestedTypes.mapShape(group) : null;
    if (map != null) {
      return map(instance(map.key()), map.value() == null ? null : instance(map.value()));
    }
    return struct(group);
  }

  /** The renderer of a field's value: an array for a repeated field, else its instance. */
  private static JsonRenderer field(SchemaNode node) {
    JsonRenderer instance = instance(node);
    return node.isRepeated() ? array(instance) : instance;
  }

  private static JsonRenderer struct(GroupNode group) {
    int n = group.fieldCount();
    String[] names = new String[n];
    JsonRenderer[] fields = new JsonRenderer[n];
    for (int i = 0; i < n; i++) {
      names[i] = Json.quote(group.field(i).name()) + ":";
      fields[i] = field(group.field(i));
    }
    return (v, out) -> {
      Row row = (Row) v;
      out.append('{');
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          out.append(',');
        }
        out.append(names[i]);
        renderNullable(fields[i], row.get(i), out);
      }
      out.append('}');
    };
  }

  private static JsonRenderer array(JsonRenderer element) {
    return (v, out) -> {
      out.append('[');
      boolean first = true;
      for (Object e : (List<?>) v) {
        if (!first) {
          out.append(',');
        }
        first = false;
        renderNullable(element, e, out);
      }
      out.append(']');
    };
  }

  /** A map as a JSON object; a key-only map (a set) has null values. */
  private static JsonRenderer map(JsonRenderer key, JsonRenderer value) {
    return (v, out) -> {
      out.append('{');
      boolean first = true;
      StringBuilder keyText = new StringBuilder();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        keyText.setLength(0);
        renderNullable(key, e.getKey(), keyText);
        if (keyText.length() > 0 && keyText.charAt(0) == '"') {
          out.append(keyText);
        } else {
          Json.appendString(out, keyText);
        }
        out.append(':');
        renderNullable(value, e.getValue(), out);
      }
      out.append('}');
    };
  }

  private static void renderNullable(JsonRenderer renderer, Object value, StringBuilder out) {
    if (value == null || renderer == null) {
      out.append("null");
    } else {
      renderer.render(value, out);
    }
  }
}
