package dev.parquetconnect.connect.json;

import dev.parquetconnect.connect.SchemaInference;
import dev.parquetconnect.connect.StagedRow;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * The shape of a topic's schemaless JSON documents, learned from one of them: its keys in the order
 * the document had them (a nested object's as a nested layout), each tied to its field of a
 * <em>target</em> schema, the inferred schema of the topic's open file (or of the document itself
 * until a file tells otherwise). {@link SchemalessStagedReader} reads a later document whose keys
 * come in that order (any of them absent) straight into a {@link StagedRow} of the target schema:
 * what {@link SchemaInference#conform} makes of the document for a file of that schema, leaf by
 * leaf, with no map, key String or box in between.
 *
 * <p>The row's leaves are the target's stored leaves (fields sorted by name, depth first, no column
 * for a field that was only null so far), which the shredders write in that order. The target must
 * be a struct of text, INT64, FLOAT64, BOOLEAN and nested structs (each with a stored leaf), every
 * field optional, as inference makes them; other fields (only null so far, arrays, maps) may only
 * be null or absent in a staged document.
 */
final class SchemalessLayout {
  /** A field of no stored leaf of a staged kind: only null (or absent) is staged there. */
  static final byte NULL_ONLY = -2;

  /** A struct field. */
  static final byte STRUCT = -1;

  /** One struct of the target schema: per field (by index), its kind, depth and leaves. */
  static final class Struct {
    final byte[] kinds;
    final int[] firstLeaf;
    final int[] endLeaf;
    final Struct[] children;

    /** The depth of the struct's fields (0: the top-level fields). */
    final int depth;

    private Struct(int n, int depth) {
      kinds = new byte[n];
      firstLeaf = new int[n];
      endLeaf = new int[n];
      children = new Struct[n];
      this.depth = depth;
    }
  }

  /** One object of the learned document: its keys in document order and their fields. */
  static final class Node {
    final Struct struct;
    final byte[][] names;
    final int[] fields;

    /** The layout of a nested object as the learned document had it; null: none learned. */
    final Node[] children;

    private Node(Struct struct, int n) {
      this.struct = struct;
      names = new byte[n][];
      fields = new int[n];
      children = new Node[n];
    }
  }

  final Node root;
  final StagedRow row;

  private SchemalessLayout(Node root, StagedRow row) {
    this.root = root;
    this.row = row;
  }

  /** A target schema compiled: its structs' plans and the kinds of its stored leaves. */
  static final class Target {
    final Schema schema;
    final Struct root;
    final byte[] kinds;

    private Target(Schema schema, Struct root, byte[] kinds) {
      this.schema = schema;
      this.root = root;
      this.kinds = kinds;
    }
  }

  /**
   * {@code schema} compiled for staged rows; null when no document is staged for it: not a struct
   * of stageable leaves (an array, a map, a struct whose fields were only null so far).
   */
  static Target target(Schema schema) {
    if (schema == null || schema.type() != Schema.Type.STRUCT) {
      return null;
    }
    List<Byte> kinds = new ArrayList<>();
    Struct root = struct(schema, 0, kinds);
    if (root == null) {
      return null;
    }
    byte[] k = new byte[kinds.size()];
    for (int i = 0; i < k.length; i++) {
      k[i] = kinds.get(i);
    }
    return new Target(schema, root, k);
  }

  /**
   * The layout of the document in {@code bytes} for rows of {@code target}; null when this document
   * cannot teach the key order (not an object, a key the target lacks, a key repeated, with an
   * escape or outside printable ASCII, a malformed byte).
   */
  static SchemalessLayout learn(JsonReader reader, byte[] bytes, Target target) {
    try {
      reader.start(bytes, true);
      if (!reader.skipWhitespace() || reader.peek() != '{') {
        return null;
      }
      Node root = object(reader, target.schema, target.root);
      if (root == null) {
        return null;
      }
      return new SchemalessLayout(root, new StagedRow(target.schema, target.kinds, true));
    } catch (MalformedJsonException e) {
      return null;
    }
  }

  /** The plan of a struct whose fields are at {@code depth}; null: not stageable. */
  private static Struct struct(Schema schema, int depth, List<Byte> kinds) {
    List<Field> fields = schema.fields();
    if (fields.isEmpty()) {
      return null;
    }
    Struct out = new Struct(fields.size(), depth);
    int before = kinds.size();
    for (Field f : fields) {
      Schema s = f.schema();
      int i = f.index();
      if (!s.isOptional() || s.defaultValue() != null) {
        return null;
      }
      out.firstLeaf[i] = kinds.size();
      if (SchemaInference.isUnknown(s)) {
        out.kinds[i] = NULL_ONLY;
      } else if (s.type() == Schema.Type.STRUCT) {
        out.kinds[i] = STRUCT;
        out.children[i] = struct(s, depth + 1, kinds);
        if (out.children[i] == null) {
          return null;
        }
      } else {
        byte kind = s.name() != null ? -1 : leafKind(s.type());
        if (kind < 0) {
          return null; // a column the staged row cannot fill (a list, a map, bytes)
        }
        out.kinds[i] = kind;
        kinds.add(kind);
      }
      out.endLeaf[i] = kinds.size();
    }
    return kinds.size() > before ? out : null;
  }

  private static byte leafKind(Schema.Type type) {
    return switch (type) {
      case STRING -> StagedRow.STRING;
      case INT64 -> StagedRow.INT64;
      case FLOAT64 -> StagedRow.FLOAT64;
      case BOOLEAN -> StagedRow.BOOLEAN;
      default -> -1;
    };
  }

  /** The object at the position ('{'): its keys in order, each tied to its field of the struct. */
  private static Node object(JsonReader reader, Schema schema, Struct struct)
      throws MalformedJsonException {
    reader.enter();
    reader.advance();
    List<Field> fields = schema.fields();
    List<byte[]> names = new ArrayList<>();
    List<Integer> indexes = new ArrayList<>();
    List<Node> children = new ArrayList<>();
    boolean[] seen = new boolean[fields.size()];
    if (!reader.skipWhitespace()) {
      return null;
    }
    if (reader.peek() == '}') {
      reader.advance();
    } else {
      while (true) {
        if (reader.peek() != '"') {
          return null;
        }
        String key = reader.readKey();
        byte[] name = plainName(key);
        Field f = schema.field(key);
        if (name == null || f == null || seen[f.index()] || !reader.skipWhitespace()) {
          return null;
        }
        seen[f.index()] = true;
        names.add(name);
        indexes.add(f.index());
        Node child = null;
        if (struct.kinds[f.index()] == STRUCT && reader.peek() == '{') {
          child = object(reader, f.schema(), struct.children[f.index()]);
          if (child == null) {
            return null;
          }
        } else {
          reader.skipValue();
        }
        children.add(child);
        if (!reader.skipWhitespace()) {
          return null;
        }
        byte next = reader.peek();
        reader.advance();
        if (next == '}') {
          break;
        }
        if (next != ',' || !reader.skipWhitespace()) {
          return null;
        }
      }
    }
    reader.leave();
    Node node = new Node(struct, names.size());
    for (int i = 0; i < names.size(); i++) {
      node.names[i] = names.get(i);
      node.fields[i] = indexes.get(i);
      node.children[i] = children.get(i);
    }
    return node;
  }

  /**
   * The key's bytes where it is printable ASCII without '"' and '\\' (so spelt without escapes).
   */
  private static byte[] plainName(String key) {
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
        return null;
      }
    }
    return key.getBytes(StandardCharsets.US_ASCII);
  }
}
