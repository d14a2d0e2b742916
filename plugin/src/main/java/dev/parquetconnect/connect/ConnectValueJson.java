package dev.parquetconnect.connect;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Connect values to and from the {@link Json} model, losslessly: what goes through comes back
 * {@code equals} to what went in, with the same Java classes. It carries schema default values in
 * the file metadata and header values (whose types vary per record) in the headers column.
 *
 * <p>With a schema, a value is written by it: integers and booleans as JSON numbers and booleans,
 * floats as their shortest decimal text (NaN, infinities and -0.0 as strings, which JSON numbers
 * cannot hold), text as a string, bytes as base64, decimals as their text (scale kept),
 * Date/Time/Timestamp as epoch milliseconds, arrays as arrays, maps as arrays of {@code [key,
 * value]} pairs (keys need not be strings) and structs as objects.
 *
 * <p>Without a schema (a schemaless header), every value is tagged with its type: {@code ["int32",
 * 5]}, {@code ["array", [...]]}, {@code ["struct", schema, {...}]}, so even a list of mixed types
 * or a {@code Short} comes back as it was.
 */
final class ConnectValueJson {
  private ConnectValueJson() {}

  // ---- with a schema

  /** {@code value} in the JSON model; {@link IllegalArgumentException} if it does not fit. */
  static Object toJson(Schema schema, Object value) {
    if (schema == null) {
      return tagged(value);
    }
    if (value == null) {
      return null;
    }
    String logical = schema.name();
    if (logical != null) {
      switch (logical) {
        case Decimal.LOGICAL_NAME:
          return as(BigDecimal.class, value, schema).toString();
        case Date.LOGICAL_NAME:
        case Time.LOGICAL_NAME:
        case Timestamp.LOGICAL_NAME:
          return BigDecimal.valueOf(as(java.util.Date.class, value, schema).getTime());
        default:
          break;
      }
    }
    switch (schema.type()) {
      case INT8:
        return BigDecimal.valueOf(as(Byte.class, value, schema));
      case INT16:
        return BigDecimal.valueOf(as(Short.class, value, schema));
      case INT32:
        return BigDecimal.valueOf(as(Integer.class, value, schema));
      case INT64:
        return BigDecimal.valueOf(as(Long.class, value, schema));
      case FLOAT32:
        return floatingToJson(as(Float.class, value, schema));
      case FLOAT64:
        return floatingToJson(as(Double.class, value, schema));
      case BOOLEAN:
        return as(Boolean.class, value, schema);
      case STRING:
        return as(String.class, value, schema);
      case BYTES:
        return Base64.getEncoder().encodeToString(bytes(value, schema));
      case ARRAY:
        {
          List<Object> out = new ArrayList<>();
          for (Object e : as(List.class, value, schema)) {
            out.add(toJson(schema.valueSchema(), e));
          }
          return out;
        }
      case MAP:
        {
          List<Object> out = new ArrayList<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) as(Map.class, value, schema)).entrySet()) {
            List<Object> pair = new ArrayList<>(2);
            pair.add(toJson(schema.keySchema(), e.getKey()));
            pair.add(toJson(schema.valueSchema(), e.getValue()));
            out.add(pair);
          }
          return out;
        }
      case STRUCT:
        {
          Struct struct = as(Struct.class, value, schema);
          Map<String, Object> out = new LinkedHashMap<>();
          for (org.apache.kafka.connect.data.Field f : schema.fields()) {
            // The raw value, not get(): a null that the field's default would hide stays null.
            out.put(f.name(), toJson(f.schema(), struct.getWithoutDefault(f.name())));
          }
          return out;
        }
      default:
        throw new IllegalArgumentException("unknown Connect type " + schema.type());
    }
  }

  /** The value {@code json} holds for {@code schema}; {@link IllegalArgumentException} if not. */
  static Object fromJson(Schema schema, Object json) {
    try {
      return decode(schema, json);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("a number out of range: " + e.getMessage(), e);
    }
  }

  private static Object decode(Schema schema, Object json) {
    if (schema == null) {
      return untagged(json);
    }
    if (json == null) {
      return null;
    }
    String logical = schema.name();
    if (logical != null) {
      switch (logical) {
        case Decimal.LOGICAL_NAME:
          return new BigDecimal(expect(String.class, json));
        case Date.LOGICAL_NAME:
        case Time.LOGICAL_NAME:
        case Timestamp.LOGICAL_NAME:
          return new java.util.Date(expect(BigDecimal.class, json).longValueExact());
        default:
          break;
      }
    }
    switch (schema.type()) {
      case INT8:
        return expect(BigDecimal.class, json).byteValueExact();
      case INT16:
        return expect(BigDecimal.class, json).shortValueExact();
      case INT32:
        return expect(BigDecimal.class, json).intValueExact();
      case INT64:
        return expect(BigDecimal.class, json).longValueExact();
      case FLOAT32:
        return json instanceof String s
            ? Float.parseFloat(s)
            : expect(BigDecimal.class, json).floatValue();
      case FLOAT64:
        return json instanceof String s
            ? Double.parseDouble(s)
            : expect(BigDecimal.class, json).doubleValue();
      case BOOLEAN:
        return expect(Boolean.class, json);
      case STRING:
        return expect(String.class, json);
      case BYTES:
        return Base64.getDecoder().decode(expect(String.class, json));
      case ARRAY:
        {
          List<?> in = expect(List.class, json);
          List<Object> out = new ArrayList<>(in.size());
          for (Object e : in) {
            out.add(fromJson(schema.valueSchema(), e));
          }
          return out;
        }
      case MAP:
        {
          Map<Object, Object> out = new LinkedHashMap<>();
          for (Object e : expect(List.class, json)) {
            List<?> pair = expect(List.class, e);
            if (pair.size() != 2) {
              throw new IllegalArgumentException("a map entry needs [key, value], got " + pair);
            }
            out.put(
                fromJson(schema.keySchema(), pair.get(0)),
                fromJson(schema.valueSchema(), pair.get(1)));
          }
          return out;
        }
      case STRUCT:
        {
          Map<?, ?> in = expect(Map.class, json);
          Struct struct = new Struct(schema);
          for (org.apache.kafka.connect.data.Field f : schema.fields()) {
            Object v = in.get(f.name());
            if (v != null) {
              struct.put(f, fromJson(f.schema(), v));
            }
          }
          return struct;
        }
      default:
        throw new IllegalArgumentException("unknown Connect type " + schema.type());
    }
  }

  private static Object floatingToJson(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d) || d == 0 && 1 / d < 0) {
      return Double.toString(d);
    }
    return new BigDecimal(Double.toString(d));
  }

  private static Object floatingToJson(float f) {
    if (Float.isNaN(f) || Float.isInfinite(f) || f == 0 && 1 / f < 0) {
      return Float.toString(f);
    }
    return new BigDecimal(Float.toString(f));
  }

  // ---- without a schema

  private static Object tagged(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Byte b) {
      return tag("int8", BigDecimal.valueOf(b));
    }
    if (value instanceof Short s) {
      return tag("int16", BigDecimal.valueOf(s));
    }
    if (value instanceof Integer i) {
      return tag("int32", BigDecimal.valueOf(i));
    }
    if (value instanceof Long l) {
      return tag("int64", BigDecimal.valueOf(l));
    }
    if (value instanceof Float f) {
      return tag("float32", floatingToJson(f));
    }
    if (value instanceof Double d) {
      return tag("float64", floatingToJson(d));
    }
    if (value instanceof Boolean b) {
      return tag("boolean", b);
    }
    if (value instanceof String s) {
      return tag("string", s);
    }
    if (value instanceof byte[] || value instanceof ByteBuffer) {
      return tag("bytes", Base64.getEncoder().encodeToString(bytes(value, null)));
    }
    if (value instanceof BigDecimal d) {
      return tag("decimal", d.toString());
    }
    if (value instanceof java.util.Date d) {
      return tag("timestamp", BigDecimal.valueOf(d.getTime()));
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object e : list) {
        out.add(tagged(e));
      }
      return tag("array", out);
    }
    if (value instanceof Map<?, ?> map) {
      List<Object> out = new ArrayList<>(map.size());
      for (Map.Entry<?, ?> e : map.entrySet()) {
        List<Object> pair = new ArrayList<>(2);
        pair.add(tagged(e.getKey()));
        pair.add(tagged(e.getValue()));
        out.add(pair);
      }
      return tag("map", out);
    }
    if (value instanceof Struct struct) {
      List<Object> out = new ArrayList<>(3);
      out.add("struct");
      out.add(ConnectSchemaJson.toJson(struct.schema()));
      out.add(toJson(struct.schema(), struct));
      return out;
    }
    throw new IllegalArgumentException(
        "a schemaless value of class " + value.getClass().getName() + " has no Connect type");
  }

  private static List<Object> tag(String type, Object payload) {
    List<Object> out = new ArrayList<>(2);
    out.add(type);
    out.add(payload);
    return out;
  }

  private static Object untagged(Object json) {
    if (json == null) {
      return null;
    }
    List<?> tagged = expect(List.class, json);
    if (tagged.size() < 2 || !(tagged.get(0) instanceof String type)) {
      throw new IllegalArgumentException("a schemaless value needs [type, value], got " + json);
    }
    Object payload = tagged.get(1);
    switch (type) {
      case "int8":
        return fromJson(Schema.INT8_SCHEMA, payload);
      case "int16":
        return fromJson(Schema.INT16_SCHEMA, payload);
      case "int32":
        return fromJson(Schema.INT32_SCHEMA, payload);
      case "int64":
        return fromJson(Schema.INT64_SCHEMA, payload);
      case "float32":
        return fromJson(Schema.FLOAT32_SCHEMA, payload);
      case "float64":
        return fromJson(Schema.FLOAT64_SCHEMA, payload);
      case "boolean":
        return fromJson(Schema.BOOLEAN_SCHEMA, payload);
      case "string":
        return fromJson(Schema.STRING_SCHEMA, payload);
      case "bytes":
        return fromJson(Schema.BYTES_SCHEMA, payload);
      case "decimal":
        return new BigDecimal(expect(String.class, payload));
      case "timestamp":
        return new java.util.Date(expect(BigDecimal.class, payload).longValueExact());
      case "array":
        {
          List<?> in = expect(List.class, payload);
          List<Object> out = new ArrayList<>(in.size());
          for (Object e : in) {
            out.add(untagged(e));
          }
          return out;
        }
      case "map":
        {
          Map<Object, Object> out = new LinkedHashMap<>();
          for (Object e : expect(List.class, payload)) {
            List<?> pair = expect(List.class, e);
            if (pair.size() != 2) {
              throw new IllegalArgumentException("a map entry needs [key, value], got " + pair);
            }
            out.put(untagged(pair.get(0)), untagged(pair.get(1)));
          }
          return out;
        }
      case "struct":
        {
          if (tagged.size() != 3) {
            throw new IllegalArgumentException("a schemaless struct needs [struct, schema, value]");
          }
          return fromJson(ConnectSchemaJson.fromJson(payload), tagged.get(2));
        }
      default:
        throw new IllegalArgumentException("unknown schemaless type tag " + type);
    }
  }

  // ---- helpers

  /** The bytes of a BYTES value, which Connect allows as {@code byte[]} or {@code ByteBuffer}. */
  static byte[] bytes(Object value, Schema schema) {
    if (value instanceof byte[] b) {
      return b;
    }
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer view = buffer.duplicate();
      byte[] out = new byte[view.remaining()];
      view.get(out);
      return out;
    }
    throw mismatch(value, schema);
  }

  private static <T> T as(Class<T> type, Object value, Schema schema) {
    if (!type.isInstance(value)) {
      throw mismatch(value, schema);
    }
    return type.cast(value);
  }

  private static IllegalArgumentException mismatch(Object value, Schema schema) {
    return new IllegalArgumentException(
        "a " + value.getClass().getName() + " is no value of " + ConnectTypes.describe(schema));
  }

  private static <T> T expect(Class<T> type, Object json) {
    if (!type.isInstance(json)) {
      throw new IllegalArgumentException(
          "expected JSON "
              + type.getSimpleName()
              + ", got "
              + (json == null ? "null" : json.getClass().getSimpleName()));
    }
    return type.cast(json);
  }
}
