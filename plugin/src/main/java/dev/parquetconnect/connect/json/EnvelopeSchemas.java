package dev.parquetconnect.connect.json;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;

/**
 * The Connect schemas of envelopes ({@code {"schema": ..., "payload": ...}}), each built once and
 * found again by the bytes of its JSON: a topic's records repeat one schema byte for byte, so a
 * record costs a hash and a compare of those bytes, not a parse. The schema JSON means what
 * JsonConverter's {@code asConnectSchema} makes of it (type names, optional, name, version, doc,
 * parameters, default). At most {@link #CAPACITY} schemas are kept, the least recently used dropped
 * first (JsonConverter's {@code schemas.cache.size} default).
 */
final class EnvelopeSchemas {
  static final int CAPACITY = 1000;

  private final Map<Slice, Schema> cache =
      new LinkedHashMap<>(64, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Slice, Schema> eldest) {
          return size() > CAPACITY;
        }
      };

  private final Slice probe = new Slice();
  private final JsonReader reader = new JsonReader();

  /** The schema whose JSON is {@code bytes[from, to)}; null for JSON {@code null}. */
  Schema schemaOf(byte[] bytes, int from, int to) throws MalformedJsonException {
    probe.set(bytes, from, to);
    Schema cached = cache.get(probe);
    if (cached != null) {
      return cached;
    }
    Object tree = reader.readRange(bytes, from, to);
    if (tree == null) {
      return null;
    }
    Schema schema = asConnectSchema(tree);
    cache.put(probe.copy(), schema);
    return schema;
  }

  /** How many schemas are kept (tests). */
  int size() {
    return cache.size();
  }

  private static Schema asConnectSchema(Object node) {
    if (node == null) {
      return null;
    }
    Map<?, ?> json = node instanceof Map<?, ?> m ? m : Map.of();
    Object typeNode = json.get("type");
    if (!(typeNode instanceof String type)) {
      throw new DataException("Schema must contain 'type' field");
    }
    SchemaBuilder builder;
    switch (type) {
      case "boolean" -> builder = SchemaBuilder.bool();
      case "int8" -> builder = SchemaBuilder.int8();
      case "int16" -> builder = SchemaBuilder.int16();
      case "int32" -> builder = SchemaBuilder.int32();
      case "int64" -> builder = SchemaBuilder.int64();
      case "float" -> builder = SchemaBuilder.float32();
      case "double" -> builder = SchemaBuilder.float64();
      case "bytes" -> builder = SchemaBuilder.bytes();
      case "string" -> builder = SchemaBuilder.string();
      case "array" -> {
        Object items = json.get("items");
        if (items == null) {
          throw new DataException("Array schema did not specify the element type");
        }
        builder = SchemaBuilder.array(asConnectSchema(items));
      }
      case "map" -> {
        if (!json.containsKey("keys")) {
          throw new DataException("Map schema did not specify the key type");
        }
        if (!json.containsKey("values")) {
          throw new DataException("Map schema did not specify the value type");
        }
        builder =
            SchemaBuilder.map(
                asConnectSchema(json.get("keys")), asConnectSchema(json.get("values")));
      }
      case "struct" -> {
        builder = SchemaBuilder.struct();
        if (!(json.get("fields") instanceof List<?> fields)) {
          throw new DataException("Struct schema's \"fields\" argument is not an array.");
        }
        for (Object field : fields) {
          Object name = field instanceof Map<?, ?> f ? f.get("field") : null;
          if (!(name instanceof String fieldName)) {
            throw new DataException("Struct schema's field name not specified properly");
          }
          builder.field(fieldName, asConnectSchema(field));
        }
      }
      default -> throw new DataException("Unknown schema type: " + type);
    }
    if (Boolean.TRUE.equals(json.get("optional"))) {
      builder.optional();
    } else {
      builder.required();
    }
    if (json.get("name") instanceof String name) {
      builder.name(name);
    }
    Object version = json.get("version");
    if (version instanceof Long || version instanceof BigInteger) {
      builder.version(((Number) version).intValue());
    }
    if (json.get("doc") instanceof String doc) {
      builder.doc(doc);
    }
    if (json.get("parameters") instanceof Map<?, ?> parameters) {
      for (Map.Entry<?, ?> e : parameters.entrySet()) {
        if (!(e.getValue() instanceof String value)) {
          throw new DataException("Schema parameters must have string values.");
        }
        builder.parameter((String) e.getKey(), value);
      }
    }
    if (json.containsKey("default")) {
      builder.defaultValue(EnvelopeValues.convert(builder, json.get("default")));
    }
    return builder.build();
  }

  /** A range of bytes as a map key; the probe form points into a record, the kept form owns. */
  private static final class Slice {
    private byte[] bytes;
    private int from;
    private int to;
    private int hash;

    void set(byte[] b, int f, int t) {
      bytes = b;
      from = f;
      to = t;
      int h = 1;
      for (int i = f; i < t; i++) {
        h = 31 * h + b[i];
      }
      hash = h;
    }

    Slice copy() {
      Slice s = new Slice();
      s.bytes = Arrays.copyOfRange(bytes, from, to);
      s.from = 0;
      s.to = to - from;
      s.hash = hash;
      return s;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Slice s
          && s.hash == hash
          && Arrays.equals(bytes, from, to, s.bytes, s.from, s.to);
    }
  }
}
