package dev.parquetconnect.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.FileLayout;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.junit.jupiter.api.Test;

class PartitionSpecsTest {
  private static final Schema SCHEMA = IcebergSchemas.forNewTable(IcebergSchemasTest.written());

  @Test
  void parsesEveryTransformOnTopLevelAndNestedColumns() {
    PartitionSpec spec =
        PartitionSpecs.parse(
            "day(at), identity(name), bucket(16, id), truncate(4, name), hour(__kafka_timestamp),"
                + " month(day), address.city, truncate(count, 2)",
            SCHEMA);
    List<String> described =
        spec.fields().stream()
            .map(f -> f.transform() + ":" + SCHEMA.findColumnName(f.sourceId()))
            .toList();
    assertEquals(
        List.of(
            "day:at",
            "identity:name",
            "bucket[16]:id",
            "truncate[4]:name",
            "hour:__kafka_timestamp",
            "month:day",
            "identity:address.city",
            "truncate[2]:count"),
        described);
    PartitionSpec years = PartitionSpecs.parse("years(at), `address`.`city`", SCHEMA);
    assertEquals("year", years.fields().get(0).transform().toString());
    assertEquals(SCHEMA.findField("address.city").fieldId(), years.fields().get(1).sourceId());
    assertTrue(PartitionSpecs.parse("  ", SCHEMA).isUnpartitioned());
  }

  @Test
  void syntaxErrorsSayWhereAndWhat() {
    assertSyntaxError("day(ts", "expected ')' at position 6, found the end");
    assertSyntaxError("bucket(16 id)", "expected ',' at position 10");
    assertSyntaxError("weekday(ts)", "unknown transform 'weekday' at position 0");
    assertSyntaxError("day(ts),, name", "expected a column name at position 8");
    assertSyntaxError("bucket(0, id)", "expected a number above 0 at position 7");
    assertSyntaxError("truncate(`a, 3)", "expected a closing backtick at position 9");
    assertSyntaxError("a.b(c)", "a transform name, not a column path");
    assertEquals(Optional.empty(), PartitionSpecs.validateSyntax("day(ts), bucket(16, a.b.c)"));
  }

  @Test
  void aColumnTheSchemaLacksOrATransformItCannotTakeNamesTheTerm() {
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> PartitionSpecs.parse("identity(name), day(nope)", SCHEMA));
    assertTrue(
        missing.getMessage().contains("term at position 16 (day(nope))"), missing.getMessage());
    IllegalArgumentException wrongType =
        assertThrows(
            IllegalArgumentException.class, () -> PartitionSpecs.parse("day(name)", SCHEMA));
    assertTrue(wrongType.getMessage().contains("day(name)"), wrongType.getMessage());
  }

  @Test
  void derivesTheSpecFromThePartitionerKeys() {
    PartitionSpec fields =
        PartitionSpecs.derive(SCHEMA, "field", List.of("name", "address.city"), null, null);
    assertEquals(
        List.of("identity", "identity"),
        fields.fields().stream().map(f -> f.transform().toString()).toList());
    assertEquals(SCHEMA.findField("address.city").fieldId(), fields.fields().get(1).sourceId());

    assertEquals(
        "hour",
        only(
            PartitionSpecs.derive(
                SCHEMA,
                "time",
                List.of(),
                "'year'=yyyy/'month'=MM/'day'=dd/'hour'=HH",
                FileLayout.TIMESTAMP_COLUMN)));
    assertEquals(
        "day", only(PartitionSpecs.derive(SCHEMA, "TIME", List.of(), "'dt'=yyyy-MM-dd", "at")));
    assertEquals(
        "month", only(PartitionSpecs.derive(SCHEMA, "time", List.of(), "'ym'=yyyyMM", "at")));
    assertEquals(
        "year", only(PartitionSpecs.derive(SCHEMA, "time", List.of(), "'year'=yyyy", "at")));
    assertTrue(
        PartitionSpecs.derive(SCHEMA, "time", List.of(), "'day'=dd", null).isUnpartitioned(),
        "the wall clock is no column");
    assertTrue(PartitionSpecs.derive(SCHEMA, "kafka", List.of(), null, null).isUnpartitioned());
    assertTrue(PartitionSpecs.derive(SCHEMA, "header", List.of(), null, null).isUnpartitioned());
    assertThrows(
        IllegalArgumentException.class,
        () -> PartitionSpecs.derive(SCHEMA, "time", List.of(), "'d'=dd", "missing"));
  }

  private static String only(PartitionSpec spec) {
    assertEquals(1, spec.fields().size());
    PartitionField field = spec.fields().get(0);
    return field.transform().toString();
  }

  private static void assertSyntaxError(String spec, String fragment) {
    Optional<String> problem = PartitionSpecs.validateSyntax(spec);
    assertTrue(problem.isPresent(), spec);
    assertTrue(problem.get().contains(fragment), problem.get());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PartitionSpecs.parse(spec, SCHEMA));
    assertEquals(problem.get(), e.getMessage());
  }
}
