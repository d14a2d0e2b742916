package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.FieldRepetitionType;
import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.GroupNode;
import dev.parquetconnect.format.schema.NestedTypes;
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
 * {@code writeString} encodes; bytes as they were decoded; a decimal's unscaled value at the
 * column's scale, checked as {@link LeafShredder} checks it). Compiled once per file layout whose
 * value is a struct of stageable leaves; null for any other.
 */
final class StagedValueWriter {
  private static final long MICROS_LIMIT = Long.MAX_VALUE / 1000;
  private static final long[] POWERS_OF_TEN = new long[19];

  static {
    POWERS_OF_TEN[0] = 1;
    for (int i = 1; i < POWERS_OF_TEN.length; i++) {
      POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
    }
  }

  private final Schema schema;
  private final ColumnChunkWriter[] columns;
  private final byte[] kinds;
  private final int[] maxDef;

  /** Per leaf, the definition level of a null at each depth of its path. */
  private final int[][] nullDef;

  private final boolean microsTimestamps;
  private boolean hasTimestamps;
  private boolean hasDecimals;
  private Schema lastEqualSchema;

  /** Per decimal leaf, its column's layout, else null. */
  private final DecimalLayout[] decimals;

  /** Per decimal leaf on FIXED_LEN_BYTE_ARRAY, the buffer of its value, else null. */
  private final byte[][] fixed;

  /** Per slot of a decimal leaf, the row's value at the column's scale ({@link #writable}). */
  private long[] unscaled;

  /** Per leaf, whether it is an array's element; then the definition level of an empty list. */
  private final boolean[] repeated;

  private final int[] listDef;

  private StagedValueWriter(
      Schema schema,
      ColumnChunkWriter[] columns,
      byte[] kinds,
      int[] maxDef,
      int[][] nullDef,
      DecimalLayout[] decimals,
      boolean[] repeated,
      int[] listDef,
      boolean microsTimestamps) {
    this.schema = schema;
    this.repeated = repeated;
    this.listDef = listDef;
    this.columns = columns;
    this.kinds = kinds;
    this.maxDef = maxDef;
    this.nullDef = nullDef;
    this.decimals = decimals;
    this.microsTimestamps = microsTimestamps;
    this.fixed = new byte[kinds.length][];
    this.unscaled = new long[kinds.length];
    for (int i = 0; i < kinds.length; i++) {
      hasTimestamps |= kinds[i] == StagedRow.TIMESTAMP;
      hasDecimals |= kinds[i] == StagedRow.DECIMAL;
      if (decimals[i] != null && decimals[i].type() == PhysicalType.FIXED_LEN_BYTE_ARRAY) {
        fixed[i] = new byte[decimals[i].byteLength()];
      }
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
    boolean[] repeated = new boolean[n];
    int[] listDef = new int[n];
    for (int i = 0; i < n; i++) {
      kinds[i] = leaves.kinds.get(i);
      maxDef[i] = leaves.maxDef.get(i);
      repeated[i] = leaves.repeated.get(i);
      listDef[i] = leaves.listDef.get(i);
      if (columns[i].descriptor().maxDefinitionLevel() != maxDef[i]
          || columns[i].descriptor().maxRepetitionLevel() != (repeated[i] ? 1 : 0)) {
        return null;
      }
    }
    return new StagedValueWriter(
        schema,
        columns,
        kinds,
        maxDef,
        leaves.nullDef.toArray(new int[0][]),
        leaves.decimals.toArray(new DecimalLayout[0]),
        repeated,
        listDef,
        microsTimestamps);
  }

  /** The leaves of a schema in column order, with their definition levels. */
  private static final class Leaves {
    final List<Byte> kinds = new ArrayList<>();
    final List<Integer> maxDef = new ArrayList<>();
    final List<int[]> nullDef = new ArrayList<>();
    final List<DecimalLayout> decimals = new ArrayList<>();
    final List<Boolean> repeated = new ArrayList<>();
    final List<Integer> listDef = new ArrayList<>();

    /** {@code above}: the definition level of a null at each depth above this field. */
    boolean add(SchemaNode node, Field field, int[] above, int parentDef) {
      Schema s = field.schema();
      if (!node.name().equals(field.name())) {
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
        if (s.defaultValue() != null // a row stages the defaults of leaves only
            || !(node instanceof GroupNode group)
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
      if (kind == ConnectTypes.Kind.ARRAY) {
        // An array of leaves: a standard three-level LIST whose element is the leaf.
        if (s.defaultValue() != null
            || s.valueSchema().defaultValue() != null
            || !(node instanceof GroupNode group)
            || !group.isList()) {
          return false;
        }
        NestedTypes.ListShape shape = NestedTypes.listShape(group);
        if (shape == null
            || shape.twoLevel()
            || !(shape.element() instanceof PrimitiveNode element)) {
          return false;
        }
        boolean elementOptional = element.repetition() != FieldRepetitionType.REQUIRED;
        if (s.valueSchema().isOptional() != elementOptional) {
          return false;
        }
        return addLeaf(
            element, s.valueSchema(), path, def + 1 + (elementOptional ? 1 : 0), true, def);
      }
      if (!(node instanceof PrimitiveNode leaf)) {
        return false;
      }
      return addLeaf(leaf, s, path, def, false, 0);
    }

    /** A leaf column of {@code s}; {@code repeated}: an array's element, {@code listDef}. */
    private boolean addLeaf(
        PrimitiveNode leaf, Schema s, int[] path, int def, boolean repeated, int listDef) {
      ConnectTypes.Kind kind = ConnectTypes.kind(s);
      byte staged;
      PhysicalType type;
      DecimalLayout decimal = null;
      switch (kind) {
        case INT8 -> {
          staged = StagedRow.INT8;
          type = PhysicalType.INT32;
        }
        case INT16 -> {
          staged = StagedRow.INT16;
          type = PhysicalType.INT32;
        }
        case FLOAT32 -> {
          staged = StagedRow.FLOAT32;
          type = PhysicalType.FLOAT;
        }
        case BYTES -> {
          staged = StagedRow.BYTES;
          type = PhysicalType.BYTE_ARRAY;
        }
        case DATE -> {
          staged = StagedRow.DATE;
          type = PhysicalType.INT32;
        }
        case TIME -> {
          staged = StagedRow.TIME;
          type = PhysicalType.INT32;
        }
        case DECIMAL -> {
          try {
            decimal = DecimalLayout.of(s);
          } catch (RuntimeException e) {
            return false; // parameters the Struct path refuses, and says why
          }
          staged = StagedRow.DECIMAL;
          type = decimal.type();
          if (type == PhysicalType.FIXED_LEN_BYTE_ARRAY
              && leaf.typeLength() != decimal.byteLength()) {
            return false;
          }
        }
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
      decimals.add(decimal);
      this.repeated.add(repeated);
      this.listDef.add(listDef);
      return true;
    }
  }

  /** Whether {@code row} is of this writer's schema (and so of its leaves). */
  boolean fits(StagedRow row) {
    Schema s = row.schema();
    if (s == schema || s == lastEqualSchema) {
      return true;
    }
    if (!s.equals(schema)
        || !Arrays.equals(row.kinds(), kinds)
        || !Arrays.equals(row.repeatedLeaves(), repeated)) {
      return false;
    }
    lastEqualSchema = s;
    return true;
  }

  /**
   * Whether every value of {@code row} can be written: a Timestamp that overflows in microseconds,
   * or a decimal that does not fit its column's scale and precision exactly, is a bad record the
   * Struct path names, so such a row is left to it (as is a decimal whose rescaled value needs more
   * than 64 bits, which the Struct path writes). Rescales the row's decimals for {@link #write}.
   */
  boolean writable(StagedRow row) {
    boolean timestamps = hasTimestamps && microsTimestamps;
    if (!hasDecimals && !timestamps) {
      return true;
    }
    if (unscaled.length < row.longs.length) {
      unscaled = new long[row.longs.length];
    }
    for (int i = 0; i < kinds.length; i++) {
      byte kind = kinds[i];
      if ((kind == StagedRow.DECIMAL || kind == StagedRow.TIMESTAMP && timestamps)
          && row.nullAt[i] < 0) {
        if (!repeated[i]) {
          if (!writable(row, i, i)) {
            return false;
          }
        } else {
          for (int e = 0, slot = row.firstSlot[i]; e < row.elementCount[i]; e++, slot++) {
            if (row.nullAt[slot] < 0 && !writable(row, i, slot)) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }

  /** Whether the value in {@code slot} of decimal or Timestamp leaf {@code leaf} fits. */
  private boolean writable(StagedRow row, int leaf, int slot) {
    if (kinds[leaf] == StagedRow.DECIMAL) {
      return rescale(leaf, slot, row.longs[slot], row.scales[slot]);
    }
    long millis = row.longs[slot];
    return millis <= MICROS_LIMIT && millis >= -MICROS_LIMIT;
  }

  /**
   * {@code value * 10^-scale} at the column's scale into {@link #unscaled}, exactly (as {@link
   * DecimalLayout#fit} rescales, never rounding) and within its precision; false when it is not.
   */
  private boolean rescale(int leaf, int slot, long value, int scale) {
    DecimalLayout layout = decimals[leaf];
    long v = value;
    if (scale != layout.scale() && v != 0) {
      long shift = (long) layout.scale() - scale;
      if (shift > 0) {
        if (shift >= POWERS_OF_TEN.length) {
          return false;
        }
        long p = POWERS_OF_TEN[(int) shift];
        if (v > Long.MAX_VALUE / p || v < Long.MIN_VALUE / p) {
          return false;
        }
        v *= p;
      } else {
        if (-shift >= POWERS_OF_TEN.length) {
          return false; // a non-zero value with digits below the column's scale
        }
        long p = POWERS_OF_TEN[(int) -shift];
        if (v % p != 0) {
          return false;
        }
        v /= p;
      }
    }
    if (digits(v) > layout.precision()) {
      return false;
    }
    unscaled[slot] = v;
    return true;
  }

  /** The decimal digits of {@code v} ({@code BigDecimal.precision} of its unscaled value). */
  private static int digits(long v) {
    if (v == Long.MIN_VALUE) {
      return 19;
    }
    long a = Math.abs(v);
    int n = 1;
    while (n < POWERS_OF_TEN.length && a >= POWERS_OF_TEN[n]) {
      n++;
    }
    return n;
  }

  /** Appends the row's values, one entry per column (per element for an array's). */
  void write(StagedRow row) {
    for (int i = 0; i < kinds.length; i++) {
      ColumnChunkWriter column = columns[i];
      int nullAt = row.nullAt[i];
      if (nullAt >= 0) {
        column.writeNull(0, nullDef[i][nullAt]);
      } else if (!repeated[i]) {
        writeValue(row, i, i, column, 0, maxDef[i]);
      } else if (row.elementCount[i] == 0) {
        column.writeNull(0, listDef[i]); // an empty list: a null at the list's own level
      } else {
        int def = maxDef[i];
        for (int e = 0, slot = row.firstSlot[i]; e < row.elementCount[i]; e++, slot++) {
          int rep = e == 0 ? 0 : 1;
          if (row.nullAt[slot] >= 0) {
            column.writeNull(rep, def - 1);
          } else {
            writeValue(row, i, slot, column, rep, def);
          }
        }
      }
    }
  }

  private void writeValue(
      StagedRow row, int leaf, int slot, ColumnChunkWriter column, int rep, int def) {
    switch (kinds[leaf]) {
      case StagedRow.STRING -> {
        String text = row.escaped[slot];
        if (text == null) {
          column.writeBinary(row.source, row.textFrom[slot], row.textLength[slot], rep, def);
        } else {
          column.writeString(text, rep, def);
        }
      }
      case StagedRow.INT32, StagedRow.INT8, StagedRow.INT16, StagedRow.DATE, StagedRow.TIME ->
          column.writeInt((int) row.longs[slot], rep, def);
      case StagedRow.INT64 -> column.writeLong(row.longs[slot], rep, def);
      case StagedRow.TIMESTAMP ->
          column.writeLong(microsTimestamps ? row.longs[slot] * 1000 : row.longs[slot], rep, def);
      case StagedRow.FLOAT64 -> column.writeDouble(row.doubles[slot], rep, def);
      case StagedRow.BOOLEAN -> column.writeBoolean(row.longs[slot] != 0, rep, def);
      case StagedRow.FLOAT32 -> column.writeFloat((float) row.doubles[slot], rep, def);
      case StagedRow.BYTES -> {
        byte[] bytes = row.ownBytes[slot] != null ? row.ownBytes[slot] : row.scratch;
        column.writeBinary(bytes, row.textFrom[slot], row.textLength[slot], rep, def);
      }
      case StagedRow.DECIMAL -> writeDecimal(leaf, unscaled[slot], column, rep, def);
      default -> throw new IllegalStateException("no staged kind " + kinds[leaf]);
    }
  }

  private void writeDecimal(int leaf, long value, ColumnChunkWriter column, int rep, int def) {
    long v = value;
    switch (decimals[leaf].type()) {
      case INT32 -> column.writeInt((int) v, rep, def);
      case INT64 -> column.writeLong(v, rep, def);
      default -> {
        // Two's complement, big-endian, sign-extended to the column's fixed length (> 8 bytes).
        byte[] out = fixed[leaf];
        int n = out.length;
        byte sign = (byte) (v < 0 ? -1 : 0);
        for (int i = 0; i < n - 8; i++) {
          out[i] = sign;
        }
        for (int i = n - 1; i >= n - 8; i--) {
          out[i] = (byte) v;
          v >>= 8;
        }
        column.writeBinary(out, 0, n, rep, def);
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
