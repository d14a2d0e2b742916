package dev.parquetconnect.iceberg;

import dev.parquetconnect.connect.FileLayout;
import dev.parquetconnect.connect.StagedRow;
import java.util.Date;
import java.util.List;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * A record whose value is a {@link StagedRow} (raw JSON read straight into primitives) seen as a
 * row of a table's schema, the counterpart of {@link RecordRow} for the Struct the same JSON would
 * make: a value field is the leaf the row holds at its place (depth first, the order of the row's
 * leaves), and every value goes through {@link RecordRow#convert}, so Iceberg's transforms get the
 * same Java values from either row. The Kafka metadata columns and the key are the record's, as in
 * {@link RecordRow}. Only the columns a partition spec reads are ever asked for, so a String or box
 * is made only for those.
 */
final class StagedTableRow implements StructLike {
  private final Types.StructType type;
  private SinkRecord record;
  private StagedRow row;
  private Leaves leaves;

  StagedTableRow(Types.StructType type) {
    this.type = type;
  }

  /** This row over {@code next} whose value is {@code staged}, its leaves placed by {@code map}. */
  StagedTableRow wrap(SinkRecord next, StagedRow staged, Leaves map) {
    this.record = next;
    this.row = staged;
    this.leaves = map;
    return this;
  }

  @Override
  public int size() {
    return type.fields().size();
  }

  @Override
  public <T> T get(int pos, Class<T> javaClass) {
    Types.NestedField field = type.fields().get(pos);
    return javaClass.cast(top(field));
  }

  @Override
  public <T> void set(int pos, T value) {
    throw new UnsupportedOperationException("a record row is read-only");
  }

  private Object top(Types.NestedField field) {
    switch (field.name()) {
      case FileLayout.TOPIC_COLUMN:
        return RecordRow.convert(field, record.originalTopic());
      case FileLayout.PARTITION_COLUMN:
        return RecordRow.convert(field, record.originalKafkaPartition());
      case FileLayout.OFFSET_COLUMN:
        return RecordRow.convert(field, record.originalKafkaOffset());
      case FileLayout.TIMESTAMP_COLUMN:
        return RecordRow.convert(
            field, record.timestamp() == null ? null : new Date(record.timestamp()));
      case FileLayout.KEY_COLUMN:
        return RecordRow.convert(field, record.key());
      default:
        return member(row, leaves, field, 0);
    }
  }

  /** The value of {@code field} among the members of {@code at} (a struct at {@code depth}). */
  private static Object member(StagedRow row, Leaves at, Types.NestedField field, int depth) {
    int i = at.indexOf(field.name());
    if (i < 0) {
      return null; // as a Struct without the field; the partitioner has refused such rows first
    }
    int leaf = at.firstLeaf[i];
    Leaves nested = at.nested[i];
    int nullAt = row.nullDepth(leaf);
    if (nested == null) {
      return nullAt >= 0 ? null : RecordRow.convert(field, row.value(leaf));
    }
    if (nullAt >= 0 && nullAt <= depth) {
      return null; // the struct itself (or one above it) is null
    }
    if (!field.type().isStructType()) {
      // The partitioner lets only rows through whose source columns are leaves here too.
      throw new IllegalStateException("column '" + field.name() + "' is a struct in the row");
    }
    return new Nested(field.type().asStructType(), row, nested, depth + 1);
  }

  /**
   * Where the leaves of a struct schema's fields are in a {@link StagedRow} of it: the first leaf
   * of each field, and the same for a struct-valued field's own fields. Made once per value schema.
   */
  static final class Leaves {
    private final List<Field> fields;
    private final int[] firstLeaf;
    private final Leaves[] nested;
    private final int leafCount;

    private Leaves(List<Field> fields, int[] firstLeaf, Leaves[] nested, int leafCount) {
      this.fields = fields;
      this.firstLeaf = firstLeaf;
      this.nested = nested;
      this.leafCount = leafCount;
    }

    /**
     * The leaves of {@code schema} starting at leaf {@code from}; null when it is not a struct of
     * structs and primitives with at least one leaf per struct (a row of anything else is not laid
     * out leaf by leaf).
     */
    static Leaves of(Schema schema, int from) {
      if (schema.type() != Schema.Type.STRUCT || schema.fields().isEmpty()) {
        return null;
      }
      List<Field> fields = schema.fields();
      int[] first = new int[fields.size()];
      Leaves[] nested = new Leaves[fields.size()];
      int next = from;
      for (int i = 0; i < fields.size(); i++) {
        Schema s = fields.get(i).schema();
        first[i] = next;
        switch (s.type()) {
          case STRUCT -> {
            nested[i] = of(s, next);
            if (nested[i] == null) {
              return null;
            }
            next += nested[i].leafCount;
          }
          case ARRAY, MAP -> {
            return null;
          }
          default -> next++;
        }
      }
      return new Leaves(fields, first, nested, next - from);
    }

    int leafCount() {
      return leafCount;
    }

    int indexOf(String name) {
      for (int i = 0; i < fields.size(); i++) {
        if (fields.get(i).name().equals(name)) {
          return i;
        }
      }
      return -1;
    }

    /**
     * Whether the column path {@code path} (its names from {@code at} on) names a leaf here,
     * through struct fields.
     */
    boolean hasLeaf(String[] path, int at) {
      int i = indexOf(path[at]);
      if (i < 0) {
        return false;
      }
      if (at == path.length - 1) {
        return nested[i] == null;
      }
      return nested[i] != null && nested[i].hasLeaf(path, at + 1);
    }
  }

  /** A struct-valued column of the staged row as a nested row. */
  private static final class Nested implements StructLike {
    private final List<Types.NestedField> fields;
    private final StagedRow row;
    private final Leaves leaves;
    private final int depth;

    Nested(Types.StructType type, StagedRow row, Leaves leaves, int depth) {
      this.fields = type.fields();
      this.row = row;
      this.leaves = leaves;
      this.depth = depth;
    }

    @Override
    public int size() {
      return fields.size();
    }

    @Override
    public <T> T get(int pos, Class<T> javaClass) {
      return javaClass.cast(member(row, leaves, fields.get(pos), depth));
    }

    @Override
    public <T> void set(int pos, T value) {
      throw new UnsupportedOperationException("a record row is read-only");
    }
  }
}
