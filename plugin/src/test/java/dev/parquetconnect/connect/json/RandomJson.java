package dev.parquetconnect.connect.json;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.json.JsonConverter;

/**
 * Random JSON documents for the differential and fuzz tests, written as text the way producers do
 * (white space, escapes, duplicate keys, leading zeros and exponents included): a topic has a
 * drifting set of shapes, so consecutive records share most keys and change types now and then;
 * envelopes come from Kafka's own JsonConverter serialising random Connect schemas and values (its
 * both decimal formats), plus hand-made envelopes that bend the schema's rules.
 */
final class RandomJson {
  static final String[] KEYS = {
    "id",
    "name",
    "a",
    "b",
    "a b",
    "x.y",
    "\u00fcml\u00e4ut",
    "\u65e5\u672c",
    "\ud83d\ude00",
    "q\"uote",
    "back\\slash",
    "tab\tkey",
    "value",
    "k/1",
    "n0",
    "n1",
    "n2",
    "Z",
    "z",
    "list"
  };
  static final String[] NUMBERS = {
    "0",
    "-0",
    "1",
    "-1",
    "007",
    "-007",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "-9223372036854775809",
    "18446744073709551616",
    "123456789012345678901234567890",
    "9007199254740993",
    "2147483647",
    "2147483648",
    "-2147483649",
    "1.0",
    "0.0",
    "-0.0",
    "1e300",
    "1E300",
    "-1.5e-7",
    "5e-324",
    "1.7976931348623157e308",
    "1.8e308",
    "2.5",
    "0.1",
    "123456789.123456789",
    "1E2",
    "1e+2",
    "-2.0E-3",
    "4.9E-324",
    "3.141592653589793",
    "9007199254740993.0",
    "1e-400",
    "-1e-400",
    "100.0",
    "-0e0",
    "00.5",
    "1e22",
    "1e23",
    "0.30000000000000004",
    "1234567890123456.7",
    "12345678901234567890.5",
    "1e-22",
    "8.988465674311579e307"
  };
  static final String[] STRINGS = {
    "",
    "plain",
    "\u00fcn\u00efc\u00f6d\u00e9",
    "\ud83d\ude00 smile",
    "\u0000nul",
    "line\nbreak",
    "tab\there",
    "quote\"d",
    "back\\slash",
    "{\"a\":1}",
    "123",
    "null",
    "\u2028\u2029",
    "\u007f\u0080\u07ff\u0800\uffff",
    "/slash/",
    "  spaces  ",
    "\ud800",
    "\udfff lone",
    "AAEC",
    "AQID",
    "AA==",
    "not base64!"
  };

  private final Random random;
  private List<String> topicKeys = new ArrayList<>();

  RandomJson(Random random) {
    this.random = random;
    drift();
  }

  /** Changes the topic's usual keys (a schema change between records). */
  void drift() {
    topicKeys = new ArrayList<>();
    int n = 1 + random.nextInt(6);
    for (int i = 0; i < n; i++) {
      topicKeys.add(KEYS[random.nextInt(KEYS.length)]);
    }
  }

  /** A schemaless document: mostly an object of the topic's keys. */
  String document() {
    if (random.nextInt(200) == 0) {
      drift();
    }
    StringBuilder out = new StringBuilder();
    space(out);
    if (random.nextInt(30) == 0) {
      value(out, 0);
    } else {
      out.append('{');
      int n = topicKeys.size() + (random.nextInt(4) == 0 ? 1 : 0);
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          out.append(',');
        }
        String key = i < topicKeys.size() ? topicKeys.get(i) : KEYS[random.nextInt(KEYS.length)];
        space(out);
        string(out, key);
        space(out);
        out.append(':');
        space(out);
        if (random.nextInt(4) == 0) {
          value(out, 1);
        } else {
          stableValue(out, key);
        }
        space(out);
      }
      out.append('}');
    }
    space(out);
    return out.toString();
  }

  /** A value whose type follows the key most of the time, so columns form and widen. */
  private void stableValue(StringBuilder out, String key) {
    switch (Math.floorMod(key.hashCode(), 5)) {
      case 0 -> out.append(random.nextInt(1000) - 500);
      case 1 -> string(out, STRINGS[random.nextInt(STRINGS.length)]);
      case 2 ->
          out.append(random.nextBoolean() ? "true" : random.nextInt(5) == 0 ? "null" : "false");
      case 3 -> out.append(NUMBERS[random.nextInt(NUMBERS.length)]);
      default -> {
        out.append('[');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            out.append(',');
          }
          out.append(random.nextInt(100));
        }
        out.append(']');
      }
    }
  }

  void value(StringBuilder out, int depth) {
    int kind = random.nextInt(depth > 3 ? 5 : 8);
    switch (kind) {
      case 0 -> out.append("null");
      case 1 -> out.append(random.nextBoolean());
      case 2 -> out.append(NUMBERS[random.nextInt(NUMBERS.length)]);
      case 3 -> out.append(random.nextLong() >> random.nextInt(64));
      case 4 -> string(out, randomString());
      case 5, 6 -> {
        out.append('{');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            out.append(',');
          }
          space(out);
          string(out, KEYS[random.nextInt(KEYS.length)]);
          out.append(':');
          space(out);
          value(out, depth + 1);
        }
        out.append('}');
      }
      default -> {
        out.append('[');
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          if (i > 0) {
            out.append(',');
          }
          space(out);
          value(out, depth + 1);
        }
        out.append(']');
      }
    }
  }

  private String randomString() {
    if (random.nextBoolean()) {
      return STRINGS[random.nextInt(STRINGS.length)];
    }
    StringBuilder s = new StringBuilder();
    int n = random.nextInt(12);
    for (int i = 0; i < n; i++) {
      switch (random.nextInt(6)) {
        case 0 -> s.append((char) (0x20 + random.nextInt(0x5f)));
        case 1 -> s.append((char) random.nextInt(0x20));
        case 2 -> s.append((char) (0x80 + random.nextInt(0x780)));
        case 3 -> s.append((char) (0x800 + random.nextInt(0xD000)));
        case 4 -> s.appendCodePoint(0x10000 + random.nextInt(0x100000));
        default -> s.append((char) (0xD800 + random.nextInt(0x800))); // lone surrogate
      }
    }
    return s.toString();
  }

  /** A JSON string, escaping what must be and, now and then, what need not be. */
  void string(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean lone =
          Character.isSurrogate(c)
              && !(Character.isHighSurrogate(c)
                  && i + 1 < s.length()
                  && Character.isLowSurrogate(s.charAt(i + 1)))
              && !(Character.isLowSurrogate(c)
                  && i > 0
                  && Character.isHighSurrogate(s.charAt(i - 1)));
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || lone || random.nextInt(40) == 0) {
        if (c == '\n' && random.nextBoolean()) {
          out.append("\\n");
        } else if (c == '/' && random.nextBoolean()) {
          out.append("\\/");
        } else {
          out.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
        }
      } else {
        out.append(c);
      }
    }
    out.append('"');
  }

  private void space(StringBuilder out) {
    if (random.nextInt(4) == 0) {
      out.append(" \t\n\r".charAt(random.nextInt(4)));
    }
  }

  // --------------------------------------------------------------------------------------------
  // Envelopes

  /** A schema of a topic, with logical types, nesting, defaults and optional fields. */
  Schema schema(int depth) {
    SchemaBuilder b;
    int kind = random.nextInt(depth > 1 ? 13 : 16);
    switch (kind) {
      case 0 -> b = SchemaBuilder.bool();
      case 1 -> b = SchemaBuilder.int8();
      case 2 -> b = SchemaBuilder.int16();
      case 3 -> b = SchemaBuilder.int32();
      case 4 -> b = SchemaBuilder.int64();
      case 5 -> b = SchemaBuilder.float32();
      case 6 -> b = SchemaBuilder.float64();
      case 7 -> b = SchemaBuilder.bytes();
      case 8 -> b = SchemaBuilder.string();
      case 9 -> b = Decimal.builder(random.nextInt(6));
      case 10 -> b = Date.builder();
      case 11 -> b = Time.builder();
      case 12 -> b = Timestamp.builder();
      case 13 -> b = SchemaBuilder.array(schema(depth + 1));
      case 14 -> b = SchemaBuilder.map(Schema.STRING_SCHEMA, schema(depth + 1));
      default -> {
        b = SchemaBuilder.struct().name("rec" + random.nextInt(3));
        int n = 1 + random.nextInt(depth == 0 ? 8 : 4);
        for (int i = 0; i < n; i++) {
          b.field("f" + i, schema(depth + 1));
        }
      }
    }
    if (random.nextInt(3) > 0) {
      b.optional();
    }
    Schema built = b.build();
    if (built.type() == Schema.Type.INT32 && built.name() == null && random.nextInt(6) == 0) {
      return SchemaBuilder.int32().optional().defaultValue(42).build();
    }
    if (built.type() == Schema.Type.STRING && random.nextInt(6) == 0) {
      return SchemaBuilder.string().defaultValue("dflt").doc("a doc").build();
    }
    return built;
  }

  /**
   * A struct schema of the kinds the staged path reads straight into the columns (every Connect
   * leaf type: text, integers of 8 to 64 bits, floats, doubles, booleans, bytes, decimals with and
   * without a precision, Date, Time, Timestamp; defaults of leaves; arrays of leaves; nested
   * structs; optional or not), with now and then one field it leaves to the Struct path (an array
   * of structs, a map, a struct default).
   */
  Schema stageableSchema(int depth) {
    SchemaBuilder b = SchemaBuilder.struct().name("staged" + random.nextInt(3));
    int n = 1 + random.nextInt(depth == 0 ? 10 : 4);
    for (int i = 0; i < n; i++) {
      SchemaBuilder f;
      int kind = random.nextInt(depth < 2 ? 18 : 17);
      switch (kind) {
        case 0, 1 -> f = SchemaBuilder.string();
        case 2 -> f = SchemaBuilder.int32();
        case 3 -> f = SchemaBuilder.int64();
        case 4 -> f = SchemaBuilder.float64();
        case 5 -> f = SchemaBuilder.bool();
        case 6 -> f = Timestamp.builder();
        case 7 -> {
          if (random.nextInt(40) > 0) {
            f = SchemaBuilder.string();
          } else {
            b.field("f" + i, schema(depth + 1)); // anything: mostly left to the Struct path
            continue;
          }
        }
        case 8 -> f = SchemaBuilder.int8();
        case 9 -> f = SchemaBuilder.int16();
        case 10 -> f = SchemaBuilder.float32();
        case 11 -> f = SchemaBuilder.bytes();
        case 12 -> {
          f = Decimal.builder(random.nextInt(6));
          if (random.nextInt(3) == 0) {
            int[] precisions = {4, 9, 18, 30};
            f.parameter("connect.decimal.precision", "" + precisions[random.nextInt(4)]);
          }
        }
        case 13 -> f = Date.builder();
        case 14 -> f = Time.builder();
        case 15 -> f = withDefault();
        case 16 -> {
          Schema[] elements = {
            Schema.STRING_SCHEMA,
            Schema.OPTIONAL_STRING_SCHEMA,
            Schema.INT32_SCHEMA,
            Schema.OPTIONAL_INT64_SCHEMA,
            Schema.FLOAT64_SCHEMA,
            Schema.INT16_SCHEMA,
            Schema.OPTIONAL_BYTES_SCHEMA,
            Decimal.schema(2),
            Date.SCHEMA,
            Schema.FLOAT32_SCHEMA,
            Schema.OPTIONAL_BOOLEAN_SCHEMA
          };
          f = SchemaBuilder.array(elements[random.nextInt(elements.length)]);
        }
        default -> {
          Schema nested = stageableSchema(depth + 1);
          SchemaBuilder copy = SchemaBuilder.struct().name(nested.name());
          nested.fields().forEach(x -> copy.field(x.name(), x.schema()));
          f = copy;
        }
      }
      if (random.nextInt(3) > 0) {
        f.optional();
      }
      b.field("f" + i, f.build());
    }
    return b.build();
  }

  /** A leaf with a default, which an absent or null member takes. */
  private SchemaBuilder withDefault() {
    return switch (random.nextInt(8)) {
      case 0 -> SchemaBuilder.int16().defaultValue((short) 7);
      case 1 -> SchemaBuilder.int8().defaultValue((byte) -3);
      case 2 -> SchemaBuilder.string().defaultValue("dflt");
      case 3 -> Decimal.builder(2).defaultValue(new BigDecimal("1.00"));
      case 4 -> Date.builder().defaultValue(new java.util.Date(19_000 * 86_400_000L));
      case 5 -> SchemaBuilder.bytes().defaultValue(new byte[] {1, 2});
      case 6 -> SchemaBuilder.float32().defaultValue(0.5f);
      default -> Time.builder().defaultValue(new java.util.Date(1_000));
    };
  }

  /** Doubles as producers write them most: a few digits; else {@link #randomDouble}. */
  private boolean shortDoubles;

  /** Whether most doubles have a few digits (their JSON then reads without BigDecimal). */
  void shortDoubles(boolean on) {
    shortDoubles = on;
  }

  /** A value of {@code schema}, null now and then where allowed. */
  Object valueOf(Schema schema) {
    if (schema.isOptional() && random.nextInt(8) == 0) {
      return null;
    }
    if (schema.name() != null) {
      switch (schema.name()) {
        case Decimal.LOGICAL_NAME:
          int scale = Integer.parseInt(schema.parameters().get(Decimal.SCALE_FIELD));
          return new BigDecimal(decimalDigits(), scale);
        case Date.LOGICAL_NAME:
          return new java.util.Date((random.nextInt(40000) - 20000) * 86_400_000L);
        case Time.LOGICAL_NAME:
          return new java.util.Date(random.nextInt(86_400_000));
        case Timestamp.LOGICAL_NAME:
          return new java.util.Date(random.nextLong() >> 20);
        default:
          break;
      }
    }
    return switch (schema.type()) {
      case BOOLEAN -> random.nextBoolean();
      case INT8 -> (byte) random.nextInt();
      case INT16 -> (short) random.nextInt();
      case INT32 -> random.nextInt() >> random.nextInt(32);
      case INT64 -> random.nextLong() >> random.nextInt(64);
      case FLOAT32 -> randomFloat();
      case FLOAT64 -> randomDouble();
      case BYTES -> {
        byte[] bytes = new byte[random.nextInt(6)];
        random.nextBytes(bytes);
        yield bytes;
      }
      case STRING -> randomString();
      case ARRAY -> {
        List<Object> list = new ArrayList<>();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
          list.add(valueOf(schema.valueSchema()));
        }
        yield list;
      }
      case MAP -> {
        Map<Object, Object> map = new java.util.HashMap<>();
        int n = random.nextInt(3);
        for (int i = 0; i < n; i++) {
          map.put(KEYS[random.nextInt(KEYS.length)], valueOf(schema.valueSchema()));
        }
        yield map;
      }
      case STRUCT -> {
        Struct s = new Struct(schema);
        for (org.apache.kafka.connect.data.Field f : schema.fields()) {
          s.put(f, valueOf(f.schema()));
        }
        yield s;
      }
    };
  }

  /** A decimal's unscaled value: mostly within a long, now and then at or beyond its edges. */
  private java.math.BigInteger decimalDigits() {
    return switch (random.nextInt(12)) {
      case 0 -> java.math.BigInteger.valueOf(Long.MIN_VALUE);
      case 1 -> java.math.BigInteger.valueOf(Long.MAX_VALUE);
      case 2 -> java.math.BigInteger.ZERO;
      case 3 -> {
        java.math.BigInteger big = new java.math.BigInteger(64 + random.nextInt(60), random);
        yield random.nextBoolean() ? big.negate() : big;
      }
      default -> java.math.BigInteger.valueOf(random.nextLong() >> random.nextInt(64));
    };
  }

  private float randomFloat() {
    return switch (random.nextInt(5)) {
      case 0 -> 0.0f;
      case 1 -> -0.0f;
      case 2 -> Float.MAX_VALUE;
      case 3 ->
          shortDoubles
              ? (random.nextInt(200_001) - 100_000) / 100f // the floats producers write most
              : (random.nextFloat() - 0.5f) * (float) Math.pow(10, random.nextInt(20) - 10);
      default -> (random.nextFloat() - 0.5f) * (float) Math.pow(10, random.nextInt(20) - 10);
    };
  }

  private double randomDouble() {
    if (shortDoubles && random.nextInt(4) > 0) {
      return switch (random.nextInt(3)) {
        case 0 -> (random.nextInt(2_000_001) - 1_000_000) / 100.0;
        case 1 -> (double) (random.nextInt() >> random.nextInt(32));
        default -> random.nextInt(1_000_000) * Math.pow(10, random.nextInt(40) - 20);
      };
    }
    return switch (random.nextInt(6)) {
      case 0 -> 0.0;
      case 1 -> -0.0;
      case 2 -> Double.MIN_VALUE;
      case 3 -> Double.MAX_VALUE;
      default -> Double.longBitsToDouble(random.nextLong() & 0x7fefffffffffffffL);
    };
  }

  /**
   * An envelope of {@code schema}: JsonConverter's serialisation (numeric or base64 decimals), or
   * now and then one whose payload bends the schema (a wrong type, a null where required, an absent
   * field, an extra field, a duplicate key).
   */
  byte[] envelope(Schema schema, JsonConverter base64, JsonConverter numeric) {
    Object value = valueOf(schema);
    JsonConverter converter = random.nextBoolean() ? base64 : numeric;
    String text = new String(converter.fromConnectData("t", schema, value), StandardCharsets.UTF_8);
    int bend = random.nextInt(200);
    switch (bend < 10
        ? 0
        : bend < 15
            ? 1
            : bend < 20 ? 2 : bend == 20 && random.nextInt(10) == 0 ? 3 : bend < 31 ? 4 : 5) {
      case 0 -> {
        // The payload replaced by another random JSON value.
        int at = text.lastIndexOf(",\"payload\":");
        StringBuilder out = new StringBuilder(text.substring(0, at)).append(",\"payload\":");
        value(out, 1);
        text = out.append('}').toString();
      }
      case 1 -> text = "{\"payload\":null," + text.substring(1); // duplicate key, last wins
      case 2 -> text = text.substring(0, text.length() - 1) + ",\"extra\":1}";
      case 3 -> text = "{\"schema\":null,\"payload\":" + document() + "}";
      case 4 -> text = text.replaceFirst("\"f1\":[^,}\\]]*", "\"f1\":null"); // default or error
      default -> {}
    }
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
