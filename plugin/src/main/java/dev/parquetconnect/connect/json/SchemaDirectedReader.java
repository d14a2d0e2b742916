package dev.parquetconnect.connect.json;

import dev.parquetconnect.connect.StructValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.ConnectSchema;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Reads an envelope's payload by its schema straight into the Connect value {@link EnvelopeValues}
 * would make of the exact form: a struct's members into its Struct and an array's elements into its
 * list as they are read, with no map or list of the exact form in between and no key text.
 *
 * <p>It takes only the common shape: a struct's members in the schema's field order (JsonConverter
 * writes them so, absent ones skipped), each key the field's name without escapes, no unknown or
 * repeated key, and values that convert without an error. Anything else throws {@link NotDirect}
 * and the caller reads the record again the exact way, which gives the meaning and the error
 * JsonConverter's rules give (a syntax error anywhere in the document before a payload that does
 * not fit its schema; the first misfit in the schema's field order). So this reader never decides
 * an error itself: on any doubt it leaves.
 *
 * <p>Values go into the Structs without {@code Struct.put}'s validation ({@link StructValues}),
 * which was a seventh of the worker's CPU on the ten-field record: each value is made for its
 * field's schema, as the Java class that schema requires ({@link EnvelopeValues}, or a Struct or
 * list built here for exactly that schema), and what {@code put} would still refuse is checked here
 * (a null where the schema is required, here or in a list) or left to Connect's validation (the
 * maps and the lists {@link EnvelopeValues} makes of a non-array, rare shapes).
 */
final class SchemaDirectedReader {
  /** Where the directed reading leaves the payload to the exact form. */
  static final class NotDirect extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private NotDirect() {
      super("the payload is not of the directed reader's common shape", null, false, false);
    }
  }

  static final NotDirect NOT_DIRECT = new NotDirect();

  /** At most this many struct schemas' field names are kept (a topic has a few). */
  private static final int MAX_STRUCTS = 1024;

  /** The UTF-8 of each struct schema's field names, by schema identity; null: not matchable. */
  private final Map<Schema, byte[][]> fieldNames = new IdentityHashMap<>();

  /** The payload's Connect value under {@code schema} (null: schemaless), the member's ':' read. */
  Object read(JsonReader reader, Schema schema) throws MalformedJsonException {
    if (!reader.skipWhitespace()) {
      throw NOT_DIRECT;
    }
    byte b = reader.peek();
    if (schema == null) {
      return EnvelopeValues.schemaless(reader.readValue());
    }
    if (b == '{' && schema.type() == Schema.Type.STRUCT) {
      return struct(reader, schema);
    }
    if (b == '[' && schema.type() == Schema.Type.ARRAY) {
      return array(reader, schema.valueSchema());
    }
    Object value;
    try {
      value = EnvelopeValues.convert(schema, reader.readValue());
    } catch (DataException e) {
      throw NOT_DIRECT;
    }
    return valid(schema, value);
  }

  private Struct struct(JsonReader reader, Schema schema) throws MalformedJsonException {
    byte[][] names = names(schema);
    reader.enter();
    reader.advance();
    Struct out = new Struct(schema.schema());
    List<Field> fields = schema.fields();
    int next = 0;
    if (!reader.skipWhitespace()) {
      throw NOT_DIRECT;
    }
    if (reader.peek() == '}') {
      reader.advance();
    } else {
      while (true) {
        // The key is this field's or a later one's (those between are absent); else it is a
        // key the schema does not have, one out of order or one repeated.
        int match = next;
        while (true) {
          if (match == fields.size() || names[match] == null) {
            throw NOT_DIRECT;
          }
          if (reader.matchKey(names[match])) {
            break;
          }
          match++;
        }
        for (; next < match; next++) {
          absent(out, fields.get(next));
        }
        Field field = fields.get(next++);
        Object value = read(reader, field.schema());
        if (value != null) {
          StructValues.put(out, field, value);
        }
        if (!reader.skipWhitespace()) {
          throw NOT_DIRECT;
        }
        byte b = reader.peek();
        reader.advance();
        if (b == '}') {
          break;
        }
        if (b != ',' || !reader.skipWhitespace()) {
          throw NOT_DIRECT;
        }
      }
    }
    reader.leave();
    for (; next < fields.size(); next++) {
      absent(out, fields.get(next));
    }
    return out;
  }

  /** A field the object does not have: its default, else null where optional. */
  private static void absent(Struct out, Field field) {
    Object value;
    try {
      value = EnvelopeValues.convert(field.schema(), null);
    } catch (DataException e) {
      throw NOT_DIRECT;
    }
    if (value != null) {
      StructValues.put(out, field, valid(field.schema(), value));
    }
  }

  private List<Object> array(JsonReader reader, Schema elementSchema)
      throws MalformedJsonException {
    reader.enter();
    reader.advance();
    List<Object> out = new ArrayList<>();
    if (!reader.skipWhitespace()) {
      throw NOT_DIRECT;
    }
    if (reader.peek() == ']') {
      reader.advance();
    } else {
      while (true) {
        out.add(read(reader, elementSchema));
        if (!reader.skipWhitespace()) {
          throw NOT_DIRECT;
        }
        byte b = reader.peek();
        reader.advance();
        if (b == ']') {
          break;
        }
        if (b != ',' || !reader.skipWhitespace()) {
          throw NOT_DIRECT;
        }
      }
    }
    reader.leave();
    return out;
  }

  /**
   * {@code value}, made by {@link EnvelopeValues} for {@code schema}, where {@code Struct.put} and
   * Connect's validation of a list would take it: a null only where the schema is optional; a map,
   * or a list not read here, validated by Connect.
   */
  private static Object valid(Schema schema, Object value) {
    if (value == null) {
      if (!schema.isOptional()) {
        throw NOT_DIRECT;
      }
      return null;
    }
    Schema.Type type = schema.type();
    if (type == Schema.Type.MAP || type == Schema.Type.ARRAY || type == Schema.Type.STRUCT) {
      try {
        ConnectSchema.validateValue(schema, value);
      } catch (DataException e) {
        throw NOT_DIRECT;
      }
    }
    return value;
  }

  private byte[][] names(Schema schema) {
    byte[][] names = fieldNames.get(schema);
    if (names == null) {
      List<Field> fields = schema.fields();
      names = new byte[fields.size()][];
      for (int i = 0; i < names.length; i++) {
        names[i] = plainName(fields.get(i).name());
      }
      if (fieldNames.size() >= MAX_STRUCTS) {
        fieldNames.clear();
      }
      fieldNames.put(schema, names);
    }
    return names;
  }

  /** The name's bytes where a key without escapes spells it: printable ASCII but '"' and '\'. */
  private static byte[] plainName(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
        return null;
      }
    }
    return name.getBytes(StandardCharsets.US_ASCII);
  }
}
