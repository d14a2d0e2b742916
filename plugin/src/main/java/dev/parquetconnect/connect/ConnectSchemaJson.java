package dev.parquetconnect.connect;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;

/**
 * Connect schemas to and from JSON, completely: type, optional flag, name, version, doc,
 * parameters, default value, fields, key and value schemas. A file keeps its value and key schemas
 * this way in the key/value metadata, so the source rebuilds schemas that are {@code equals} to the
 * ones the sink saw.
 *
 * <pre>{@code
 * {"type":"struct","optional":false,"name":"com.example.Order","version":3,"doc":"...",
 *  "parameters":{"k":"v"},"default":{...},
 *  "fields":[{"name":"id","schema":{"type":"int64","optional":false}}, ...]}
 * {"type":"array","optional":true,"valueSchema":{...}}
 * {"type":"map","optional":false,"keySchema":{...},"valueSchema":{...}}
 * }</pre>
 *
 * <p>Absent members mean null; {@code parameters} is written whenever the schema has a map, even an
 * empty one, because Connect's schema equality tells null from empty. The default is written with
 * {@link ConnectValueJson}. One limit: a struct-typed default comes back as a Struct of the rebuilt
 * schema's builder (Connect validates a struct default that way), which holds the same values but
 * is not {@code equals} to the original's Struct.
 */
final class ConnectSchemaJson {
  private ConnectSchemaJson() {}

  /** The schema as JSON text. */
  static String write(Schema schema) {
    return Json.write(toJson(schema));
  }

  /** The schema JSON text describes; {@link IllegalArgumentException} when it is malformed. */
  static Schema read(String text) {
    return fromJson(Json.parse(text));
  }

  static Map<String, Object> toJson(Schema schema) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", schema.type().name().toLowerCase(Locale.ROOT));
    out.put("optional", schema.isOptional());
    if (schema.name() != null) {
      out.put("name", schema.name());
    }
    if (schema.version() != null) {
      out.put("version", BigDecimal.valueOf(schema.version()));
    }
    if (schema.doc() != null) {
      out.put("doc", schema.doc());
    }
    if (schema.parameters() != null) {
      out.put("parameters", new LinkedHashMap<>(schema.parameters()));
    }
    switch (schema.type()) {
      case STRUCT -> {
        List<Object> fields = new ArrayList<>();
        for (Field f : schema.fields()) {
          Map<String, Object> field = new LinkedHashMap<>();
          field.put("name", f.name());
          field.put("schema", toJson(f.schema()));
          fields.add(field);
        }
        out.put("fields", fields);
      }
      case ARRAY -> out.put("valueSchema", toJson(schema.valueSchema()));
      case MAP -> {
        out.put("keySchema", toJson(schema.keySchema()));
        out.put("valueSchema", toJson(schema.valueSchema()));
      }
      default -> {}
    }
    if (schema.defaultValue() != null) {
      out.put("default", ConnectValueJson.toJson(schema, schema.defaultValue()));
    }
    return out;
  }

  static Schema fromJson(Object json) {
    return fromJson(json, 0);
  }

  private static Schema fromJson(Object json, int depth) {
    if (depth > Json.MAX_DEPTH) {
      throw new IllegalArgumentException("schema nested deeper than " + Json.MAX_DEPTH);
    }
    if (!(json instanceof Map<?, ?> in)) {
      throw new IllegalArgumentException("a schema must be a JSON object, got " + json);
    }
    Schema.Type type = type(in.get("type"));
    SchemaBuilder builder;
    switch (type) {
      case ARRAY -> builder = SchemaBuilder.array(fromJson(in.get("valueSchema"), depth + 1));
      case MAP ->
          builder =
              SchemaBuilder.map(
                  fromJson(in.get("keySchema"), depth + 1),
                  fromJson(in.get("valueSchema"), depth + 1));
      case STRUCT -> {
        builder = SchemaBuilder.struct();
        if (!(in.get("fields") instanceof List<?> fields)) {
          throw new IllegalArgumentException("a struct schema needs a fields array");
        }
        for (Object f : fields) {
          if (!(f instanceof Map<?, ?> field) || !(field.get("name") instanceof String name)) {
            throw new IllegalArgumentException("a struct field needs a name, got " + f);
          }
          builder.field(name, fromJson(field.get("schema"), depth + 1));
        }
      }
      default -> builder = new SchemaBuilder(type);
    }
    if (Boolean.TRUE.equals(in.get("optional"))) {
      builder.optional();
    }
    if (in.get("name") instanceof String name) {
      builder.name(name);
    }
    if (in.get("version") instanceof BigDecimal version) {
      builder.version(version.intValueExact());
    }
    if (in.get("doc") instanceof String doc) {
      builder.doc(doc);
    }
    if (in.get("parameters") instanceof Map<?, ?> parameters) {
      Map<String, String> copy = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : parameters.entrySet()) {
        if (!(e.getValue() instanceof String value)) {
          throw new IllegalArgumentException("schema parameter " + e.getKey() + " is no string");
        }
        copy.put((String) e.getKey(), value);
      }
      builder.parameters(copy);
    }
    Object defaultJson = in.get("default");
    if (defaultJson != null) {
      // Decoded against the builder itself: Connect accepts a struct default only when the
      // Struct's schema is the schema being built.
      builder.defaultValue(ConnectValueJson.fromJson(builder, defaultJson));
    }
    return builder.build();
  }

  private static Schema.Type type(Object name) {
    if (name instanceof String s) {
      try {
        return Schema.Type.valueOf(s.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown Connect type " + s, e);
      }
    }
    throw new IllegalArgumentException("a schema needs a type name, got " + name);
  }
}
