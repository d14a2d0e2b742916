package dev.parquetconnect.format.meta;

import java.util.Objects;

/**
 * Thrift struct {@code SchemaElement}: one node of the depth-first flattened schema tree. Only
 * {@code name} is required; the rest is null when absent. Leaves have a {@code type}; groups have
 * {@code numChildren}.
 */
public record SchemaElement(
    PhysicalType type,
    Integer typeLength,
    FieldRepetitionType repetitionType,
    String name,
    Integer numChildren,
    ConvertedType convertedType,
    Integer scale,
    Integer precision,
    Integer fieldId,
    LogicalType logicalType) {

  public SchemaElement {
    Objects.requireNonNull(name, "name");
  }
}
