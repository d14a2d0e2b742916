package dev.parquetconnect.format.read;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REPEATED;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.io.LocalFileInput;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.ColumnDescriptor;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Column projection: which columns are chosen, the pruned schema, and the rows read. */
class ProjectionTest {
  private static final MessageType SCHEMA = ReadTestData.schema();

  @TempDir Path dir;

  @Test
  void choosingAMapValueAlsoChoosesItsKey() {
    Projection p = Projection.ofColumns(SCHEMA, List.of("m.key_value.value"));
    assertEquals(
        List.of("m.key_value.key", "m.key_value.value.list.element"),
        p.fileColumns().stream().map(ColumnDescriptor::dottedPath).toList());
    Projection deep =
        Projection.ofColumns(
            SCHEMA, List.of("deep.l1.list.element.l2.list.element.m3.key_value.value"));
    assertEquals(2, deep.fileColumns().size());
  }

  @Test
  void pathsAsListsAndRequestedSchemas() {
    Projection byList = Projection.ofPaths(SCHEMA, List.of(List.of("s"), List.of("rep_prim")));
    assertEquals(
        List.of("s.a", "s.b", "rep_prim"),
        byList.fileColumns().stream().map(ColumnDescriptor::dottedPath).toList());
    Projection bySchema = Projection.of(SCHEMA, byList.schema());
    assertEquals(byList.schema(), bySchema.schema());
    assertEquals(byList.fileColumns(), bySchema.fileColumns());
    assertThrows(
        IllegalArgumentException.class, () -> Projection.ofColumns(SCHEMA, List.of("no_such")));
    assertThrows(
        IllegalArgumentException.class,
        () -> Projection.ofPaths(SCHEMA, List.of(List.of("s", "zz"))));
    MessageType wrongType =
        new MessageType("x", List.of(PrimitiveNode.of("id", REQUIRED, PhysicalType.INT32)));
    assertThrows(IllegalArgumentException.class, () -> Projection.of(SCHEMA, wrongType));
  }

  @Test
  void emptyProjectionYieldsEmptyRows() throws Exception {
    Path file = dir.resolve("empty.parquet");
    List<Row> rows = ReadTestData.rows(SCHEMA, 10, 3);
    ParquetJavaOracle.write(file, SCHEMA, rows, ParquetJavaOracle.WriteOptions.defaults());
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader none = reader.rowReader(reader.projection(List.of()))) {
      int n = 0;
      while (none.hasNext()) {
        assertEquals(0, none.next().size());
        n++;
      }
      assertEquals(10, n);
    }
  }

  /** A two-level list of structs keeps its struct elements when only one field is chosen. */
  @Test
  void twoLevelListsStayListsOfStructsWhenPruned() throws Exception {
    GroupNode point =
        GroupNode.of(
            "pt",
            REPEATED,
            List.of(
                PrimitiveNode.of("x", REQUIRED, PhysicalType.INT32),
                PrimitiveNode.of("y", REQUIRED, PhysicalType.INT32)));
    GroupNode points =
        GroupNode.of("pts", OPTIONAL, List.of(point)).withLogicalType(LogicalType.LIST);
    MessageType schema = new MessageType("m", List.of(points));
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      List<Object> list = new ArrayList<>();
      for (int j = 0; j < i % 4; j++) {
        list.add(Row.of(point, i, j));
      }
      rows.add(Row.of(schema.root(), i % 5 == 0 ? null : list));
    }
    Path file = dir.resolve("two-level.parquet");
    ParquetJavaOracle.write(file, schema, rows, ParquetJavaOracle.WriteOptions.defaults());
    assertEquals(rows, ReadAssertions.readAll(file));
    try (ParquetFileReader reader = ParquetFileReader.open(new LocalFileInput(file));
        RowReader xs = reader.rowReader(reader.projection(List.of("pts.pt.x")))) {
      GroupNode prunedPoint = (GroupNode) ((GroupNode) xs.schema().root().field(0)).field(0);
      assertEquals(1, prunedPoint.fieldCount());
      for (Row expected : rows) {
        Row actual = xs.next();
        assertEquals(prune(expected, xs.schema().root()), actual);
        if (actual.get(0) instanceof List<?> list && !list.isEmpty()) {
          assertTrue(list.get(0) instanceof Row, "elements stay structs: " + actual);
        }
      }
    }
  }

  /** {@code full} cut down to the fields of {@code projected}, a pruned copy of its type. */
  static Row prune(Row full, GroupNode projected) {
    Row out = new Row(projected);
    for (int i = 0; i < projected.fieldCount(); i++) {
      SchemaNode node = projected.field(i);
      int at = full.type().fieldIndex(node.name());
      SchemaNode fullNode = full.type().field(at);
      Object value = full.get(at);
      if (node.isRepeated() && value instanceof List<?> list) {
        List<Object> pruned = new ArrayList<>();
        for (Object e : list) {
          pruned.add(pruneInstance(e, fullNode, node));
        }
        out.set(i, pruned);
      } else {
        out.set(i, pruneInstance(value, fullNode, node));
      }
    }
    return out;
  }

  private static Object pruneInstance(Object value, SchemaNode full, SchemaNode projected) {
    if (value == null || projected instanceof PrimitiveNode) {
      return value;
    }
    GroupNode group = (GroupNode) projected;
    GroupNode fullGroup = (GroupNode) full;
    if (value instanceof Row row) {
      return prune(row, group);
    }
    if (value instanceof List<?> list) {
      NestedTypes.ListShape fullShape = NestedTypes.listShape(fullGroup);
      SchemaNode fullElement = fullShape.element();
      SchemaNode element =
          fullShape.twoLevel() ? group.field(0) : ((GroupNode) group.field(0)).field(0);
      List<Object> out = new ArrayList<>();
      for (Object e : list) {
        out.add(pruneInstance(e, fullElement, element));
      }
      return out;
    }
    Map<?, ?> map = (Map<?, ?>) value;
    NestedTypes.MapShape fullShape = NestedTypes.mapShape(fullGroup);
    GroupNode keyValue = (GroupNode) group.field(0);
    int valueAt = fullShape.value() == null ? -1 : keyValue.fieldIndex(fullShape.value().name());
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      out.put(
          e.getKey(),
          valueAt < 0
              ? null
              : pruneInstance(e.getValue(), fullShape.value(), keyValue.field(valueAt)));
    }
    return out;
  }
}
