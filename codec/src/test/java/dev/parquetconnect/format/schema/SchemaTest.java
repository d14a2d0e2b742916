package dev.parquetconnect.format.schema;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REPEATED;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.CorruptDataException;
import dev.parquetconnect.format.meta.ConvertedType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.meta.SchemaElement;
import dev.parquetconnect.format.meta.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

class SchemaTest {
  static MessageType sample() {
    return SchemaTestData.sample();
  }

  @Test
  void schemaElementsRoundTrip() throws Exception {
    MessageType schema = sample();
    List<SchemaElement> elements = SchemaConverter.toSchemaElements(schema);
    assertEquals(schema, SchemaConverter.fromSchemaElements(elements));
    assertEquals(schema.toString(), SchemaConverter.fromSchemaElements(elements).toString());
    SchemaElement price = elements.get(3);
    assertEquals(ConvertedType.DECIMAL, price.convertedType());
    assertEquals(2, price.scale());
    assertEquals(9, price.precision());
  }

  @Test
  void levelsAndPathsAgreeWithParquetJava() {
    MessageType ours = sample();
    org.apache.parquet.schema.MessageType theirs =
        MessageTypeParser.parseMessageType(ours.toString());
    List<ColumnDescriptor> expected = theirs.getColumns();
    assertEquals(expected.size(), ours.columns().size());
    for (int i = 0; i < expected.size(); i++) {
      ColumnDescriptor e = expected.get(i);
      var c = ours.column(i);
      assertEquals(List.of(e.getPath()), c.path());
      assertEquals(e.getMaxDefinitionLevel(), c.maxDefinitionLevel(), c.dottedPath());
      assertEquals(e.getMaxRepetitionLevel(), c.maxRepetitionLevel(), c.dottedPath());
      assertEquals(
          e.getPrimitiveType().getPrimitiveTypeName().name(),
          c.primitive()
              .type()
              .name()
              .replace("BYTE_ARRAY", "BINARY")
              .replace("FIXED_LEN_BINARY", "FIXED_LEN_BYTE_ARRAY"));
    }
    // Printing agrees with parquet-java's printing of the same schema.
    assertEquals(
        theirs.toString().replaceAll("\\s+", " ").trim(),
        ours.toString().replaceAll("\\s+", " ").trim());
  }

  @Test
  void convertedTypesOnlyFilesGetLogicalTypes() throws Exception {
    List<SchemaElement> elements =
        List.of(
            new SchemaElement(null, null, null, "m", 3, null, null, null, null, null),
            new SchemaElement(
                PhysicalType.INT64,
                null,
                OPTIONAL,
                "amount",
                null,
                ConvertedType.DECIMAL,
                3,
                12,
                null,
                null),
            new SchemaElement(
                PhysicalType.INT64,
                null,
                OPTIONAL,
                "ts",
                null,
                ConvertedType.TIMESTAMP_MILLIS,
                null,
                null,
                null,
                null),
            new SchemaElement(
                PhysicalType.INT32,
                null,
                OPTIONAL,
                "u8",
                null,
                ConvertedType.UINT_8,
                null,
                null,
                null,
                null));
    MessageType schema = SchemaConverter.fromSchemaElements(elements);
    assertEquals(new LogicalType.DecimalType(3, 12), schema.column(0).primitive().logicalType());
    assertEquals(
        new LogicalType.TimestampType(true, TimeUnit.MILLIS),
        schema.column(1).primitive().logicalType());
    assertEquals(SortOrder.UNSIGNED, schema.column(2).primitive().sortOrder());
  }

  @Test
  void corruptSchemasAreRefusedWithCheckedErrors() {
    SchemaElement root2 = new SchemaElement(null, null, null, "m", 2, null, null, null, null, null);
    SchemaElement leaf =
        new SchemaElement(
            PhysicalType.INT32, null, REQUIRED, "a", null, null, null, null, null, null);
    assertThrows(CorruptDataException.class, () -> SchemaConverter.fromSchemaElements(List.of()));
    assertThrows(
        CorruptDataException.class, () -> SchemaConverter.fromSchemaElements(List.of(root2, leaf)));
    SchemaElement root1 = new SchemaElement(null, null, null, "m", 1, null, null, null, null, null);
    assertThrows(
        CorruptDataException.class,
        () -> SchemaConverter.fromSchemaElements(List.of(root1, leaf, leaf)));
    SchemaElement fixedNoLength =
        new SchemaElement(
            PhysicalType.FIXED_LEN_BYTE_ARRAY,
            null,
            REQUIRED,
            "f",
            null,
            null,
            null,
            null,
            null,
            null);
    assertThrows(
        CorruptDataException.class,
        () -> SchemaConverter.fromSchemaElements(List.of(root1, fixedNoLength)));
    SchemaElement noRepetition =
        new SchemaElement(PhysicalType.INT32, null, null, "r", null, null, null, null, null, null);
    assertThrows(
        CorruptDataException.class,
        () -> SchemaConverter.fromSchemaElements(List.of(root1, noRepetition)));
    SchemaElement negative =
        new SchemaElement(null, null, null, "m", -1, null, null, null, null, null);
    assertThrows(
        CorruptDataException.class, () -> SchemaConverter.fromSchemaElements(List.of(negative)));
    // A chain of one-child groups deeper than the limit is refused, not a StackOverflowError.
    List<SchemaElement> deep = new ArrayList<>();
    deep.add(root1);
    for (int i = 0; i < 10_000; i++) {
      deep.add(new SchemaElement(null, null, OPTIONAL, "g" + i, 1, null, null, null, null, null));
    }
    deep.add(leaf);
    assertThrows(CorruptDataException.class, () -> SchemaConverter.fromSchemaElements(deep));
  }

  @Test
  void listShapesFollowTheBackwardCompatibilityRules() {
    PrimitiveNode str = PrimitiveNode.of("str", REQUIRED, PhysicalType.BYTE_ARRAY);
    // Standard three-level list.
    GroupNode standard = NestedTypes.list("l", OPTIONAL, str.withRepetition(OPTIONAL));
    NestedTypes.ListShape shape = NestedTypes.listShape(standard);
    assertEquals("element", shape.element().name());
    assertTrue(!shape.twoLevel());
    // Rule 1: a repeated primitive is the element.
    GroupNode twoLevelPrimitive =
        GroupNode.of("l", OPTIONAL, List.of(str.withRepetition(REPEATED)))
            .withLogicalType(LogicalType.LIST);
    assertTrue(NestedTypes.listShape(twoLevelPrimitive).twoLevel());
    // Rule 2: a repeated group of two fields is the element.
    GroupNode twoFields = GroupNode.of("item", REPEATED, List.of(str, str.withName("s2")));
    assertTrue(
        NestedTypes.listShape(
                GroupNode.of("l", OPTIONAL, List.of(twoFields)).withLogicalType(LogicalType.LIST))
            .twoLevel());
    // Rule 3: "array" and "<name>_tuple".
    for (String name : List.of("array", "l_tuple")) {
      GroupNode legacy = GroupNode.of(name, REPEATED, List.of(str));
      NestedTypes.ListShape s =
          NestedTypes.listShape(
              GroupNode.of("l", OPTIONAL, List.of(legacy)).withLogicalType(LogicalType.LIST));
      assertSame(s.repeated(), s.element());
    }
    // Not a list: the child is not repeated.
    assertNull(
        NestedTypes.listShape(
            GroupNode.of("l", OPTIONAL, List.of(str)).withLogicalType(LogicalType.LIST)));
  }

  @Test
  void mapShapes() {
    GroupNode map =
        NestedTypes.map(
            "m",
            OPTIONAL,
            PrimitiveNode.of("a", OPTIONAL, PhysicalType.INT32),
            PrimitiveNode.of("b", OPTIONAL, PhysicalType.DOUBLE));
    NestedTypes.MapShape shape = NestedTypes.mapShape(map);
    assertEquals("key", shape.key().name());
    assertEquals(REQUIRED, shape.key().repetition());
    assertEquals("value", shape.value().name());
    assertEquals(ConvertedType.MAP, map.convertedType());
  }

  @Test
  void annotationsAreCheckedAgainstPhysicalTypes() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            PrimitiveNode.of("s", REQUIRED, PhysicalType.INT32)
                .withLogicalType(LogicalType.STRING));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            PrimitiveNode.of("d", REQUIRED, PhysicalType.INT32)
                .withLogicalType(new LogicalType.DecimalType(0, 10)));
    assertEquals(38, LogicalTypes.maxDecimalPrecision(16));
    assertEquals(9, LogicalTypes.maxDecimalPrecision(4));
    assertEquals(18, LogicalTypes.maxDecimalPrecision(8));
    assertEquals(2, LogicalTypes.maxDecimalPrecision(1));
    assertEquals(
        ConvertedType.TIME_MILLIS,
        LogicalTypes.convertedTypeFor(new LogicalType.TimeType(true, TimeUnit.MILLIS)));
    assertNull(
        LogicalTypes.convertedTypeFor(new LogicalType.TimestampType(false, TimeUnit.MILLIS)));
    assertNull(LogicalTypes.convertedTypeFor(new LogicalType.TimestampType(true, TimeUnit.NANOS)));
    assertEquals(
        ConvertedType.INT_16,
        LogicalTypes.convertedTypeFor(new LogicalType.IntType((byte) 16, true)));
    assertEquals(
        SortOrder.UNDEFINED, PrimitiveNode.of("t", REQUIRED, PhysicalType.INT96).sortOrder());
    assertEquals(
        SortOrder.FLOAT16,
        PrimitiveNode.fixed("h", REQUIRED, 2).withLogicalType(LogicalType.FLOAT16).sortOrder());
  }
}
