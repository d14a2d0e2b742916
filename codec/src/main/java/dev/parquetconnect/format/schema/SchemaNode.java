package dev.parquetconnect.format.schema;

import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;

/**
 * A node of a Parquet schema tree: a {@link PrimitiveNode} (a leaf, one column) or a {@link
 * GroupNode}. Nodes are immutable values; the tree is assembled bottom-up.
 */
public sealed interface SchemaNode permits PrimitiveNode, GroupNode {
  String name();

  FieldRepetitionType repetition();

  /** The annotation, or null. Read files that only carry a converted type get it derived. */
  LogicalType logicalType();

  /** The legacy annotation written beside the logical type for old readers, or null. */
  ConvertedType convertedType();

  /** The field id (Iceberg and others use it to track columns across renames), or null. */
  Integer fieldId();

  /** The same node under another name. */
  SchemaNode withName(String newName);

  /** The same node with another repetition. */
  SchemaNode withRepetition(FieldRepetitionType newRepetition);

  default boolean isRepeated() {
    return repetition() == FieldRepetitionType.REPEATED;
  }

  default boolean isOptional() {
    return repetition() == FieldRepetitionType.OPTIONAL;
  }
}
