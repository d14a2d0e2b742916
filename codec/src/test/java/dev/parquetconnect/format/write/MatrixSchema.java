package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REPEATED;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer matrix's schema: every physical and logical type, each required, optional and repeated
 * at the top level, and again inside a struct, a list of structs, a map of lists of structs, three
 * nested lists, the legacy two-level list layouts and a repeated group.
 */
final class MatrixSchema {
  private MatrixSchema() {}

  /** Every leaf type of the matrix, as a required column named after it. */
  static List<PrimitiveNode> leafTypes() {
    List<PrimitiveNode> t = new ArrayList<>();
    t.add(leaf("bool", PhysicalType.BOOLEAN, null));
    t.add(leaf("i32", PhysicalType.INT32, null));
    t.add(leaf("i64", PhysicalType.INT64, null));
    t.add(leaf("i96", PhysicalType.INT96, null));
    t.add(leaf("f32", PhysicalType.FLOAT, null));
    t.add(leaf("f64", PhysicalType.DOUBLE, null));
    t.add(leaf("bin", PhysicalType.BYTE_ARRAY, null));
    t.add(PrimitiveNode.fixed("fixed5", REQUIRED, 5));
    t.add(leaf("str", PhysicalType.BYTE_ARRAY, LogicalType.STRING));
    t.add(leaf("enm", PhysicalType.BYTE_ARRAY, LogicalType.ENUM));
    t.add(PrimitiveNode.fixed("uuid", REQUIRED, 16).withLogicalType(LogicalType.UUID));
    t.add(leaf("json", PhysicalType.BYTE_ARRAY, LogicalType.JSON));
    t.add(leaf("dec_i32", PhysicalType.INT32, new LogicalType.DecimalType(2, 9)));
    t.add(leaf("dec_i64", PhysicalType.INT64, new LogicalType.DecimalType(4, 18)));
    t.add(
        PrimitiveNode.fixed("dec_fixed", REQUIRED, 13)
            .withLogicalType(new LogicalType.DecimalType(6, 30)));
    t.add(leaf("dec_bin", PhysicalType.BYTE_ARRAY, new LogicalType.DecimalType(10, 38)));
    t.add(leaf("date", PhysicalType.INT32, LogicalType.DATE));
    for (boolean utc : new boolean[] {true, false}) {
      String zone = utc ? "utc" : "local";
      t.add(
          leaf(
              "time_ms_" + zone,
              PhysicalType.INT32,
              new LogicalType.TimeType(utc, TimeUnit.MILLIS)));
      t.add(
          leaf(
              "time_us_" + zone,
              PhysicalType.INT64,
              new LogicalType.TimeType(utc, TimeUnit.MICROS)));
      t.add(
          leaf(
              "time_ns_" + zone,
              PhysicalType.INT64,
              new LogicalType.TimeType(utc, TimeUnit.NANOS)));
      for (TimeUnit unit : TimeUnit.values()) {
        t.add(
            leaf(
                "ts_" + unit.name().toLowerCase() + "_" + zone,
                PhysicalType.INT64,
                new LogicalType.TimestampType(utc, unit)));
      }
    }
    for (int width : new int[] {8, 16, 32, 64}) {
      for (boolean signed : new boolean[] {true, false}) {
        t.add(
            leaf(
                (signed ? "int" : "uint") + width,
                width == 64 ? PhysicalType.INT64 : PhysicalType.INT32,
                new LogicalType.IntType((byte) width, signed)));
      }
    }
    t.add(PrimitiveNode.fixed("f16", REQUIRED, 2).withLogicalType(LogicalType.FLOAT16));
    return t;
  }

  /** UNKNOWN: a column that only ever holds nulls, so only optional. */
  static PrimitiveNode unknown() {
    return leaf("unknown", PhysicalType.INT32, LogicalType.UNKNOWN).withRepetition(OPTIONAL);
  }

  /** BSON, which DuckDB refuses to open, so it has its own schema. */
  static PrimitiveNode bson() {
    return leaf("bson", PhysicalType.BYTE_ARRAY, LogicalType.BSON);
  }

  private static PrimitiveNode leaf(String name, PhysicalType type, LogicalType logical) {
    PrimitiveNode node = PrimitiveNode.of(name, REQUIRED, type);
    return logical == null ? node : node.withLogicalType(logical);
  }

  /** The full matrix over {@code types} (plus UNKNOWN when {@code withUnknown}). */
  static MessageType build(List<PrimitiveNode> types, boolean withUnknown) {
    List<SchemaNode> top = new ArrayList<>();
    for (PrimitiveNode t : types) {
      top.add(t.withName("r_" + t.name()));
      top.add(t.withName("o_" + t.name()).withRepetition(OPTIONAL));
      top.add(t.withName("p_" + t.name()).withRepetition(REPEATED));
    }
    if (withUnknown) {
      top.add(unknown());
    }
    List<SchemaNode> structFields = new ArrayList<>();
    for (PrimitiveNode t : types) {
      structFields.add(t.withName("r_" + t.name()));
      structFields.add(t.withName("o_" + t.name()).withRepetition(OPTIONAL));
    }
    if (withUnknown) {
      structFields.add(unknown());
    }
    top.add(GroupNode.of("st", OPTIONAL, structFields));
    top.add(NestedTypes.list("los", OPTIONAL, optionalStruct("element", types, withUnknown)));
    top.add(
        NestedTypes.map(
            "mol",
            OPTIONAL,
            PrimitiveNode.of("key", REQUIRED, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            NestedTypes.list("value", OPTIONAL, optionalStruct("element", types, withUnknown))));
    // Three levels of lists: list<list<list<struct>>>, the middle list's elements required.
    top.add(
        NestedTypes.list(
            "deep",
            OPTIONAL,
            NestedTypes.list(
                "element",
                OPTIONAL,
                NestedTypes.list(
                    "element", REQUIRED, optionalStruct("element", types, withUnknown)))));
    // Legacy two-level lists: a repeated group named "array" is the element (a struct), and a
    // repeated primitive is the element.
    top.add(
        GroupNode.of(
                "legacy_structs",
                OPTIONAL,
                List.of(GroupNode.of("array", REPEATED, optionalFields(types, withUnknown))))
            .withLogicalType(LogicalType.LIST));
    top.add(
        GroupNode.of(
                "legacy_ints",
                OPTIONAL,
                List.of(PrimitiveNode.of("element", REPEATED, PhysicalType.INT32)))
            .withLogicalType(LogicalType.LIST));
    top.add(GroupNode.of("rep_struct", REPEATED, optionalFields(types, withUnknown)));
    return new MessageType("matrix", top);
  }

  private static GroupNode optionalStruct(
      String name, List<PrimitiveNode> types, boolean withUnknown) {
    return GroupNode.of(name, OPTIONAL, optionalFields(types, withUnknown));
  }

  private static List<SchemaNode> optionalFields(List<PrimitiveNode> types, boolean withUnknown) {
    List<SchemaNode> fields = new ArrayList<>();
    for (PrimitiveNode t : types) {
      fields.add(t.withRepetition(FieldRepetitionType.OPTIONAL));
    }
    if (withUnknown) {
      fields.add(unknown());
    }
    return fields;
  }
}
