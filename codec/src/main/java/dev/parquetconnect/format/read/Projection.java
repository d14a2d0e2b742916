package dev.parquetconnect.format.read;

import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The columns of a file a reader reads, and the schema its records then have: the file's schema
 * pruned to the groups that hold a chosen column, annotations kept. Choosing any column of a map
 * also chooses the map's key, without which its entries cannot be rebuilt.
 *
 * <p>LIST and MAP layouts are recognised on the file's schema, before pruning, so a projected
 * two-level list of structs stays a list of structs even when only one field is kept.
 */
public final class Projection {
  private final MessageType fileSchema;
  private final MessageType schema;
  private final List<ColumnDescriptor> fileColumns;
  private final FieldPlan[] fields;

  private Projection(MessageType fileSchema, boolean[] selected) {
    this.fileSchema = fileSchema;
    markMapKeys(fileSchema.root(), 0, selected);
    List<ColumnDescriptor> chosen = new ArrayList<>();
    for (ColumnDescriptor c : fileSchema.columns()) {
      if (selected[c.index()]) {
        chosen.add(c);
      }
    }
    this.fileColumns = List.copyOf(chosen);
    Pruner pruner = new Pruner(selected);
    List<SchemaNode> kept = new ArrayList<>();
    List<FieldPlan> plans = new ArrayList<>();
    pruner.prune(fileSchema.root(), 0, 0, kept, plans);
    this.schema = new MessageType(fileSchema.name(), kept);
    this.fields = plans.toArray(new FieldPlan[0]);
  }

  /** Every column of the file. */
  public static Projection all(MessageType fileSchema) {
    boolean[] selected = new boolean[fileSchema.columns().size()];
    Arrays.fill(selected, true);
    return new Projection(fileSchema, selected);
  }

  /**
   * The columns at or under the given dotted paths ({@code "a.b"} chooses column {@code a.b} and
   * every column under a group {@code a.b}).
   *
   * @throws IllegalArgumentException for a path that names no column of the file
   */
  public static Projection ofColumns(MessageType fileSchema, Collection<String> dottedPaths) {
    boolean[] selected = new boolean[fileSchema.columns().size()];
    for (String path : dottedPaths) {
      boolean found = false;
      for (ColumnDescriptor c : fileSchema.columns()) {
        String dotted = c.dottedPath();
        if (dotted.equals(path) || dotted.startsWith(path + ".")) {
          selected[c.index()] = true;
          found = true;
        }
      }
      if (!found) {
        throw new IllegalArgumentException("no column " + path + " in " + fileSchema.name());
      }
    }
    return new Projection(fileSchema, selected);
  }

  /** Like {@link #ofColumns} with paths as lists of names (for names that contain dots). */
  public static Projection ofPaths(MessageType fileSchema, Collection<List<String>> paths) {
    boolean[] selected = new boolean[fileSchema.columns().size()];
    for (List<String> path : paths) {
      boolean found = false;
      for (ColumnDescriptor c : fileSchema.columns()) {
        if (c.path().size() >= path.size() && c.path().subList(0, path.size()).equals(path)) {
          selected[c.index()] = true;
          found = true;
        }
      }
      if (!found) {
        throw new IllegalArgumentException(
            "no column " + String.join(".", path) + " in " + fileSchema.name());
      }
    }
    return new Projection(fileSchema, selected);
  }

  /**
   * The columns of {@code requested}, a schema shaped like (a part of) the file's.
   *
   * @throws IllegalArgumentException for a requested column the file does not have with the same
   *     physical type
   */
  public static Projection of(MessageType fileSchema, MessageType requested) {
    boolean[] selected = new boolean[fileSchema.columns().size()];
    for (ColumnDescriptor want : requested.columns()) {
      ColumnDescriptor match = null;
      for (ColumnDescriptor c : fileSchema.columns()) {
        if (c.path().equals(want.path())) {
          match = c;
          break;
        }
      }
      if (match == null || match.primitive().type() != want.primitive().type()) {
        throw new IllegalArgumentException("the file has no column " + want);
      }
      selected[match.index()] = true;
    }
    return new Projection(fileSchema, selected);
  }

  /** The schema of the records read: the file's, pruned to the chosen columns. */
  public MessageType schema() {
    return schema;
  }

  public MessageType fileSchema() {
    return fileSchema;
  }

  /** The chosen columns as the file's schema describes them, in schema order. */
  public List<ColumnDescriptor> fileColumns() {
    return fileColumns;
  }

  FieldPlan[] fields() {
    return fields;
  }

  /**
   * Chooses every column of a map's key when a column of the map is chosen; returns the leaf index
   * after {@code group}'s leaves.
   */
  private static int markMapKeys(GroupNode group, int firstLeaf, boolean[] selected) {
    int next = firstLeaf;
    for (SchemaNode field : group.fields()) {
      int start = next;
      if (field instanceof GroupNode child) {
        next = markMapKeys(child, next, selected);
        NestedTypes.MapShape shape = child.isMap() ? NestedTypes.mapShape(child) : null;
        if (shape != null && anySelected(selected, start, next)) {
          // The key is the key-value group's first field: its leaves come first.
          int keyLeaves = leafCount(shape.key());
          Arrays.fill(selected, start, start + keyLeaves, true);
        }
      } else {
        next++;
      }
    }
    return next;
  }

  private static boolean anySelected(boolean[] selected, int from, int to) {
    for (int i = from; i < to; i++) {
      if (selected[i]) {
        return true;
      }
    }
    return false;
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

  /** Walks the file's schema, keeping chosen subtrees and planning their assembly. */
  private static final class Pruner {
    private final boolean[] selected;
    private int fileLeaf;
    private int projectedLeaf;

    Pruner(boolean[] selected) {
      this.selected = selected;
    }

    /** Appends the kept fields of {@code group} and their plans. */
    void prune(
        GroupNode group,
        int definition,
        int repetition,
        List<SchemaNode> keptOut,
        List<FieldPlan> plansOut) {
      for (SchemaNode field : group.fields()) {
        int def = definition + (field.isOptional() || field.isRepeated() ? 1 : 0);
        int rep = repetition + (field.isRepeated() ? 1 : 0);
        if (field instanceof PrimitiveNode leaf) {
          if (selected[fileLeaf++]) {
            keptOut.add(leaf);
            plansOut.add(FieldPlan.leaf(leaf, def, rep, projectedLeaf++));
          }
          continue;
        }
        GroupNode child = (GroupNode) field;
        List<SchemaNode> kept = new ArrayList<>();
        List<FieldPlan> plans = new ArrayList<>();
        prune(child, def, rep, kept, plans);
        if (kept.isEmpty()) {
          continue;
        }
        GroupNode pruned =
            new GroupNode(
                child.name(),
                child.repetition(),
                kept,
                child.logicalType(),
                child.convertedType(),
                child.fieldId());
        keptOut.add(pruned);
        plansOut.add(plan(child, pruned, def, rep, plans));
      }
    }

    private static FieldPlan plan(
        GroupNode file, GroupNode pruned, int def, int rep, List<FieldPlan> plans) {
      FieldPlan[] children = plans.toArray(new FieldPlan[0]);
      if (file.isList()) {
        NestedTypes.ListShape shape = NestedTypes.listShape(file);
        if (shape != null) {
          return FieldPlan.list(pruned, def, rep, children[0], shape.twoLevel());
        }
      }
      if (file.isMap()) {
        NestedTypes.MapShape shape = NestedTypes.mapShape(file);
        if (shape != null) {
          FieldPlan keyValue = children[0];
          return FieldPlan.map(
              pruned,
              def,
              rep,
              keyValue,
              indexOf(keyValue, shape.key()),
              indexOf(keyValue, shape.value()));
        }
      }
      return FieldPlan.struct(pruned, def, rep, children);
    }

    /** Position among the key-value group's kept children of the field named like {@code node}. */
    private static int indexOf(FieldPlan keyValue, SchemaNode node) {
      if (node == null) {
        return -1;
      }
      for (int i = 0; i < keyValue.children.length; i++) {
        if (keyValue.children[i].node.name().equals(node.name())) {
          return i;
        }
      }
      return -1;
    }
  }
}
