package dev.parquetconnect.connect.json;

import dev.parquetconnect.connect.SchemaInference;
import dev.parquetconnect.connect.StagedRow;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.connect.data.Schema;

/**
 * Schemaless JSON documents ({@code input.json.schemas.enable=false}) read straight into a {@link
 * StagedRow} by the layout learned per topic ({@link SchemalessLayout}): one pass over the bytes
 * that matches each key against the layout's keys byte for byte and reads each value as its field
 * of the target schema takes it, with no map, no key String and no box per number.
 *
 * <p>It takes a document that {@link SchemaInference#fits fits} the target in the common way only:
 * an object whose keys come in the learned order (any of them absent), each value null or of its
 * field's kind (text for text; an integer of at most 18 digits for INT64 and FLOAT64, a fraction
 * whose double needs no BigDecimal for FLOAT64; true or false; an object for a struct, by its
 * nested layout), white space only after it. The row is then exactly what the connect path's {@code
 * conform} makes of the document for a file of the target schema, and the task appends it only to
 * an open file of exactly that schema. Anything else (a new key, a repeated key, keys out of order,
 * an escape in a key, a conflict, an array, a longer number, any malformed byte) throws {@link
 * SchemaDirectedReader.NotDirect} or {@link MalformedJsonException}: the record is read again from
 * its first byte the map way, which gives its meaning or its error, and teaches the layout again.
 *
 * <p>The target: the schema of the file that refused the topic's last staged row (so rows follow a
 * file that widened) when the document fits it, else the document's own inferred schema.
 */
final class SchemalessStagedReader {
  /** A task reads a few topics; layouts beyond these are forgotten, oldest first. */
  private static final int MAX_TOPICS = 16;

  /** An inference only for shapes: what is staged does not depend on the conflict policy. */
  private final SchemaInference inference =
      new SchemaInference(SchemaInference.ConflictPolicy.STRING);

  private final Map<String, Topic> topics = new LinkedHashMap<>();

  /** The layout that read the last staged document, tried first. */
  private SchemalessLayout last;

  /** The bytes of the last staged document, and its row. */
  private byte[] lastStaged;

  private StagedRow lastStagedRow;

  private static final class Topic {
    SchemalessLayout layout;

    /** The schema of the last file that refused a staged row of this topic's layout. */
    Schema fileSchema;

    /** The compiled target of the layout. */
    SchemalessLayout.Target target;

    /** The last target schema no row can be staged for (compiled once per schema). */
    Schema unstageable;
  }

  /**
   * The document read into the row of the layout it has (the last one that matched first, then the
   * other topics'), or null, nothing decided.
   */
  StagedRow stage(JsonReader reader, byte[] bytes) {
    if (last == null) {
      return null;
    }
    if (read(reader, bytes, last)) {
      lastStaged = bytes;
      lastStagedRow = last.row;
      return last.row;
    }
    if (topics.size() > 1) {
      for (Topic t : topics.values()) {
        SchemalessLayout layout = t.layout;
        if (layout != null && layout != last && read(reader, bytes, layout)) {
          last = layout;
          lastStaged = bytes;
          lastStagedRow = layout.row;
          return layout.row;
        }
      }
    }
    return null;
  }

  /**
   * Learns the topic's layout from a document read the map way ({@code value}, its schemaless
   * value), for the schema of the file that refused its row if one did.
   */
  void learn(JsonReader reader, String topic, byte[] bytes, Object value) {
    if (!(value instanceof Map<?, ?>)) {
      return;
    }
    Topic t = topics.get(topic);
    if (t == null) {
      if (topics.size() >= MAX_TOPICS) {
        topics.remove(topics.keySet().iterator().next());
      }
      t = new Topic();
      topics.put(topic, t);
    }
    Schema refusedBy = null;
    if (bytes == lastStaged) {
      refusedBy = lastStagedRow.refusedBy();
      lastStagedRow.refusedBy(null);
      lastStaged = null;
      lastStagedRow = null;
      if (refusedBy == null) {
        return; // staged and not refused by a file: its layout stands
      }
    }
    if (refusedBy != null) {
      t.fileSchema = refusedBy;
    }
    Schema target = null;
    try {
      if (t.fileSchema != null && inference.fits(t.fileSchema, value)) {
        target = t.fileSchema;
      } else {
        target = inference.infer(value);
      }
    } catch (RuntimeException e) {
      return; // not a value to stage; the task's own inference names the problem
    }
    if (t.target == null || t.target.schema != target) {
      if (target.equals(t.unstageable)) {
        return;
      }
      t.target = SchemalessLayout.target(target);
      if (t.target == null) {
        // Such documents are not staged (an array, a field only null in a nested object...): the
        // topic's old layout would only lead its records to a file that refuses them.
        if (last == t.layout && last != null) {
          last = null;
        }
        t.layout = null;
        t.unstageable = target;
        return;
      }
    }
    SchemalessLayout layout = SchemalessLayout.learn(reader, bytes, t.target);
    if (layout != null) {
      t.layout = layout;
      last = layout;
    }
  }

  private static boolean read(JsonReader reader, byte[] bytes, SchemalessLayout layout) {
    StagedRow row = layout.row;
    row.start(bytes);
    try {
      reader.start(bytes, true);
      if (!reader.skipWhitespace() || reader.peek() != '{') {
        return false;
      }
      object(reader, layout.root, row);
      return !reader.skipWhitespace();
    } catch (MalformedJsonException | SchemaDirectedReader.NotDirect e) {
      return false;
    }
  }

  /** The object at the position ('{'), its members in the node's order, any of them absent. */
  private static void object(JsonReader reader, SchemalessLayout.Node node, StagedRow row)
      throws MalformedJsonException {
    SchemalessLayout.Struct struct = node.struct;
    int depth = struct.depth;
    // Every field null first (its leaves at this depth): members found overwrite theirs.
    int[] first = struct.firstLeaf;
    int[] end = struct.endLeaf;
    for (int f = 0; f < first.length; f++) {
      for (int leaf = first[f]; leaf < end[f]; leaf++) {
        row.setNull(leaf, depth);
      }
    }
    byte[][] names = node.names;
    reader.enter();
    reader.advance();
    if (!reader.skipWhitespace()) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    if (reader.peek() == '}') {
      reader.advance();
      reader.leave();
      return;
    }
    int next = 0;
    while (true) {
      // This key or a later one of the layout (those between are absent): anything else is a key
      // the layout does not have, one out of order or one repeated.
      while (true) {
        if (next == names.length) {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        if (reader.matchKey(names[next])) {
          break;
        }
        next++;
      }
      if (!reader.skipWhitespace()) {
        throw SchemaDirectedReader.NOT_DIRECT;
      }
      value(reader, node, next++, row);
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
    reader.leave();
  }

  /** The value of the node's member {@code i} (white space before it skipped). */
  private static void value(JsonReader reader, SchemalessLayout.Node node, int i, StagedRow row)
      throws MalformedJsonException {
    byte b = reader.peek();
    if (b == 'n') {
      reader.readLiteral("null"); // its leaves are null already
      return;
    }
    int field = node.fields[i];
    int leaf = node.struct.firstLeaf[field];
    switch (node.struct.kinds[field]) {
      case SchemalessLayout.NULL_ONLY -> throw SchemaDirectedReader.NOT_DIRECT;
      case SchemalessLayout.STRUCT -> {
        if (b != '{' || node.children[i] == null) {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        object(reader, node.children[i], row);
      }
      case StagedRow.STRING -> {
        if (b != '"') {
          throw SchemaDirectedReader.NOT_DIRECT; // under a conflict: its JSON text, the map way
        }
        reader.stageString(row, leaf);
      }
      case StagedRow.INT64 -> {
        if (number(reader, b) != JsonNumbers.INTEGER) {
          throw SchemaDirectedReader.NOT_DIRECT;
        }
        row.setLong(leaf, reader.primitiveLong());
      }
      case StagedRow.FLOAT64 -> {
        int kind = number(reader, b);
        if (kind == JsonNumbers.INTEGER) {
          row.setDouble(leaf, (double) reader.primitiveLong()); // Long.doubleValue, as conform
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
      default -> throw new IllegalStateException("no schemaless kind " + node.struct.kinds[field]);
    }
  }

  /** Reads the number at the position ({@code b} its first byte): {@link JsonNumbers} kinds. */
  private static int number(JsonReader reader, byte b) throws MalformedJsonException {
    if (b != '-' && (b < '0' || b > '9')) {
      throw SchemaDirectedReader.NOT_DIRECT;
    }
    return reader.readPrimitiveNumber();
  }
}
