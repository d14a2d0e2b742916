package dev.parquetconnect.connect;

import dev.parquetconnect.format.meta.PhysicalType;
import dev.parquetconnect.format.schema.PrimitiveNode;
import dev.parquetconnect.format.write.ColumnChunkWriter;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Date;
import org.apache.kafka.connect.data.Schema;

/**
 * A leaf: one column, converted by Connect kind. The common kinds have subclasses of their own, so
 * that the virtual call that reaches a leaf already picks its code: a record passes dozens of
 * leaves of changing kinds, and a switch on the kind behind that call was a second hard-to-predict
 * jump per value in each pass.
 */
class LeafShredder extends FieldShredder {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final ConnectTypes.Kind kind;
  final ColumnChunkWriter column;
  final Schema schema;
  private final DecimalLayout decimal;
  private final byte[] fixed;

  /** For TIMESTAMP: written in microseconds (else milliseconds). */
  private final boolean microsTimestamps;

  LeafShredder(
      ConnectTypes.Kind kind,
      PrimitiveNode leaf,
      Schema schema,
      ColumnChunkWriter column,
      boolean microsTimestamps) {
    this.kind = kind;
    this.microsTimestamps = microsTimestamps;
    this.column = column;
    this.schema = schema;
    this.decimal = kind == ConnectTypes.Kind.DECIMAL ? DecimalLayout.of(schema) : null;
    this.fixed =
        leaf.type() == PhysicalType.FIXED_LEN_BYTE_ARRAY ? new byte[leaf.typeLength()] : null;
  }

  @Override
  void check(Object v) {
    switch (kind) {
      case INT8 -> expect(v instanceof Byte, v);
      case INT16 -> expect(v instanceof Short, v);
      case INT32 -> expect(v instanceof Integer, v);
      case INT64 -> expect(v instanceof Long, v);
      case FLOAT32 -> expect(v instanceof Float, v);
      case FLOAT64 -> expect(v instanceof Double, v);
      case BOOLEAN -> expect(v instanceof Boolean, v);
      case STRING -> expect(v instanceof String, v);
      case BYTES -> expect(v instanceof byte[] || v instanceof ByteBuffer, v);
      case DECIMAL -> {
        expect(v instanceof BigDecimal, v);
        BigDecimal d = (BigDecimal) v;
        // The common case, the column's scale and not too many digits, allocates nothing.
        if (d.scale() != decimal.scale() || d.precision() > decimal.precision()) {
          StringBuilder problem = new StringBuilder();
          if (decimal.fit(d, problem) == null) {
            throw new BadValue(problem.toString());
          }
        }
      }
      case DATE -> {
        expect(v instanceof Date, v);
        long millis = ((Date) v).getTime();
        if (millis % MILLIS_PER_DAY != 0) {
          throw new BadValue("a Date must be midnight UTC, got epoch millisecond " + millis);
        }
        long days = millis / MILLIS_PER_DAY;
        if (days != (int) days) {
          throw new BadValue("the Date " + millis + " is out of the INT32 day range");
        }
      }
      case TIME -> {
        expect(v instanceof Date, v);
        long millis = ((Date) v).getTime();
        if (millis < 0 || millis >= MILLIS_PER_DAY) {
          throw new BadValue("a Time must be within one day, got millisecond " + millis);
        }
      }
      case TIMESTAMP -> {
        expect(v instanceof Date, v);
        long millis = ((Date) v).getTime();
        if (microsTimestamps
            && (millis > Long.MAX_VALUE / 1000 || millis < Long.MIN_VALUE / 1000)) {
          throw new BadValue("the Timestamp " + millis + " overflows in microseconds");
        }
      }
      default -> throw new IllegalStateException("no leaf kind " + kind);
    }
  }

  private void expect(boolean ok, Object v) {
    if (!ok) {
      throw BadValue.wrongClass(v, schema);
    }
  }

  @Override
  void write(Object v, int rep) {
    check(v); // the less common kinds: decimals, dates, times, timestamps, bytes, small ints
    switch (kind) {
      case INT8 -> column.writeInt((Byte) v, rep, def);
      case INT16 -> column.writeInt((Short) v, rep, def);
      case INT32 -> column.writeInt((Integer) v, rep, def);
      case INT64 -> column.writeLong((Long) v, rep, def);
      case FLOAT32 -> column.writeFloat((Float) v, rep, def);
      case FLOAT64 -> column.writeDouble((Double) v, rep, def);
      case BOOLEAN -> column.writeBoolean((Boolean) v, rep, def);
      case STRING -> column.writeString((String) v, rep, def);
      case BYTES -> writeBytes(v, rep);
      case DECIMAL -> writeDecimal((BigDecimal) v, rep);
      case DATE -> column.writeInt((int) (((Date) v).getTime() / MILLIS_PER_DAY), rep, def);
      case TIME -> column.writeInt((int) ((Date) v).getTime(), rep, def);
      case TIMESTAMP -> {
        long millis = ((Date) v).getTime();
        column.writeLong(microsTimestamps ? millis * 1000 : millis, rep, def);
      }
      default -> throw new IllegalStateException("no leaf kind " + kind);
    }
  }

  private void writeBytes(Object v, int rep) {
    if (v instanceof byte[] b) {
      column.writeBinary(b, 0, b.length, rep, def);
      return;
    }
    ByteBuffer buffer = (ByteBuffer) v;
    if (buffer.hasArray()) {
      column.writeBinary(
          buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining(), rep, def);
    } else {
      byte[] copy = new byte[buffer.remaining()];
      buffer.duplicate().get(copy);
      column.writeBinary(copy, 0, copy.length, rep, def);
    }
  }

  private void writeDecimal(BigDecimal v, int rep) {
    BigDecimal scaled = v.scale() == decimal.scale() ? v : decimal.fit(v, new StringBuilder());
    BigInteger unscaled = scaled.unscaledValue();
    switch (decimal.type()) {
      case INT32 -> column.writeInt(unscaled.intValue(), rep, def);
      case INT64 -> column.writeLong(unscaled.longValue(), rep, def);
      default -> {
        // Two's complement, big-endian, sign-extended to the column's fixed length.
        byte[] digits = unscaled.toByteArray();
        int pad = fixed.length - digits.length;
        byte sign = (byte) (unscaled.signum() < 0 ? -1 : 0);
        for (int i = 0; i < pad; i++) {
          fixed[i] = sign;
        }
        System.arraycopy(digits, 0, fixed, pad, digits.length);
        column.writeBinary(fixed, 0, fixed.length, rep, def);
      }
    }
  }
}
