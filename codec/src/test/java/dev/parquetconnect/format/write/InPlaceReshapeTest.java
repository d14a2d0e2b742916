package dev.parquetconnect.format.write;

import static dev.parquetconnect.format.meta.FieldRepetitionType.OPTIONAL;
import static dev.parquetconnect.format.meta.FieldRepetitionType.REQUIRED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import dev.parquetconnect.format.schema.SchemaNode;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link ParquetFileWriter#reshape(MessageType, WriterOptions, ValueText)} on the codec alone: a
 * file of {@code narrow} rows (pages of two rows closed before the change) reshaped to {@code wide}
 * (INT32 to INT64, INT64 to DOUBLE, new fields at depth 2 and 3 and in a list's element) reads in
 * parquet-java exactly as a file written with {@code wide} from the start; changes that touch
 * values are refused without changing anything.
 */
final class InPlaceReshapeTest {
  private static final int BEFORE = 11;

  @TempDir Path dir;

  private static MessageType schema(boolean wide) {
    PhysicalType integer = wide ? PhysicalType.INT64 : PhysicalType.INT32;
    PrimitiveNode a =
        PrimitiveNode.of("a", OPTIONAL, wide ? PhysicalType.DOUBLE : PhysicalType.INT64);
    PrimitiveNode c = PrimitiveNode.of("c", OPTIONAL, integer);
    PrimitiveNode x = PrimitiveNode.of("x", OPTIONAL, integer);
    List<SchemaNode> t = new ArrayList<>(List.of(c));
    List<SchemaNode> s = new ArrayList<>(List.of(a));
    List<SchemaNode> element = new ArrayList<>(List.of(x));
    if (wide) {
      t.add(
          PrimitiveNode.of("d", OPTIONAL, PhysicalType.BYTE_ARRAY)
              .withLogicalType(LogicalType.STRING));
    }
    s.add(GroupNode.of("t", OPTIONAL, t));
    if (wide) {
      s.add(
          GroupNode.of(
              "u", OPTIONAL, List.of(PrimitiveNode.of("e", OPTIONAL, PhysicalType.BOOLEAN))));
      element.add(PrimitiveNode.of("y", OPTIONAL, PhysicalType.INT64));
    }
    return new MessageType(
        "reshaped",
        List.of(
            PrimitiveNode.of("id", REQUIRED, PhysicalType.INT64),
            GroupNode.of("s", OPTIONAL, s),
            NestedTypes.list("l", OPTIONAL, GroupNode.of("element", OPTIONAL, element))));
  }

  /** Row {@code i} before the change, in {@code schema}'s types (narrow or wide). */
  private static Row before(MessageType schema, long i) {
    boolean wide = schema.root().field(1) instanceof GroupNode s && s.fieldCount() > 2;
    GroupNode s = (GroupNode) schema.root().field(1);
    GroupNode t = (GroupNode) s.field(1);
    GroupNode element =
        (GroupNode) ((GroupNode) ((GroupNode) schema.root().field(2)).field(0)).field(0);
    Object a = i % 5 == 1 ? null : wide ? (Object) (double) (i * 1_000_003L) : i * 1_000_003L;
    Object c = i % 4 == 2 ? null : wide ? (Object) (long) i : (int) i;
    Row tRow = i % 6 == 3 ? null : wide ? Row.of(t, c, null) : Row.of(t, c);
    Row sRow = i % 7 == 4 ? null : wide ? Row.of(s, a, tRow, null) : Row.of(s, a, tRow);
    Object x = wide ? (Object) (long) -i : (int) -i;
    List<Object> l =
        switch ((int) (i % 4)) {
          case 0 -> null;
          case 1 -> List.of();
          case 2 -> Arrays.asList(null, wide ? Row.of(element, x, null) : Row.of(element, x));
          default -> List.of(wide ? Row.of(element, null, null) : Row.of(element, (Object) null));
        };
    return Row.of(schema.root(), i, sRow, l);
  }

  /** Row {@code i} after the change, using the new fields. */
  private static Row after(MessageType wide, long i) {
    GroupNode s = (GroupNode) wide.root().field(1);
    GroupNode t = (GroupNode) s.field(1);
    GroupNode u = (GroupNode) s.field(2);
    GroupNode element =
        (GroupNode) ((GroupNode) ((GroupNode) wide.root().field(2)).field(0)).field(0);
    Row sRow = Row.of(s, i + 0.5, Row.of(t, i << 33, ("d" + i).getBytes()), Row.of(u, i % 2 == 0));
    return Row.of(wide.root(), i, sRow, List.of(Row.of(element, i << 40, i)));
  }

  @ParameterizedTest(name = "{0}, dictionary {1}, aligned {2}")
  @CsvSource({
    "V1, true, true",
    "V1, false, true",
    "V2, true, true",
    "V2, false, true",
    "V2, true, false"
  })
  void nestedAddsAndWideningsReadAsIfWrittenWideFromTheStart(
      PageVersion version, boolean dictionary, boolean aligned) throws Exception {
    WriterOptions options =
        WriterOptions.builder()
            .pageVersion(version)
            .dictionary(dictionary)
            .alignedPages(aligned)
            .pageRowLimit(2)
            .build();
    MessageType narrow = schema(false);
    MessageType wide = schema(true);
    List<Row> want = new ArrayList<>();
    Path reshaped = dir.resolve("reshaped.parquet");
    try (OutputStream out = Files.newOutputStream(reshaped);
        ParquetFileWriter writer = new ParquetFileWriter(out, narrow, options)) {
      for (long i = 0; i < BEFORE; i++) {
        writer.write(before(narrow, i));
        want.add(before(wide, i));
      }
      assertTrue(writer.reshape(wide, options, null));
      for (long i = BEFORE; i < BEFORE + 5; i++) {
        writer.write(after(wide, i));
        want.add(after(wide, i));
      }
    }
    Path reference = WriterMatrix.write(dir.resolve("reference.parquet"), wide, want, options);
    List<Row> got = ParquetJavaOracle.read(reshaped, wide);
    List<Row> expected = ParquetJavaOracle.read(reference, wide);
    assertEquals(want.size(), got.size());
    for (int i = 0; i < got.size(); i++) {
      assertEquals(expected.get(i), got.get(i), "row " + i);
    }
  }

  @Test
  void changesThatTouchValuesAreRefusedAndChangeNothing() throws Exception {
    MessageType narrow = schema(false);
    WriterOptions options = WriterOptions.builder().pageRowLimit(2).build();
    try (OutputStream out = Files.newOutputStream(dir.resolve("refused.parquet"));
        ParquetFileWriter writer = new ParquetFileWriter(out, narrow, options)) {
      for (long i = 0; i < BEFORE; i++) {
        writer.write(before(narrow, i));
      }
      // s.a holds longs: no column of it survives in a schema without s.a.
      MessageType withoutA =
          new MessageType(
              "reshaped",
              List.of(
                  narrow.root().field(0),
                  GroupNode.of(
                      "s", OPTIONAL, List.of(((GroupNode) narrow.root().field(1)).field(1))),
                  narrow.root().field(2)));
      assertFalse(writer.reshape(withoutA, options, null), "a column dropped with its values");
      // The longs of s.a have no text without a ValueText.
      MessageType aText =
          new MessageType(
              "reshaped",
              List.of(
                  narrow.root().field(0),
                  GroupNode.of(
                      "s",
                      OPTIONAL,
                      List.of(
                          PrimitiveNode.of("a", OPTIONAL, PhysicalType.BYTE_ARRAY)
                              .withLogicalType(LogicalType.STRING),
                          ((GroupNode) narrow.root().field(1)).field(1))),
                  narrow.root().field(2)));
      assertFalse(writer.reshape(aText, options, null), "longs to text without a text form");
      // A group turned into a leaf: its rows are not all null.
      MessageType tLeaf =
          new MessageType(
              "reshaped",
              List.of(
                  narrow.root().field(0),
                  GroupNode.of(
                      "s",
                      OPTIONAL,
                      List.of(
                          ((GroupNode) narrow.root().field(1)).field(0),
                          PrimitiveNode.of("t", OPTIONAL, PhysicalType.INT64))),
                  narrow.root().field(2)));
      assertFalse(writer.reshape(tLeaf, options, null), "a group turned into a leaf");
      // A new required field has no value in the earlier rows.
      MessageType required =
          new MessageType(
              "reshaped",
              List.of(
                  narrow.root().field(0),
                  GroupNode.of(
                      "s",
                      OPTIONAL,
                      List.of(
                          ((GroupNode) narrow.root().field(1)).field(0),
                          ((GroupNode) narrow.root().field(1)).field(1),
                          PrimitiveNode.of("r", REQUIRED, PhysicalType.INT64))),
                  narrow.root().field(2)));
      assertThrows(IllegalArgumentException.class, () -> writer.reshape(required, options, null));
      assertEquals(narrow, writer.schema());
      writer.write(before(narrow, BEFORE));
    }
  }
}
