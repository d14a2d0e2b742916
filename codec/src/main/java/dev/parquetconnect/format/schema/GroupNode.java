package dev.parquetconnect.format.schema;

import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import java.util.List;
import java.util.Objects;

/** A group of fields: a struct, or the LIST/MAP layouts built from groups. */
public record GroupNode(
    String name,
    FieldRepetitionType repetition,
    List<SchemaNode> fields,
    LogicalType logicalType,
    ConvertedType convertedType,
    Integer fieldId)
    implements SchemaNode {

  public GroupNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(repetition, "repetition");
    fields = List.copyOf(fields);
  }

  /** An unannotated group (a struct). */
  public static GroupNode of(String name, FieldRepetitionType repetition, List<SchemaNode> fields) {
    return new GroupNode(name, repetition, fields, null, null, null);
  }

  /** The same group annotated (LIST or MAP), with the matching converted type. */
  public GroupNode withLogicalType(LogicalType type) {
    return new GroupNode(
        name, repetition, fields, type, LogicalTypes.convertedTypeFor(type), fieldId);
  }

  public GroupNode withFieldId(Integer id) {
    return new GroupNode(name, repetition, fields, logicalType, convertedType, id);
  }

  @Override
  public GroupNode withName(String newName) {
    return new GroupNode(newName, repetition, fields, logicalType, convertedType, fieldId);
  }

  @Override
  public GroupNode withRepetition(FieldRepetitionType newRepetition) {
    return new GroupNode(name, newRepetition, fields, logicalType, convertedType, fieldId);
  }

  public int fieldCount() {
    return fields.size();
  }

  public SchemaNode field(int i) {
    return fields.get(i);
  }

  /** The index of the field named {@code fieldName}, or -1. */
  public int fieldIndex(String fieldName) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(fieldName)) {
        return i;
      }
    }
    return -1;
  }

  /** Whether this group is annotated LIST (logical or converted type). */
  public boolean isList() {
    return logicalType instanceof LogicalType.ListType || convertedType == ConvertedType.LIST;
  }

  /** Whether this group is annotated MAP or the legacy MAP_KEY_VALUE. */
  public boolean isMap() {
    return logicalType instanceof LogicalType.MapType
        || convertedType == ConvertedType.MAP
        || convertedType == ConvertedType.MAP_KEY_VALUE;
  }
}
