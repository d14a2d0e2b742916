package dev.parquetconnect.format.schema;

import java.util.Locale;

/** Prints a schema in the text form parquet-java, DuckDB and pq use. */
final class SchemaPrinter {
  private SchemaPrinter() {}

  static String print(MessageType schema) {
    StringBuilder out = new StringBuilder("message ").append(schema.name()).append(" {\n");
    for (SchemaNode field : schema.fields()) {
      print(field, "  ", out);
    }
    return out.append("}\n").toString();
  }

  private static void print(SchemaNode node, String indent, StringBuilder out) {
    out.append(indent).append(node.repetition().name().toLowerCase(Locale.ROOT)).append(' ');
    if (node instanceof PrimitiveNode leaf) {
      out.append(LogicalTypes.physicalName(leaf.type(), leaf.typeLength()));
    } else {
      out.append("group");
    }
    out.append(' ').append(node.name());
    if (node.logicalType() != null) {
      out.append(" (").append(LogicalTypes.logicalTypeName(node.logicalType())).append(')');
    } else if (node.convertedType() != null) {
      out.append(" (").append(node.convertedType().name()).append(')');
    }
    if (node.fieldId() != null) {
      out.append(" = ").append(node.fieldId());
    }
    if (node instanceof GroupNode group) {
      out.append(" {\n");
      for (SchemaNode field : group.fields()) {
        print(field, indent + "  ", out);
      }
      out.append(indent).append("}\n");
    } else {
      out.append(";\n");
    }
  }
}
