package dev.parquetconnect.connect;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Connect schemas and values covering every type, logical type, optional flag, default and nesting
 * the mapping handles, with values at the edges (extreme numbers, NaN, -0.0, empty and non-ASCII
 * text, nulls at every level, empty lists and maps).
 */
public final class ConnectTestData {
  static final String TOPIC = "orders";
  static final int PARTITION = 3;

  private ConnectTestData() {}

  static Schema decimal(int scale, Integer precision) {
    SchemaBuilder b = Decimal.builder(scale);
    if (precision != null) {
      b.parameter(ConnectTypes.DECIMAL_PRECISION, precision.toString());
    }
    return b.build();
  }

  static Schema optionalDecimal(int scale, Integer precision) {
    SchemaBuilder b = Decimal.builder(scale).optional();
    if (precision != null) {
      b.parameter(ConnectTypes.DECIMAL_PRECISION, precision.toString());
    }
    return b.build();
  }

  static final Schema POINT =
      SchemaBuilder.struct()
          .name("com.example.Point")
          .version(2)
          .doc("a point")
          .field("x", Schema.INT32_SCHEMA)
          .field("label", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  static final Schema LEVEL3 =
      SchemaBuilder.struct()
          .name("com.example.Level3")
          .optional()
          .field("leaf", Schema.OPTIONAL_STRING_SCHEMA)
          .field("points", SchemaBuilder.array(POINT).optional().build())
          .field(
              "tags",
              SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA)
                  .optional()
                  .build())
          .build();

  static final Schema LEVEL2 =
      SchemaBuilder.struct()
          .name("com.example.Level2")
          .optional()
          .field("depth", Schema.INT8_SCHEMA)
          .field("level3", LEVEL3)
          .build();

  static final Schema LEVEL1 =
      SchemaBuilder.struct()
          .name("com.example.Level1")
          .optional()
          .field("level2", LEVEL2)
          .field("when", Timestamp.builder().optional().build())
          .build();

  static final Schema EMPTY = SchemaBuilder.struct().name("com.example.Empty").optional().build();

  /** One field per Connect type and logical type, required and optional, nested 4 deep. */
  static final Schema EVERY_TYPE =
      SchemaBuilder.struct()
          .name("com.example.EveryType")
          .version(7)
          .doc("all of them")
          .parameter("owner", "team-a")
          .field("i8", Schema.INT8_SCHEMA)
          .field("i16", Schema.INT16_SCHEMA)
          .field("i32", Schema.INT32_SCHEMA)
          .field("i64", Schema.INT64_SCHEMA)
          .field("f32", Schema.FLOAT32_SCHEMA)
          .field("f64", Schema.FLOAT64_SCHEMA)
          .field("bool", Schema.BOOLEAN_SCHEMA)
          .field("str", Schema.STRING_SCHEMA)
          .field("bytes", Schema.BYTES_SCHEMA)
          .field("dec9", decimal(2, 9))
          .field("dec18", decimal(4, 18))
          .field("dec30", decimal(6, 30))
          .field("dec_unbounded", decimal(3, null))
          .field("dec_negative_scale", decimal(-2, 5))
          .field("date", Date.SCHEMA)
          .field("time", Time.SCHEMA)
          .field("ts", Timestamp.SCHEMA)
          .field("opt_i8", Schema.OPTIONAL_INT8_SCHEMA)
          .field("opt_i16", Schema.OPTIONAL_INT16_SCHEMA)
          .field("opt_i32", Schema.OPTIONAL_INT32_SCHEMA)
          .field("opt_i64", Schema.OPTIONAL_INT64_SCHEMA)
          .field("opt_f32", Schema.OPTIONAL_FLOAT32_SCHEMA)
          .field("opt_f64", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("opt_bool", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("opt_str", Schema.OPTIONAL_STRING_SCHEMA)
          .field("opt_bytes", Schema.OPTIONAL_BYTES_SCHEMA)
          .field("opt_dec", optionalDecimal(2, 9))
          .field("opt_date", Date.builder().optional().build())
          .field("opt_time", Time.builder().optional().build())
          .field("opt_ts", Timestamp.builder().optional().build())
          .field("with_default", SchemaBuilder.int32().defaultValue(42).build())
          .field(
              "opt_with_default",
              SchemaBuilder.string().optional().defaultValue("fallback").build())
          .field("ints", SchemaBuilder.array(Schema.INT32_SCHEMA).build())
          .field(
              "opt_strings", SchemaBuilder.array(Schema.OPTIONAL_STRING_SCHEMA).optional().build())
          .field("string_map", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT64_SCHEMA).build())
          .field(
              "int_map",
              SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA)
                  .optional()
                  .build())
          .field(
              "struct_key_map",
              SchemaBuilder.map(POINT, Schema.OPTIONAL_FLOAT64_SCHEMA).optional().build())
          .field("nested", LEVEL1)
          .field(
              "list_of_lists",
              SchemaBuilder.array(
                      SchemaBuilder.array(Schema.OPTIONAL_INT64_SCHEMA).optional().build())
                  .optional()
                  .build())
          .field(
              "map_of_lists",
              SchemaBuilder.map(Schema.STRING_SCHEMA, SchemaBuilder.array(POINT).build())
                  .optional()
                  .build())
          .field("empty", EMPTY)
          .build();

  public static java.util.Date date(long days) {
    return new java.util.Date(days * 86_400_000L);
  }

  static Struct point(int x, String label) {
    return new Struct(POINT).put("x", x).put("label", label);
  }

  /** A record with every field set, including nesting four levels deep. */
  static Struct full(int seed) {
    Struct s = new Struct(EVERY_TYPE);
    s.put("i8", (byte) (seed % 2 == 0 ? Byte.MIN_VALUE : Byte.MAX_VALUE));
    s.put("i16", (short) (seed % 2 == 0 ? Short.MIN_VALUE : 1234));
    s.put("i32", seed % 2 == 0 ? Integer.MIN_VALUE : seed);
    s.put("i64", seed % 2 == 0 ? Long.MAX_VALUE : -seed * 1_000_000_007L);
    s.put("f32", seed % 3 == 0 ? Float.NaN : seed % 3 == 1 ? -0.0f : 1.5f * seed);
    s.put("f64", seed % 3 == 0 ? Double.NEGATIVE_INFINITY : seed % 3 == 1 ? -0.0 : Math.PI * seed);
    s.put("bool", seed % 2 == 0);
    s.put("str", seed % 2 == 0 ? "" : "h\u00e9llo \u4e16\u754c \ud83d\ude00 #" + seed);
    s.put("bytes", seed % 2 == 0 ? new byte[0] : new byte[] {0, (byte) 0xFF, (byte) seed});
    s.put("dec9", new BigDecimal(seed % 2 == 0 ? "-9999999.99" : "1234567.89"));
    s.put("dec18", new BigDecimal(seed % 2 == 0 ? "-99999999999999.9999" : "0.0001"));
    s.put("dec30", new BigDecimal(seed % 2 == 0 ? "-999999999999999999999999.999999" : "1.000000"));
    s.put(
        "dec_unbounded",
        new BigDecimal(seed % 2 == 0 ? "99999999999999999999999999999999999.999" : "-0.001"));
    s.put("dec_negative_scale", new BigDecimal(new java.math.BigInteger("123"), -2));
    s.put("date", date(seed % 2 == 0 ? -719_162 : 19_000 + seed));
    s.put("time", new java.util.Date(seed % 2 == 0 ? 0 : 86_399_999));
    s.put("ts", new java.util.Date(seed % 2 == 0 ? -62_135_596_800_000L : 1_700_000_000_123L));
    s.put("opt_i8", (byte) 7);
    s.put("opt_i16", (short) -7);
    s.put("opt_i32", 77);
    s.put("opt_i64", 777L);
    s.put("opt_f32", Float.MIN_VALUE);
    s.put("opt_f64", Double.MAX_VALUE);
    s.put("opt_bool", Boolean.TRUE);
    s.put("opt_str", "opt");
    s.put("opt_bytes", ByteBuffer.wrap(new byte[] {9, 8, 7, 6}, 1, 2).slice());
    s.put("opt_dec", new BigDecimal("-0.01"));
    s.put("opt_date", date(0));
    s.put("opt_time", new java.util.Date(12_345_678));
    s.put("opt_ts", new java.util.Date(0));
    s.put("with_default", 1);
    s.put("opt_with_default", "given");
    s.put("ints", List.of(1, 2, 3, seed));
    s.put("opt_strings", Arrays.asList("a", null, "", "d"));
    Map<String, Long> stringMap = new LinkedHashMap<>();
    stringMap.put("one", 1L);
    stringMap.put("", Long.MIN_VALUE);
    s.put("string_map", stringMap);
    Map<Integer, String> intMap = new LinkedHashMap<>();
    intMap.put(-1, null);
    intMap.put(5, "five");
    s.put("int_map", intMap);
    Map<Struct, Double> structKeys = new LinkedHashMap<>();
    structKeys.put(point(1, "one"), 1.0);
    structKeys.put(point(2, null), null);
    s.put("struct_key_map", structKeys);
    s.put("nested", level1(seed));
    s.put("list_of_lists", Arrays.asList(Arrays.asList(1L, null, 3L), null, List.of()));
    Map<String, List<Struct>> mapOfLists = new LinkedHashMap<>();
    mapOfLists.put("a", List.of(point(1, "x"), point(2, null)));
    mapOfLists.put("b", List.of());
    s.put("map_of_lists", mapOfLists);
    s.put("empty", new Struct(EMPTY));
    return s;
  }

  static Struct level1(int seed) {
    Map<String, Long> tags = new LinkedHashMap<>();
    tags.put("t" + seed, (long) seed);
    tags.put("null-valued", null);
    Struct level3 =
        new Struct(LEVEL3)
            .put("leaf", "deep-" + seed)
            .put("points", List.of(point(seed, "p"), point(-seed, null)))
            .put("tags", tags);
    Struct level2 = new Struct(LEVEL2).put("depth", (byte) 2).put("level3", level3);
    return new Struct(LEVEL1).put("level2", level2).put("when", new java.util.Date(seed));
  }

  /** Only the required fields set: every optional one null, defaults left to apply. */
  static Struct minimal(int seed) {
    Struct s = new Struct(EVERY_TYPE);
    s.put("i8", (byte) 0);
    s.put("i16", (short) 0);
    s.put("i32", 0);
    s.put("i64", 0L);
    s.put("f32", 0f);
    s.put("f64", 0d);
    s.put("bool", false);
    s.put("str", "min" + seed);
    s.put("bytes", new byte[] {1});
    s.put("dec9", new BigDecimal("0.00"));
    s.put("dec18", new BigDecimal("0.0000"));
    s.put("dec30", new BigDecimal("0.000000"));
    s.put("dec_unbounded", new BigDecimal("0.000"));
    s.put("dec_negative_scale", new BigDecimal(java.math.BigInteger.ZERO, -2));
    s.put("date", date(0));
    s.put("time", new java.util.Date(0));
    s.put("ts", new java.util.Date(0));
    s.put("ints", List.of());
    s.put("string_map", Map.of());
    return s;
  }

  /** Nulls at each nesting level in turn: level 1, 2, 3, and inside level 3. */
  static Struct nullsAtLevel(int level) {
    Struct s = minimal(100 + level);
    s.put("opt_strings", level % 2 == 0 ? List.of() : null);
    s.put("int_map", level % 2 == 0 ? Map.of() : null);
    Struct l1 = level1(level);
    switch (level) {
      case 1 -> s.put("nested", null);
      case 2 -> s.put("nested", l1.put("level2", null));
      case 3 -> {
        ((Struct) l1.get("level2")).put("level3", null);
        s.put("nested", l1);
      }
      default -> {
        Struct l3 = ((Struct) ((Struct) l1.get("level2")).get("level3"));
        l3.put("leaf", null).put("points", null).put("tags", null);
        s.put("nested", l1.put("when", null));
      }
    }
    s.put("list_of_lists", Arrays.asList(null, Arrays.asList((Long) null)));
    s.put("empty", null);
    return s;
  }

  /** The values every test writes: full, minimal and null-at-every-level records. */
  static List<Struct> everyTypeValues() {
    List<Struct> values = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      values.add(full(i));
    }
    values.add(minimal(0));
    for (int level = 1; level <= 4; level++) {
      values.add(nullsAtLevel(level));
    }
    return values;
  }

  static ConnectHeaders headers(int seed) {
    ConnectHeaders h = new ConnectHeaders();
    if (seed % 3 == 0) {
      return h;
    }
    h.addString("trace", "id-" + seed);
    h.addBytes("raw", new byte[] {1, 2, (byte) seed});
    h.addInt("count", seed);
    h.add("schemaless", Arrays.asList(1L, "two", 3.0, null), null);
    h.add("null", null, null);
    h.addString("trace", "repeated key");
    h.addDecimal("price", new BigDecimal("12.30"));
    h.addStruct("point", point(seed, "h"));
    Map<String, Integer> map = new HashMap<>();
    map.put("k", seed);
    h.addMap("map", map, SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).build());
    h.add("stringy", "\u00e9\u00e8", Schema.OPTIONAL_STRING_SCHEMA);
    return h;
  }

  static SinkRecord record(
      Schema keySchema, Object key, Schema valueSchema, Object value, long offset) {
    return new SinkRecord(
        TOPIC,
        PARTITION,
        keySchema,
        key,
        valueSchema,
        value,
        offset,
        offset % 5 == 0 ? null : 1_700_000_000_000L + offset,
        offset % 5 == 0 ? TimestampType.NO_TIMESTAMP_TYPE : TimestampType.CREATE_TIME,
        headers((int) offset));
  }

  static SinkRecord record(Schema valueSchema, Object value, long offset) {
    return record(
        Schema.OPTIONAL_STRING_SCHEMA,
        offset % 4 == 0 ? null : "key-" + offset,
        valueSchema,
        value,
        offset);
  }

  /**
   * The value as it reads back: a null with a default (a struct field, a list element, a map value)
   * holds the default, as Connect's converters serialise it too; a ByteBuffer is a byte[]. Applied
   * at every level.
   */
  public static Object normalized(Schema schema, Object value) {
    if (value == null) {
      return schema == null ? null : schema.defaultValue();
    }
    if (value instanceof ByteBuffer b) {
      byte[] copy = new byte[b.remaining()];
      b.duplicate().get(copy);
      return copy;
    }
    if (value instanceof Struct struct) {
      Struct out = new Struct(struct.schema());
      for (Field f : struct.schema().fields()) {
        Object v = normalized(f.schema(), struct.get(f));
        if (v != null) {
          out.put(f, v);
        }
      }
      return out;
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      for (Object e : list) {
        out.add(normalized(schema.valueSchema(), e));
      }
      return out;
    }
    if (value instanceof Map<?, ?> map) {
      Map<Object, Object> out = new HashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        out.put(
            normalized(schema.keySchema(), e.getKey()),
            normalized(schema.valueSchema(), e.getValue()));
      }
      return out;
    }
    return value;
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
