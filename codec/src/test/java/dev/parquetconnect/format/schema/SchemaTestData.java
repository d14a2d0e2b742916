package dev.parquetconnect.format.schema;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REPEATED;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import java.util.List;

/** A schema with every kind of nesting, shared by tests of several packages. */
public final class SchemaTestData {
  private SchemaTestData() {}

  /**
   * Fields: id, name (STRING), price (DECIMAL on INT32), uuid, at (TIMESTAMP micros), tags (LIST of
   * optional STRING), attrs (MAP of STRING to LIST of INT32), address (struct with a repeated group
   * geo { optional double lat }).
   */
  public static MessageType sample() {
    return new MessageType(
        "schema",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            PrimitiveNode.of("name", OPTIONAL, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            PrimitiveNode.of("price", OPTIONAL, PhysicalType.INT32)
                .withLogicalType(new LogicalType.DecimalType(2, 9)),
            PrimitiveNode.fixed("uuid", OPTIONAL, 16).withLogicalType(LogicalType.UUID),
            PrimitiveNode.of("at", REQUIRED, PhysicalType.INT64)
                .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MICROS)),
            NestedTypes.list(
                "tags",
                OPTIONAL,
                PrimitiveNode.of("x", OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING)),
            NestedTypes.map(
                "attrs",
                OPTIONAL,
                PrimitiveNode.of("k", REQUIRED, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING),
                NestedTypes.list(
                    "v", OPTIONAL, PrimitiveNode.of("e", REQUIRED, PhysicalType.INT32))),
            GroupNode.of(
                "address",
                OPTIONAL,
                List.of(
                    PrimitiveNode.of("zip", REQUIRED, PhysicalType.INT32),
                    GroupNode.of(
                        "geo",
                        REPEATED,
                        List.of(PrimitiveNode.of("lat", OPTIONAL, PhysicalType.DOUBLE)))))));
  }
}
