package dev.parquetconnect.connect.json;

import dev.parquetconnect.connect.StagedRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Reads an envelope's payload by its schema straight into a {@link StagedRow}: text as byte ranges
 * of the record, numbers as primitives, no Struct, box or String per value. The values are those
 * {@link EnvelopeValues} gives the same JSON (a Timestamp's epoch milliseconds, an integer's long
 * or its double, a fraction's double), so the columns get what the shredders would write of the
 * Struct.
 *
 * <p>It takes less than {@link SchemaDirectedReader}: schemas of structs (at any depth) whose
 * leaves are text, INT32, INT64, FLOAT64, BOOLEAN or Timestamp, no defaults; and, per record, the
 * common shape only: members in the schema's order (absent ones skipped) with keys spelled without
 * escapes, each value of its declared JSON type (an integer of at most 18 digits where an integer
 * is declared, a number whose double needs no BigDecimal where a double is), a null only where
 * optional. Anything else, JsonConverter's coercions included, throws {@link
 * SchemaDirectedReader.NotDirect}: the row is then incomplete and the caller reads the record the
 * Struct way, which gives the meaning and the error JsonConverter's rules give.
 */
final class StagedPayloadReader {
  private static final byte STRUCT = -1;

  /** At most this many schemas' plans are kept (a topic has a few). */
  private static final int MAX_PLANS = 1024;

  /** Plans by schema identity; a schema mapped to null cannot be staged. */
  private final Map<Schema, Plan> plans = new IdentityHashMap<>();

  /** How a schema's payload is read, and the row it is read into (reused). */
  static final class Plan {
    final Node root;
    final StagedRow row;

    private Plan(Node root, StagedRow row) {
      this.root = root;
      this.row = row;
    }
  }

  /** A struct (its fields) or a leaf (its index in the row). */
  private static final class Node {
    final byte kind;
    final boolean optional;
    final int depth;
    final int firstLeaf;
    int endLeaf;
    byte[][] names;
    Node[] fields;

    Node(byte kind, boolean optional, int depth, int firstLeaf) {
      this.kind = kind;
      this.optional = optional;
      this.depth = depth;
      this.firstLeaf = firstLeaf;
      this.endLeaf = firstLeaf + 1;
    }
  }

  /** The plan of {@code schema}, or null when its payloads are not staged. */
  Plan plan(Schema schema) {
    Plan plan = plans.get(schema);
    if (plan == null && !plans.containsKey(schema)) {
      plan = compile(schema);
      if (plans.size() >= MAX_PLANS) {
        plans.clear();
      }
      plans.put(schema, plan);
    }
    return plan;
  }

  private static Plan compile(Schema schema) {
    if (schema.type() != Schema.Type.STRUCT || schema.defaultValue() != null) {
      return null;
    }
    List<Byte> kinds = new ArrayList<>();
    Node root = struct(schema, -1, kinds);
    if (root == null) {
      return null;
    }
    byte[] k = new byte[kinds.size()];
    for (int i = 0; i < k.length; i++) {
      k[i] = kinds.get(i);
    }
    return new Plan(root, new StagedRow(schema, k));
  }

  /** The node of a struct whose fields are at {@code depth + 1}; null: not stageable. */
  private static Node struct(Schema schema, int depth, List<Byte> kinds) {
    List<Field> fields = schema.fields();
    if (fields.isEmpty()) {
      return null;
    }
    Node node = new Node(STRUCT, schema.isOptional(), depth, kinds.size());
    node.names = new byte[fields.size()][];
    node.fields = new Node[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      Schema s = fields.get(i).schema();
      byte[] name = plainName(fields.get(i).name());
      if (name == null || s.defaultValue() != null) {
        return null;
      }
      node.names[i] = name;
      Node child;
      if (s.type() == Schema.Type.STRUCT) {
        child = struct(s, depth + 1, kinds);
      } else {
        byte kind = leafKind(s);
        child = kind < 0 ? null : new Node(kind, s.isOptional(), depth + 1, kinds.size());
        if (child != null) {
          kinds.add(kind);
        }
      }
      if (child == null) {
        return null;
      }
      node.fields[i] = child;
    }
    node.endLeaf = kinds.size();
    return node;
  }

  private static byte leafKind(Schema s) {
    String name = s.name();
    if (name != null) {
      return name.equals(Timestamp.LOGICAL_NAME) && s.type() == Schema.Type.INT64
          ? StagedRow.TIMESTAMP
          : -1;
    }
    return switch (s.type()) {
      case STRING -> StagedRow.STRING;
      case INT32 -> StagedRow.INT32;
      case INT64 -> StagedRow.INT64;
      case FLOAT64 -> StagedRow.FLOAT64;
      case BOOLEAN -> StagedRow.BOOLEAN;
      default -> -1;
    };
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

  /** Reads the payload (the member's ':' read) into the plan's row, completely or not at all. */
  void read(JsonReader reader, Plan plan) throws MalformedJsonException {
    if (!reader.skipWhitespace() || reader.peek() != '{') {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    struct(reader, plan.root, plan.row);
  }

  private static void struct(JsonReader reader, Node node, StagedRow row)
      throws MalformedJsonException {
    byte[][] names = node.names;
    Node[] fields = node.fields;
    reader.enter();
    reader.advance();
    int next = 0;
    if (!reader.skipWhitespace()) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    if (reader.peek() == '}') {
      reader.advance();
    } else {
      while (true) {
        // This field's key or a later one's (those between are absent); anything else is a key
        // the schema does not have, one out of order or one repeated.
        int match = next;
        while (true) {
          if (match == fields.length) {
            throw SchemaDirectedReader.NOT_DIRECT;
          }
          if (reader.matchKey(names[match])) {
            break;
          }
          match++;
        }
        for (; next < match; next++) {
          absent(fields[next], row);
        }
        value(reader, fields[next++], row);
        if (!reader.skipWhitespace()) {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        byte b = reader.peek();
        reader.advance();
        if (b == '}') {
          break;
        }
        if (b != ',' || !reader.skipWhitespace()) {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
      }
    }
    reader.leave();
    for (; next < fields.length; next++) {
      absent(fields[next], row);
    }
  }

  /** A field without a member, or with null: null where optional (no defaults here). */
  private static void absent(Node field, StagedRow row) {
    if (!field.optional) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    for (int leaf = field.firstLeaf; leaf < field.endLeaf; leaf++) {
      row.setNull(leaf, field.depth);
    }
  }

  private static void value(JsonReader reader, Node field, StagedRow row)
      throws MalformedJsonException {
    if (!reader.skipWhitespace()) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    byte b = reader.peek();
    if (b == 'n') {
      reader.readLiteral("null");
      absent(field, row);
      return;
    }
    int leaf = field.firstLeaf;
    switch (field.kind) {
      case STRUCT -> {
        if (b != '{') {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        struct(reader, field, row);
      }
      case StagedRow.STRING -> {
        if (b != '"') {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        reader.stageString(row, leaf);
      }
      case StagedRow.INT32 -> row.setLong(leaf, (int) integer(reader, b));
      case StagedRow.INT64, StagedRow.TIMESTAMP -> row.setLong(leaf, integer(reader, b));
      case StagedRow.FLOAT64 -> {
        if (b != '-' && (b < '0' || b > '9')) {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        int kind = reader.readPrimitiveNumber();
        if (kind == JsonNumbers.INTEGER) {
          row.setDouble(leaf, (double) reader.primitiveLong());
        } else if (kind == JsonNumbers.FRACTION) {
          row.setDouble(leaf, reader.primitiveDouble());
        } else {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
      }
      case StagedRow.BOOLEAN -> {
        if (b == 't') {
          reader.readLiteral("true");
          row.setBoolean(leaf, true);
        } else if (b == 'f') {
          reader.readLiteral("false");
          row.setBoolean(leaf, false);
        } else {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
      }
      default -> throw new IllegalStateException("no staged kind " + field.kind);
    }
  }

  /** An integer of at most 18 digits at the position ({@code b} its first byte). */
  private static long integer(JsonReader reader, byte b) throws MalformedJsonException {
    if (b != '-' && (b < '0' || b > '9')) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    if (reader.readPrimitiveNumber() != JsonNumbers.INTEGER) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    return reader.primitiveLong();
  }
}
