package dev.parquetconnect.format.read;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REPEATED;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.TimeUnit;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A schema with every physical type, every logical type (UNKNOWN as an all-null column) and every
 * kind of nesting (struct, list, list of structs, map of lists, three levels of nesting,
 * unannotated repeated fields), and random rows for it, with nulls, empty lists and null elements,
 * generated from a seed.
 */
final class ReadTestData {
  private ReadTestData() {}

  static MessageType schema() {
    List<SchemaNode> fields = new ArrayList<>();
    fields.add(PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64));
    fields.add(opt("flag", PhysicalType.BOOLEAN));
    fields.add(opt("i32", PhysicalType.INT32));
    fields.add(opt("i64", PhysicalType.INT64));
    fields.add(opt("f32", PhysicalType.FLOAT));
    fields.add(opt("f64", PhysicalType.DOUBLE));
    fields.add(opt("bin", PhysicalType.BYTE_ARRAY));
    fields.add(PrimitiveNode.fixed("fixed5", OPTIONAL, 5));
    fields.add(opt("ts96", PhysicalType.INT96));
    fields.add(opt("str", PhysicalType.BYTE_ARRAY).withLogicalType(LogicalType.STRING));
    fields.add(opt("enm", PhysicalType.BYTE_ARRAY).withLogicalType(LogicalType.ENUM));
    fields.add(PrimitiveNode.fixed("uuid", OPTIONAL, 16).withLogicalType(LogicalType.UUID));
    fields.add(opt("json", PhysicalType.BYTE_ARRAY).withLogicalType(LogicalType.JSON));
    fields.add(opt("bson", PhysicalType.BYTE_ARRAY).withLogicalType(LogicalType.BSON));
    fields.add(opt("dec32", PhysicalType.INT32).withLogicalType(new LogicalType.DecimalType(2, 9)));
    fields.add(
        opt("dec64", PhysicalType.INT64).withLogicalType(new LogicalType.DecimalType(3, 18)));
    fields.add(
        PrimitiveNode.fixed("decfixed", OPTIONAL, 10)
            .withLogicalType(new LogicalType.DecimalType(4, 20)));
    fields.add(
        opt("decbin", PhysicalType.BYTE_ARRAY).withLogicalType(new LogicalType.DecimalType(5, 30)));
    fields.add(opt("date", PhysicalType.INT32).withLogicalType(LogicalType.DATE));
    fields.add(
        opt("time_ms", PhysicalType.INT32)
            .withLogicalType(new LogicalType.TimeType(true, TimeUnit.MILLIS)));
    fields.add(
        opt("time_us", PhysicalType.INT64)
            .withLogicalType(new LogicalType.TimeType(false, TimeUnit.MICROS)));
    fields.add(
        opt("time_ns", PhysicalType.INT64)
            .withLogicalType(new LogicalType.TimeType(true, TimeUnit.NANOS)));
    fields.add(
        opt("ts_ms", PhysicalType.INT64)
            .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.MILLIS)));
    fields.add(
        opt("ts_us", PhysicalType.INT64)
            .withLogicalType(new LogicalType.TimestampType(false, TimeUnit.MICROS)));
    fields.add(
        opt("ts_ns", PhysicalType.INT64)
            .withLogicalType(new LogicalType.TimestampType(true, TimeUnit.NANOS)));
    fields.add(intType("i8", PhysicalType.INT32, 8, true));
    fields.add(intType("u8", PhysicalType.INT32, 8, false));
    fields.add(intType("i16", PhysicalType.INT32, 16, true));
    fields.add(intType("u16", PhysicalType.INT32, 16, false));
    fields.add(intType("i32s", PhysicalType.INT32, 32, true));
    fields.add(intType("u32", PhysicalType.INT32, 32, false));
    fields.add(intType("i64s", PhysicalType.INT64, 64, true));
    fields.add(intType("u64", PhysicalType.INT64, 64, false));
    fields.add(opt("unknown", PhysicalType.INT32).withLogicalType(LogicalType.UNKNOWN));
    fields.add(PrimitiveNode.fixed("f16", OPTIONAL, 2).withLogicalType(LogicalType.FLOAT16));
    fields.add(
        GroupNode.of(
            "s",
            OPTIONAL,
            List.of(
                PrimitiveNode.of("a", REQUIRED, PhysicalType.INT32),
                opt("b", PhysicalType.BYTE_ARRAY).withLogicalType(LogicalType.STRING))));
    fields.add(NestedTypes.list("l", OPTIONAL, opt("e", PhysicalType.INT32)));
    fields.add(
        NestedTypes.list(
            "ls",
            OPTIONAL,
            GroupNode.of(
                "e",
                OPTIONAL,
                List.of(
                    opt("x", PhysicalType.INT64),
                    opt("y", PhysicalType.BYTE_ARRAY).withLogicalType(LogicalType.STRING)))));
    fields.add(
        NestedTypes.map(
            "m",
            OPTIONAL,
            PrimitiveNode.of("k", REQUIRED, PhysicalType.BYTE_ARRAY)
                .withLogicalType(LogicalType.STRING),
            NestedTypes.list("v", OPTIONAL, PrimitiveNode.of("e", REQUIRED, PhysicalType.INT32))));
    // Three levels: a list of structs holding a list of structs holding a map.
    GroupNode inner =
        GroupNode.of(
            "e",
            OPTIONAL,
            List.of(
                NestedTypes.map(
                    "m3",
                    OPTIONAL,
                    PrimitiveNode.of("k", REQUIRED, PhysicalType.INT32),
                    opt("v", PhysicalType.DOUBLE))));
    GroupNode middle =
        GroupNode.of("e", OPTIONAL, List.of(NestedTypes.list("l2", OPTIONAL, inner)));
    fields.add(GroupNode.of("deep", OPTIONAL, List.of(NestedTypes.list("l1", OPTIONAL, middle))));
    fields.add(PrimitiveNode.of("rep_prim", REPEATED, PhysicalType.INT32));
    fields.add(
        GroupNode.of(
            "rep_group",
            REPEATED,
            List.of(
                PrimitiveNode.of("p", REQUIRED, PhysicalType.INT32),
                opt("q", PhysicalType.BYTE_ARRAY))));
    fields.add(
        GroupNode.of(
            "req",
            REQUIRED,
            List.of(
                PrimitiveNode.of("r1", REQUIRED, PhysicalType.INT32),
                PrimitiveNode.of("r2", REPEATED, PhysicalType.BYTE_ARRAY))));
    return new MessageType("everything", fields);
  }

  private static PrimitiveNode opt(String name, PhysicalType type) {
    return PrimitiveNode.of(name, OPTIONAL, type);
  }

  private static PrimitiveNode intType(String name, PhysicalType type, int bits, boolean signed) {
    return opt(name, type).withLogicalType(new LogicalType.IntType((byte) bits, signed));
  }

  /** {@code count} rows of {@link #schema()}; rows repeat values often enough for dictionaries. */
  static List<Row> rows(MessageType schema, int count, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Row> rows = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      rows.add(row(schema.root(), i, random));
    }
    return rows;
  }

  private static Row row(GroupNode root, long id, SplittableRandom r) {
    Row row = new Row(root);
    row.set(0, id);
    for (int f = 1; f < root.fieldCount(); f++) {
      row.set(f, field(root.field(f), r, 0));
    }
    return row;
  }

  private static Object field(SchemaNode node, SplittableRandom r, int depth) {
    if (node.isRepeated()) {
      int n = r.nextInt(4);
      List<Object> values = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        values.add(instance(node, r, depth));
      }
      return values;
    }
    if (node.isOptional() && (r.nextInt(6) == 0 || node.logicalType() == LogicalType.UNKNOWN)) {
      return null; // an UNKNOWN column only ever holds nulls
    }
    return instance(node, r, depth);
  }

  private static Object instance(SchemaNode node, SplittableRandom r, int depth) {
    if (node instanceof PrimitiveNode leaf) {
      return value(leaf, r);
    }
    GroupNode group = (GroupNode) node;
    if (group.isList()) {
      NestedTypes.ListShape shape = NestedTypes.listShape(group);
      int n = r.nextInt(5);
      List<Object> list = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        list.add(field(shape.element(), r, depth + 1));
      }
      return list;
    }
    if (group.isMap()) {
      NestedTypes.MapShape shape = NestedTypes.mapShape(group);
      int n = r.nextInt(4);
      Map<Object, Object> map = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        // Distinct keys: a map has no duplicate keys, and byte[] keys compare by identity.
        Object key =
            ((PrimitiveNode) shape.key()).type() == PhysicalType.INT32
                ? (Object) (i * 7 + r.nextInt(7))
                : ("key" + i).getBytes(StandardCharsets.UTF_8);
        map.put(key, field(shape.value(), r, depth + 1));
      }
      return map;
    }
    Row row = new Row(group);
    for (int f = 0; f < group.fieldCount(); f++) {
      row.set(f, field(group.field(f), r, depth + 1));
    }
    return row;
  }

  private static Object value(PrimitiveNode leaf, SplittableRandom r) {
    // A small pool of values per column keeps dictionaries useful; rare outliers break runs.
    int pick = r.nextInt(40);
    return switch (leaf.type()) {
      case BOOLEAN -> pick % 2 == 0;
      case INT32 ->
          leaf.logicalType() instanceof LogicalType.IntType t && t.bitWidth() < 32
              ? pick * (t.signed() ? -3 : 3)
              : (r.nextInt(10) == 0 ? r.nextInt() : pick * 1000 - 7);
      case INT64 -> r.nextInt(10) == 0 ? r.nextLong() : pick * 1_000_000_007L;
      case FLOAT -> r.nextInt(50) == 0 ? Float.NaN : pick * 0.25f - 3;
      case DOUBLE -> r.nextInt(50) == 0 ? -0.0 : pick * 1.5e10 + 0.125;
      case INT96, FIXED_LEN_BYTE_ARRAY -> {
        int length = leaf.type() == PhysicalType.INT96 ? 12 : leaf.typeLength();
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
          b[i] = (byte) (pick * 31 + i * (pick % 5));
        }
        yield b;
      }
      case BYTE_ARRAY -> {
        int length = r.nextInt(10) == 0 ? 200 + r.nextInt(300) : pick % 12;
        StringBuilder s = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
          s.append((char) ('a' + (pick + i) % 26));
        }
        yield s.toString().getBytes(StandardCharsets.UTF_8);
      }
    };
  }
}
