package dev.parquetconnect.format.schema;

import java.util.List;

/**
 * One column (leaf) of a message type, with the levels its values carry.
 *
 * @param path the field names from the root's child down to the leaf
 * @param maxDefinitionLevel the number of optional or repeated fields on the path
 * @param maxRepetitionLevel the number of repeated fields on the path
 * @param index the column's position among the leaves, depth-first
 */
public record ColumnDescriptor(
    List<String> path,
    int maxDefinitionLevel,
    int maxRepetitionLevel,
    PrimitiveNode primitive,
    int index) {

  public ColumnDescriptor {
    path = List.copyOf(path);
  }

  /** The path joined with dots, as tools and error messages show it. */
  public String dottedPath() {
    return String.join(".", path);
  }

  @Override
  public String toString() {
    return dottedPath()
        + " "
        + primitive.type()
        + " R"
        + maxRepetitionLevel
        + " D"
        + maxDefinitionLevel;
  }
}
