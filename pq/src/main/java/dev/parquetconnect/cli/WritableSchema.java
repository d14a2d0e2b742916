package dev.parquetconnect.cli;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A read schema made fit to be written back: names, repetition, physical types, logical and
 * converted types and field ids are kept, except a logical type this reader did not understand
 * ({@link LogicalType.Unrecognized}): its content was skipped when the footer was read, so it
 * cannot be written again. Such a column keeps its converted type, if any, and its values, which
 * the reader already treats as plain physical values; the caller warns about it.
 */
final class WritableSchema {
  private final MessageType schema;
  private final List<String> droppedAnnotations;

  private WritableSchema(MessageType schema, List<String> droppedAnnotations) {
    this.schema = schema;
    this.droppedAnnotations = droppedAnnotations;
  }

  static WritableSchema of(MessageType read) {
    List<String> dropped = new ArrayList<>();
    List<SchemaNode> fields = new ArrayList<>();
    for (SchemaNode field : read.fields()) {
      fields.add(writable(field, "", dropped));
    }
    MessageType schema = dropped.isEmpty() ? read : new MessageType(read.name(), fields);
    return new WritableSchema(schema, List.copyOf(dropped));
  }

  private static SchemaNode writable(SchemaNode node, String parent, List<String> dropped) {
    String path = parent + node.name();
    LogicalType logical = node.logicalType();
    if (logical instanceof LogicalType.Unrecognized u) {
      dropped.add(path + " (logical type id " + u.fieldId() + ")");
      logical = null;
    }
    if (node instanceof PrimitiveNode leaf) {
      return new PrimitiveNode(
          leaf.name(),
          leaf.repetition(),
          leaf.type(),
          leaf.typeLength(),
          logical,
          leaf.convertedType(),
          leaf.fieldId());
    }
    GroupNode group = (GroupNode) node;
    List<SchemaNode> children = new ArrayList<>(group.fieldCount());
    for (SchemaNode child : group.fields()) {
      children.add(writable(child, path + ".", dropped));
    }
    return new GroupNode(
        group.name(),
        group.repetition(),
        children,
        logical,
        group.convertedType(),
        group.fieldId());
  }

  /** The schema to write. */
  MessageType schema() {
    return schema;
  }

  /** The columns whose unknown annotation is not written, with the annotation's id. */
  List<String> droppedAnnotations() {
    return droppedAnnotations;
  }
}
