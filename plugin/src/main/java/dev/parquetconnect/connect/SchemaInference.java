package dev.parquetconnect.connect;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Connect schemas for schemaless values (JsonConverter with {@code schemas.enable=false}: {@code
 * Map<String, Object>}, {@code List}, {@code Long}, {@code Double}, {@code Boolean}, {@code
 * String}, null), inferred per file and learned per topic by the sink, and the conversion of such
 * values to {@code Struct}s of the inferred schema so they go through the same shredder as any
 * other record.
 *
 * <p>Inference:
 *
 * <ul>
 *   <li>{@code Integer}, {@code Short}, {@code Byte}: INT32; {@code Long}: INT64; {@code Double},
 *       {@code Float}, {@code BigDecimal}: FLOAT64; {@code Boolean}: BOOLEAN; {@code String}:
 *       STRING; {@code byte[]}, {@code ByteBuffer}: BYTES; {@code java.util.Date}: Timestamp;
 *   <li>a map with string keys: a STRUCT of its keys, fields sorted by name (so the schema does not
 *       depend on key order or on which record came first); any other map: a MAP; a map with an
 *       empty key {@code ""} (valid JSON, but no name for a Connect field): a type conflict, so
 *       STRING (its JSON text) or, under {@link ConflictPolicy#FAIL}, an error;
 *   <li>a list: an ARRAY of the merge of its elements' types;
 *   <li>null, and the elements of an empty list: {@link #UNKNOWN}, resolved by the first real type
 *       merged into it. A file has no column for a field still unknown (nor for a list of unknown
 *       elements or a map of unknown values): engines read the missing column as null, where a
 *       column of a guessed type would contradict the type later files learn.
 * </ul>
 *
 * Every inferred schema and field is optional: a key may be absent or null in the next record.
 *
 * <p>{@link #merge} widens: INT32 -> INT64 -> FLOAT64 (a long above 2^53 loses precision as a
 * double); a struct gets the union of the fields (a new key is a new optional column); arrays and
 * maps merge their element, key and value types; an empty map merges into a MAP. Any other pair is
 * a type conflict: with {@link ConflictPolicy#STRING} the field becomes STRING and non-text values
 * are stored as their JSON text ({@code 42}, {@code {"a":1}}); with {@link ConflictPolicy#FAIL} the
 * merge throws a {@link DataException} naming the field, so the record that brought the conflict
 * goes to the dead letter queue.
 *
 * <p>Merge is commutative and associative, so a file's schema does not depend on record order, and
 * {@link #fits fits(s, v)} holds exactly when {@code merge(s, infer(v))} equals {@code s}: a sink
 * keeps writing a file as long as records fit its schema, and otherwise widens the open file to the
 * merged schema in place (new optional columns) or opens a new file with it, which the following
 * records of either shape fit; the merges only grow, a bounded number of times.
 */
public final class SchemaInference {
  /** What a type conflict (a field that is a number in one record, a map in another) becomes. */
  public enum ConflictPolicy {
    /** The field becomes STRING; values that are not text are stored as their JSON text. */
    STRING,
    /** The merge fails with a {@link DataException}: the record goes to the dead letter queue. */
    FAIL
  }

  /** The type of a field that so far was only null (or the element of only empty lists). */
  public static final Schema UNKNOWN =
      SchemaBuilder.string().optional().name("dev.parquetconnect.connect.Unknown").build();

  private static final Schema INT32 = Schema.OPTIONAL_INT32_SCHEMA;
  private static final Schema INT64 = Schema.OPTIONAL_INT64_SCHEMA;
  private static final Schema FLOAT64 = Schema.OPTIONAL_FLOAT64_SCHEMA;
  private static final Schema BOOLEAN = Schema.OPTIONAL_BOOLEAN_SCHEMA;
  private static final Schema STRING = Schema.OPTIONAL_STRING_SCHEMA;
  private static final Schema BYTES = Schema.OPTIONAL_BYTES_SCHEMA;
  private static final Schema TIMESTAMP = Timestamp.builder().optional().build();
  private static final Schema EMPTY_STRUCT = SchemaBuilder.struct().optional().build();

  private final ConflictPolicy conflicts;

  public SchemaInference(ConflictPolicy conflicts) {
    this.conflicts = Objects.requireNonNull(conflicts, "conflicts");
  }

  public ConflictPolicy conflictPolicy() {
    return conflicts;
  }

  // ---- inference

  /**
   * The schema of one value, or null for a null value (which says nothing about the type). Throws
   * {@link DataException} for a value no JSON converter produces (a Struct, which has a schema of
   * its own, or an unknown class).
   */
  public Schema infer(Object value) {
    return value == null ? null : inferNonNull(value, "");
  }

  /** The merged schema of all {@code values} (null when all are null). */
  public Schema inferAll(Iterable<?> values) {
    Schema merged = null;
    for (Object v : values) {
      merged = merge(merged, infer(v));
    }
    return merged;
  }

  private Schema inferNonNull(Object value, String path) {
    if (value instanceof Long) {
      return INT64;
    }
    if (value instanceof String) {
      return STRING;
    }
    if (value instanceof Double || value instanceof Float || value instanceof BigDecimal) {
      return FLOAT64;
    }
    if (value instanceof Boolean) {
      return BOOLEAN;
    }
    if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return INT32;
    }
    if (value instanceof Map<?, ?> map) {
      return inferMap(map, path);
    }
    if (value instanceof List<?> list) {
      Schema element = UNKNOWN;
      int i = 0;
      for (Object e : list) {
        if (e != null) {
          element = merge(element, inferNonNull(e, path + "[" + i + "]"), path + "[]");
        }
        i++;
      }
      return SchemaBuilder.array(element).optional().build();
    }
    if (value instanceof byte[] || value instanceof ByteBuffer) {
      return BYTES;
    }
    if (value instanceof java.util.Date) {
      return TIMESTAMP;
    }
    throw new DataException(
        "field "
            + display(path)
            + ": a schemaless value of class "
            + value.getClass().getName()
            + " has no JSON type");
  }

  private Schema inferMap(Map<?, ?> map, String path) {
    boolean stringKeys = true;
    for (Object k : map.keySet()) {
      if (!(k instanceof String)) {
        stringKeys = false;
        break;
      }
    }
    if (stringKeys && map.containsKey("")) {
      // JSON allows an empty key ({"": 1}), but a Connect struct field needs a name
      // (SchemaBuilder.field refuses ""), so such an object cannot be a struct. It used to reach
      // SchemaBuilder and fail there with "fieldName cannot be null." (the record a bad record
      // under either policy, for a misleading reason). It is treated as a type conflict instead:
      // under STRING the field becomes STRING and the object is stored as its JSON text, nothing
      // lost; under FAIL the record is a bad record that says why.
      if (conflicts == ConflictPolicy.FAIL) {
        throw new DataException(
            "field "
                + display(path)
                + ": an object with an empty key (\"\")"
                + " cannot be a struct, Connect fields need a name (schemaless conflict policy FAIL;"
                + " STRING would store the object as its JSON text)");
      }
      return STRING;
    }
    if (stringKeys) {
      TreeMap<String, Schema> fields = new TreeMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String name = (String) e.getKey();
        Object v = e.getValue();
        fields.put(name, v == null ? UNKNOWN : inferNonNull(v, child(path, name)));
      }
      return struct(fields);
    }
    Schema key = UNKNOWN;
    Schema value = UNKNOWN;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getKey() == null) {
        throw new DataException("field " + display(path) + ": a map with a null key");
      }
      key = merge(key, inferNonNull(e.getKey(), path + "{}"), path + "{key}");
      if (e.getValue() != null) {
        value = merge(value, inferNonNull(e.getValue(), path + "{}"), path + "{value}");
      }
    }
    return SchemaBuilder.map(key, value).optional().build();
  }

  private static Schema struct(TreeMap<String, Schema> fields) {
    if (fields.isEmpty()) {
      return EMPTY_STRUCT;
    }
    SchemaBuilder builder = SchemaBuilder.struct().optional();
    fields.forEach(builder::field);
    return builder.build();
  }

  // ---- merging

  /**
   * The narrowest schema both {@code a} and {@code b} fit, by the widening rules above (null means
   * no information). Only for schemas this class inferred.
   */
  public Schema merge(Schema a, Schema b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return merge(a, b, "");
  }

  private Schema merge(Schema a, Schema b, String path) {
    if (a == b || isUnknown(b)) {
      return a;
    }
    if (isUnknown(a)) {
      return b;
    }
    ConnectTypes.Kind ka = ConnectTypes.kind(a);
    ConnectTypes.Kind kb = ConnectTypes.kind(b);
    if (ka == kb) {
      switch (ka) {
        case STRUCT:
          return mergeStructs(a, b, path);
        case ARRAY:
          {
            Schema element = merge(a.valueSchema(), b.valueSchema(), path + "[]");
            return element == a.valueSchema() ? a : SchemaBuilder.array(element).optional().build();
          }
        case MAP:
          {
            Schema key = merge(a.keySchema(), b.keySchema(), path + "{key}");
            Schema value = merge(a.valueSchema(), b.valueSchema(), path + "{value}");
            return key == a.keySchema() && value == a.valueSchema()
                ? a
                : SchemaBuilder.map(key, value).optional().build();
          }
        default:
          return a;
      }
    }
    int ra = numericRank(ka);
    int rb = numericRank(kb);
    if (ra > 0 && rb > 0) {
      return ra >= rb ? a : b;
    }
    if (ka == ConnectTypes.Kind.MAP && isEmptyStruct(b)) {
      return a;
    }
    if (kb == ConnectTypes.Kind.MAP && isEmptyStruct(a)) {
      return b;
    }
    if (conflicts == ConflictPolicy.FAIL) {
      throw new DataException(
          "field "
              + display(path)
              + ": type conflict between "
              + ConnectTypes.describe(a)
              + " and "
              + ConnectTypes.describe(b)
              + " (schemaless conflict policy FAIL; STRING would store both as text)");
    }
    return STRING;
  }

  private Schema mergeStructs(Schema a, Schema b, String path) {
    TreeMap<String, Schema> fields = new TreeMap<>();
    boolean changed = false;
    for (Field f : a.fields()) {
      fields.put(f.name(), f.schema());
    }
    for (Field f : b.fields()) {
      Schema mine = fields.get(f.name());
      Schema merged = mine == null ? f.schema() : merge(mine, f.schema(), child(path, f.name()));
      if (merged != mine) {
        fields.put(f.name(), merged);
        changed = true;
      }
    }
    return changed ? struct(fields) : a;
  }

  private static int numericRank(ConnectTypes.Kind kind) {
    return switch (kind) {
      case INT32 -> 1;
      case INT64 -> 2;
      case FLOAT64 -> 3;
      default -> 0;
    };
  }

  /** Whether {@code s} is {@link #UNKNOWN}: a field only ever null so far. */
  public static boolean isUnknown(Schema s) {
    return s == UNKNOWN || UNKNOWN.name().equals(s.name());
  }

  private static boolean isEmptyStruct(Schema s) {
    return s.type() == Schema.Type.STRUCT && s.fields().isEmpty();
  }

  // ---- fitting and converting

  /**
   * Whether {@code value} can be written to a file of {@code schema} as it is, i.e. {@code
   * merge(schema, infer(value))} is {@code schema}. Walks the value without building schemas.
   */
  public boolean fits(Schema schema, Object value) {
    if (value == null) {
      return schema == null || schema.isOptional();
    }
    return schema != null && fitsNonNull(schema, value);
  }

  private boolean fitsNonNull(Schema schema, Object value) {
    if (isUnknown(schema)) {
      return false;
    }
    switch (ConnectTypes.kind(schema)) {
      case STRING:
        if (value instanceof String) {
          return true;
        }
        // Under STRING, anything merges into a STRING field, provided it has a JSON type.
        return conflicts == ConflictPolicy.STRING && hasJsonType(value);
      case INT32:
        return value instanceof Integer || value instanceof Short || value instanceof Byte;
      case INT64:
        return value instanceof Long
            || value instanceof Integer
            || value instanceof Short
            || value instanceof Byte;
      case FLOAT64:
        return value instanceof Long
            || value instanceof Double
            || value instanceof Integer
            || value instanceof Float
            || value instanceof BigDecimal
            || value instanceof Short
            || value instanceof Byte;
      case BOOLEAN:
        return value instanceof Boolean;
      case BYTES:
        return value instanceof byte[] || value instanceof ByteBuffer;
      case TIMESTAMP:
        return value instanceof java.util.Date;
      case ARRAY:
        if (!(value instanceof List<?> list)) {
          return false;
        }
        for (Object e : list) {
          if (e != null && !fitsNonNull(schema.valueSchema(), e)) {
            return false;
          }
        }
        return true;
      case MAP:
        if (!(value instanceof Map<?, ?> map)) {
          return false;
        }
        if (map.isEmpty()) {
          return true;
        }
        if (allStringKeys(map)) {
          return false; // a map with string keys is a struct: a conflict with MAP
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
          if (e.getKey() == null || !fitsNonNull(schema.keySchema(), e.getKey())) {
            return false;
          }
          if (e.getValue() != null && !fitsNonNull(schema.valueSchema(), e.getValue())) {
            return false;
          }
        }
        return true;
      case STRUCT:
        if (!(value instanceof Map<?, ?> map) || !allStringKeys(map)) {
          return false;
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
          Field f = schema.field((String) e.getKey());
          if (f == null) {
            return false; // a new key: a new column
          }
          if (e.getValue() != null && !fitsNonNull(f.schema(), e.getValue())) {
            return false;
          }
        }
        return true;
      default:
        return false;
    }
  }

  private static boolean allStringKeys(Map<?, ?> map) {
    for (Object k : map.keySet()) {
      if (!(k instanceof String)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasJsonType(Object value) {
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (e.getKey() == null
            || !hasJsonType(e.getKey())
            || e.getValue() != null && !hasJsonType(e.getValue())) {
          return false;
        }
      }
      return true;
    }
    if (value instanceof List<?> list) {
      for (Object e : list) {
        if (e != null && !hasJsonType(e)) {
          return false;
        }
      }
      return true;
    }
    return value instanceof String
        || value instanceof Number
        || value instanceof Boolean
        || value instanceof byte[]
        || value instanceof ByteBuffer
        || value instanceof java.util.Date;
  }

  /**
   * {@code value} as a value of {@code schema} (a Struct for a struct schema), applying the
   * widening rules; {@link DataException} naming the field when it does not {@link #fits fit}.
   */
  public Object conform(Schema schema, Object value) {
    if (!fits(schema, value)) {
      throw new DataException(
          "the schemaless value does not fit the file's inferred schema "
              + ConnectTypes.describe(schema)
              + firstMisfit(schema, value, ""));
    }
    return value == null ? null : convert(schema, value);
  }

  private String firstMisfit(Schema schema, Object value, String path) {
    if (schema != null
        && value instanceof Map<?, ?> map
        && schema.type() == Schema.Type.STRUCT
        && allStringKeys(map)) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        Field f = schema.field((String) e.getKey());
        String at = child(path, (String) e.getKey());
        if (f == null) {
          return ": field " + at + " is new";
        }
        if (e.getValue() != null && !fitsNonNull(f.schema(), e.getValue())) {
          return firstMisfit(f.schema(), e.getValue(), at);
        }
      }
    }
    return path.isEmpty()
        ? ""
        : ": field " + path + " does not fit " + ConnectTypes.describe(schema);
  }

  private Object convert(Schema schema, Object value) {
    switch (ConnectTypes.kind(schema)) {
      case STRING:
        return value instanceof String ? value : jsonText(value);
      case INT32:
        return ((Number) value).intValue();
      case INT64:
        return ((Number) value).longValue();
      case FLOAT64:
        return ((Number) value).doubleValue();
      case ARRAY:
        {
          List<?> in = (List<?>) value;
          List<Object> out = new ArrayList<>(in.size());
          for (Object e : in) {
            out.add(e == null ? null : convert(schema.valueSchema(), e));
          }
          return out;
        }
      case MAP:
        {
          Map<Object, Object> out = new LinkedHashMap<>();
          for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            out.put(
                convert(schema.keySchema(), e.getKey()),
                e.getValue() == null ? null : convert(schema.valueSchema(), e.getValue()));
          }
          return out;
        }
      case STRUCT:
        {
          Struct struct = new Struct(schema);
          for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            if (e.getValue() != null) {
              Field f = schema.field((String) e.getKey());
              struct.put(f, convert(f.schema(), e.getValue()));
            }
          }
          return struct;
        }
      default:
        return value; // BOOLEAN, BYTES, TIMESTAMP: already Connect's classes
    }
  }

  /** A value stored in a STRING field after a conflict: its JSON text. */
  static String jsonText(Object value) {
    return Json.write(toJsonModel(value));
  }

  private static Object toJsonModel(Object value) {
    if (value == null || value instanceof String || value instanceof Boolean) {
      return value;
    }
    // A finite double is written as Double.toString spells it (always with a '.' or an exponent,
    // valid JSON), not through BigDecimal: BigDecimal turned 9.007199254740992E15 into the
    // integer text 9007199254740992 (and 1.2345678E7 into 12345678), so the text read back as
    // an integer where the record had a fraction, and -0.0 into 0.0 (BigDecimal has no -0).
    if (value instanceof Double d) {
      return Double.isFinite(d) ? d : d.toString();
    }
    if (value instanceof Float f) {
      return Float.isFinite(f) ? f : f.toString();
    }
    if (value instanceof Number n) {
      return n;
    }
    if (value instanceof byte[] || value instanceof ByteBuffer) {
      return Base64.getEncoder().encodeToString(ConnectValueJson.bytes(value, null));
    }
    if (value instanceof java.util.Date d) {
      return BigDecimal.valueOf(d.getTime());
    }
    if (value instanceof List<?> list) {
      List<Object> out = new ArrayList<>(list.size());
      for (Object e : list) {
        out.add(toJsonModel(e));
      }
      return out;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
      out.put(String.valueOf(e.getKey()), toJsonModel(e.getValue()));
    }
    return out;
  }

  private static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  private static String display(String path) {
    return path.isEmpty() ? "(the value)" : path;
  }
}
