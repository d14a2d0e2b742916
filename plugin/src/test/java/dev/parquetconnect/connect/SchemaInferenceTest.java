package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.parquetconnect.connect.SchemaInference.ConflictPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class SchemaInferenceTest {
  private final SchemaInference asString = new SchemaInference(ConflictPolicy.STRING);
  private final SchemaInference failing = new SchemaInference(ConflictPolicy.FAIL);

  /** A JSON object as JsonConverter (schemas.enable=false) gives it: a HashMap. */
  static Map<String, Object> obj(Object... keysAndValues) {
    Map<String, Object> map = new HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  @Test
  void infersJsonTypesAsOptionalConnectTypes() {
    Schema s =
        asString.infer(
            obj(
                "id",
                1L,
                "price",
                2.5,
                "ok",
                true,
                "name",
                "x",
                "tags",
                List.of("a", "b"),
                "address",
                obj("city", "Oslo", "zip", 123L),
                "none",
                null));
    Schema expected =
        SchemaBuilder.struct()
            .optional()
            .field(
                "address",
                SchemaBuilder.struct()
                    .optional()
                    .field("city", Schema.OPTIONAL_STRING_SCHEMA)
                    .field("zip", Schema.OPTIONAL_INT64_SCHEMA)
                    .build())
            .field("id", Schema.OPTIONAL_INT64_SCHEMA)
            .field("name", Schema.OPTIONAL_STRING_SCHEMA)
            .field("none", SchemaInference.UNKNOWN)
            .field("ok", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("price", Schema.OPTIONAL_FLOAT64_SCHEMA)
            .field("tags", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
            .build();
    assertEquals(expected, s, "fields sorted by name, every one optional");
    assertNull(asString.infer(null));
    assertEquals(Schema.OPTIONAL_INT64_SCHEMA, asString.infer(5L));
    assertEquals(Schema.OPTIONAL_INT32_SCHEMA, asString.infer(5));
    assertEquals(
        SchemaBuilder.array(SchemaInference.UNKNOWN).optional().build(), asString.infer(List.of()));
  }

  @Test
  void numbersWidenIntToLongToDouble() {
    Schema merged = asString.inferAll(List.of(obj("n", 1), obj("n", 2L)));
    assertEquals(Schema.OPTIONAL_INT64_SCHEMA, merged.field("n").schema());
    merged = asString.merge(merged, asString.infer(obj("n", 2.5)));
    assertEquals(Schema.OPTIONAL_FLOAT64_SCHEMA, merged.field("n").schema());
    assertEquals(
        Schema.OPTIONAL_FLOAT64_SCHEMA,
        failing.merge(Schema.OPTIONAL_FLOAT64_SCHEMA, Schema.OPTIONAL_INT32_SCHEMA),
        "widening is no conflict, even when conflicts fail");
    Struct s = (Struct) asString.conform(merged, obj("n", 7L));
    assertEquals(7.0, s.get("n"));
  }

  @Test
  void newKeysBecomeNewOptionalColumns() {
    Schema a = asString.infer(obj("a", 1L));
    Schema ab = asString.merge(a, asString.infer(obj("b", "x")));
    assertEquals(List.of("a", "b"), ab.fields().stream().map(f -> f.name()).toList());
    assertFalse(asString.fits(a, obj("a", 1L, "b", "x")), "a new key needs a new file");
    assertTrue(asString.fits(ab, obj("a", 1L)), "a missing key is a null");
    Struct s = (Struct) asString.conform(ab, obj("a", 1L));
    assertNull(s.get("b"));
  }

  @Test
  void conflictsBecomeTextOrFail() {
    Schema number = asString.infer(obj("v", 1L, "nested", obj("x", 1L)));
    Schema text =
        asString.merge(
            number, asString.infer(obj("v", obj("deep", List.of(1L, 2.5)), "nested", "flat")));
    assertEquals(Schema.OPTIONAL_STRING_SCHEMA, text.field("v").schema());
    assertEquals(Schema.OPTIONAL_STRING_SCHEMA, text.field("nested").schema());
    Struct s =
        (Struct)
            asString.conform(
                text, obj("v", obj("deep", List.of(1L, 2.5)), "nested", obj("x", true)));
    assertEquals("{\"deep\":[1,2.5]}", s.get("v"));
    assertEquals("{\"x\":true}", s.get("nested"));
    assertEquals("1", ((Struct) asString.conform(text, obj("v", 1L))).get("v"));

    DataException e =
        assertThrows(
            DataException.class,
            () ->
                failing.merge(
                    failing.infer(obj("a", obj("b", 1L))), failing.infer(obj("a", obj("b", "x")))));
    assertTrue(e.getMessage().contains("a.b"), e.getMessage());
    assertTrue(
        e.getMessage().contains("int64") && e.getMessage().contains("string"), e.getMessage());
    Schema failingNumber = failing.infer(obj("v", 1L));
    assertFalse(failing.fits(failingNumber, obj("v", "x")));
    DataException misfit =
        assertThrows(DataException.class, () -> failing.conform(failingNumber, obj("v", "x")));
    assertTrue(misfit.getMessage().contains("field v"), misfit.getMessage());
  }

  @Test
  void unknownTypesResolveLater() {
    Schema unknown = asString.infer(obj("maybe", null, "list", List.of()));
    assertSame(SchemaInference.UNKNOWN, unknown.field("maybe").schema());
    assertTrue(asString.fits(unknown, obj("maybe", null, "list", List.of())));
    assertFalse(asString.fits(unknown, obj("maybe", 3L)), "a first real type changes the schema");
    Schema resolved =
        asString.merge(unknown, asString.infer(obj("maybe", 3L, "list", List.of(obj("x", 1L)))));
    assertEquals(Schema.OPTIONAL_INT64_SCHEMA, resolved.field("maybe").schema());
    assertEquals(Schema.Type.STRUCT, resolved.field("list").schema().valueSchema().type());
    Schema nullElements = asString.infer(Arrays.asList(null, null));
    assertSame(SchemaInference.UNKNOWN, nullElements.valueSchema());
  }

  @Test
  void nestedMapsAreStructsAndListsMergeTheirElements() {
    Schema s =
        asString.inferAll(
            List.of(
                obj("items", List.of(obj("sku", "a", "qty", 1L), obj("sku", "b", "price", 2.0))),
                obj("items", List.of(obj("sku", "c", "qty", 2.5)))));
    Schema item = s.field("items").schema().valueSchema();
    assertEquals(
        List.of("price", "qty", "sku"), item.fields().stream().map(f -> f.name()).toList());
    assertEquals(Schema.OPTIONAL_FLOAT64_SCHEMA, item.field("qty").schema());
    Struct value = (Struct) asString.conform(s, obj("items", List.of(obj("sku", "z", "qty", 3L))));
    Struct first = (Struct) ((List<?>) value.get("items")).get(0);
    assertEquals(3.0, first.get("qty"));
    // Maps with keys that are not strings are MAPs; an empty map merges into either.
    Map<Long, String> byId = new LinkedHashMap<>();
    byId.put(1L, "a");
    Schema map = asString.infer(byId);
    assertEquals(Schema.Type.MAP, map.type());
    assertEquals(map, asString.merge(map, asString.infer(new HashMap<>())));
    assertTrue(asString.fits(map, new HashMap<>()));
  }

  @Test
  void mergeIsOrderIndependentAndFitsAgreesWithMerge() {
    Random random = new Random(42);
    for (int round = 0; round < 300; round++) {
      List<Object> values = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        values.add(randomJson(random, 3));
      }
      for (SchemaInference inference : List.of(asString, failing)) {
        Schema forward;
        Schema backward;
        try {
          forward = inference.inferAll(values);
          List<Object> reversed = new ArrayList<>(values);
          java.util.Collections.reverse(reversed);
          backward = inference.inferAll(reversed);
        } catch (DataException conflict) {
          continue; // FAIL refuses the mix, whatever the order
        }
        assertEquals(forward, backward, values.toString());
        for (Object v : values) {
          assertTrue(inference.fits(forward, v), v + " in " + forward);
          inference.conform(forward, v);
        }
        Object other = randomJson(random, 3);
        boolean fits = inference.fits(forward, other);
        boolean mergeKeeps;
        try {
          mergeKeeps =
              java.util.Objects.equals(forward, inference.merge(forward, inference.infer(other)));
        } catch (DataException conflict) {
          mergeKeeps = false;
        }
        assertEquals(mergeKeeps, fits, other + " in " + forward);
      }
    }
  }

  static Object randomJson(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 9 : 6);
    return switch (kind) {
      case 0 -> null;
      case 1 -> (long) random.nextInt(100);
      case 2 -> random.nextDouble();
      case 3 -> random.nextBoolean();
      case 4 -> "s" + random.nextInt(3);
      case 5 -> random.nextInt(10);
      case 6, 7 -> {
        Map<String, Object> m = new HashMap<>();
        int n = random.nextInt(3);
        for (int i = 0; i < n; i++) {
          m.put("k" + random.nextInt(3), randomJson(random, depth - 1));
        }
        yield m;
      }
      default -> {
        List<Object> l = new ArrayList<>();
        int n = random.nextInt(3);
        for (int i = 0; i < n; i++) {
          l.add(randomJson(random, depth - 1));
        }
        yield l;
      }
    };
  }

  @Test
  void classesNoJsonConverterProducesAreRefused() {
    DataException e =
        assertThrows(DataException.class, () -> asString.infer(obj("x", new Object())));
    assertTrue(e.getMessage().contains("field x"), e.getMessage());
  }

  @Test
  void anObjectWithAnEmptyKeyIsAConflict() {
    // {"": 1} is valid JSON but no Connect struct can hold it: text under STRING, a bad record
    // that says why under FAIL (it used to fail in SchemaBuilder: "fieldName cannot be null.").
    Schema s = asString.infer(obj("v", obj("", 1L, "b", true)));
    assertEquals(Schema.OPTIONAL_STRING_SCHEMA, s.field("v").schema());
    Struct value = (Struct) asString.conform(s, obj("v", obj("", 1L)));
    assertEquals("{\"\":1}", value.get("v"));
    Schema struct = asString.infer(obj("v", obj("b", true)));
    assertFalse(asString.fits(struct, obj("v", obj("", 1L))));
    assertEquals(
        Schema.OPTIONAL_STRING_SCHEMA,
        asString.merge(struct, asString.infer(obj("v", obj("", 1L)))).field("v").schema());
    DataException e =
        assertThrows(DataException.class, () -> failing.infer(obj("v", List.of(obj("", 1L)))));
    assertTrue(
        e.getMessage().contains("v[0]") && e.getMessage().contains("empty key"), e.getMessage());
  }

  @Test
  void doublesStoredAsTextStayFractions() {
    // BigDecimal's text made 9.007199254740992E15 an integer and lost the sign of -0.0.
    assertEquals(
        "[9.007199254740992E15,1.2345678E7,-0.0,1.0E300,2.5,1]",
        SchemaInference.jsonText(List.of(9007199254740992.0, 12345678.0, -0.0, 1e300, 2.5, 1L)));
  }
}
