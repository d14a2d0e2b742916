package dev.parquetconnect.format.schema;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The schema of a Parquet file: a root group (the "message") and its columns, each with its path
 * and maximum definition and repetition levels, computed once.
 */
public final class MessageType {
  private final GroupNode root;
  private final List<ColumnDescriptor> columns;
  private final Map<String, ColumnDescriptor> columnsByPath;

  public MessageType(String name, List<SchemaNode> fields) {
    this(GroupNode.of(Objects.requireNonNull(name, "name"), FieldRepetitionType.REQUIRED, fields));
  }

  /** Wraps a root group; its own repetition and annotation are not part of the schema. */
  public MessageType(GroupNode root) {
    this.root = root;
    List<ColumnDescriptor> leaves = new ArrayList<>();
    collect(root, new ArrayList<>(), 0, 0, leaves);
    this.columns = Collections.unmodifiableList(leaves);
    Map<String, ColumnDescriptor> byPath = new HashMap<>();
    for (ColumnDescriptor c : leaves) {
      byPath.putIfAbsent(c.dottedPath(), c);
    }
    this.columnsByPath = byPath;
  }

  private static void collect(
      GroupNode group, List<String> path, int def, int rep, List<ColumnDescriptor> out) {
    for (SchemaNode field : group.fields()) {
      int fieldDef = def + (field.repetition() == FieldRepetitionType.REQUIRED ? 0 : 1);
      int fieldRep = rep + (field.isRepeated() ? 1 : 0);
      path.add(field.name());
      if (field instanceof PrimitiveNode leaf) {
        out.add(new ColumnDescriptor(path, fieldDef, fieldRep, leaf, out.size()));
      } else {
        collect((GroupNode) field, path, fieldDef, fieldRep, out);
      }
      path.remove(path.size() - 1);
    }
  }

  public String name() {
    return root.name();
  }

  public GroupNode root() {
    return root;
  }

  public List<SchemaNode> fields() {
    return root.fields();
  }

  public List<ColumnDescriptor> columns() {
    return columns;
  }

  public ColumnDescriptor column(int index) {
    return columns.get(index);
  }

  /** The column at this dotted path, or null. */
  public ColumnDescriptor column(String dottedPath) {
    return columnsByPath.get(dottedPath);
  }

  /** The schema in the text form parquet-java and pq print ({@code message m { ... }}). */
  @Override
  public String toString() {
    return SchemaPrinter.print(this);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MessageType other && root.equals(other.root);
  }

  @Override
  public int hashCode() {
    return root.hashCode();
  }
}
