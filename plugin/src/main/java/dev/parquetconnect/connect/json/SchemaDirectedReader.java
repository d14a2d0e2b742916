package dev.parquetconnect.connect.json;

import java.util.ArrayList;
import java.util.List;
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
 * writes them so), each key without escapes, no unknown or repeated key, and values that convert
 * without an error. Anything else throws {@link NotDirect} and the caller reads the record again
 * the exact way, which gives the meaning and the error JsonConverter's rules give (a syntax error
 * anywhere in the document before a payload that does not fit its schema; the first misfit in the
 * schema's field order). So this reader never decides an error itself: on any doubt it leaves.
 */
final class SchemaDirectedReader {
  /** Where the directed reading leaves the payload to the exact form. */
  static final class NotDirect extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private NotDirect() {
      super("the payload is not of the directed reader's common shape", null, false, false);
    }
  }

  private static final NotDirect NOT_DIRECT = new NotDirect();

  /** The payload's Connect value under {@code schema} (null: schemaless), the member's ':' read. */
  Object read(JsonReader reader, Schema schema) throws MalformedJsonException {
    if (!reader.skipWhitespace()) {
      throw NOT_DIRECT;
    }
    byte b = reader.peek();
    if (schema != null) {
      if (b == '{' && schema.type() == Schema.Type.STRUCT) {
        return struct(reader, schema);
      }
      if (b == '[' && schema.type() == Schema.Type.ARRAY) {
        return array(reader, schema.valueSchema());
      }
    }
    return convert(schema, reader.readValue());
  }

  private Struct struct(JsonReader reader, Schema schema) throws MalformedJsonException {
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
        if (next == fields.size()) {
          throw NOT_DIRECT; // a key the schema does not have, or one repeated
        }
        Field field = fields.get(next++);
        if (!reader.matchKey(field.name())) {
          throw NOT_DIRECT;
        }
        put(out, field, read(reader, field.schema()));
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
      Field absent = fields.get(next);
      put(out, absent, convert(absent.schema(), null));
    }
    return out;
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

  private static void put(Struct struct, Field field, Object value) {
    try {
      struct.put(field, value);
    } catch (DataException e) {
      throw NOT_DIRECT;
    }
  }

  private static Object convert(Schema schema, Object node) {
    try {
      return EnvelopeValues.convert(schema, node);
    } catch (DataException e) {
      throw NOT_DIRECT;
    }
  }
}
