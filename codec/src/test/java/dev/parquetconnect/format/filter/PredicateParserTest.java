package dev.parquetconnect.format.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.LogicalType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.MessageType;
import dev.parquetconnect.format.schema.NestedTypes;
import dev.parquetconnect.format.schema.PrimitiveNode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The grammar of predicates: what it accepts, what it builds, and where it says text is wrong. */
class PredicateParserTest {
  @Test
  void readsEveryOperatorWithPrecedenceAndParentheses() throws Exception {
    Predicate p =
        PredicateParser.parse(
            "a = 1 OR NOT b <> 'x''y' AND (c IS NOT NULL OR d IN (1, 2.5, -3e2))");
    assertEquals(
        "(a = 1 OR (NOT b <> 'x''y' AND (c IS NOT NULL OR d IN (1, 2.5, -3E+2))))", p.toString());
    assertEquals(Set.of("a", "b", "c", "d"), p.columns());
    assertEquals(
        new Predicate.Compare(
            "v.ts",
            Predicate.Op.GE,
            new Literal.TimestampValue(Instant.parse("2024-01-02T03:04:05.123456789Z"))),
        PredicateParser.parse("v.ts >= TIMESTAMP '2024-01-02T03:04:05.123456789Z'"));
    assertEquals(
        new Predicate.Compare(
                "\"odd\" name", Predicate.Op.LT, new Literal.IntegerValue(BigInteger.TEN))
            .op(),
        ((Predicate.Compare) PredicateParser.parse("\"odd \"\" name\" < 10")).op());
    assertEquals(
        "NOT (x >= 1 AND x <= 5)", PredicateParser.parse("x not between 1 and 5").toString());
    assertEquals("NOT x IN (TRUE)", PredicateParser.parse("x NOT IN (true)").toString());
    assertEquals("x IS NULL", PredicateParser.parse("  x is null ").toString());
    assertEquals(
        "(NOT flag = TRUE OR (other = TRUE AND x > 1))",
        PredicateParser.parse("NOT flag OR (other AND x > 1)").toString());
    assertEquals(
        "d = DATE '2024-02-29'", PredicateParser.parse("d == DATE '2024-02-29'").toString());
    assertEquals(
        Instant.parse("2024-01-02T03:04:05Z"),
        ((Literal.TimestampValue)
                ((Predicate.Compare) PredicateParser.parse("t < TIMESTAMP '2024-01-02 03:04:05'"))
                    .value())
            .value());
  }

  @Test
  void syntaxErrorsGiveTheirPosition() {
    assertPosition("", 0);
    assertPosition("a =", 3);
    assertPosition("a = 1 AND", 9);
    assertPosition("a ~ 1", 2);
    assertPosition("(a = 1", 6);
    assertPosition("a = 'open", 4);
    assertPosition("a = NULL", 4);
    assertPosition("a IN ()", 6);
    assertPosition("a = 1 b", 6);
    assertPosition("a = 12x", 4);
    assertPosition("a = TIMESTAMP 'yesterday'", 14);
    assertPosition("AND = 1", 0);
    assertPosition("a IS NOT 1", 9);
    assertPosition("(".repeat(500) + "a = 1" + ")".repeat(500), 200);
  }

  private static void assertPosition(String text, int position) {
    PredicateSyntaxException e =
        assertThrows(PredicateSyntaxException.class, () -> PredicateParser.parse(text));
    assertEquals(position, e.position(), e.getMessage());
    assertTrue(e.getMessage().contains("position " + position), e.getMessage());
  }

  @Test
  void bindingNamesTheColumnThatDoesNotFit() throws Exception {
    MessageType schema =
        new MessageType(
            "m",
            List.of(
                PrimitiveNode.of("n", FieldRepetitionType.OPTIONAL, PhysicalType.INT64),
                PrimitiveNode.of("s", FieldRepetitionType.OPTIONAL, PhysicalType.BYTE_ARRAY)
                    .withLogicalType(LogicalType.STRING),
                PrimitiveNode.of("old", FieldRepetitionType.OPTIONAL, PhysicalType.INT96),
                NestedTypes.list(
                    "l",
                    FieldRepetitionType.OPTIONAL,
                    PrimitiveNode.of("e", FieldRepetitionType.OPTIONAL, PhysicalType.INT64))));
    assertBindError(schema, "missing = 1", "missing", "no column 'missing'");
    assertBindError(schema, "n = 'x'", "n", "compares with a number");
    assertBindError(schema, "s > 3", "s", "compares with a quoted string");
    assertBindError(schema, "old IS NULL", "old", "INT96");
    String element = schema.column(3).dottedPath();
    assertBindError(schema, element + " = 1", element, "inside a list or map");
    assertBindError(schema, "l = 1", "l", "is a group");
    BoundPredicate bound = PredicateParser.parse("n < 1e30 AND NOT s IS NULL").bind(schema);
    assertEquals("(n IS_NOT_NULL AND s IS_NOT_NULL)", bound.toString());
    assertTrue(PredicateParser.parse("n = 1.5").bind(schema).isAlwaysFalse());
    assertTrue(PredicateParser.parse("NOT n <> 1.5 OR n > 1e100").bind(schema).isAlwaysFalse());
  }

  private static void assertBindError(MessageType schema, String text, String column, String says)
      throws Exception {
    Predicate p = PredicateParser.parse(text);
    PredicateBindException e = assertThrows(PredicateBindException.class, () -> p.bind(schema));
    assertEquals(column, e.column());
    assertTrue(e.getMessage().contains(says), e.getMessage());
    e.at("f.parquet", null, -1);
    assertTrue(e.getMessage().contains("file f.parquet"), e.getMessage());
  }

  @Test
  void rowRangesCombine() {
    RowRanges a = new RowRanges.Builder().add(0, 10).add(10, 20).add(30, 40).build();
    RowRanges b = new RowRanges.Builder().add(5, 12).add(35, 50).build();
    assertEquals("[[0, 20), [30, 40)]", a.toString());
    assertEquals("[[5, 12), [35, 40)]", a.intersect(b).toString());
    assertEquals("[[0, 20), [30, 50)]", a.union(b).toString());
    assertEquals(30, a.nextRow(20));
    assertEquals(-1, a.nextRow(40));
    assertTrue(a.overlaps(39, 100));
    assertEquals(30, a.rowCount());
  }
}
