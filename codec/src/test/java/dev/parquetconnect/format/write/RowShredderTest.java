package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REPEATED;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.oracle.ParquetJavaOracle;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.Row;
import dev.parquetconnect.format.schema.SchemaTestData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shredder against parquet-java's: the same rows written by both give the same repetition
 * level, definition level and value for every entry of every column, for every nesting the matrix
 * has, a set (key-only map), and the empty, null and all-null cases.
 */
class RowShredderTest {
  @TempDir Path dir;

  private void assertSameLevelsAsParquetJava(MessageType schema, List<Row> rows) throws Exception {
    Path ours =
        WriterMatrix.write(
            dir.resolve("ours.parquet"),
            schema,
            rows,
            WriterOptions.builder().pageRowLimit(7).rowGroupRowLimit(40).build());
    Path theirs = dir.resolve("theirs.parquet");
    ParquetJavaOracle.write(theirs, schema, rows, ParquetJavaOracle.WriteOptions.defaults());
    Map<String, List<String>> expected = ParquetJavaLevels.read(theirs, schema);
    Map<String, List<String>> actual = ParquetJavaLevels.read(ours, schema);
    assertEquals(expected.keySet(), actual.keySet());
    for (String column : expected.keySet()) {
      List<String> e = expected.get(column);
      List<String> a = actual.get(column);
      for (int i = 0; i < Math.min(e.size(), a.size()); i++) {
        assertEquals(e.get(i), a.get(i), column + ", entry " + i);
      }
      assertEquals(e.size(), a.size(), column + ": entries");
    }
  }

  @Test
  void matrixRowsShredLikeParquetJava() throws Exception {
    MessageType schema = MatrixSchema.build(MatrixSchema.leafTypes(), true);
    assertSameLevelsAsParquetJava(schema, new RandomRows(4).rows(schema, 60));
  }

  @Test
  void sampleSchemaShredsLikeParquetJava() throws Exception {
    MessageType schema = SchemaTestData.sample();
    assertSameLevelsAsParquetJava(schema, new RandomRows(8, 0.1, 0.3, 0.3).rows(schema, 200));
  }

  private static MessageType edgeSchema() {
    PrimitiveNode text =
        PrimitiveNode.of("k", REQUIRED, PhysicalType.BYTE_ARRAY)
            .withLogicalType(LogicalType.STRING);
    GroupNode set =
        GroupNode.of("set", OPTIONAL, List.of(GroupNode.of("key_value", REPEATED, List.of(text))))
            .withLogicalType(LogicalType.MAP);
    return new MessageType(
        "edges",
        List.of(
            NestedTypes.list("l", OPTIONAL, PrimitiveNode.of("e", OPTIONAL, PhysicalType.INT32)),
            NestedTypes.list("req", REQUIRED, PrimitiveNode.of("e", REQUIRED, PhysicalType.INT32)),
            set,
            GroupNode.of(
                "outer",
                OPTIONAL,
                List.of(
                    GroupNode.of(
                        "inner",
                        OPTIONAL,
                        List.of(PrimitiveNode.of("x", OPTIONAL, PhysicalType.INT64))))),
            PrimitiveNode.of("r", REPEATED, PhysicalType.INT32)));
  }

  @Test
  void emptyNullAndAllNullValuesShredLikeParquetJava() throws Exception {
    MessageType schema = edgeSchema();
    GroupNode outer = (GroupNode) schema.root().field(3);
    GroupNode inner = (GroupNode) outer.field(0);
    List<Row> rows = new ArrayList<>();
    Map<Object, Object> set = new LinkedHashMap<>();
    set.put("a".getBytes(StandardCharsets.UTF_8), null);
    set.put("b".getBytes(StandardCharsets.UTF_8), null);
    rows.add(Row.of(schema.root(), null, List.of(), null, null, List.of()));
    rows.add(
        Row.of(
            schema.root(),
            List.of(),
            List.of(1),
            new LinkedHashMap<>(),
            Row.of(outer, (Object) null),
            List.of()));
    rows.add(
        Row.of(
            schema.root(),
            Arrays.asList(null, null),
            List.of(2, 3),
            set,
            Row.of(outer, Row.of(inner, (Object) null)),
            List.of(7)));
    rows.add(
        Row.of(
            schema.root(),
            Arrays.asList(1, null, 3),
            List.of(4),
            set,
            Row.of(outer, Row.of(inner, 9L)),
            List.of(1, 2, 3)));
    assertSameLevelsAsParquetJava(schema, rows);
    Path file =
        WriterMatrix.write(dir.resolve("edges.parquet"), schema, rows, WriterOptions.defaults());
    WriterMatrix.assertRowsEqual(rows, ParquetJavaOracle.read(file, schema), "edges");
  }

  @Test
  void misfitRowsAreRefusedWithTheirPathAndLeaveTheFileWhole() throws Exception {
    MessageType schema = edgeSchema();
    Path file = dir.resolve("misfits.parquet");
    Row good = Row.of(schema.root(), List.of(5), List.of(6), null, null, List.of());
    try (ParquetFileWriter writer =
        new ParquetFileWriter(Files.newOutputStream(file), schema, WriterOptions.defaults())) {
      IllegalArgumentException nullRequired =
          assertThrows(
              IllegalArgumentException.class,
              () -> writer.write(Row.of(schema.root(), null, null, null, null, null)));
      assertTrue(nullRequired.getMessage().contains("req"), nullRequired.getMessage());
      IllegalArgumentException wrongType =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  writer.write(Row.of(schema.root(), List.of("x"), List.of(1), null, null, null)));
      assertTrue(wrongType.getMessage().contains("l.list.e"), wrongType.getMessage());
      IllegalArgumentException nullInRequiredList =
          assertThrows(
              IllegalArgumentException.class,
              () ->
                  writer.write(
                      Row.of(schema.root(), null, Arrays.asList(1, null), null, null, null)));
      assertTrue(nullInRequiredList.getMessage().contains("req"), nullInRequiredList.getMessage());
      writer.write(good);
    }
    WriterMatrix.assertRowsEqual(List.of(good), ParquetJavaOracle.read(file, schema), "misfits");
  }
}
