package dev.parquetconnect.connect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.api.Test;

class ConnectSchemaJsonTest {
  private static Schema roundTrip(Schema schema) {
    return ConnectSchemaJson.read(ConnectSchemaJson.write(schema));
  }

  @Test
  void everyTypeComesBackEqual() {
    assertEquals(ConnectTestData.EVERY_TYPE, roundTrip(ConnectTestData.EVERY_TYPE));
    for (Schema s :
        List.of(
            Schema.INT8_SCHEMA,
            Schema.OPTIONAL_BYTES_SCHEMA,
            Date.SCHEMA,
            Time.SCHEMA,
            Timestamp.SCHEMA,
            Decimal.schema(-3),
            ConnectTestData.EMPTY,
            SchemaBuilder.map(
                    ConnectTestData.POINT, SchemaBuilder.array(Schema.STRING_SCHEMA).build())
                .build())) {
      assertEquals(s, roundTrip(s), s.toString());
    }
  }

  @Test
  void namesVersionsDocsAndParametersAreKept() {
    Schema s =
        SchemaBuilder.int64()
            .name("n")
            .version(3)
            .doc("d \"quoted\" \n")
            .parameter("a", "1")
            .parameter("b", "")
            .build();
    Schema back = roundTrip(s);
    assertEquals("n", back.name());
    assertEquals(3, back.version());
    assertEquals("d \"quoted\" \n", back.doc());
    assertEquals(Map.of("a", "1", "b", ""), back.parameters());
    // Connect's equality tells an empty parameter map from none: both survive.
    Schema empty = SchemaBuilder.string().parameters(Map.of()).build();
    assertEquals(empty, roundTrip(empty));
    assertNull(roundTrip(Schema.STRING_SCHEMA).parameters());
  }

  @Test
  void defaultsOfEveryKindComeBackEqual() {
    List<Schema> schemas =
        List.of(
            SchemaBuilder.int8().defaultValue((byte) -5).build(),
            SchemaBuilder.int16().defaultValue((short) 300).build(),
            SchemaBuilder.int32().defaultValue(Integer.MIN_VALUE).build(),
            SchemaBuilder.int64().defaultValue(Long.MAX_VALUE).build(),
            SchemaBuilder.float32().defaultValue(Float.NaN).build(),
            SchemaBuilder.float32().defaultValue(-0.0f).build(),
            SchemaBuilder.float64().defaultValue(0.1).build(),
            SchemaBuilder.float64().defaultValue(Double.NEGATIVE_INFINITY).build(),
            SchemaBuilder.bool().defaultValue(true).build(),
            SchemaBuilder.string().defaultValue("\u00e9\ud83d\ude00").build(),
            Decimal.builder(2).defaultValue(new BigDecimal("-1.50")).build(),
            Date.builder().defaultValue(new java.util.Date(86_400_000L * 3)).build(),
            Time.builder().defaultValue(new java.util.Date(1000)).build(),
            Timestamp.builder().defaultValue(new java.util.Date(-1)).build(),
            SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA)
                .defaultValue(Arrays.asList("a", null))
                .build(),
            SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.STRING_SCHEMA)
                .defaultValue(Map.of(1, "one"))
                .build());
    for (Schema s : schemas) {
      assertEquals(s, roundTrip(s), s.type() + " " + s.defaultValue());
    }
    Schema bytes = SchemaBuilder.bytes().defaultValue(new byte[] {1, 2}).build();
    assertArrayEquals((byte[]) bytes.defaultValue(), (byte[]) roundTrip(bytes).defaultValue());
  }

  @Test
  void aStructDefaultKeepsItsValues() {
    SchemaBuilder builder = SchemaBuilder.struct().name("p").field("x", Schema.INT32_SCHEMA);
    Struct dflt = new Struct(builder).put("x", 9);
    Schema s = builder.defaultValue(dflt).build();
    Schema back = roundTrip(s);
    assertEquals(9, ((Struct) back.defaultValue()).get("x"));
    assertEquals(s.fields(), back.fields());
  }

  @Test
  void malformedSchemasAreRefusedClearly() {
    for (String bad :
        List.of(
            "",
            "[]",
            "{\"type\":\"int99\"}",
            "{\"type\":\"struct\"}",
            "{\"type\":\"array\"}",
            "{\"type\":\"int32\",\"default\":\"x\"}",
            "{\"type\":\"int8\",\"default\":300}",
            "{\"type\":\"int32\"} trailing",
            "{\"type\":\"int32\",\"type\":\"int64\"}")) {
      assertThrows(RuntimeException.class, () -> ConnectSchemaJson.read(bad), bad);
    }
  }

  @Test
  void schemalessValuesKeepTheirJavaClasses() {
    Map<Object, Object> map = new LinkedHashMap<>();
    map.put(1, "int key");
    map.put("s", Arrays.asList((short) 2, (byte) 3, 4.5f, null, List.of()));
    map.put(7L, new byte[] {5});
    List<Object> values =
        Arrays.asList(
            null,
            (byte) 1,
            (short) 2,
            3,
            4L,
            5.5f,
            6.5,
            Float.NaN,
            -0.0,
            true,
            "text",
            new BigDecimal("1.230"),
            new java.util.Date(5),
            map,
            ConnectTestData.point(3, null));
    for (Object v : values) {
      Object json = Json.parse(Json.write(ConnectValueJson.toJson(null, v)));
      Object back = ConnectValueJson.fromJson(null, json);
      if (v instanceof Map<?, ?>) {
        assertEquals(Render.render(v), Render.render(back));
      } else {
        assertEquals(v, back, String.valueOf(v));
      }
    }
    Object buffer =
        ConnectValueJson.fromJson(
            null, ConnectValueJson.toJson(null, ByteBuffer.wrap(new byte[] {1, 2, 3}, 1, 2)));
    assertArrayEquals(new byte[] {2, 3}, (byte[]) buffer);
    assertThrows(IllegalArgumentException.class, () -> ConnectValueJson.toJson(null, new Object()));
  }

  @Test
  void valuesWithASchemaAreCheckedAgainstIt() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ConnectValueJson.toJson(Schema.INT32_SCHEMA, "not an int"));
    assertThrows(
        IllegalArgumentException.class,
        () -> ConnectValueJson.fromJson(Schema.INT8_SCHEMA, new BigDecimal(1000)));
    Struct p = ConnectTestData.point(1, "a");
    assertEquals(
        p,
        ConnectValueJson.fromJson(
            ConnectTestData.POINT,
            Json.parse(Json.write(ConnectValueJson.toJson(ConnectTestData.POINT, p)))));
  }

  @Test
  void jsonTextIsStrictAndBounded() {
    assertEquals(
        Map.of("a", List.of(new BigDecimal("1e3"), "x\u00e9\n", true)),
        Json.parse(" {\"a\" : [1e3, \"x\\u00e9\\n\", true]} "));
    assertEquals("\ud800x", Json.parse(Json.write("\ud800x")));
    assertTrue(Json.write("\ud800").contains("\\ud800"), "a lone surrogate is escaped");
    String deep = "[".repeat(Json.MAX_DEPTH + 2) + "]".repeat(Json.MAX_DEPTH + 2);
    assertThrows(IllegalArgumentException.class, () -> Json.parse(deep));
    for (String bad :
        List.of(
            "{",
            "[1,]",
            "{\"a\" 1}",
            "\"\\x\"",
            "01x",
            "nul",
            "\"a\u0001\"",
            "{\"a\":1,\"a\":2}",
            "-")) {
      assertThrows(IllegalArgumentException.class, () -> Json.parse(bad), bad);
    }
  }

  /** Renders nested maps with byte[] members comparably. */
  private static final class Render {
    static String render(Object v) {
      if (v instanceof byte[] b) {
        return Arrays.toString(b);
      }
      if (v instanceof Map<?, ?> m) {
        StringBuilder out = new StringBuilder("{");
        m.forEach((k, x) -> out.append(render(k)).append('=').append(render(x)).append(','));
        return out.append('}').toString();
      }
      if (v instanceof List<?> l) {
        StringBuilder out = new StringBuilder("[");
        l.forEach(x -> out.append(render(x)).append(','));
        return out.append(']').toString();
      }
      return v + ":" + (v == null ? "" : v.getClass().getSimpleName());
    }
  }
}
