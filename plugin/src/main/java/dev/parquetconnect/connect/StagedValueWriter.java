package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.schema.SchemaNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Appends a {@link StagedRow} to a file's value columns: the same calls, with the same values and
 * levels, that the shredders make for the Struct JsonConverter would have built of the same JSON,
 * so the file is the same byte for byte (text is handed over as its UTF-8 bytes, which are what
 * {@code writeString} encodes). Compiled once per file layout whose value is a struct of stageable
 * leaves; null for any other.
 */
final class StagedValueWriter {
  private static final long MICROS_LIMIT = Long.MAX_VALUE / 1000;

  private final Schema schema;
  private final ColumnChunkWriter[] columns;
  private final byte[] kinds;
  private final int[] maxDef;

  /** Per leaf, the definition level of a null at each depth of its path. */
  private final int[][] nullDef;

  private final boolean microsTimestamps;
  private boolean hasTimestamps;
  private Schema lastEqualSchema;

  private StagedValueWriter(
      Schema schema,
      ColumnChunkWriter[] columns,
      byte[] kinds,
      int[] maxDef,
      int[][] nullDef,
      boolean microsTimestamps) {
    this.schema = schema;
    this.columns = columns;
    this.kinds = kinds;
    this.maxDef = maxDef;
    this.nullDef = nullDef;
    this.microsTimestamps = microsTimestamps;
    for (byte k : kinds) {
      hasTimestamps |= k == StagedRow.TIMESTAMP;
    }
  }

  /**
   * The writer for a struct value of {@code schema} whose fields are the first fields of {@code
   * root} and whose leaves are {@code columns}; null when the schema has leaves a row cannot stage
   * or the file's columns are not the plain mapping of its fields.
   */
  static StagedValueWriter compile(
      Schema schema, GroupNode root, ColumnChunkWriter[] columns, boolean microsTimestamps) {
    List<Field> fields = ConnectToParquet.storedFields(schema);
    if (fields.isEmpty() || root.fieldCount() < fields.size()) {
      return null;
    }
    Leaves leaves = new Leaves();
    for (int i = 0; i < fields.size(); i++) {
      if (!leaves.add(root.field(i), fields.get(i), new int[0], 0)) {
        return null;
      }
    }
    if (leaves.kinds.size() != columns.length) {
      return null;
    }
    int n = columns.length;
    byte[] kinds = new byte[n];
    int[] maxDef = new int[n];
    for (int i = 0; i < n; i++) {
      kinds[i] = leaves.kinds.get(i);
      maxDef[i] = leaves.maxDef.get(i);
      if (columns[i].descriptor().maxDefinitionLevel() != maxDef[i]
          || columns[i].descriptor().maxRepetitionLevel() != 0) {
        return null;
      }
    }
    return new StagedValueWriter(
        schema, columns, kinds, maxDef, leaves.nullDef.toArray(new int[0][]), microsTimestamps);
  }

  /** The leaves of a schema in column order, with their definition levels. */
  private static final class Leaves {
    final List<Byte> kinds = new ArrayList<>();
    final List<Integer> maxDef = new ArrayList<>();
    final List<int[]> nullDef = new ArrayList<>();

    /** {@code above}: the definition level of a null at each depth above this field. */
    boolean add(SchemaNode node, Field field, int[] above, int parentDef) {
      Schema s = field.schema();
      if (!node.name().equals(field.name()) || s.defaultValue() != null) {
        return false;
      }
      boolean optional = node.repetition() != FieldRepetitionType.REQUIRED;
      if (s.isOptional() && !optional) {
        return false;
      }
      int def = parentDef + (optional ? 1 : 0);
      int[] path = Arrays.copyOf(above, above.length + 1);
      path[above.length] = parentDef;
      ConnectTypes.Kind kind = ConnectTypes.kind(s);
      if (kind == ConnectTypes.Kind.STRUCT) {
        // Only stored fields have columns (a schemaless field that was only null has none).
        List<Field> stored = ConnectToParquet.storedFields(s);
        if (!(node instanceof GroupNode group)
            || stored.isEmpty()
            || group.fieldCount() != stored.size()
            || group.isList()
            || group.isMap()) {
          return false;
        }
        for (int i = 0; i < stored.size(); i++) {
          if (!add(group.field(i), stored.get(i), path, def)) {
            return false;
          }
        }
        return true;
      }
      if (!(node instanceof PrimitiveNode leaf)) {
        return false;
      }
      byte staged;
      PhysicalType type;
      switch (kind) {
        case STRING -> {
          staged = StagedRow.STRING;
          type = PhysicalType.BYTE_ARRAY;
        }
        case INT32 -> {
          staged = StagedRow.INT32;
          type = PhysicalType.INT32;
        }
        case INT64 -> {
          staged = StagedRow.INT64;
          type = PhysicalType.INT64;
        }
        case TIMESTAMP -> {
          staged = StagedRow.TIMESTAMP;
          type = PhysicalType.INT64;
        }
        case FLOAT64 -> {
          staged = StagedRow.FLOAT64;
          type = PhysicalType.DOUBLE;
        }
        case BOOLEAN -> {
          staged = StagedRow.BOOLEAN;
          type = PhysicalType.BOOLEAN;
        }
        default -> {
          return false;
        }
      }
      if (leaf.type() != type) {
        return false;
      }
      kinds.add(staged);
      maxDef.add(def);
      nullDef.add(path);
      return true;
    }
  }

  /** Whether {@code row} is of this writer's schema (and so of its leaves). */
  boolean fits(StagedRow row) {
    Schema s = row.schema();
    if (s == schema || s == lastEqualSchema) {
      return true;
    }
    if (!s.equals(schema) || !Arrays.equals(row.kinds(), kinds)) {
      return false;
    }
    lastEqualSchema = s;
    return true;
  }

  /**
   * Whether every value of {@code row} can be written: a Timestamp that overflows in microseconds
   * is a bad record the Struct path names, so such a row is left to it.
   */
  boolean writable(StagedRow row) {
    if (hasTimestamps && microsTimestamps) {
      for (int i = 0; i < kinds.length; i++) {
        if (kinds[i] == StagedRow.TIMESTAMP && row.nullAt[i] < 0) {
          long millis = row.longs[i];
          if (millis > MICROS_LIMIT || millis < -MICROS_LIMIT) {
            return false;
          }
        }
      }
    }
    return true;
  }

  /** Appends the row's values, one entry per column. */
  void write(StagedRow row) {
    byte[] source = row.source;
    for (int i = 0; i < kinds.length; i++) {
      ColumnChunkWriter column = columns[i];
      int nullAt = row.nullAt[i];
      if (nullAt >= 0) {
        column.writeNull(0, nullDef[i][nullAt]);
        continue;
      }
      int def = maxDef[i];
      switch (kinds[i]) {
        case StagedRow.STRING -> {
          String text = row.escaped[i];
          if (text == null) {
            column.writeBinary(source, row.textFrom[i], row.textLength[i], 0, def);
          } else {
            column.writeString(text, 0, def);
          }
        }
        case StagedRow.INT32 -> column.writeInt((int) row.longs[i], 0, def);
        case StagedRow.INT64 -> column.writeLong(row.longs[i], 0, def);
        case StagedRow.TIMESTAMP ->
            column.writeLong(microsTimestamps ? row.longs[i] * 1000 : row.longs[i], 0, def);
        case StagedRow.FLOAT64 -> column.writeDouble(row.doubles[i], 0, def);
        case StagedRow.BOOLEAN -> column.writeBoolean(row.longs[i] != 0, 0, def);
        default -> throw new IllegalStateException("no staged kind " + kinds[i]);
      }
    }
  }

  /** The text of a staged leaf (tests). */
  static String text(StagedRow row, int leaf) {
    String text = row.escaped[leaf];
    return text != null
        ? text
        : new String(row.source, row.textFrom[leaf], row.textLength[leaf], StandardCharsets.UTF_8);
  }
}
