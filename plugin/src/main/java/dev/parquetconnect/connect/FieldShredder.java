package dev.parquetconnect.connect;

import dev.parquetconnect.format.write.ColumnChunkWriter;
import org.apache.kafka.connect.data.Schema;

/**
 * One field of {@link ConnectRecordShredder}'s plan. {@code def} is the definition level of a
 * present value; a null is written at {@code def - 1} to every column beneath ({@code columns}).
 */
abstract class FieldShredder {
  // Set once by the compiler (init) when the node's columns are known, then only read.
  String name;
  boolean nullable;
  int def;
  Object defaultValue;

  /**
   * The one class a value of this node may have when that settles its check (a String, a boxed
   * number or a Boolean: final classes), else null; the check then needs no call.
   */
  Class<?> exactClass;

  ColumnChunkWriter[] columns;

  final void init(
      String name, Schema schema, boolean nullable, int def, ColumnChunkWriter[] columns) {
    this.name = name;
    this.nullable = nullable;
    this.def = def;
    this.defaultValue = schema == null ? null : schema.defaultValue();
    this.columns = columns;
  }

  /** Checks a non-null value. */
  abstract void check(Object value);

  /**
   * Writes a non-null value, {@code rep} the repetition level of its first entry; throws (a {@link
   * BadValue} or a {@link ClassCastException}) at a value that cannot be written, with what it has
   * written of the record left for the caller to discard.
   */
  abstract void write(Object value, int rep);

  /** Checks a field's value, which may be null (then its default applies, if any). */
  final void checkField(Object value) {
    Object v = value != null ? value : defaultValue;
    if (v == null) {
      if (!nullable) {
        throw new BadValue("null in a required field");
      }
    } else if (v.getClass() != exactClass) {
      check(v); // a value of any other class gets the node's check and its message
    }
  }

  final void writeField(Object value, int rep) {
    Object v = value != null ? value : defaultValue;
    if (v == null) {
      if (!nullable) {
        throw new BadValue("null in a required field");
      }
      writeNulls(rep, def - 1);
    } else {
      write(v, rep);
    }
  }

  final void writeNulls(int rep, int level) {
    for (ColumnChunkWriter c : columns) {
      c.writeNull(rep, level);
    }
  }
}
