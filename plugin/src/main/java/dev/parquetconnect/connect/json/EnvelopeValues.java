package dev.parquetconnect.connect.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Turns a JSON value read exactly ({@link JsonReader}'s exact form) into the Connect value
 * JsonConverter makes of it, with or without a schema, coercions included: JsonConverter reads a
 * field by the schema's type whatever the JSON holds (a string where an INT32 is declared reads as
 * 0, a number where a STRING is declared as null, an object where an array is declared as its
 * values), and applies Connect's Decimal, Date, Time and Timestamp by schema name. A null or absent
 * value takes the schema's default, else is null when optional, else is an error. Those rules are
 * kept here as they are, so both input formats write the same files.
 */
final class EnvelopeValues {
  private EnvelopeValues() {}

  /** The Connect value of {@code node} under {@code schema} (null: schemaless). */
  static Object convert(Schema schema, Object node) {
    if (schema == null) {
      return schemaless(node);
    }
    if (node == null) {
      if (schema.defaultValue() != null) {
        return schema.defaultValue();
      }
      if (schema.isOptional()) {
        return null;
      }
      throw new DataException("Invalid null value for required " + schema.type() + " field");
    }
    String name = schema.name();
    if (name != null) {
      switch (name) {
        case Decimal.LOGICAL_NAME:
          return decimal(schema, node);
        case Date.LOGICAL_NAME:
          if (!isInt(node)) {
            throw new DataException(
                "Invalid type for Date, underlying representation should be integer but was "
                    + nodeType(node));
          }
          return Date.toLogical(schema, intValue(node));
        case Time.LOGICAL_NAME:
          if (!isInt(node)) {
            throw new DataException(
                "Invalid type for Time, underlying representation should be integer but was "
                    + nodeType(node));
          }
          return Time.toLogical(schema, intValue(node));
        case Timestamp.LOGICAL_NAME:
          if (!(node instanceof Long || node instanceof BigInteger)) {
            throw new DataException(
                "Invalid type for Timestamp, underlying representation should be integral but was "
                    + nodeType(node));
          }
          return Timestamp.toLogical(schema, longValue(node));
        default:
          break;
      }
    }
    switch (schema.type()) {
      case BOOLEAN:
        return node instanceof Boolean b ? b : Boolean.FALSE;
      case INT8:
        return (byte) intValue(node);
      case INT16:
        return (short) intValue(node);
      case INT32:
        return intValue(node);
      case INT64:
        return longValue(node);
      case FLOAT32:
        return floatValue(node);
      case FLOAT64:
        return doubleValue(node);
      case BYTES:
        if (node instanceof String s) {
          byte[] bytes = Base64Text.decode(s);
          if (bytes == null) {
            throw new DataException("Invalid bytes field");
          }
          return bytes;
        }
        return null;
      case STRING:
        return node instanceof String s ? s : null;
      case ARRAY:
        return array(schema.valueSchema(), node);
      case MAP:
        return map(schema, node);
      case STRUCT:
        return struct(schema, node);
      default:
        throw new DataException("Unknown schema type: " + schema.type());
    }
  }

  private static List<Object> array(Schema elementSchema, Object node) {
    List<Object> out = new ArrayList<>();
    if (node instanceof List<?> list) {
      for (Object element : list) {
        out.add(convert(elementSchema, element));
      }
    } else if (node instanceof Map<?, ?> object) {
      for (Object element : object.values()) {
        out.add(convert(elementSchema, element));
      }
    }
    return out;
  }

  private static Map<Object, Object> map(Schema schema, Object node) {
    Map<Object, Object> out = new HashMap<>();
    if (schema.keySchema().type() == Schema.Type.STRING) {
      if (!(node instanceof Map<?, ?> object)) {
        throw new DataException(
            "Maps with string fields should be encoded as JSON objects, but found "
                + nodeType(node));
      }
      for (Map.Entry<?, ?> e : object.entrySet()) {
        out.put(e.getKey(), convert(schema.valueSchema(), e.getValue()));
      }
      return out;
    }
    if (!(node instanceof List<?> entries)) {
      throw new DataException(
          "Maps with non-string fields should be encoded as JSON array of tuples, but found "
              + nodeType(node));
    }
    for (Object entry : entries) {
      if (!(entry instanceof List<?> pair)) {
        throw new DataException(
            "Found invalid map entry instead of array tuple: " + nodeType(entry));
      }
      if (pair.size() != 2) {
        throw new DataException(
            "Found invalid map entry, expected length 2 but found :" + pair.size());
      }
      out.put(convert(schema.keySchema(), pair.get(0)), convert(schema.valueSchema(), pair.get(1)));
    }
    return out;
  }

  private static Struct struct(Schema schema, Object node) {
    if (!(node instanceof Map<?, ?> object)) {
      throw new DataException(
          "Structs should be encoded as JSON objects, but found " + nodeType(node));
    }
    Struct out = new Struct(schema.schema());
    for (Field field : schema.fields()) {
      out.put(field, convert(field.schema(), object.get(field.name())));
    }
    return out;
  }

  private static BigDecimal decimal(Schema schema, Object node) {
    if (node instanceof Long l) {
      return BigDecimal.valueOf(l);
    }
    if (node instanceof BigInteger b) {
      return new BigDecimal(b);
    }
    if (node instanceof BigDecimal d) {
      return d;
    }
    if (node instanceof String s) {
      byte[] bytes = Base64Text.decode(s);
      try {
        if (bytes == null) {
          throw new DataException("not base64");
        }
        return Decimal.toLogical(schema, bytes);
      } catch (RuntimeException e) {
        throw new DataException("Invalid bytes for Decimal field", e);
      }
    }
    throw new DataException(
        "Invalid type for Decimal, underlying representation should be numeric or bytes but was "
            + nodeType(node));
  }

  /** The schemaless value: integers as Long, other numbers as Double, maps and lists. */
  static Object schemaless(Object node) {
    if (node instanceof BigInteger b) {
      return b.longValue();
    }
    if (node instanceof BigDecimal d) {
      return d.doubleValue();
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object element : list) {
        out.add(schemaless(element));
      }
      return out;
    }
    if (node instanceof Map<?, ?> object) {
      Map<Object, Object> out = new HashMap<>();
      for (Map.Entry<?, ?> e : object.entrySet()) {
        out.put(e.getKey(), schemaless(e.getValue()));
      }
      return out;
    }
    return node; // null, Boolean, Long, String
  }

  private static boolean isInt(Object node) {
    return node instanceof Long l && l == (int) (long) l;
  }

  private static int intValue(Object node) {
    if (node instanceof Long l) {
      return (int) (long) l;
    }
    if (node instanceof Number n) {
      return n.intValue();
    }
    return 0;
  }

  private static long longValue(Object node) {
    return node instanceof Number n ? n.longValue() : 0L;
  }

  private static float floatValue(Object node) {
    if (node instanceof Long l) {
      return (float) (long) l;
    }
    return node instanceof Number n ? n.floatValue() : 0.0f;
  }

  private static double doubleValue(Object node) {
    if (node instanceof Long l) {
      return (double) (long) l;
    }
    return node instanceof Number n ? n.doubleValue() : 0.0;
  }

  /** Jackson's name of the node's type, as JsonConverter's messages say it. */
  static String nodeType(Object node) {
    if (node == null) {
      return "NULL";
    }
    if (node instanceof Map) {
      return "OBJECT";
    }
    if (node instanceof List) {
      return "ARRAY";
    }
    if (node instanceof String) {
      return "STRING";
    }
    if (node instanceof Boolean) {
      return "BOOLEAN";
    }
    return "NUMBER";
  }
}
