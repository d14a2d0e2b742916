package dev.parquetconnect.format.schema;

import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import java.util.Objects;

/**
 * A leaf of the schema: one column of a physical type, optionally annotated.
 *
 * @param typeLength the byte length of a FIXED_LEN_BYTE_ARRAY (0 for every other type)
 */
public record PrimitiveNode(
    String name,
    FieldRepetitionType repetition,
    PhysicalType type,
    int typeLength,
    LogicalType logicalType,
    ConvertedType convertedType,
    Integer fieldId)
    implements SchemaNode {

  public PrimitiveNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(repetition, "repetition");
    Objects.requireNonNull(type, "type");
    if (type == PhysicalType.FIXED_LEN_BYTE_ARRAY ? typeLength <= 0 : typeLength != 0) {
      throw new IllegalArgumentException(
          "column " + name + ": type length " + typeLength + " does not fit " + type);
    }
  }

  /** An unannotated column. */
  public static PrimitiveNode of(String name, FieldRepetitionType repetition, PhysicalType type) {
    return new PrimitiveNode(name, repetition, type, 0, null, null, null);
  }

  /** An unannotated FIXED_LEN_BYTE_ARRAY column of {@code length} bytes. */
  public static PrimitiveNode fixed(String name, FieldRepetitionType repetition, int length) {
    return new PrimitiveNode(
        name, repetition, PhysicalType.FIXED_LEN_BYTE_ARRAY, length, null, null, null);
  }

  /**
   * The same column annotated with {@code type}, the matching converted type set for old readers;
   * throws {@link IllegalArgumentException} when the annotation does not fit the physical type (a
   * writer must not produce such a file).
   */
  public PrimitiveNode withLogicalType(LogicalType type) {
    LogicalTypes.checkApplicable(type, this.type, typeLength, name);
    return new PrimitiveNode(
        name,
        repetition,
        this.type,
        typeLength,
        type,
        LogicalTypes.convertedTypeFor(type),
        fieldId);
  }

  public PrimitiveNode withFieldId(Integer id) {
    return new PrimitiveNode(name, repetition, type, typeLength, logicalType, convertedType, id);
  }

  @Override
  public PrimitiveNode withName(String newName) {
    return new PrimitiveNode(
        newName, repetition, type, typeLength, logicalType, convertedType, fieldId);
  }

  @Override
  public PrimitiveNode withRepetition(FieldRepetitionType newRepetition) {
    return new PrimitiveNode(
        name, newRepetition, type, typeLength, logicalType, convertedType, fieldId);
  }

  /** The order min/max statistics of this column follow. */
  public SortOrder sortOrder() {
    return LogicalTypes.sortOrder(this);
  }
}
