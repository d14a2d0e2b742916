package dev.parquetconnect.connect.json;

import dev.parquetconnect.connect.StagedRow;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * Reads an envelope's payload by its schema straight into a {@link StagedRow}: text as byte ranges
 * of the record, numbers as primitives, bytes decoded into the row's scratch, no Struct, box or
 * String per value. The values are those {@link EnvelopeValues} gives the same JSON (an int8's or
 * int16's low bits, a float's {@code BigDecimal.floatValue}, a decimal's unscaled digits and scale
 * as written or from its base64 two's complement, a Date's days, a Time's milliseconds, a
 * Timestamp's epoch milliseconds, a field's default where it is absent or null), so the columns get
 * what the shredders would write of the Struct.
 *
 * <p>It takes less than {@link SchemaDirectedReader}: schemas of structs (at any depth) of leaves
 * of any Connect type but arrays and maps, defaults of leaves, no struct defaults; and, per record,
 * the common shape only: members in the schema's order (absent ones skipped) with keys spelled
 * without escapes, each value of its declared JSON type (an integer of at most 18 digits where an
 * integer is declared, a number whose double or float needs no BigDecimal where one is, base64
 * without escapes where bytes are, a decimal of at most 18 significant digits, a Date that is an
 * int, a Time within the day), a null only where optional or defaulted. Anything else,
 * JsonConverter's coercions and errors included, throws {@link SchemaDirectedReader.NotDirect}: the
 * row is then incomplete and the caller reads the record the Struct way, which gives the meaning
 * and the error JsonConverter's rules give.
 */
final class StagedPayloadReader {
  private static final byte STRUCT = -1;
  private static final long MILLIS_PER_DAY = 86_400_000L;

  /** Unscaled values below this are exact floats ({@code BigDecimal.floatValue}'s bound). */
  private static final long FLOAT_EXACT = 1L << 22;

  private static final float[] FLOAT_POWERS_OF_TEN = {
    1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f, 1e6f, 1e7f, 1e8f, 1e9f, 1e10f
  };

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

    /** A decimal's Connect scale. */
    int scale;

    /** An array of leaves of {@link #kind}: the leaf is repeated. */
    boolean repeated;

    /** Whether an array's elements may be null. */
    boolean elementsOptional;

    /** A leaf's default, where it has one: the value and its staged form. */
    boolean hasDefault;

    long defaultLong;
    double defaultDouble;
    String defaultText;
    byte[] defaultBytes;

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
    List<Boolean> repeated = new ArrayList<>();
    Node root = struct(schema, -1, kinds, repeated);
    if (root == null) {
      return null;
    }
    byte[] k = new byte[kinds.size()];
    boolean[] r = new boolean[k.length];
    for (int i = 0; i < k.length; i++) {
      k[i] = kinds.get(i);
      r[i] = repeated.get(i);
    }
    return new Plan(root, new StagedRow(schema, k, r));
  }

  /** The node of a struct whose fields are at {@code depth + 1}; null: not stageable. */
  private static Node struct(Schema schema, int depth, List<Byte> kinds, List<Boolean> repeated) {
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
      if (name == null) {
        return null;
      }
      node.names[i] = name;
      Node child;
      if (s.type() == Schema.Type.STRUCT) {
        child = s.defaultValue() == null ? struct(s, depth + 1, kinds, repeated) : null;
      } else if (s.type() == Schema.Type.ARRAY) {
        child = array(s, depth + 1, kinds.size());
        if (child != null) {
          kinds.add(child.kind);
          repeated.add(true);
        }
      } else {
        child = leaf(s, depth + 1, kinds.size());
        if (child != null) {
          kinds.add(child.kind);
          repeated.add(false);
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

  /**
   * The node of an array of leaves without defaults (the array's or its elements'); null: not
   * stageable (an array of structs, arrays or maps among them).
   */
  private static Node array(Schema s, int depth, int index) {
    Schema element = s.valueSchema();
    if (s.defaultValue() != null
        || element.defaultValue() != null
        || element.type() == Schema.Type.STRUCT
        || element.type() == Schema.Type.ARRAY
        || element.type() == Schema.Type.MAP) {
      return null;
    }
    Node node = leaf(element, depth, index);
    if (node == null) {
      return null;
    }
    Node list = new Node(node.kind, s.isOptional(), depth, index);
    list.repeated = true;
    list.elementsOptional = element.isOptional();
    list.scale = node.scale;
    return list;
  }

  /** The node of a leaf, its default staged; null: not stageable. */
  private static Node leaf(Schema s, int depth, int index) {
    byte kind = leafKind(s);
    if (kind < 0) {
      return null;
    }
    Node node = new Node(kind, s.isOptional(), depth, index);
    if (kind == StagedRow.DECIMAL) {
      try {
        node.scale = Integer.parseInt(s.parameters().get(Decimal.SCALE_FIELD));
      } catch (RuntimeException e) {
        return null; // no scale: Connect's conversion fails, the Struct path says how
      }
    }
    Object d = s.defaultValue();
    if (d == null) {
      return node;
    }
    node.hasDefault = true;
    switch (kind) {
      case StagedRow.STRING -> node.defaultText = (String) d;
      case StagedRow.INT8, StagedRow.INT16, StagedRow.INT32, StagedRow.INT64 ->
          node.defaultLong = ((Number) d).longValue();
      case StagedRow.FLOAT32, StagedRow.FLOAT64 -> node.defaultDouble = ((Number) d).doubleValue();
      case StagedRow.BOOLEAN -> node.defaultLong = (Boolean) d ? 1 : 0;
      case StagedRow.TIMESTAMP -> node.defaultLong = ((java.util.Date) d).getTime();
      case StagedRow.TIME -> {
        long millis = ((java.util.Date) d).getTime();
        if (millis < 0 || millis >= MILLIS_PER_DAY) {
          return null;
        }
        node.defaultLong = millis;
      }
      case StagedRow.DATE -> {
        long millis = ((java.util.Date) d).getTime();
        if (millis % MILLIS_PER_DAY != 0
            || millis / MILLIS_PER_DAY != (int) (millis / MILLIS_PER_DAY)) {
          return null;
        }
        node.defaultLong = millis / MILLIS_PER_DAY;
      }
      case StagedRow.BYTES -> {
        if (!(d instanceof byte[] bytes)) {
          return null; // a ByteBuffer: rare, left to the Struct path
        }
        node.defaultBytes = bytes;
      }
      case StagedRow.DECIMAL -> {
        BigDecimal decimal = (BigDecimal) d;
        if (decimal.unscaledValue().bitLength() > 63) {
          return null;
        }
        node.defaultLong = decimal.unscaledValue().longValue();
        node.scale = decimal.scale();
      }
      default -> throw new IllegalStateException("no staged kind " + kind);
    }
    return node;
  }

  /**
   * The staged kind of a leaf schema, -1 for none: Connect's logical types by name on their own
   * type (JsonConverter applies a logical name whatever the type, which the Struct path then
   * refuses), any other name by its type.
   */
  private static byte leafKind(Schema s) {
    String name = s.name();
    if (name != null) {
      switch (name) {
        case Decimal.LOGICAL_NAME:
          return s.type() == Schema.Type.BYTES ? StagedRow.DECIMAL : -1;
        case Date.LOGICAL_NAME:
          return s.type() == Schema.Type.INT32 ? StagedRow.DATE : -1;
        case Time.LOGICAL_NAME:
          return s.type() == Schema.Type.INT32 ? StagedRow.TIME : -1;
        case Timestamp.LOGICAL_NAME:
          return s.type() == Schema.Type.INT64 ? StagedRow.TIMESTAMP : -1;
        default:
          break;
      }
    }
    return switch (s.type()) {
      case STRING -> StagedRow.STRING;
      case INT8 -> StagedRow.INT8;
      case INT16 -> StagedRow.INT16;
      case INT32 -> StagedRow.INT32;
      case INT64 -> StagedRow.INT64;
      case FLOAT32 -> StagedRow.FLOAT32;
      case FLOAT64 -> StagedRow.FLOAT64;
      case BOOLEAN -> StagedRow.BOOLEAN;
      case BYTES -> StagedRow.BYTES;
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

  /** A field without a member, or with null: its default, else null where optional. */
  private static void absent(Node field, StagedRow row) {
    if (field.hasDefault) {
      setDefault(field, row);
      return;
    }
    if (!field.optional) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    for (int leaf = field.firstLeaf; leaf < field.endLeaf; leaf++) {
      row.setNull(leaf, field.depth);
    }
  }

  private static void setDefault(Node field, StagedRow row) {
    int leaf = field.firstLeaf;
    switch (field.kind) {
      case StagedRow.STRING -> row.setEscapedText(leaf, field.defaultText);
      case StagedRow.FLOAT32, StagedRow.FLOAT64 -> row.setDouble(leaf, field.defaultDouble);
      case StagedRow.BYTES -> row.setBytes(leaf, field.defaultBytes);
      case StagedRow.DECIMAL -> row.setDecimal(leaf, field.defaultLong, field.scale);
      default -> row.setLong(leaf, field.defaultLong);
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
    if (field.kind == STRUCT) {
      if (b != '{') {
        throw SchemaDirectedReader.NOT_DIRECT;
      }
      struct(reader, field, row);
    } else if (field.repeated) {
      if (b != '[') {
        throw SchemaDirectedReader.NOT_DIRECT; // JsonConverter's coercions: the Struct path
      }
      list(reader, field, row);
    } else {
      leafValue(reader, field, b, field.firstLeaf, row);
    }
  }

  /** An array's elements, each into a slot of its own; a null element only where optional. */
  private static void list(JsonReader reader, Node field, StagedRow row)
      throws MalformedJsonException {
    int leaf = field.firstLeaf;
    row.startList(leaf);
    reader.enter();
    reader.advance();
    if (!reader.skipWhitespace()) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    if (reader.peek() == ']') {
      reader.advance();
      reader.leave();
      return;
    }
    while (true) {
      if (!reader.skipWhitespace()) {
        throw SchemaDirectedReader.NOT_DIRECT;
      }
      byte b = reader.peek();
      int slot = row.addElement(leaf);
      if (b == 'n') {
        reader.readLiteral("null");
        if (!field.elementsOptional) {
          throw SchemaDirectedReader.NOT_DIRECT; // JsonConverter's error
        }
        row.setNull(slot, 0);
      } else {
        leafValue(reader, field, b, slot, row);
      }
      if (!reader.skipWhitespace()) {
        throw SchemaDirectedReader.NOT_DIRECT;
      }
      b = reader.peek();
      reader.advance();
      if (b == ']') {
        break;
      }
      if (b != ',') {
        throw SchemaDirectedReader.NOT_DIRECT;
      }
    }
    reader.leave();
  }

  /** A leaf's non-null value ({@code b} its first byte) into {@code leaf}: a leaf or a slot. */
  private static void leafValue(JsonReader reader, Node field, byte b, int leaf, StagedRow row)
      throws MalformedJsonException {
    switch (field.kind) {
      case StagedRow.STRING -> {
        if (b != '"') {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        reader.stageString(row, leaf);
      }
      case StagedRow.INT8 -> row.setLong(leaf, (byte) integer(reader, b));
      case StagedRow.INT16 -> row.setLong(leaf, (short) integer(reader, b));
      case StagedRow.INT32 -> row.setLong(leaf, (int) integer(reader, b));
      case StagedRow.INT64, StagedRow.TIMESTAMP -> row.setLong(leaf, integer(reader, b));
      case StagedRow.DATE -> {
        long days = integer(reader, b);
        if (days != (int) days) {
          throw SchemaDirectedReader.NOT_DIRECT; // JsonConverter's error
        }
        row.setLong(leaf, days);
      }
      case StagedRow.TIME -> {
        long millis = integer(reader, b);
        if (millis < 0 || millis >= MILLIS_PER_DAY) {
          throw SchemaDirectedReader.NOT_DIRECT; // Connect's or the shredder's error
        }
        row.setLong(leaf, millis);
      }
      case StagedRow.FLOAT32 -> row.setFloat(leaf, float32(reader, b));
      case StagedRow.BYTES -> {
        if (b != '"') {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        int length = reader.readBase64(row);
        if (length < 0) {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        row.setScratchBytes(leaf, length);
      }
      case StagedRow.DECIMAL -> {
        if (b == '"') {
          int length = reader.readBase64(row);
          if (length < 0 || !row.setDecimalBytes(leaf, length, field.scale)) {
            throw SchemaDirectedReader.NOT_DIRECT;
          }
        } else {
          if (b != '-' && (b < '0' || b > '9')) {
            throw SchemaDirectedReader.NOT_DIRECT;
          }
          if (reader.readDecimalNumber() != JsonNumbers.DECIMAL) {
            throw SchemaDirectedReader.NOT_DIRECT;
          }
          row.setDecimal(leaf, reader.primitiveLong(), reader.decimalScale());
        }
      }
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

  /**
   * The float {@code BigDecimal.floatValue} gives the number at the position: an integer's nearest
   * float; a fraction of fewer than 2^22 unscaled and a scale within 10, one float division or
   * multiplication, exactly as BigDecimal computes it (its other cases go through a text parse of
   * their own, which the Struct path keeps).
   */
  private static float float32(JsonReader reader, byte b) throws MalformedJsonException {
    if (b != '-' && (b < '0' || b > '9')) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    if (reader.readDecimalNumber() != JsonNumbers.DECIMAL) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    long unscaled = reader.primitiveLong();
    int scale = reader.decimalScale();
    if (scale == 0) {
      return (float) unscaled;
    }
    if (unscaled < FLOAT_EXACT && unscaled > -FLOAT_EXACT) {
      if (scale > 0 && scale < FLOAT_POWERS_OF_TEN.length) {
        return (float) unscaled / FLOAT_POWERS_OF_TEN[scale];
      }
      if (scale < 0 && scale > -FLOAT_POWERS_OF_TEN.length) {
        return (float) unscaled * FLOAT_POWERS_OF_TEN[-scale];
      }
    }
    throw SchemaDirectedReader.NOT_DIRECT;
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
